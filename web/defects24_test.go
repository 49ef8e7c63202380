package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/registry"
)

// signedIn is an HTTP client signed in with tok.
func signedIn(t *testing.T, e *portalEnv, tok string) *http.Client {
	t.Helper()
	c := client(t)
	_, page, _ := fetch(t, c, "GET", e.srv.URL+"/login", nil)
	if code, _, _ := fetch(t, c, "POST", e.srv.URL+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {tok}}); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	return c
}

// TestRevokeConfirmationChecksFirst: the revoke confirmation page is shown
// only for a revocation that can be done; an unknown number or an empty
// reason comes back to the workspace, refused, the form as typed (issue 24).
func TestRevokeConfirmationChecksFirst(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	p := fixture.Player(t, e.reg, "110", "持证人", "", "1990-03-03", 12)
	a, err := e.cs.Apply(context.Background(), fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if a, err = e.cs.Approve(context.Background(), fixture.Agency("110"), "", a.ID); err != nil {
		t.Fatal(err)
	}
	_, staffTok := e.tokens(t)
	c := signedIn(t, e, staffTok)
	unknown := a.CertificateNumber[:5] + "9999"
	for _, tc := range []struct{ number, reason, refusal string }{
		{unknown, "冒名顶替", "没有编号为"},
		{a.CertificateNumber, "  ", "撤销证书须写明理由"},
		{"12345", "冒名顶替", "段位证书编号为 9 位数字"},
	} {
		code, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace/revoke/confirm?"+url.Values{"number": {tc.number}, "reason": {tc.reason}}.Encode(), nil)
		if code == http.StatusOK || strings.Contains(page, `data-testid="confirm-submit"`) {
			t.Errorf("%q/%q: a confirmation page (%d)", tc.number, tc.reason, code)
		}
		if !strings.Contains(page, tc.refusal) {
			t.Errorf("%q/%q: the refusal lacks %q", tc.number, tc.reason, tc.refusal)
		}
		if !strings.Contains(page, `value="`+tc.number+`" data-testid="revoke-number"`) {
			t.Errorf("%q/%q: the number typed is lost", tc.number, tc.reason)
		}
	}
	code, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace/revoke/confirm?"+url.Values{"number": {a.CertificateNumber}, "reason": {"冒名顶替"}}.Encode(), nil)
	if code != http.StatusOK || !strings.Contains(page, `data-testid="confirm-submit"`) || !strings.Contains(page, "持证人") {
		t.Fatalf("a revocation that can be done: %d, no confirmation page naming the holder", code)
	}
}

// TestAppraiserRevokeWording: withdrawing an appraiser's approval is not
// worded as revoking a certificate (issue 24).
func TestAppraiserRevokeWording(t *testing.T) {
	e := newPortalEnv(t)
	ctx := context.Background()
	ap, err := e.cs.RecommendAppraiser(ctx, fixture.Agency("110"), "", certs.AppraiserInput{Name: "评定员", Qualification: "国家级裁判"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.SetAppraiserStatus(ctx, fixture.Staff, "", ap.ID, certs.AppraiserApproved); err != nil {
		t.Fatal(err)
	}
	_, staffTok := e.tokens(t)
	_, page, _ := fetch(t, signedIn(t, e, staffTok), "GET", e.srv.URL+"/workspace", nil)
	i := strings.Index(page, `data-testid="appraiser-revoke">`)
	if i < 0 {
		t.Fatal("no button to withdraw the appraiser's approval")
	}
	if got := page[i+len(`data-testid="appraiser-revoke">`):][:len("撤销资格")]; got != "撤销资格" {
		t.Fatalf("the appraiser's button reads %q", got)
	}
}

// TestSuspensionBanner: a suspended agency's pages say so at the top
// (issue 24: its workspace looked as usual).
func TestSuspensionBanner(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	c := signedIn(t, e, agencyTok)
	if _, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace", nil); strings.Contains(page, "suspension-banner") {
		t.Fatal("a banner before the suspension")
	}
	if _, err := e.reg.SetAgencyStatus(context.Background(), fixture.Staff, "", "110", registry.AgencySuspended, "年审未通过"); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/workspace", "/workspace/players", "/"} {
		if _, page, _ := fetch(t, c, "GET", e.srv.URL+path, nil); !strings.Contains(page, `data-testid="suspension-banner">本机构已被暂停`) {
			t.Errorf("%s: no suspension banner", path)
		}
	}
}

// TestNamesOfThingsAreNotPeoplesNames: the agency's and the tournament's
// name fields read 名称, not 姓名 (a person's name) (issue 24).
func TestNamesOfThingsAreNotPeoplesNames(t *testing.T) {
	e := newPortalEnv(t)
	_, staffTok := e.tokens(t)
	c := signedIn(t, e, staffTok)
	for path, field := range map[string]string{"/workspace/agencies": `data-testid="agency-name"`, "/workspace": `data-testid="t-name"`} {
		_, page, _ := fetch(t, c, "GET", e.srv.URL+path, nil)
		i := strings.Index(page, field)
		if i < 0 {
			t.Fatalf("%s: no field %s", path, field)
		}
		label := page[strings.LastIndex(page[:i], "<label>"):i]
		if !strings.Contains(label, "名称") || strings.Contains(label, "姓名") {
			t.Errorf("%s: the field is labelled %q", path, label)
		}
	}
}
