package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Registry is what the agency and player pages read.
type Registry interface {
	Authenticator
	ListAgencies(ctx context.Context) ([]registry.Agency, error)
	GetAgency(ctx context.Context, prefix string) (registry.Agency, error)
	GetPlayer(ctx context.Context, id int64) (registry.Player, error)
	SearchPlayers(ctx context.Context, actor ledger.Actor, q registry.PlayerQuery) (registry.PlayerPage, error)
	ShowsPersonalDetails(p registry.Player, seesIdentity bool) bool
	SeesIdentity(ctx context.Context, actor ledger.Actor, p registry.Player) bool
	rankReviewer
	playerWriter
	staffRegistry
}

// playerCertificates is what a player's page shows of certification.
type playerCertificates interface {
	PlayerCertificates(ctx context.Context, playerID int64) ([]certs.Certificate, error)
}

// registryPages are the public pages of agencies and players.
type registryPages struct {
	*site
	reg     Registry
	certs   playerCertificates
	ratings Ratings // nil: no rating section
	// supervision names the agencies under the audit's supervision (监管); nil: none shown
	supervision supervisions
}

func (p *registryPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", p.home)
	mux.HandleFunc("GET /agencies", p.agencies)
	mux.HandleFunc("GET /players", p.players)
	mux.HandleFunc("GET /players/{id}", p.player)
}

func (p *registryPages) home(w http.ResponseWriter, r *http.Request) {
	as, err := p.reg.ListAgencies(r.Context())
	if err != nil {
		p.fail(w, r, err)
		return
	}
	p.render(w, r, http.StatusOK, homePage(p.page(w, r, ""), len(as)))
}

func (p *registryPages) agencies(w http.ResponseWriter, r *http.Request) {
	as, err := p.reg.ListAgencies(r.Context())
	if err != nil {
		p.fail(w, r, err)
		return
	}
	byPrefix := map[string]*registry.Agency{}
	for i := range as {
		byPrefix[as[i].Prefix] = &as[i]
	}
	supervised, err := supervisedUntil(r.Context(), p.supervision, p.now())
	if err != nil {
		p.fail(w, r, err)
		return
	}
	var rows []agencyRow
	for _, pr := range registry.Provinces() {
		if pr.Prefix != registry.AssociationPrefix {
			rows = append(rows, agencyRow{Province: pr, Agency: byPrefix[pr.Prefix], SupervisedUntil: supervised[pr.Prefix]})
		}
	}
	p.render(w, r, http.StatusOK, agenciesPage(p.page(w, r, "agencies"), rows))
}

func (p *registryPages) players(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := searchQuery{Name: q.Get("name"), Province: q.Get("province"), Rank: q.Get("rank")}
	pg := p.page(w, r, "players")
	page, err := p.reg.SearchPlayers(r.Context(), p.actor(r), registry.PlayerQuery{Name: f.Name, ProvinceCode: f.Province, Rank: f.Rank, PageToken: q.Get("page")})
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

func (p *registryPages) player(w http.ResponseWriter, r *http.Request) {
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
	rating, err := ratingSection(r.Context(), pg, p.ratings, pl.ID, cs)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	a := p.actor(r)
	full := p.reg.SeesIdentity(r.Context(), a, pl)
	p.render(w, r, http.StatusOK, playerPage(pg, pl, agencyName, cs, full, p.reg.ShowsPersonalDetails(pl, full), rating))
}

// certifiedRank is a player's certified rank, or "no certificate": a
// declared rank is never shown in its place.
func certifiedRank(p Page, pl registry.Player) string {
	if pl.Rank == registry.NoRank {
		return p.T["no_certificate"]
	}
	return rankName(p.Lang, pl.Rank)
}
