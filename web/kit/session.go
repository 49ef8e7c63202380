package kit

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// Cookie names. The session cookie carries a random session id (never the
// API token; HttpOnly, SameSite=Lax, Secure behind https); the form cookie
// binds form tokens to one browser.
const (
	// SessionCookie is exported for the replica router, which sends a
	// signed-in visitor's reads to the primary.
	SessionCookie = "dk_session"
	sessionCookie = SessionCookie
	formCookie    = "dk_form"
)

// actorMemo keeps one request's signed-in user, so that the page layout and
// the handler do not look the token up twice.
type actorMemo struct {
	done  bool
	actor ledger.Actor
}

type actorMemoKey struct{}

// maxPostBytes bounds any request body the portal reads; the largest
// legitimate ones are tournament files and game records (1 MB).
const maxPostBytes = 8 << 20

// withActorMemo gives each request its own memo and bounds its body. The
// handlers get a copy of the request, on which they parse their forms, so
// net/http cannot remove the copy's multipart temp files: this does, when
// the handler returns.
func withActorMemo(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Method != http.MethodGet && r.Method != http.MethodHead {
			r.Body = http.MaxBytesReader(w, r.Body, maxPostBytes)
		}
		r2 := r.WithContext(context.WithValue(r.Context(), actorMemoKey{}, &actorMemo{}))
		defer func() {
			if r2.MultipartForm != nil {
				_ = r2.MultipartForm.RemoveAll()
			}
		}()
		h.ServeHTTP(w, r2)
	})
}

// SignedIn is the signed-in user; the public is sent to sign in, and
// false says so.
func (s *Site) SignedIn(w http.ResponseWriter, r *http.Request) (ledger.Actor, bool) {
	a := s.Actor(r)
	if a.Kind == ledger.Public {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return a, false
	}
	return a, true
}

// Actor is the signed-in user, or the public.
func (s *Site) Actor(r *http.Request) ledger.Actor {
	memo, _ := r.Context().Value(actorMemoKey{}).(*actorMemo)
	if memo != nil && memo.done {
		return memo.actor
	}
	a := ledger.Actor{Kind: ledger.Public}
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		if got, err := s.auth.SessionActor(r.Context(), c.Value); err == nil {
			a = got
		}
	}
	if memo != nil {
		memo.done, memo.actor = true, a
	}
	return a
}

// setCookie sets a cookie of the portal: Secure when the request came over
// TLS or the portal's public address is https (TLS ended at a proxy).
func (s *Site) setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true,
		Secure: r.TLS != nil || s.secure, SameSite: http.SameSiteLaxMode})
}

func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// FormToken returns the token every POST form carries: the time it was
// issued and an HMAC of it and this browser's form cookie under the shared
// secret, so a page from another site cannot forge it (on top of
// http.CrossOriginProtection) and a token that leaked stops working after
// the form expiry.
func (s *Site) FormToken(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(formCookie)
	v := ""
	if err == nil && len(c.Value) == 32 {
		v = c.Value
	} else {
		v = RandomHex(16)
		s.setCookie(w, r, formCookie, v, 0)
		r.AddCookie(&http.Cookie{Name: formCookie, Value: v})
	}
	issued := strconv.FormatInt(s.now().Unix(), 10)
	return issued + "." + s.sign(v, issued)
}

func (s *Site) sign(v, issued string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte("form:" + v + ":" + issued))
	return hex.EncodeToString(m.Sum(nil))
}

// FormOK checks a POST's form token against the browser's form cookie and
// the clock: a token older than the form expiry is refused.
func (s *Site) FormOK(r *http.Request) bool {
	c, err := r.Cookie(formCookie)
	if err != nil || c.Value == "" {
		return false
	}
	issued, mac, ok := strings.Cut(r.PostFormValue("csrf"), ".")
	if !ok || !hmac.Equal([]byte(mac), []byte(s.sign(c.Value, issued))) {
		return false
	}
	at, err := strconv.ParseInt(issued, 10, 64)
	if err != nil {
		return false
	}
	age := s.now().Sub(time.Unix(at, 0))
	return age <= s.formTTL && age >= -time.Minute // a minute of clock skew between server processes
}

func (s *Site) loginForm(w http.ResponseWriter, r *http.Request) {
	s.Render(w, r, http.StatusOK, loginPage(s.Page(w, r, "login"), s.FormToken(w, r), ""))
}

func (s *Site) login(w http.ResponseWriter, r *http.Request) {
	pg := s.Page(w, r, "login")
	if !s.FormOK(r) {
		s.Render(w, r, http.StatusForbidden, loginPage(pg, s.FormToken(w, r), pg.T["form_expired"]))
		return
	}
	tok := strings.TrimSpace(r.PostFormValue("token"))
	sid, a, err := s.auth.StartSession(r.Context(), tok, s.sessionTTL)
	if err != nil || a.Kind == ledger.Public {
		if ledger.KindOf(err) == ledger.Internal {
			s.log.ErrorContext(r.Context(), "start session", "err", err)
		}
		s.Render(w, r, http.StatusUnauthorized, loginPage(pg, s.FormToken(w, r), pg.T["login_failed"]))
		return
	}
	s.setCookie(w, r, sessionCookie, sid, int(s.sessionTTL/time.Second))
	http.Redirect(w, r, "/workspace", http.StatusSeeOther)
}

// logout ends the session on the server, so a copy of the cookie is dead
// too, and clears the cookie.
func (s *Site) logout(w http.ResponseWriter, r *http.Request) {
	if s.FormOK(r) {
		if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
			if err := s.auth.EndSession(r.Context(), c.Value); err != nil {
				s.Fail(w, r, err)
				return
			}
		}
		s.setCookie(w, r, sessionCookie, "", -1)
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
