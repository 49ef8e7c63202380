// Package kit is what every page of the portal stands on: the layout and
// the page's language, sign-in and sessions, form tokens, the one wrapper
// of form posts, the one adapter of GET handlers that return an error,
// the one wording of refusals (beside the field they name, or above the
// form), Confirmation pages, rate limits, and the files pages send (CSV,
// PDF). The features' pages are built over a Site; kit knows none of them.
package kit

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/a-h/templ"

	"github.com/dankyu/dankyu/ledger"
)

// Store is what the site takes from the kernel: the one clock, and the
// secret that signs its forms, shared by every server process.
type Store interface {
	SharedSecret(ctx context.Context, name string) ([]byte, error)
	Now() time.Time
	FormTokens
}

// FormTokens keeps the uses of form tokens, shared by every server process
// (the kernel's store): a state-changing post claims its token once.
type FormTokens interface {
	ClaimFormToken(ctx context.Context, hash []byte, idem string, expires time.Time) (ledger.FormTokenUse, error)
	SettleFormToken(ctx context.Context, hash []byte, outcome string) error
}

// Authenticator keeps the portal's sessions: sign-in with an API token
// starts one, the cookie's session id finds the signed-in user, logout ends it.
type Authenticator interface {
	StartSession(ctx context.Context, token string, ttl time.Duration) (string, ledger.Actor, error)
	SessionActor(ctx context.Context, id string) (ledger.Actor, error)
	EndSession(ctx context.Context, id string) error
}

// Config is what a site is made of; a zero duration takes its default.
type Config struct {
	Store    Store
	Auth     Authenticator
	Agencies AgencyLister // names agencies on every page
	Log      *slog.Logger
	// Tables are the features' strings; a key in two of them fails NewSite.
	Tables []Table
	// SessionTTL is how long a sign-in lasts (default 12 h).
	SessionTTL time.Duration
	// FormTTL is how long a form token is accepted (default 2 h).
	FormTTL time.Duration
	// PublicURL is the address users reach the portal at; when it is
	// https, cookies are Secure even though TLS ends at a proxy.
	PublicURL string
	// Proxies name a request's client (nil: the peer).
	Proxies Proxies
	// LoginLimit bounds sign-in attempts per client (nil: none).
	LoginLimit Limiter
	// Observe, when set, is called after each request with the route
	// pattern it matched in r.Pattern (for metrics).
	Observe func(r *http.Request)
	// Cache is how long shared caches may keep the public's pages.
	Cache CacheConfig
}

// Site is what every feature's pages share: the layout and the page's
// language, sign-in, form tokens, the one form-post wrapper and the one
// wording of errors. Each feature is a handler type over it with only the
// services it needs, and registers its own routes.
type Site struct {
	auth     Authenticator
	agencies AgencyLister
	log      *slog.Logger
	secret   []byte // signs form tokens; shared by every server process
	tokens   FormTokens
	now      func() time.Time

	sessionTTL, formTTL time.Duration
	secure              bool // cookies only over https
	proxies             Proxies
	loginLimit          Limiter
	observe             func(*http.Request)
	texts               map[Lang]map[string]string // every string, built once (read only)
	cache               CacheConfig
	nav                 map[string]bool // the optional pages served (e.g. "audit"), linked in the navigation
	pages               sync.Pool       // RenderLinked's buffers, reused (a page is a few kB)
}

// Serves marks an optional feature's pages as served (before the first
// request), so the navigation links to them.
func (s *Site) Serves(feature string) {
	if s.nav == nil {
		s.nav = map[string]bool{}
	}
	s.nav[feature] = true
}

// NewSite merges the tables (failing on a key two of them define) and
// reads the form secret.
func NewSite(ctx context.Context, c Config) (*Site, error) {
	if c.SessionTTL <= 0 {
		c.SessionTTL = 12 * time.Hour
	}
	if c.FormTTL <= 0 {
		c.FormTTL = 2 * time.Hour
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	texts := map[Lang]map[string]string{}
	for _, l := range []Lang{Chinese, English} {
		m, err := MergeTables(l, c.Tables)
		if err != nil {
			return nil, err
		}
		texts[l] = m
	}
	secret, err := c.Store.SharedSecret(ctx, "portal-forms")
	if err != nil {
		return nil, err
	}
	return &Site{auth: c.Auth, agencies: c.Agencies, log: c.Log, secret: secret, tokens: c.Store, now: c.Store.Now,
		sessionTTL: c.SessionTTL, formTTL: c.FormTTL, secure: strings.HasPrefix(strings.ToLower(c.PublicURL), "https://"),
		proxies: c.Proxies, loginLimit: c.LoginLimit, observe: c.Observe, texts: texts, cache: c.Cache.withDefaults()}, nil
}

// Now is the clock's time.
func (s *Site) Now() time.Time { return s.now() }

// Log is the portal's logger.
func (s *Site) Log() *slog.Logger { return s.log }

// Texts are every string of the language.
func (s *Site) Texts(l Lang) map[string]string { return s.texts[l] }

// Routes registers the site's own pages: sign-in and sign-out, the style
// sheet, and the not-found page for every path no feature serves. (The
// health check, /healthz, is the server's: it checks the database and the
// disk, which the portal cannot see.)
func (s *Site) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /login", s.loginForm)
	mux.HandleFunc("POST /login", s.Limited(s.loginLimit, s.login))
	mux.HandleFunc("POST /logout", s.logout)
	mux.HandleFunc("GET /logout", s.logout)
	mux.Handle("GET /static/site.css", CSSHandler(siteCSS+tableCSS))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		pg := s.Page(w, r, "")
		s.Render(w, r, http.StatusNotFound, MessagePage(pg, pg.T["not_found"], pg.T["not_found_text"]))
	})
}

// Handler is mux as the site serves it: cross-origin posts refused,
// security headers set, each request's signed-in user looked up once and
// its body bounded, its cache headers set (cachePolicy), one access-log
// line per request, and observed.
func (s *Site) Handler(mux *http.ServeMux) http.Handler {
	return http.NewCrossOriginProtection().Handler(securityHeaders(withActorMemo(s.cachePolicy(accessLog(s.log, time.Now, observed(mux, s.observe))))))
}

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "same-origin")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'none'")
		h.ServeHTTP(w, r)
	})
}

// Page is the layout's part of a page: its language and strings, its
// title (the string of titleKey; the site's name for ""), the link to the
// other language, who is signed in and, for a signed-in user (the sign-out
// form on every page), the form token. A public page that shows a form
// asks for its token itself (FormToken), when it shows the form.
func (s *Site) Page(w http.ResponseWriter, r *http.Request, titleKey string) Page {
	lang := LangFrom(w, r)
	t := s.texts[lang] // LangFrom answers one of the two languages built at NewSite
	q := r.URL.Query()
	q.Set("lang", OtherLang(lang))
	title := t["site"]
	if titleKey != "" {
		title = t[titleKey]
	}
	pg := Page{Lang: lang, T: t, Title: title, SwitchURL: SitePath(r.URL.Path) + "?" + q.Encode(), Actor: s.Actor(r),
		names: &agencyNames{ctx: r.Context(), list: s.agencies}}
	if pg.Actor.Kind != ledger.Public {
		pg.CSRF = s.FormToken(w, r)
	}
	if l, named := URLLang(r); named && !signedIn(r) {
		pg.linkLang = l // as Render keeps it
	}
	pg.served = s.nav
	return pg
}

// SitePath is the request's path as a link that cannot leave the site:
// cleaned, one leading slash, no backslash (browsers read "/\\x" as "//x",
// another host), escaped; else the home page.
func SitePath(p string) string {
	c := path.Clean("/" + p)
	if strings.HasPrefix(c, "//") || strings.ContainsAny(c, "\\") || strings.ContainsFunc(c, unicode.IsControl) {
		return "/"
	}
	return (&url.URL{Path: c}).EscapedPath()
}

// Render answers with the page. A page whose URL names its language, shown
// to the public, keeps it in its links (keepLang): the language of a
// visitor without a cookie lives in the URL.
func (s *Site) Render(w http.ResponseWriter, r *http.Request, code int, c templ.Component) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	l, named := URLLang(r)
	if !named || signedIn(r) {
		w.WriteHeader(code)
		if err := c.Render(r.Context(), w); err != nil {
			s.log.ErrorContext(r.Context(), "render page", "path", r.URL.Path, "err", err)
		}
		return
	}
	var buf bytes.Buffer
	if err := c.Render(r.Context(), &buf); err != nil {
		s.log.ErrorContext(r.Context(), "render page", "path", r.URL.Path, "err", err)
	}
	w.WriteHeader(code)
	if err := keepLang(w, buf.Bytes(), string(l)); err != nil {
		s.log.ErrorContext(r.Context(), "write page", "path", r.URL.Path, "err", err)
	}
}

// RenderLinked answers with a page that writes its own links with the
// language its URL names (Page.Link, and LinkLang's field in a GET form),
// so that none is rewritten after it (keepLang's scan of /verify was a
// quarter of its handler's CPU). The page is rendered whole and written in
// one write with its length.
func (s *Site) RenderLinked(w http.ResponseWriter, r *http.Request, code int, c templ.Component) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	buf, _ := s.pages.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer func() {
		if buf.Cap() <= 1<<16 {
			buf.Reset()
			s.pages.Put(buf)
		}
	}()
	if err := c.Render(r.Context(), buf); err != nil {
		s.log.ErrorContext(r.Context(), "render page", "path", r.URL.Path, "err", err)
	}
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(code)
	if _, err := w.Write(buf.Bytes()); err != nil {
		s.log.ErrorContext(r.Context(), "write page", "path", r.URL.Path, "err", err)
	}
}

// Fail answers a request that could not be served: not found, or a
// failure that is logged and shown without its text.
func (s *Site) Fail(w http.ResponseWriter, r *http.Request, err error) {
	pg := s.Page(w, r, "error")
	if errors.Is(err, ledger.ErrNotFound) {
		s.Render(w, r, http.StatusNotFound, MessagePage(pg, pg.T["not_found"], pg.T["not_found_text"]))
		return
	}
	if u := ledger.Unreachable(err); u != nil {
		// a failover or restart: 503, worth trying again
		s.log.WarnContext(r.Context(), "database unavailable", "path", r.URL.Path, "err", err)
		s.Render(w, r, http.StatusServiceUnavailable, MessagePage(pg, pg.T["error"], s.UserError(r, pg, u)))
		return
	}
	s.log.ErrorContext(r.Context(), "portal error", "path", r.URL.Path, "err", err)
	s.Render(w, r, http.StatusInternalServerError, MessagePage(pg, pg.T["error"], pg.T["error_text"]))
}

// Refuse shows a refusal on a page of its own, with its status; an
// internal error fails.
func (s *Site) Refuse(w http.ResponseWriter, r *http.Request, pg Page, err error) {
	if ledger.KindOf(err) == ledger.Internal {
		s.Fail(w, r, err)
		return
	}
	s.Render(w, r, HTTPStatus(err), MessagePage(pg, pg.T["error"], s.UserError(r, pg, err)))
}

// Get adapts a page handler that returns its error: the handler writes
// the page, or returns the error for Fail to answer, so that no handler
// words a failure of its own.
func (s *Site) Get(h func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.Fail(w, r, err)
		}
	}
}

// CSSHandler serves a style sheet, its bytes made once.
func CSSHandler(css string) http.Handler {
	b := []byte(css)
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		_, _ = w.Write(b)
	})
}
