// Package web is the server-rendered portal (templ): public pages in
// Chinese first, English on request, working without JavaScript.
package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/a-h/templ"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Registry is what the public pages read.
type Registry interface {
	ListAgencies(ctx context.Context) ([]registry.Agency, error)
	GetAgency(ctx context.Context, prefix string) (registry.Agency, error)
	GetPlayer(ctx context.Context, id int64) (registry.Player, error)
	SearchPlayers(ctx context.Context, q registry.PlayerQuery) (registry.PlayerPage, error)
	Authenticate(ctx context.Context, token string) (ledger.Actor, error)
	SeesIdentity(ctx context.Context, actor ledger.Actor, p registry.Player) bool
}

// Store is what the portal takes from the kernel: the one clock, and the
// secret that signs its forms, shared by every server process.
type Store interface {
	SharedSecret(ctx context.Context, name string) ([]byte, error)
	Now() time.Time
}

type portal struct {
	reg    Registry
	certs  Certs
	tours  Tournaments
	log    *slog.Logger
	secret []byte // signs form tokens; shared by every server process
	now    func() time.Time
}

// New returns the portal's HTTP handler.
func New(ctx context.Context, store Store, reg Registry, cs Certs, ts Tournaments, log *slog.Logger) (http.Handler, error) {
	secret, err := store.SharedSecret(ctx, "portal-forms")
	if err != nil {
		return nil, err
	}
	p := &portal{reg: reg, certs: cs, tours: ts, log: log, secret: secret, now: store.Now}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", p.home)
	mux.HandleFunc("GET /agencies", p.agencies)
	mux.HandleFunc("GET /players", p.players)
	mux.HandleFunc("GET /players/{id}", p.player)
	mux.HandleFunc("GET /adjudicate", p.adjudicateForm)
	mux.HandleFunc("POST /adjudicate", p.adjudicate)
	mux.HandleFunc("GET /notices", p.notices)
	mux.HandleFunc("GET /notices/{id}", p.notice)
	mux.HandleFunc("POST /notices/{id}/objections", p.object)
	mux.HandleFunc("GET /verify", p.verify)
	mux.HandleFunc("GET /login", p.loginForm)
	mux.HandleFunc("POST /login", p.login)
	mux.HandleFunc("POST /logout", p.logout)
	mux.HandleFunc("GET /workspace", p.workspacePage)
	mux.HandleFunc("GET /workspace/roster.csv", p.roster)
	mux.Handle("POST /workspace/applications", p.act(p.submitApplication))
	mux.Handle("POST /workspace/applications/{id}", p.act(p.decideApplication))
	mux.Handle("POST /workspace/orders", p.act(p.placeOrder))
	mux.Handle("POST /workspace/orders/{agency}/{year}", p.act(p.decideOrder))
	mux.Handle("POST /workspace/appraisers", p.act(p.recommendAppraiser))
	mux.Handle("POST /workspace/appraisers/{id}", p.act(p.setAppraiser))
	mux.Handle("POST /workspace/objections/{id}", p.act(p.ruleObjection))
	mux.Handle("POST /workspace/revoke", p.act(p.revoke))
	mux.HandleFunc("GET /tournaments", p.tournamentList)
	mux.HandleFunc("GET /tournaments/{id}", p.tournament)
	mux.HandleFunc("GET /tournaments/{id}/export/{format}", p.exportTournament)
	mux.Handle("POST /workspace/tournaments", p.act(p.createTournament))
	mux.HandleFunc("GET /workspace/import", p.importForm)
	mux.HandleFunc("POST /workspace/import", p.importFile)
	mux.Handle("POST /tournaments/{id}/participants", p.tact(p.addParticipant))
	mux.Handle("POST /tournaments/{id}/withdrawals", p.tact(p.withdraw))
	mux.Handle("POST /tournaments/{id}/pair", p.tact(p.pairRound))
	mux.Handle("POST /tournaments/{id}/rounds/{round}/results", p.tact(p.enterResults))
	mux.Handle("POST /tournaments/{id}/finish", p.tact(p.finishTournament))
	mux.HandleFunc("GET /static/site.css", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		_, _ = w.Write([]byte(siteCSS))
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		pg := p.page(w, r, "")
		p.render(w, r, http.StatusNotFound, messagePage(pg, pg.T["not_found"], pg.T["not_found_text"]))
	})
	return http.NewCrossOriginProtection().Handler(securityHeaders(withActorMemo(mux))), nil
}

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "same-origin")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'none'")
		h.ServeHTTP(w, r)
	})
}

func (p *portal) page(w http.ResponseWriter, r *http.Request, titleKey string) Page {
	lang := langFrom(w, r)
	t := messages(lang)
	q := r.URL.Query()
	q.Set("lang", otherLang(lang))
	title := t["site"]
	if titleKey != "" {
		title = t[titleKey]
	}
	return Page{Lang: lang, T: t, Title: title, SwitchURL: r.URL.Path + "?" + q.Encode(), Actor: p.actor(r), CSRF: p.formToken(w, r)}
}

func (p *portal) render(w http.ResponseWriter, r *http.Request, code int, c templ.Component) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	if err := c.Render(r.Context(), w); err != nil {
		p.log.ErrorContext(r.Context(), "render page", "path", r.URL.Path, "err", err)
	}
}

func (p *portal) fail(w http.ResponseWriter, r *http.Request, err error) {
	pg := p.page(w, r, "error")
	if errors.Is(err, ledger.ErrNotFound) {
		p.render(w, r, http.StatusNotFound, messagePage(pg, pg.T["not_found"], pg.T["not_found_text"]))
		return
	}
	p.log.ErrorContext(r.Context(), "portal error", "path", r.URL.Path, "err", err)
	p.render(w, r, http.StatusInternalServerError, messagePage(pg, pg.T["error"], pg.T["error_text"]))
}

func (p *portal) home(w http.ResponseWriter, r *http.Request) {
	as, err := p.reg.ListAgencies(r.Context())
	if err != nil {
		p.fail(w, r, err)
		return
	}
	p.render(w, r, http.StatusOK, homePage(p.page(w, r, ""), len(as)))
}

func (p *portal) agencies(w http.ResponseWriter, r *http.Request) {
	as, err := p.reg.ListAgencies(r.Context())
	if err != nil {
		p.fail(w, r, err)
		return
	}
	byPrefix := map[string]*registry.Agency{}
	for i := range as {
		byPrefix[as[i].Prefix] = &as[i]
	}
	var rows []agencyRow
	for _, pr := range registry.Provinces() {
		if pr.Prefix != registry.AssociationPrefix {
			rows = append(rows, agencyRow{Province: pr, Agency: byPrefix[pr.Prefix]})
		}
	}
	p.render(w, r, http.StatusOK, agenciesPage(p.page(w, r, "agencies"), rows))
}

func (p *portal) players(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := searchQuery{Name: q.Get("name"), Province: q.Get("province"), Rank: q.Get("rank")}
	pg := p.page(w, r, "players")
	page, err := p.reg.SearchPlayers(r.Context(), registry.PlayerQuery{Name: f.Name, ProvinceCode: f.Province, Rank: f.Rank, PageToken: q.Get("page")})
	if ledger.KindOf(err) == ledger.Invalid {
		p.render(w, r, http.StatusBadRequest, playersPage(pg, f, registry.PlayerPage{}, p.userError(r, pg, err), ""))
		return
	}
	if err != nil {
		p.fail(w, r, err)
		return
	}
	next := ""
	if page.NextPageToken != "" {
		nq := url.Values{"name": {f.Name}, "province": {f.Province}, "rank": {f.Rank}, "page": {page.NextPageToken}}
		next = "/players?" + nq.Encode()
	}
	p.render(w, r, http.StatusOK, playersPage(pg, f, page, "", next))
}

func (p *portal) player(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		p.fail(w, r, ledger.ErrNotFound)
		return
	}
	pl, err := p.reg.GetPlayer(r.Context(), id)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	agencyName := registry.AssociationPrefix
	if a, err := p.reg.GetAgency(r.Context(), pl.AgencyPrefix); err == nil {
		agencyName = a.Name
	}
	cs, err := p.certs.PlayerCertificates(r.Context(), pl.ID)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	pg := p.page(w, r, "")
	pg.Title = pl.Name
	p.render(w, r, http.StatusOK, playerPage(pg, pl, agencyName, cs, p.reg.SeesIdentity(r.Context(), p.actor(r), pl)))
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
