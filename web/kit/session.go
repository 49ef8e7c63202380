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
	// private: the answer carries a form token (or is otherwise the
	// visitor's own), so no shared cache may keep it
	private bool
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
// issued, a random nonce and an HMAC of them and this browser's form cookie
// under the shared secret, so a page from another site cannot forge it (on
// top of http.CrossOriginProtection), a token that leaked stops working
// after the form expiry, and a state-changing post uses it once (ClaimForm;
// the nonce makes two pages shown in one second two tokens).
//
// A page that shows a token is private (no shared cache keeps it), so only
// a page that shows a form asks for one, and only when it shows the form.
func (s *Site) FormToken(w http.ResponseWriter, r *http.Request) string {
	Private(r)
	c, err := r.Cookie(formCookie)
	v := ""
	if err == nil && len(c.Value) == 32 {
		v = c.Value
	} else {
		v = RandomHex(16)
		s.setCookie(w, r, formCookie, v, 0)
		r.AddCookie(&http.Cookie{Name: formCookie, Value: v})
	}
	issued := strconv.FormatInt(s.now().Unix(), 10) + "." + RandomHex(formNonceBytes)
	return issued + "." + s.sign(v, issued)
}

// formNonceBytes is the size of a form token's nonce.
const formNonceBytes = 12

func (s *Site) sign(v, issued string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte("form:" + v + ":" + issued))
	return hex.EncodeToString(m.Sum(nil))
}

// formIssued checks a POST's form token against the browser's form cookie
// and returns when it was issued.
func (s *Site) formIssued(r *http.Request) (time.Time, bool) {
	c, err := r.Cookie(formCookie)
	if err != nil || c.Value == "" {
		return time.Time{}, false
	}
	tok := r.PostFormValue("csrf")
	i := strings.LastIndexByte(tok, '.')
	if i < 0 {
		return time.Time{}, false
	}
	issued, mac := tok[:i], tok[i+1:]
	at, nonce, ok := strings.Cut(issued, ".")
	if !ok || len(nonce) != 2*formNonceBytes || !hmac.Equal([]byte(mac), []byte(s.sign(c.Value, issued))) {
		return time.Time{}, false
	}
	sec, err := strconv.ParseInt(at, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(sec, 0), true
}

// formSkew is the clock skew between server processes a token's age allows.
const formSkew = time.Minute

// FormOK checks a POST's form token against the browser's form cookie and
// the clock: a token older than the form expiry is refused. A post that
// changes something also claims the token (ClaimForm, which checks this
// first; Post and PostFields do both).
func (s *Site) FormOK(r *http.Request) bool {
	at, ok := s.formIssued(r)
	if !ok {
		return false
	}
	age := s.now().Sub(at)
	return age <= s.formTTL && age >= -formSkew
}

// FormClaim is a state-changing post's claim of its form token. Exactly one
// of three: the post may go on (Refused and Repeat empty; then Settle it),
// it repeats a post already done with this token and idempotency key
// (Repeat is where that one led: answer the same, doing nothing again), or
// it is refused (Refused is the message key, Status the answer's status):
// the form is shown again, with what was typed and a fresh token.
type FormClaim struct {
	Refused string
	Status  int
	Repeat  string
	site    *Site
	hash    []byte
	ctx     context.Context
}

// formRepeatWait bounds how long a repeat waits for the first post of its
// token (a double click's first request, still running) to finish.
const formRepeatWait = 5 * time.Second

// ClaimForm checks a state-changing post's form token (FormOK) and uses it
// up: the first post with a token goes on; a later one with the same
// idempotency key (a double click, a retry) is answered with where the
// first led; any other (a replay, a second form of an old page) is refused
// with "form_used". The claims are in PostgreSQL, so a replay is refused on
// every server process alike. A refused post changes nothing and gives
// its token back (Settle("")), so the form may be sent again as corrected.
func (s *Site) ClaimForm(r *http.Request) FormClaim {
	at, ok := s.formIssued(r)
	if age := s.now().Sub(at); !ok || age > s.formTTL || age < -formSkew {
		return FormClaim{Refused: "form_expired", Status: http.StatusForbidden}
	}
	sum := sha256.Sum256([]byte(r.PostFormValue("csrf")))
	c := FormClaim{site: s, hash: sum[:], ctx: context.WithoutCancel(r.Context())}
	idem := r.PostFormValue("idem")
	deadline := time.Now().Add(formRepeatWait)
	for {
		u, err := s.tokens.ClaimFormToken(r.Context(), c.hash, idem, at.Add(s.formTTL+formSkew))
		switch {
		case err != nil:
			s.log.ErrorContext(r.Context(), "claim form token", "path", r.URL.Path, "err", err)
			return FormClaim{Refused: "error_text", Status: http.StatusServiceUnavailable}
		case u.First:
			return c
		case idem == "" || u.Idem != idem:
			return FormClaim{Refused: "form_used", Status: http.StatusConflict}
		case u.Outcome != "":
			return FormClaim{Repeat: u.Outcome}
		case time.Now().After(deadline):
			return FormClaim{Refused: "form_used", Status: http.StatusConflict}
		}
		select {
		case <-r.Context().Done():
			return FormClaim{Refused: "form_used", Status: http.StatusConflict}
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// OK says the post may go on.
func (c FormClaim) OK() bool { return c.Refused == "" && c.Repeat == "" }

// Settle records where the post led (a repeat is answered with it), or,
// with "", gives the token back: the post was refused and changed nothing.
func (c FormClaim) Settle(outcome string) {
	if c.site == nil {
		return
	}
	if err := c.site.tokens.SettleFormToken(c.ctx, c.hash, outcome); err != nil {
		c.site.log.ErrorContext(c.ctx, "settle form token", "err", err)
	}
}

func (s *Site) loginForm(w http.ResponseWriter, r *http.Request) {
	s.Render(w, r, http.StatusOK, loginPage(s.Page(w, r, "login"), s.FormToken(w, r), ""))
}

func (s *Site) login(w http.ResponseWriter, r *http.Request) {
	pg := s.Page(w, r, "login")
	claim := s.ClaimForm(r)
	if claim.Repeat != "" {
		http.Redirect(w, r, claim.Repeat, http.StatusSeeOther)
		return
	}
	if !claim.OK() {
		s.Render(w, r, claim.Status, loginPage(pg, s.FormToken(w, r), pg.T[claim.Refused]))
		return
	}
	tok := strings.TrimSpace(r.PostFormValue("token"))
	sid, a, err := s.auth.StartSession(r.Context(), tok, s.sessionTTL)
	if err != nil || a.Kind == ledger.Public {
		claim.Settle("")
		if ledger.KindOf(err) == ledger.Internal {
			s.log.ErrorContext(r.Context(), "start session", "err", err)
		}
		s.Render(w, r, http.StatusUnauthorized, loginPage(pg, s.FormToken(w, r), pg.T["login_failed"]))
		return
	}
	claim.Settle("/workspace")
	s.setCookie(w, r, sessionCookie, sid, int(s.sessionTTL/time.Second))
	http.Redirect(w, r, "/workspace", http.StatusSeeOther)
}

// logout ends the session on the server, so a copy of the cookie is dead
// too, and clears the cookie. It takes a post with a valid form token; a
// GET, or a post without one (a page left open past the form expiry, a
// token used already), answers a page with a sign-out button and a fresh
// token rather than silently nothing; a forged post from another site
// (refused before, by the cross-origin check) cannot sign anyone out.
func (s *Site) logout(w http.ResponseWriter, r *http.Request) {
	if s.Actor(r).Kind == ledger.Public {
		s.setCookie(w, r, sessionCookie, "", -1) // nothing to end: a dead cookie goes all the same
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	pg := s.Page(w, r, "logout")
	if r.Method != http.MethodPost {
		s.Render(w, r, http.StatusOK, logoutPage(pg, ""))
		return
	}
	claim := s.ClaimForm(r)
	if claim.Repeat != "" {
		http.Redirect(w, r, claim.Repeat, http.StatusSeeOther)
		return
	}
	if !claim.OK() {
		s.Render(w, r, http.StatusOK, logoutPage(pg, pg.T["logout_again"]))
		return
	}
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		if err := s.auth.EndSession(r.Context(), c.Value); err != nil {
			claim.Settle("")
			s.Fail(w, r, err)
			return
		}
	}
	claim.Settle("/")
	s.setCookie(w, r, sessionCookie, "", -1)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
