package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
)

// TestPublicPagesCacheable: the public's pages set no cookie and say how
// long a shared cache may keep them, in the language their URL names (and
// their links keep it), else the one Accept-Language prefers, varying by
// it; a signed-in user's pages are private and never stored; the notice
// links to its objection form, the one page that sets the form cookie.
func TestPublicPagesCacheable(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	ctx := context.Background()
	one := e.issueOneDan(t, e.player.ID)
	bj := fixture.Agency("110")
	five := fixture.Player(t, e.reg, "110", "钱七", "3d", "1980-02-02", 7)
	app, err := e.cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: five.ID, TargetRank: "5d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "5d", five.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if app, err = e.cs.Approve(ctx, bj, "", app.ID); err != nil {
		t.Fatal(err)
	}
	u := e.srv.URL
	anon := func(path, acceptLang string) (int, string, http.Header) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, u+path, nil)
		if acceptLang != "" {
			req.Header.Set("Accept-Language", acceptLang)
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		return resp.StatusCode, readAll(resp), resp.Header
	}
	notice := fmt.Sprintf("/notices/%d", app.NoticeID)
	for _, path := range []string{"/notices", notice, fmt.Sprintf("/players/%d", e.player.ID), "/tournaments", "/ratings", "/statistics",
		"/players?lang=en", "/notices?lang=zh-CN"} {
		code, page, h := anon(path, "")
		if code != http.StatusOK {
			t.Fatalf("%s: %d", path, code)
		}
		if c := h.Values("Set-Cookie"); len(c) > 0 {
			t.Errorf("%s sets a cookie: %q", path, c)
		}
		if cc := h.Get("Cache-Control"); cc != "public, max-age=60, stale-if-error=86400" {
			t.Errorf("%s: Cache-Control %q", path, cc)
		}
		vary := strings.Join(h.Values("Vary"), ", ")
		if !strings.Contains(vary, "Cookie") || strings.Contains(path, "lang=") == strings.Contains(vary, "Accept-Language") {
			t.Errorf("%s: Vary %q", path, vary)
		}
		if strings.Contains(page, `name="csrf"`) {
			t.Errorf("%s: a form token on a public page", path)
		}
	}
	// the language: the URL's, kept by the page's links; else Accept-Language
	_, page, _ := anon("/players?lang=en", "zh-CN,zh;q=0.9")
	if !strings.Contains(page, `<html lang="en">`) || !strings.Contains(page, `href="/notices?lang=en"`) ||
		!strings.Contains(page, `href="/players?lang=zh-CN"`) /* the switch leads to the other */ {
		t.Errorf("/players?lang=en: not English with its links kept:\n%s", page)
	}
	if _, page, _ = anon("/players", "en-GB,en;q=0.8"); !strings.Contains(page, `<html lang="en">`) || strings.Contains(page, `href="/notices?lang=`) {
		t.Errorf("/players with Accept-Language en-GB: not English, or links naming a language")
	}
	if _, page, _ = anon("/players", "fr-FR"); !strings.Contains(page, `<html lang="zh-CN">`) {
		t.Errorf("/players with Accept-Language fr-FR: not Chinese")
	}
	// a GET form keeps the language in a field (its query is replaced)
	if _, page, _ = anon("/verify?lang=en", ""); !strings.Contains(page, `<input type="hidden" name="lang" value="en"`) {
		t.Errorf("/verify?lang=en: its GET form loses the language")
	}
	// the notice links to the form; the form's page is private and sets the form cookie
	_, page, _ = anon(notice, "")
	if !strings.Contains(page, `data-testid="objection-link"`) || strings.Contains(page, `data-testid="objection-form"`) {
		t.Errorf("open notice: no link to the objection form, or the form itself")
	}
	code, page, h := anon(notice+"/objections", "")
	if code != http.StatusOK || !strings.Contains(page, `data-testid="objection-form"`) || len(h.Values("Set-Cookie")) == 0 || h.Get("Cache-Control") != "private, no-store" {
		t.Errorf("objection form page: %d, cookie %q, Cache-Control %q", code, h.Values("Set-Cookie"), h.Get("Cache-Control"))
	}
	// signed in: private, never stored; ?lang= remembered in a cookie
	agencyTok, _ := e.tokens(t)
	c := client(t)
	e.signIn(t, c, agencyTok)
	for _, path := range []string{"/notices", fmt.Sprintf("/players/%d", e.player.ID), "/verify?number=" + one.Number} {
		_, _, h := fetch(t, c, http.MethodGet, u+path, nil)
		if cc := h.Get("Cache-Control"); cc != "private, no-store" {
			t.Errorf("signed in, %s: Cache-Control %q", path, cc)
		}
	}
	if _, _, h := fetch(t, c, http.MethodGet, u+"/notices?lang=en", nil); !strings.Contains(strings.Join(h.Values("Set-Cookie"), ";"), "lang=en") {
		t.Errorf("signed in, ?lang=en not remembered: %q", h.Values("Set-Cookie"))
	}
}

// TestVerifyRevalidates: /verify answers no-cache with an ETag from the
// certificate's log position; a conditional GET with it is answered 304
// (nothing but the certificate's row and events read) until the
// certificate is revoked, then with the new status and a new tag.
func TestVerifyRevalidates(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	one := e.issueOneDan(t, e.player.ID)
	u := e.srv.URL + "/verify?number=" + one.Number
	ask := func(etag string) (int, string, http.Header) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		return resp.StatusCode, readAll(resp), resp.Header
	}
	code, page, h := ask("")
	tag := h.Get("ETag")
	if code != http.StatusOK || !strings.Contains(page, `data-status="valid"`) || h.Get("Cache-Control") != "no-cache" || !strings.HasPrefix(tag, `W/"v`) || len(h.Values("Set-Cookie")) > 0 {
		t.Fatalf("first answer: %d, Cache-Control %q, ETag %q, cookies %q", code, h.Get("Cache-Control"), tag, h.Values("Set-Cookie"))
	}
	// the log grows with other events: the answer, and its tag, do not change
	fixture.Player(t, e.reg, "110", "钱七", "3d", "1980-02-02", 7)
	for range 2 {
		if code, body, h := ask(tag); code != http.StatusNotModified || body != "" || h.Get("ETag") != tag {
			t.Fatalf("revalidation before revocation: %d, ETag %q", code, h.Get("ETag"))
		}
	}
	if _, err := e.cs.Revoke(context.Background(), fixture.Staff, "", one.Number, "测试"); err != nil {
		t.Fatal(err)
	}
	code, page, h = ask(tag)
	if code != http.StatusOK || !strings.Contains(page, `data-status="revoked"`) || h.Get("ETag") == tag {
		t.Fatalf("after revocation: %d, ETag %q (was %q), revoked shown: %v", code, h.Get("ETag"), tag, strings.Contains(page, `data-status="revoked"`))
	}
	if code, _, _ := ask(h.Get("ETag")); code != http.StatusNotModified {
		t.Fatalf("revalidation of the revoked answer: %d", code)
	}
}

func readAll(resp *http.Response) string {
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}
