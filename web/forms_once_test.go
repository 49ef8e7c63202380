package web_test

import (
	"context"
	"crypto/sha256"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/web"
)

// TestFormTokenUsedOnce (issue 31, finding 9): a form token is used up by
// the state-changing post that carries it. Replayed with other content, it
// is refused with a clear form error (409), the page shown again with what
// was typed and a fresh token, and nothing done — on a second portal over
// the same database too (the claims are in PostgreSQL); the same post sent
// again (a double click: same token, same idempotency key) is answered with
// where the first led, nothing done twice; a refused post gives its token
// back, so the corrected form goes through.
func TestFormTokenUsedOnce(t *testing.T) {
	e := newPortalEnv(t)
	_, staffTok := e.tokens(t)
	c := client(t)
	e.signIn(t, c, staffTok)
	u := e.srv.URL
	_, page, _ := fetch(t, c, "GET", u+"/workspace/agencies", nil)
	tok := csrfOf(t, page)

	// refused (no name): the token comes back
	code, _, _ := fetch(t, c, "POST", u+"/workspace/agencies", url.Values{"csrf": {tok}, "idem": {"a1"}, "prefix": {"310"}, "contact": {"021"}})
	if code != http.StatusBadRequest {
		t.Fatalf("agency without a name: %d, want 400", code)
	}
	first := url.Values{"csrf": {tok}, "idem": {"a1"}, "prefix": {"310"}, "name": {"上海市棋院"}, "contact": {"021"}}
	code, _, hdr := fetch(t, c, "POST", u+"/workspace/agencies", first)
	if code != http.StatusSeeOther {
		t.Fatalf("create agency: %d", code)
	}
	to := hdr.Get("Location")

	// the same post again: where the first led, nothing done twice
	code, _, hdr = fetch(t, c, "POST", u+"/workspace/agencies", first)
	if code != http.StatusSeeOther || hdr.Get("Location") != to {
		t.Fatalf("the same post again: %d %q, want 303 to %q", code, hdr.Get("Location"), to)
	}

	// replayed with other content: refused, the form as typed, a fresh token
	replay := url.Values{"csrf": {tok}, "idem": {"a2"}, "prefix": {"320"}, "name": {"江苏省棋院"}, "contact": {"025-7777"}}
	code, page, _ = fetch(t, c, "POST", u+"/workspace/agencies", replay)
	if code != http.StatusConflict || !strings.Contains(page, "此表单已经提交过") || !strings.Contains(page, "025-7777") {
		t.Fatalf("a replayed token: %d, want 409 saying the form was sent, the form kept\n%.1500s", code, page)
	}
	if fresh := csrfOf(t, page); fresh == tok {
		t.Fatal("the refusal's page carries the used token")
	}
	// no idempotency key at all: refused too
	replay.Del("idem")
	if code, _, _ := fetch(t, c, "POST", u+"/workspace/agencies", replay); code != http.StatusConflict {
		t.Fatalf("a replay without a key: %d, want 409", code)
	}

	// another server process over the same database refuses it alike
	other, err := web.New(context.Background(), e.store, e.reg, e.cs, e.ts, slog.New(slog.DiscardHandler), web.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv2 := httptest.NewServer(other)
	defer srv2.Close()
	c2 := client(t)
	u1, _ := url.Parse(u)
	u2, _ := url.Parse(srv2.URL)
	c2.Jar.SetCookies(u2, c.Jar.Cookies(u1))
	replay.Set("idem", "a3")
	if code, _, _ := fetch(t, c2, "POST", srv2.URL+"/workspace/agencies", replay); code != http.StatusConflict {
		t.Fatalf("the replay on another portal: %d, want 409", code)
	}
	if _, err := e.reg.GetAgency(context.Background(), "320"); err == nil {
		t.Fatal("a replayed token created agency 320")
	}

	// a fresh page's token goes through
	_, page, _ = fetch(t, c2, "GET", srv2.URL+"/workspace/agencies", nil)
	replay.Set("csrf", csrfOf(t, page))
	if code, _, _ := fetch(t, c2, "POST", srv2.URL+"/workspace/agencies", replay); code != http.StatusSeeOther {
		t.Fatalf("a fresh token: %d", code)
	}
}

// TestLogoutWithoutTheFormToken (issue 31, finding 9): a sign-out post
// without a valid form token (a page left open past the expiry, a token
// used already, a post without one) answers a page with a sign-out button,
// never silently nothing, and signs nobody out; GET /logout answers the
// same page; its button signs out.
func TestLogoutWithoutTheFormToken(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	c := client(t)
	sid := e.signIn(t, c, agencyTok)
	u := e.srv.URL
	signedIn := func() bool {
		code, _, _ := fetch(t, e.withSession(t, sid), "GET", u+"/workspace", nil)
		return code == http.StatusOK
	}
	// a token another form of the page used already
	_, page, _ := fetch(t, c, "GET", u+"/workspace", nil)
	used := csrfOf(t, page)
	sum := sha256.Sum256([]byte(used))
	if _, err := e.store.ClaimFormToken(context.Background(), sum[:], "o1", e.clock.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		form url.Values
	}{
		{"no token", url.Values{}},
		{"a used token", url.Values{"csrf": {used}}},
		{"a forged token", url.Values{"csrf": {"1.aa.bb"}}},
		{"a GET", nil},
	} {
		method := "POST"
		if tt.form == nil {
			method = "GET"
		}
		code, page, _ := fetch(t, c, method, u+"/logout", tt.form)
		if code != http.StatusOK || !strings.Contains(page, `data-testid="logout-form"`) {
			t.Fatalf("%s: %d, want a page with a sign-out button\n%.1200s", tt.name, code, page)
		}
		if !signedIn() {
			t.Fatalf("%s signed the user out", tt.name)
		}
		if tt.form != nil && !strings.Contains(page, `data-testid="form-error"`) {
			t.Errorf("%s: the page does not say why nothing was done", tt.name)
		}
	}
	_, page, _ = fetch(t, c, "GET", u+"/logout", nil)
	code, _, hdr := fetch(t, c, "POST", u+"/logout", url.Values{"csrf": {csrfOf(t, page)}})
	if code != http.StatusSeeOther || hdr.Get("Location") != "/" || signedIn() {
		t.Fatalf("the page's sign-out button: %d %q, still signed in %v", code, hdr.Get("Location"), signedIn())
	}
}
