package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/registry"
)

// TestIdentityChangeOnThePortal: the agency's change of a birth date is
// saved as a notice that it waits for the association (not an error), the
// edit form says so, the queue masks the numbers and lets only staff
// decide; staff's approval changes the record. Both languages.
func TestIdentityChangeOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, staffTok := e.tokens(t)
	e.clock.Advance(48 * time.Hour) // not the day of registration
	ag, st := client(t), client(t)
	e.signIn(t, ag, agencyTok)
	e.signIn(t, st, staffTok)
	u := e.srv.URL
	id := e.player.ID
	edit := u + "/workspace/players/" + strconv.FormatInt(id, 10)
	newNumber := fixture.ResidentID("110", "1950-12-31", 2)
	form := func(c *http.Client, reason string) url.Values {
		_, page, _ := fetch(t, c, "GET", edit+"/edit", nil)
		return url.Values{"csrf": {csrfOf(t, page)}, "name": {"王小明"}, "gender": {"M"}, "birth_date": {"1950-12-31"}, "nationality": {"CN"},
			"identity_kind": {"resident_id"}, "identity_number": {newNumber}, "province_code": {"11"}, "rank": {"3d"}, "change_reason": {reason}}
	}
	code, body, _ := fetch(t, ag, "POST", edit, form(ag, ""))
	if code != http.StatusBadRequest || !strings.Contains(body, `data-testid="field-error-change_reason"`) || !strings.Contains(body, newNumber) {
		t.Fatalf("no reason: %d, want the form again with the refusal beside the reason", code)
	}
	code, _, h := fetch(t, ag, "POST", edit, form(ag, "登记时录入错误"))
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "ok=identity_change_held") {
		t.Fatalf("held: %d %s", code, h.Get("Location"))
	}
	for _, tt := range []struct {
		lang, want string
	}{{"zh-CN", "须经中国围棋协会审核"}, {"en", "waits for the association&#39;s approval"}} {
		_, list, _ := fetch(t, ag, "GET", u+h.Get("Location")+"&lang="+tt.lang, nil)
		if !strings.Contains(list, `class="ok" role="status" data-testid="ok"`) || !strings.Contains(list, tt.want) || strings.Contains(list, `role="alert"`) {
			t.Errorf("%s: the notice: %s", tt.lang, list[strings.Index(list, "<main>"):])
		}
	}
	if p, _ := e.reg.GetPlayer(t.Context(), id); p.BirthDate.Format(time.DateOnly) != "1949-12-31" {
		t.Fatalf("the birth date changed at once: %s", p.BirthDate)
	}
	_, page, _ := fetch(t, ag, "GET", edit+"/edit", nil)
	if !strings.Contains(page, `data-testid="identity-pending"`) {
		t.Errorf("the edit form does not say a change waits")
	}

	queue := u + "/workspace/identity-changes"
	_, mine, _ := fetch(t, ag, "GET", queue, nil)
	if !strings.Contains(mine, `data-testid="identity-change"`) || strings.Contains(mine, "identity-approve-form") || strings.Contains(mine, newNumber) {
		t.Errorf("the agency's queue: %s", mine[strings.Index(mine, "<main>"):])
	}
	_, staffQueue, _ := fetch(t, st, "GET", queue+"?lang=en", nil)
	if !strings.Contains(staffQueue, "Changes of birth date and identity") || !strings.Contains(staffQueue, `data-testid="identity-approve-form"`) ||
		strings.Contains(staffQueue, newNumber) || !strings.Contains(staffQueue, registry.MaskIdentity(newNumber)) {
		t.Fatalf("the staff's queue: %s", staffQueue[strings.Index(staffQueue, "<main>"):])
	}
	var changeID string
	if i := strings.Index(staffQueue, "/workspace/identity-changes/"); i >= 0 {
		changeID = strings.SplitN(staffQueue[i+len("/workspace/identity-changes/"):], "/", 2)[0]
	}
	code, _, _ = fetch(t, ag, "POST", queue+"/"+changeID+"/approve", url.Values{"csrf": {csrfOf(t, mine)}})
	if code != http.StatusForbidden {
		t.Errorf("the agency approving: %d, want 403", code)
	}
	code, _, h = fetch(t, st, "POST", queue+"/"+changeID+"/approve", url.Values{"csrf": {csrfOf(t, staffQueue)}})
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "ok=identity_approved") {
		t.Fatalf("staff approving: %d %s", code, h.Get("Location"))
	}
	if p, _ := e.reg.GetPlayer(t.Context(), id); p.BirthDate.Format(time.DateOnly) != "1950-12-31" || p.IDNumber != newNumber {
		t.Fatalf("after the approval: %s %s", p.BirthDate, p.IDNumber)
	}
	_, done, _ := fetch(t, st, "GET", queue+"?lang=zh-CN", nil)
	if !strings.Contains(done, `data-testid="identity-decided"`) || !strings.Contains(done, "已批准") {
		t.Errorf("the decided change is not listed: %s", done[strings.Index(done, "<main>"):])
	}
}
