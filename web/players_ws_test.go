package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/registry"
)

// TestRegisterAndEditPlayers: an agency registers a player on the portal; a
// refused form comes back as typed with the refusal beside its field; the
// player is found by name and changed; the workspace is headed by the
// agency's name.
func TestRegisterAndEditPlayers(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	c := client(t)
	e.signIn(t, c, agencyTok)
	u := e.srv.URL
	post := func(path string, form url.Values) (int, string, http.Header) {
		_, page, _ := fetch(t, c, "GET", u+"/workspace/players/new", nil)
		form.Set("csrf", csrfOf(t, page))
		return fetch(t, c, "POST", u+path, form)
	}
	good := url.Values{"name": {"张三"}, "gender": {"F"}, "birth_date": {"1990-05-01"}, "nationality": {"CN"},
		"identity_kind": {"resident_id"}, "identity_number": {"110105199005010026"}, "province_code": {"11"}, "rank": {"2d"}}
	with := func(k, v string) url.Values {
		f := url.Values{}
		for kk, vv := range good {
			f[kk] = vv
		}
		f.Set(k, v)
		return f
	}
	tests := []struct {
		name  string
		form  url.Values
		code  int
		field string // the field whose refusal is shown
		kept  string // a typed value shown again
	}{
		{"bad check character", with("identity_number", "110105199005010027"), 400, "identity_number", `value="110105199005010027"`},
		{"birth date not in the number", with("birth_date", "1990-05-02"), 400, "identity_number", `value="1990-05-02"`},
		{"no date", with("birth_date", "五月"), 400, "birth_date", `value="张三"`},
		{"declared 4 dan", with("rank", "4d"), 409, "rank", `value="110105199005010026"`},
		{"no name", with("name", ""), 400, "name", `value="1990-05-01"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body, _ := post("/workspace/players", tt.form)
			if code != tt.code {
				t.Fatalf("POST = %d, want %d", code, tt.code)
			}
			if !strings.Contains(body, `data-testid="field-error-`+tt.field+`"`) {
				t.Errorf("no refusal beside %s: %.400s", tt.field, body[strings.Index(body, "<main>"):])
			}
			if !strings.Contains(body, tt.kept) {
				t.Errorf("the form lost %s", tt.kept)
			}
		})
	}
	code, _, h := post("/workspace/players", good)
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "ok=player_registered") {
		t.Fatalf("register: %d %s", code, h.Get("Location"))
	}
	id := regexp.MustCompile(`id=(\d+)`).FindStringSubmatch(h.Get("Location"))[1]
	_, list, _ := fetch(t, c, "GET", u+"/workspace/players?name=张", nil)
	if !strings.Contains(list, "张三") || !strings.Contains(list, "/workspace/players/"+id+"/edit") || strings.Contains(list, "王小明") {
		t.Errorf("search by name: %s", list)
	}
	_, edit, _ := fetch(t, c, "GET", u+"/workspace/players/"+id+"/edit", nil)
	if !strings.Contains(edit, `value="110105199005010026"`) || !strings.Contains(edit, `value="2d" selected`) {
		t.Errorf("edit form not filled in")
	}
	code, _, _ = post("/workspace/players/"+id, with("name", "张三丰"))
	if code != http.StatusSeeOther {
		t.Fatalf("update: %d", code)
	}
	var pid int64
	fmt.Sscan(id, &pid)
	if p, err := e.reg.GetPlayer(t.Context(), pid); err != nil || p.Name != "张三丰" || p.DeclaredRank != registry.Rank(2) {
		t.Errorf("after the change: %+v %v", p, err)
	}
	// the edit form states the Latin name and the EGD PIN: the pinyin is
	// the placeholder; a Chinese "Latin" name is refused beside its field
	_, edit, _ = fetch(t, c, "GET", u+"/workspace/players/"+id+"/edit", nil)
	if !strings.Contains(edit, `placeholder="Zhang Sanfeng"`) {
		t.Errorf("the edit form does not show the pinyin")
	}
	code, body, _ := post("/workspace/players/"+id, merge(with("name", "张三丰"), url.Values{"latin_name": {"张 三丰"}}))
	if code != http.StatusBadRequest || !strings.Contains(body, `data-testid="field-error-latin_name"`) {
		t.Fatalf("a Chinese Latin name: %d", code)
	}
	code, _, _ = post("/workspace/players/"+id, merge(with("name", "张三丰"), url.Values{"latin_name": {"Cheung Sam-fung"}, "egd_pin": {"13513786"}}))
	if code != http.StatusSeeOther {
		t.Fatalf("Latin name and PIN: %d", code)
	}
	if p, err := e.reg.GetPlayer(t.Context(), pid); err != nil || p.LatinName != "Cheung Sam-fung" || p.ExternalIDs["egd"] != "13513786" {
		t.Errorf("after stating the Latin name and PIN: %+v %v", p, err)
	}
	_, ws, _ := fetch(t, c, "GET", u+"/workspace", nil)
	if !strings.Contains(ws, "北京棋院") || strings.Contains(ws, "agency:110") {
		t.Errorf("the workspace is not headed by the agency's name")
	}
}

// TestApplyByName: the application picks the player from the agency's
// players found by name, no number typed; a refusal keeps the pick.
func TestApplyByName(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	agencyTok, _ := e.tokens(t)
	c := client(t)
	e.signIn(t, c, agencyTok)
	u := e.srv.URL
	id := fmt.Sprint(e.player.ID)
	_, page, _ := fetch(t, c, "GET", u+"/workspace/apply?name="+url.QueryEscape("小明"), nil)
	if !strings.Contains(page, `data-testid="apply-pick-`+id+`"`) || !strings.Contains(page, "王小明") {
		t.Fatalf("no candidate: %s", page)
	}
	_, none, _ := fetch(t, c, "GET", u+"/workspace/apply?name="+url.QueryEscape("无此人"), nil)
	if !strings.Contains(none, `data-testid="apply-no-player"`) {
		t.Errorf("no 'nobody found'")
	}
	form := url.Values{"csrf": {csrfOf(t, page)}, "name": {"小明"}, "target_rank": {"9d"}, "basis": {"tournament"},
		"event_id": {fmt.Sprint(fixture.Earned(t, e.ts, "1d", e.player.ID))}}
	code, body, _ := fetch(t, c, "POST", u+"/workspace/applications", form)
	if code != http.StatusBadRequest || !strings.Contains(body, `data-testid="field-error-player_id"`) {
		t.Errorf("no pick: %d", code)
	}
	form.Set("player_id", id)
	code, body, _ = fetch(t, c, "POST", u+"/workspace/applications", form)
	if code != http.StatusBadRequest || !strings.Contains(body, `data-testid="field-error-target_rank"`) || !strings.Contains(body, `value="9d"`) ||
		!regexp.MustCompile(`value="`+id+`"[^>]*checked`).MatchString(body) {
		t.Errorf("bad rank: %d %s", code, body)
	}
	form.Set("target_rank", "1d")
	if code, _, h := fetch(t, c, "POST", u+"/workspace/applications", form); code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "ok=applied") {
		t.Errorf("apply: %d %s", code, h.Get("Location"))
	}
}
