package web_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// TestAppraisalSessionForm: a clerk records an appraisal on the portal;
// each refusal stands beside its field in the page's language and keeps
// what was typed; a session recorded is listed, backs an application by
// its number, and once its 4 dan is on notice the notice links to its
// public page, which shows the appraiser, the date, the games with their
// records and the verdict, but no identity number or birth date.
func TestAppraisalSessionForm(t *testing.T) {
	e := newPortalEnv(t)
	ctx := context.Background()
	bj := fixture.Agency("110")
	agencyTok, _ := e.tokens(t)
	now := e.clock.Now()
	fixture.StockThrough(t, e.cs, "110", now, now.Add(30*24*time.Hour), 10, 10)
	ap := fixture.Appraiser(t, e.cs, "110", "聂老师")
	cand := fixture.Player(t, e.reg, "110", "候选棋手", "3d", "1980-03-04", 7)
	today := now.In(ledger.ChinaTime).Format(time.DateOnly)
	c := client(t)
	u := e.srv.URL
	post := func(lang, path string, form url.Values) (int, string, http.Header) {
		_, page, _ := fetch(t, c, "GET", u+"/login"+lang, nil)
		if code, _, _ := fetch(t, c, "POST", u+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {agencyTok}}); code != http.StatusSeeOther {
			t.Fatalf("login: %d", code)
		}
		_, page, _ = fetch(t, c, "GET", u+"/workspace/appraisals", nil)
		form.Set("csrf", csrfOf(t, page))
		return fetch(t, c, "POST", u+path, form)
	}
	form := func(edit func(url.Values)) url.Values {
		f := url.Values{"player_id": {fmt.Sprint(cand.ID)}, "appraiser_id": {fmt.Sprint(ap.ID)}, "held_on": {today}, "verdict": {"4d"},
			"colour_1": {"black"}, "result_1": {"win"}, "sgf_1": {fixture.AppraisalRecord("B+R")},
			"opponent_2": {"陪练"}, "colour_2": {"white"}, "result_2": {"loss"}}
		if edit != nil {
			edit(f)
		}
		return f
	}
	for _, tt := range []struct {
		name, lang string
		form       url.Values
		code       int
		field      string
		want       string
	}{
		{"a date in the future", "", form(func(f url.Values) { f.Set("held_on", "2999-01-01") }), http.StatusBadRequest, "held_on", "鉴定日期“2999-01-01”无效"},
		{"no record", "", form(func(f url.Values) { f.Del("sgf_1") }), http.StatusBadRequest, "sgf", "至少一局须附棋谱"},
		{"a record the rules refuse", "", form(func(f url.Values) { f.Set("sgf_1", "(;SZ[19];B[dd]") }), http.StatusBadRequest, "sgf", "第 1 局的棋谱无法采用"},
		{"a verdict of 6 dan", "?lang=en", form(func(f url.Values) { f.Set("verdict", "6d") }), http.StatusBadRequest, "verdict", "verdict 6d is not a rank"},
		{"the record's result not the one given", "?lang=en", form(func(f url.Values) { f.Set("result_1", "loss") }), http.StatusBadRequest, "result",
			"game 1: the record's result B+R is not the one given"},
		{"recorded", "", form(nil), http.StatusSeeOther, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, body, _ := post(tt.lang, "/workspace/appraisals", tt.form)
			if code != tt.code {
				t.Fatalf("status %d, want %d: %s", code, tt.code, body)
			}
			if tt.field == "" {
				return
			}
			body = html.UnescapeString(body)
			i := strings.Index(body, `data-testid="field-error-`+tt.field+`"`)
			if i < 0 || !strings.Contains(body[i:], tt.want) {
				t.Fatalf("no %q beside %s in the page", tt.want, tt.field)
			}
			if !strings.Contains(body, `value="`+tt.form.Get("verdict")+`"`) {
				t.Fatal("the form lost what was typed")
			}
		})
	}
	ss, err := e.cs.ListAppraisals(ctx, bj, "", 0)
	if err != nil || len(ss) != 1 || ss[0].PlayerID != cand.ID || ss[0].Verdict != 4 || len(ss[0].Games) != 0 {
		t.Fatalf("sessions = %+v, %v", ss, err)
	}
	s := ss[0]
	_, page, _ := fetch(t, c, "GET", u+"/workspace/appraisals", nil)
	if !strings.Contains(page, fmt.Sprintf(`data-testid="appraisal-%d"`, s.ID)) {
		t.Fatal("the session is not listed")
	}
	// the application names the session on the form
	code, body, _ := post("", "/workspace/applications", url.Values{"player_id": {fmt.Sprint(cand.ID)}, "target_rank": {"4d"}, "basis": {"appraisal"},
		"appraisal_session_id": {fmt.Sprint(s.ID)}})
	if code != http.StatusSeeOther {
		t.Fatalf("apply on the session: %d %s", code, body)
	}
	apps, err := e.cs.ListApplications(ctx, bj, certs.ApplicationQuery{})
	if err != nil || len(apps) != 1 || apps[0].AppraisalSessionID != s.ID || apps[0].AppraiserID != ap.ID {
		t.Fatalf("applications = %+v, %v", apps, err)
	}
	if code, _ := get(t, fmt.Sprintf("%s/appraisals/%d", u, s.ID)); code != http.StatusNotFound {
		t.Fatalf("the public page before the notice: %d", code)
	}
	a, err := e.cs.Approve(ctx, bj, "", apps[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	code, notice := get(t, fmt.Sprintf("%s/notices/%d", u, a.NoticeID))
	link := fmt.Sprintf(`href="/appraisals/%d"`, s.ID)
	if code != http.StatusOK || !strings.Contains(notice, link) {
		t.Fatalf("the notice does not link to its appraisal (%d)", code)
	}
	code, public := get(t, fmt.Sprintf("%s/appraisals/%d", u, s.ID))
	for _, want := range []string{"聂老师", today, "4段", "陪练", fmt.Sprintf("/appraisals/%d/games/1.sgf", s.ID), "40"} {
		if code != http.StatusOK || !strings.Contains(public, want) {
			t.Fatalf("the public page (%d) has no %q", code, want)
		}
	}
	for _, hidden := range []string{cand.IDNumber, "1980-03-04"} {
		if strings.Contains(public, hidden) {
			t.Fatalf("the public page shows %q", hidden)
		}
	}
	code, sgf := get(t, fmt.Sprintf("%s/appraisals/%d/games/1.sgf", u, s.ID))
	if code != http.StatusOK || !strings.HasPrefix(sgf, "(;GM[1]") {
		t.Fatalf("the record: %d %.40q", code, sgf)
	}
	if code, _ := get(t, fmt.Sprintf("%s/appraisals/%d/games/2.sgf", u, s.ID)); code != http.StatusNotFound {
		t.Fatalf("a game without a record: %d", code)
	}
	// withdrawn with a reason from the list
	code, body, _ = post("", fmt.Sprintf("/workspace/appraisals/%d/withdraw", s.ID), url.Values{"reason": {"对局系补录"}, "idem": {"w1"}})
	if code != http.StatusSeeOther {
		t.Fatalf("withdraw: %d %s", code, body)
	}
	if _, public = get(t, fmt.Sprintf("%s/appraisals/%d", u, s.ID)); !strings.Contains(public, "已撤回") || !strings.Contains(public, "对局系补录") {
		t.Fatal("the public page does not say the session was withdrawn")
	}
}
