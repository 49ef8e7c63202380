// Package web is the server-rendered portal (templ): public pages in
// Chinese first, English on request, working without JavaScript. Each
// feature has its own handler type and files (registry_pages.go, certs.go
// and workspace.go, tournaments.go and import.go, adjudicate.go,
// statistics.go) over the
// shared site (site.go, session.go, forms.go, i18n*.go).
package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/a-h/templ"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Store is what the portal takes from the kernel: the one clock, and the
// secret that signs its forms, shared by every server process.
type Store interface {
	SharedSecret(ctx context.Context, name string) ([]byte, error)
	Now() time.Time
}

// Authenticator keeps the portal's sessions: sign-in with an API token
// starts one, the cookie's session id finds the signed-in user, logout ends it.
type Authenticator interface {
	StartSession(ctx context.Context, token string, ttl time.Duration) (string, ledger.Actor, error)
	SessionActor(ctx context.Context, id string) (ledger.Actor, error)
	EndSession(ctx context.Context, id string) error
}

// Options are the portal's settings; a zero field takes its default.
type Options struct {
	// SessionTTL is how long a sign-in lasts (default 12 h).
	SessionTTL time.Duration
	// FormTTL is how long a form token is accepted (default 2 h).
	FormTTL time.Duration
	// PublicURL is the address users reach the portal at; when it is
	// https, cookies are Secure even though TLS ends at a proxy.
	PublicURL string
	// Limits bound the public endpoints per client; Proxies name a
	// request's client (nil: the peer).
	Limits  Limits
	Proxies Proxies
	// Log is the signed tree over the event log the /log endpoints serve;
	// nil serves none.
	Log TransparencyLog
	// Ratings are the registry's ratings: the /ratings lists and the
	// chart on a player's page; nil shows none.
	Ratings Ratings
	// Audit is the annual audit its workspace pages serve; nil serves none.
	Audit Audits
	// CertificateFont is the TrueType font with Chinese glyphs the
	// certificate PDFs embed (default DefaultCertificateFont).
	CertificateFont string
	// Observe, when set, is called after each request with the route
	// pattern it matched in r.Pattern (for metrics).
	Observe func(r *http.Request)
}

func (o Options) withDefaults() Options {
	if o.SessionTTL <= 0 {
		o.SessionTTL = 12 * time.Hour
	}
	if o.FormTTL <= 0 {
		o.FormTTL = 2 * time.Hour
	}
	if o.CertificateFont == "" {
		o.CertificateFont = DefaultCertificateFont
	}
	return o
}

// site is what every feature's pages share: the layout and the page's
// language, sign-in, form tokens, the one form-post wrapper and the one
// wording of errors. Each feature is a handler type over it with only the
// services it needs (registryPages, certPages, tournamentPages,
// refereePages, statsPages), and registers its own routes.
type site struct {
	auth     Authenticator
	agencies agencyLister // names agencies on every page
	log      *slog.Logger
	secret   []byte // signs form tokens; shared by every server process
	now      func() time.Time

	sessionTTL, formTTL time.Duration
	secure              bool // cookies only over https
	limits              Limits
	proxies             Proxies
	texts               map[Lang]map[string]string // every string, built once (read only)
}

// New returns the portal's HTTP handler.
func New(ctx context.Context, store Store, reg Registry, cs Certs, ts Tournaments, log *slog.Logger, opt Options) (http.Handler, error) {
	opt = opt.withDefaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if _, err := os.Stat(opt.CertificateFont); err != nil {
		log.Warn("certificate PDFs need a TrueType font with Chinese glyphs (apt-get install fonts-droid-fallback, or --cert-font)", "path", opt.CertificateFont, "err", err)
	}
	secret, err := store.SharedSecret(ctx, "portal-forms")
	if err != nil {
		return nil, err
	}
	texts := map[Lang]map[string]string{}
	for _, l := range []Lang{Chinese, English} {
		if texts[l], err = mergeTables(l, tables()); err != nil {
			return nil, err
		}
	}
	s := &site{auth: reg, agencies: reg, log: log, secret: secret, now: store.Now, sessionTTL: opt.SessionTTL, formTTL: opt.FormTTL,
		secure: strings.HasPrefix(strings.ToLower(opt.PublicURL), "https://"), limits: opt.Limits, proxies: opt.Proxies, texts: texts}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login", s.loginForm)
	mux.HandleFunc("POST /login", s.limited(s.limits.Login, s.login))
	mux.HandleFunc("POST /logout", s.logout)
	font := &fontFile{path: opt.CertificateFont}
	certPages := &certPages{site: s, certs: cs, ranks: reg, tlog: opt.Log}
	for _, f := range []interface{ routes(*http.ServeMux) }{
		&registryPages{site: s, reg: reg, certs: cs, ratings: opt.Ratings, supervision: opt.Audit},
		certPages,
		&tournamentPages{site: s, tours: ts, workspace: certPages.failOnWorkspace, players: reg},
		&refereePages{site: s},
		&statsPages{site: s, stats: cs},
		&logPages{site: s, tlog: opt.Log},
		&playerPages{site: s, reg: reg},
		&applyPages{site: s, certs: cs, reg: reg},
		&staffPages{site: s, reg: reg, certs: cs},
		&gamePages{site: s, games: ts},
		&printPages{site: s, certs: cs, publicURL: opt.PublicURL, font: font},
	} {
		f.routes(mux)
	}
	(&ratingPages{site: s, ratings: opt.Ratings}).routes(mux)
	if opt.Audit != nil {
		(&auditPages{site: s, audits: opt.Audit, font: font}).routes(mux)
	}
	mux.Handle("GET /static/site.css", cssHandler(siteCSS))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		pg := s.page(w, r, "")
		s.render(w, r, http.StatusNotFound, messagePage(pg, pg.T["not_found"], pg.T["not_found_text"]))
	})
	return http.NewCrossOriginProtection().Handler(securityHeaders(withActorMemo(accessLog(log, time.Now, observed(mux, opt.Observe))))), nil
}

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "same-origin")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'none'")
		h.ServeHTTP(w, r)
	})
}

func (p *site) page(w http.ResponseWriter, r *http.Request, titleKey string) Page {
	lang := langFrom(w, r)
	t := p.texts[lang] // langFrom answers one of the two languages built at New
	q := r.URL.Query()
	q.Set("lang", otherLang(lang))
	title := t["site"]
	if titleKey != "" {
		title = t[titleKey]
	}
	return Page{Lang: lang, T: t, Title: title, SwitchURL: sitePath(r.URL.Path) + "?" + q.Encode(), Actor: p.actor(r), CSRF: p.formToken(w, r),
		names: &agencyNames{ctx: r.Context(), list: p.agencies}}
}

// sitePath is the request's path as a link that cannot leave the site:
// cleaned, one leading slash, no backslash (browsers read "/\\x" as "//x",
// another host), escaped; else the home page.
func sitePath(p string) string {
	c := path.Clean("/" + p)
	if strings.HasPrefix(c, "//") || strings.ContainsAny(c, "\\") || strings.ContainsFunc(c, unicode.IsControl) {
		return "/"
	}
	return (&url.URL{Path: c}).EscapedPath()
}

func (p *site) render(w http.ResponseWriter, r *http.Request, code int, c templ.Component) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	if err := c.Render(r.Context(), w); err != nil {
		p.log.ErrorContext(r.Context(), "render page", "path", r.URL.Path, "err", err)
	}
}

func (p *site) fail(w http.ResponseWriter, r *http.Request, err error) {
	pg := p.page(w, r, "error")
	if errors.Is(err, ledger.ErrNotFound) {
		p.render(w, r, http.StatusNotFound, messagePage(pg, pg.T["not_found"], pg.T["not_found_text"]))
		return
	}
	p.log.ErrorContext(r.Context(), "portal error", "path", r.URL.Path, "err", err)
	p.render(w, r, http.StatusInternalServerError, messagePage(pg, pg.T["error"], pg.T["error_text"]))
}

func otherLang(l Lang) string {
	if l == English {
		return string(Chinese)
	}
	return string(English)
}

func provinceName(l Lang, p registry.Province) string {
	if l == English {
		return p.NameEN
	}
	return p.NameZH
}

func provinceOf(l Lang, code string) string {
	p, ok := registry.ProvinceByCode(code)
	if !ok {
		return code
	}
	return provinceName(l, p)
}

func rankName(l Lang, r registry.Rank) string {
	if r == registry.NoRank {
		return "—"
	}
	if l == English {
		return r.English()
	}
	return r.Chinese()
}

// cssHandler serves a style sheet, its bytes made once.
func cssHandler(css string) http.Handler {
	b := []byte(css)
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		_, _ = w.Write(b)
	})
}
