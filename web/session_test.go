package web_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/ratelimit"
	"github.com/dankyu/dankyu/web"
)

// signIn signs c in with tok and returns the session cookie's value.
func (e *portalEnv) signIn(t *testing.T, c *http.Client, tok string) string {
	t.Helper()
	_, page, _ := fetch(t, c, "GET", e.srv.URL+"/login", nil)
	if code, _, _ := fetch(t, c, "POST", e.srv.URL+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {tok}}); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	u, _ := url.Parse(e.srv.URL)
	for _, ck := range c.Jar.Cookies(u) {
		if ck.Name == "dk_session" {
			return ck.Value
		}
	}
	t.Fatal("no session cookie after sign-in")
	return ""
}

// withSession is a fresh browser carrying only the given session cookie,
// as an attacker holding a copied cookie would.
func (e *portalEnv) withSession(t *testing.T, value string) *http.Client {
	c := client(t)
	u, _ := url.Parse(e.srv.URL)
	c.Jar.SetCookies(u, []*http.Cookie{{Name: "dk_session", Value: value, Path: "/"}})
	return c
}

// TestSessions: the cookie holds a session id, not the API token; logout
// and expiry kill it at once; old form tokens are refused.
func TestSessions(t *testing.T) {
	tests := []struct {
		name  string
		after func(t *testing.T, e *portalEnv, c *http.Client)
	}{
		{"logout kills the cookie", func(t *testing.T, e *portalEnv, c *http.Client) {
			_, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace", nil)
			if code, _, _ := fetch(t, c, "POST", e.srv.URL+"/logout", url.Values{"csrf": {csrfOf(t, page)}}); code != http.StatusSeeOther {
				t.Fatalf("logout: %d", code)
			}
		}},
		{"a session past its expiry", func(t *testing.T, e *portalEnv, c *http.Client) {
			e.clock.Advance(12*time.Hour + time.Minute)
		}},
		{"revoking the token ends its sessions", func(t *testing.T, e *portalEnv, c *http.Client) {
			toks, err := e.reg.ListTokens(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, tk := range toks {
				if tk.Agency == "110" {
					if err := e.reg.RevokeToken(context.Background(), fixture.Staff, tk.ID); err != nil {
						t.Fatal(err)
					}
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newPortalEnv(t)
			agencyTok, _ := e.tokens(t)
			c := client(t)
			sid := e.signIn(t, c, agencyTok)
			if strings.Contains(sid, agencyTok) || strings.Contains(agencyTok, sid) || strings.HasPrefix(sid, "dk_") {
				t.Fatalf("the session cookie %q carries the API token", sid)
			}
			if code, _, _ := fetch(t, e.withSession(t, sid), "GET", e.srv.URL+"/workspace", nil); code != http.StatusOK {
				t.Fatalf("workspace with the session: %d", code)
			}
			tt.after(t, e, c)
			code, _, hdr := fetch(t, e.withSession(t, sid), "GET", e.srv.URL+"/workspace", nil)
			if code != http.StatusSeeOther || hdr.Get("Location") != "/login" {
				t.Fatalf("old session still reaches the workspace: %d %s", code, hdr.Get("Location"))
			}
		})
	}
}

// TestFormTokenExpires: a form token older than its expiry (2 h) is refused.
func TestFormTokenExpires(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	for _, tt := range []struct {
		age  time.Duration
		code int
	}{{time.Hour, http.StatusSeeOther}, {2*time.Hour + time.Minute, http.StatusForbidden}} {
		c := client(t)
		_, page, _ := fetch(t, c, "GET", e.srv.URL+"/login", nil)
		e.clock.Advance(tt.age)
		if code, _, _ := fetch(t, c, "POST", e.srv.URL+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {agencyTok}}); code != tt.code {
			t.Errorf("login with a form token %s old: %d, want %d", tt.age, code, tt.code)
		}
	}
}

// TestCookiesSecureBehindTLSProxy: with an https public address the
// portal's cookies are Secure although the request reached it over http.
func TestCookiesSecureBehindTLSProxy(t *testing.T) {
	e := newPortalEnv(t)
	for _, tt := range []struct {
		public string
		secure bool
	}{{"", false}, {"http://127.0.0.1:8080", false}, {"https://dankyu.example", true}} {
		h, err := web.New(context.Background(), e.store, e.reg, e.cs, e.ts, slog.New(slog.DiscardHandler), web.Options{PublicURL: tt.public})
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/login", nil))
		cookies := rec.Result().Cookies()
		if len(cookies) == 0 {
			t.Fatalf("%q: no cookie set", tt.public)
		}
		for _, c := range cookies {
			if c.Secure != tt.secure {
				t.Errorf("public url %q: cookie %s Secure=%v, want %v", tt.public, c.Name, c.Secure, tt.secure)
			}
		}
	}
}

// TestPortalRateLimits: past a client's limit /verify and /login answer
// 429, as do /adjudicate's records; an untrusted X-Forwarded-For is ignored, a trusted proxy's is used.
func TestPortalRateLimits(t *testing.T) {
	e := newPortalEnv(t)
	proxies, _ := ratelimit.ParseProxies("10.0.0.0/8")
	lim := func(name string) *ratelimit.Limiter {
		return ratelimit.New(name, ratelimit.Limit{N: 2, Per: time.Minute}, e.clock.Now, nil)
	}
	h, err := web.New(context.Background(), e.store, e.reg, e.cs, e.ts, slog.New(slog.DiscardHandler), web.Options{
		Limits: web.Limits{Verify: lim("verify"), Login: lim("login"), Objection: lim("objection"),
			Adjudicate: lim("adjudicate")}, Proxies: proxies})
	if err != nil {
		t.Fatal(err)
	}
	call := func(method, path, remote, xff string) int {
		req := httptest.NewRequest(method, path, nil)
		req.RemoteAddr = remote
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	tests := []struct {
		name, method, path, remote string
		xffs                       []string // one call each
		want                       []int
	}{
		{"verify from one address", "GET", "/verify?number=110990001", "192.0.2.1:1000", []string{"", "", ""}, []int{200, 200, 429}},
		{"untrusted forwarded-for ignored", "GET", "/verify?number=110990001", "192.0.2.2:1000", []string{"1.1.1.1", "1.1.1.2", "1.1.1.3"}, []int{200, 200, 429}},
		{"trusted proxy's forwarded-for used", "GET", "/verify?number=110990001", "10.0.0.1:1000", []string{"1.1.1.1", "1.1.1.2", "1.1.1.3", "1.1.1.1", "1.1.1.1"}, []int{200, 200, 200, 200, 429}},
		{"login attempts", "POST", "/login", "192.0.2.3:1000", []string{"", "", ""}, []int{403, 403, 429}},
		{"adjudications", "POST", "/adjudicate", "192.0.2.4:1000", []string{"", "", ""}, []int{400, 400, 429}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, x := range tt.xffs {
				if got := call(tt.method, tt.path, tt.remote, x); got != tt.want[i] {
					t.Errorf("call %d: %d, want %d", i+1, got, tt.want[i])
				}
			}
		})
	}
}

// TestBatchVerifySpendsPerNumber: a batch of n numbers spends n of the
// client's verification budget, so with 5 a minute the 6th number is
// refused whether it comes batched or alone, and a batch larger than the
// whole budget is refused as such (OVER_QUOTA, not "try later"). The flood
// of refusals after it is no access-log line each, only the limiter's one
// summary line (issue 31).
func TestBatchVerifySpendsPerNumber(t *testing.T) {
	e := newPortalEnv(t)
	var buf lockedBuffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	verify := ratelimit.New("verify", ratelimit.Limit{N: 5, Per: time.Minute}, e.clock.Now, log)
	h, err := web.New(context.Background(), e.store, e.reg, e.cs, e.ts, log, web.Options{Limits: web.Limits{Verify: verify}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c := client(t)
	_, form, _ := fetch(t, c, "GET", srv.URL+"/verify/batch", nil)
	batch := func(n int) (int, string) {
		claims := strings.Repeat("110990001,某人\n", n)
		code, page, _ := fetch(t, c, "POST", srv.URL+"/verify/batch", url.Values{"csrf": {csrfOf(t, form)}, "claims": {claims}})
		return code, page
	}
	if code, _ := batch(3); code != http.StatusOK {
		t.Fatalf("3 of 5: %d", code)
	}
	if code, _ := batch(2); code != http.StatusOK {
		t.Fatalf("the 4th and 5th: %d", code)
	}
	if code, _, _ := fetch(t, c, "GET", srv.URL+"/verify?number=110990001", nil); code != http.StatusTooManyRequests {
		t.Fatalf("the 6th number alone: %d, want 429", code)
	}
	e.clock.Advance(time.Minute)
	if code, page := batch(6); code != http.StatusTooManyRequests || !strings.Contains(page, "6") || !strings.Contains(page, "5") {
		t.Fatalf("a batch of 6 against 5 a minute: %d, want 429 saying both", code)
	}
	if code, _ := batch(5); code != http.StatusOK {
		t.Fatalf("a refused batch spent the budget: %d", code)
	}
	const flood = 300
	for range flood {
		if code, _, _ := fetch(t, c, "GET", srv.URL+"/verify?number=110990001", nil); code != http.StatusTooManyRequests {
			t.Fatalf("flood: %d", code)
		}
	}
	e.clock.Advance(time.Minute)
	verify.Flush()
	if n := strings.Count(buf.String(), "status=429"); n != 0 {
		t.Errorf("%d refusals logged one by one", n)
	}
	if lines := strings.Count(buf.String(), "\n"); lines > 20 {
		t.Errorf("%d refusals gave %d log lines", flood, lines)
	}
	if !strings.Contains(buf.String(), "refused=301") { // the batch of 6 and the flood

		t.Errorf("no summary of the flood:\n%s", buf.String())
	}
}
