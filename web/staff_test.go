package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/registry"
)

// TestStaffManageAgenciesAndTokens: staff create an agency (a refused form
// is kept as typed), make a token for it, shown once, that signs in;
// suspending the agency and revoking the token go through a confirmation
// page, and a post without the confirmation only leads to it.
func TestStaffManageAgenciesAndTokens(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, staffTok := e.tokens(t)
	ctx := context.Background()
	u := e.srv.URL
	staff := client(t)
	e.signIn(t, staff, staffTok)
	csrf := func() string {
		_, page, _ := fetch(t, staff, "GET", u+"/workspace/agencies", nil)
		return csrfOf(t, page)
	}

	// an agency may not open the staff's pages
	agency := client(t)
	e.signIn(t, agency, agencyTok)
	for _, path := range []string{"/workspace/agencies", "/workspace/tokens"} {
		if code, _, _ := fetch(t, agency, "GET", u+path, nil); code != http.StatusForbidden {
			t.Errorf("agency GET %s = %d, want 403", path, code)
		}
	}

	code, body, _ := fetch(t, staff, "POST", u+"/workspace/agencies", url.Values{"csrf": {csrf()}, "prefix": {"310"}, "contact": {"021-1234"}})
	if code != http.StatusBadRequest || !strings.Contains(body, `data-testid="field-error-name"`) || !strings.Contains(body, `value="021-1234"`) ||
		!strings.Contains(body, `value="310" selected`) {
		t.Errorf("agency without a name: %d", code)
	}
	code, _, h := fetch(t, staff, "POST", u+"/workspace/agencies", url.Values{"csrf": {csrf()}, "prefix": {"310"}, "name": {"上海市棋院"}, "contact": {"021-1234"}})
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "ok=agency_created") {
		t.Fatalf("create agency: %d %s", code, h.Get("Location"))
	}
	if a, err := e.reg.GetAgency(ctx, "310"); err != nil || a.Name != "上海市棋院" {
		t.Fatalf("agency 310: %+v %v", a, err)
	}

	// a token for it, shown once, not kept on any later page
	code, body, h = fetch(t, staff, "POST", u+"/workspace/tokens", url.Values{"csrf": {csrf()}, "kind": {"agency"}, "agency": {"310"}})
	m := regexp.MustCompile(`data-testid="new-token">(dk_[^<]+)<`).FindStringSubmatch(body)
	if code != http.StatusOK || m == nil || h.Get("Cache-Control") != "no-store" || !strings.Contains(body, "上海市棋院") {
		t.Fatalf("create token: %d %s", code, body)
	}
	shTok := m[1]
	if _, later, _ := fetch(t, staff, "GET", u+"/workspace/tokens", nil); strings.Contains(later, shTok) {
		t.Error("the token is shown again")
	}
	sh := client(t)
	e.signIn(t, sh, shTok)
	if _, ws, _ := fetch(t, sh, "GET", u+"/workspace", nil); !strings.Contains(ws, "上海市棋院") {
		t.Error("the new token does not sign in as 上海市棋院")
	}

	// suspending: a post without confirm leads to the confirmation page and changes nothing
	suspend := u + "/workspace/agencies/310/suspend"
	code, _, h = fetch(t, staff, "POST", suspend, url.Values{"csrf": {csrf()}, "reason": {"年审未通过"}})
	if code != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/workspace/agencies/310/suspend/confirm?") {
		t.Fatalf("unconfirmed suspension: %d %s", code, h.Get("Location"))
	}
	if a, _ := e.reg.GetAgency(ctx, "310"); a.Status != registry.AgencyActive {
		t.Fatal("suspended without confirmation")
	}
	_, confirm, _ := fetch(t, staff, "GET", u+h.Get("Location"), nil)
	if !strings.Contains(confirm, "请确认：暂停代理机构") || !strings.Contains(confirm, "年审未通过") || !strings.Contains(confirm, `<span lang="zh-CN">上海市棋院</span>`) || !strings.Contains(confirm, `name="confirm" value="yes"`) {
		t.Fatalf("confirmation page: %s", confirm)
	}
	code, _, h = fetch(t, staff, "POST", suspend, url.Values{"csrf": {csrfOf(t, confirm)}, "reason": {"年审未通过"}, "confirm": {"yes"}})
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "ok=agency_suspended") {
		t.Fatalf("confirmed suspension: %d %s", code, h.Get("Location"))
	}
	if a, _ := e.reg.GetAgency(ctx, "310"); a.Status != registry.AgencySuspended {
		t.Fatal("not suspended")
	}
	code, _, _ = fetch(t, staff, "POST", u+"/workspace/agencies/310/reactivate", url.Values{"csrf": {csrf()}})
	if a, _ := e.reg.GetAgency(ctx, "310"); code != http.StatusSeeOther || a.Status != registry.AgencyActive {
		t.Fatalf("reactivate: %d %s", code, a.Status)
	}

	// revoking the token, after its confirmation page
	ts, _ := e.reg.ListTokens(ctx)
	var id string
	for _, tk := range ts {
		if tk.Agency == "310" {
			id = strconv.FormatInt(tk.ID, 10)
		}
	}
	_, confirm, _ = fetch(t, staff, "GET", u+"/workspace/tokens/"+id+"/revoke/confirm", nil)
	if !strings.Contains(confirm, "请确认：吊销访问令牌") {
		t.Fatalf("token confirmation: %s", confirm)
	}
	code, _, _ = fetch(t, staff, "POST", u+"/workspace/tokens/"+id+"/revoke", url.Values{"csrf": {csrfOf(t, confirm)}, "confirm": {"yes"}})
	if code != http.StatusSeeOther {
		t.Fatalf("revoke token: %d", code)
	}
	if _, err := e.reg.Authenticate(ctx, shTok); err == nil {
		t.Error("the revoked token still authenticates")
	}
}

// TestRevokeAndReissueOnThePortal: revoking goes through a confirmation
// page; reissuing gives a new number and opens it to print.
func TestRevokeAndReissueOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	_, staffTok := e.tokens(t)
	c1 := e.issueOneDan(t, e.player.ID)
	u := e.srv.URL
	staff := client(t)
	e.signIn(t, staff, staffTok)
	_, page, _ := fetch(t, staff, "GET", u+"/workspace/reissue", nil)
	code, _, h := fetch(t, staff, "POST", u+"/workspace/reissue", url.Values{"csrf": {csrfOf(t, page)}, "number": {c1.Number}, "reason": {"遗失"}})
	if code != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/certificates/") {
		t.Fatalf("reissue: %d %s", code, h.Get("Location"))
	}
	newNumber := strings.TrimPrefix(strings.SplitN(h.Get("Location"), "?", 2)[0], "/certificates/")
	if v, err := e.cs.Verify(t.Context(), c1.Number); err != nil || v.Certificate.ReplacedBy != newNumber {
		t.Fatalf("old certificate after reissue: %+v %v", v, err)
	}
	_, page, _ = fetch(t, staff, "GET", u+"/workspace/reissue", nil) // the first post used its token up
	code, body, _ := fetch(t, staff, "POST", u+"/workspace/reissue", url.Values{"csrf": {csrfOf(t, page)}, "number": {"12"}, "reason": {"遗失"}})
	if code != http.StatusBadRequest || !strings.Contains(body, `value="遗失"`) || !strings.Contains(body, `data-testid="form-error"`) {
		t.Errorf("bad number: %d", code)
	}

	code, _, h = fetch(t, staff, "POST", u+"/workspace/revoke", url.Values{"csrf": {csrfOf(t, page)}, "number": {newNumber}, "reason": {"冒名顶替"}})
	if code != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/workspace/revoke/confirm?") {
		t.Fatalf("unconfirmed revocation: %d %s", code, h.Get("Location"))
	}
	_, confirm, _ := fetch(t, staff, "GET", u+h.Get("Location"), nil)
	if !strings.Contains(confirm, newNumber) || !strings.Contains(confirm, "冒名顶替") || !strings.Contains(confirm, "王小明 · 1段") {
		t.Fatalf("revocation confirmation: %s", confirm)
	}
	if v, _ := e.cs.Verify(t.Context(), newNumber); v.Certificate.Status != "valid" {
		t.Fatal("revoked without confirmation")
	}
	code, _, _ = fetch(t, staff, "POST", u+"/workspace/revoke", url.Values{"csrf": {csrfOf(t, confirm)}, "number": {newNumber}, "reason": {"冒名顶替"}, "confirm": {"yes"}})
	if v, _ := e.cs.Verify(t.Context(), newNumber); code != http.StatusSeeOther || v.Certificate.Status != "revoked" {
		t.Fatalf("confirmed revocation: %d %s", code, v.Certificate.Status)
	}
}
