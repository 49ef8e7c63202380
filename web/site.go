// Package web is the server-rendered portal (templ): public pages in
// Chinese first, English on request, working without JavaScript. It wires
// the features over the page kit (web/kit): the tournaments
// (web/tournamentpages), the audit (web/auditpages), the ratings
// (web/ratingpages) and the staff's tools (web/staffpages) in packages of
// their own; the registry pages, the certificates with the workspace that
// gathers every feature's forms, adjudication and statistics here, each
// with its handler type, files and table of strings (i18n_*.go). Pictures
// and PDFs are drawn by web/draw.
package web

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/dankyu/dankyu/web/auditpages"
	"github.com/dankyu/dankyu/web/kit"
	"github.com/dankyu/dankyu/web/opendata"
	"github.com/dankyu/dankyu/web/ratingpages"
	"github.com/dankyu/dankyu/web/staffpages"
	"github.com/dankyu/dankyu/web/tournamentpages"
)

// SessionCookie is the portal's session cookie, for the replica router,
// which sends a signed-in visitor's reads to the primary.
const SessionCookie = kit.SessionCookie

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
	Proxies kit.Proxies
	// Log is the signed tree over the event log the /log endpoints serve;
	// nil serves none.
	Log TransparencyLog
	// Ratings are the registry's ratings: the /ratings lists and the
	// chart on a player's page; nil shows none.
	Ratings ratingpages.Ratings
	// Audit is the annual audit its workspace pages serve; nil serves none.
	Audit auditpages.Audits
	// Sealer signs the seal a printed certificate's QR code carries with
	// the event log's key (the ledger's Notary); nil prints the link alone.
	Sealer CertificateSealer
	// CertificateFont is the TrueType font with Chinese glyphs the
	// certificate PDFs embed (default DefaultCertificateFont).
	CertificateFont string
	// OpenData are the sources of the open data files and feeds under
	// /data (web/opendata, docs/open-data.md); nil serves none.
	OpenData *opendata.Sources
	// Merger merges duplicate player records (internal/records); nil: the
	// portal offers no merge.
	Merger Merger
	// Webhooks are the subscriptions to the registry's events (the
	// webhooks service): their pages under /workspace/webhooks; nil
	// serves none.
	Webhooks Webhooks
	// Observe, when set, is called after each request with the route
	// pattern it matched in r.Pattern (for metrics).
	Observe func(r *http.Request)
	// CacheMaxAge and CacheStaleIfError are how long shared caches may
	// keep the public's pages (kit.CacheConfig; zero: its defaults).
	CacheMaxAge, CacheStaleIfError time.Duration
}

// Limits are the portal's rate limits; a nil one is no limit.
type Limits struct {
	Verify    kit.Limiter // /verify, /verify/batch
	Objection kit.Limiter // objections to a notice
	Login     kit.Limiter // sign-in attempts
	// Adjudicate is records adjudicated: each may cost a core for a while.
	Adjudicate kit.Limiter
}

// New returns the portal's HTTP handler; it fails when two features'
// tables of strings define the same key.
func New(ctx context.Context, store kit.Store, reg Registry, cs Certs, ts tournamentpages.Tournaments, log *slog.Logger, opt Options) (http.Handler, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.CertificateFont == "" {
		opt.CertificateFont = DefaultCertificateFont
	}
	if _, err := os.Stat(opt.CertificateFont); err != nil {
		log.Warn("certificate PDFs need a TrueType font with Chinese glyphs (apt-get install fonts-droid-fallback, or --cert-font)", "path", opt.CertificateFont, "err", err)
	}
	s, err := kit.NewSite(ctx, kit.Config{Store: store, Auth: reg, Agencies: reg, Log: log, Tables: tables(),
		SessionTTL: opt.SessionTTL, FormTTL: opt.FormTTL, PublicURL: opt.PublicURL, Proxies: opt.Proxies,
		LoginLimit: opt.Limits.Login, Observe: opt.Observe,
		Cache: kit.CacheConfig{MaxAge: opt.CacheMaxAge, StaleIfError: opt.CacheStaleIfError}})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	s.Routes(mux)
	font := kit.NewFontFile(opt.CertificateFont)
	linkSecret, err := store.SharedSecret(ctx, "certificate-links")
	if err != nil {
		return nil, err
	}
	links := certLinks{secret: linkSecret, publicURL: opt.PublicURL}
	certPages := &certPages{Site: s, certs: cs, ranks: reg, tlog: opt.Log, limits: opt.Limits, links: links}
	for _, f := range []interface{ routes(*http.ServeMux) }{
		&registryPages{Site: s, reg: reg, certs: cs, ratings: opt.Ratings, supervision: opt.Audit, published: opt.Audit, sanctions: ts, events: eventsOf(ts)},
		certPages,
		&refereePages{Site: s, limit: opt.Limits.Adjudicate},
		&statsPages{Site: s, stats: cs},
		&logPages{Site: s, tlog: opt.Log, limit: opt.Limits.Verify},
		&playerPages{Site: s, reg: reg},
		newRecordPages(s, reg, opt.Merger),
		newPaperPages(s, cs),
		&identityPages{Site: s, reg: reg},
		&keyPages{Site: s, keys: reg},
		&applyPages{Site: s, certs: cs, reg: reg, events: ts},
		&appraisalPages{Site: s, certs: cs},
		&printPages{Site: s, certs: cs, holders: reg, sealer: opt.Sealer, links: links, font: font},
	} {
		f.routes(mux)
	}
	tp := tournamentpages.New(s, ts, reg, certPages.failOnWorkspace)
	if gf, ok := opt.Ratings.(tournamentpages.GroupFlagger); ok {
		tp.WithGroupFlags(gf) // the book flags dan-grade group entrants far from the group's rank
	}
	if apps, ok := cs.(tournamentpages.Applications); ok {
		tp.WithApplications(apps, reg) // a dan-grade event's proposals with what became of them
	}
	tp.Routes(mux)
	ratingpages.New(s, opt.Ratings, reg).Routes(mux)
	if ratingpages.Tunes(opt.Ratings) {
		s.Serves("rating-tune") // staff see the tuning page in the navigation
	}
	staffpages.New(s, reg, cs).WithNational(cs).Routes(mux)
	if opt.Webhooks != nil {
		s.Serves("webhooks")
		(&webhookPages{Site: s, hooks: opt.Webhooks}).routes(mux)
	}
	if opt.Audit != nil {
		s.Serves("audit")
		auditpages.New(s, opt.Audit, font).Routes(mux)
	}
	if opt.OpenData != nil {
		opendata.New(s, *opt.OpenData).Routes(mux)
	}
	return s.Handler(mux), nil
}
