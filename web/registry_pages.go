package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/auditpages"
	"github.com/dankyu/dankyu/web/kit"
	"github.com/dankyu/dankyu/web/ratingpages"
	"github.com/dankyu/dankyu/web/staffpages"
)

// Registry is what the agency and player pages read.
type Registry interface {
	kit.Authenticator
	ListAgencies(ctx context.Context) ([]registry.Agency, error)
	GetAgency(ctx context.Context, prefix string) (registry.Agency, error)
	GetPlayer(ctx context.Context, id int64) (registry.Player, error)
	SearchPlayers(ctx context.Context, actor ledger.Actor, q registry.PlayerQuery) (registry.PlayerPage, error)
	// ViewPlayer is the one view of a player the API shows too.
	ViewPlayer(ctx context.Context, actor ledger.Actor, p registry.Player) registry.PlayerView
	SeesIdentity(ctx context.Context, actor ledger.Actor, p registry.Player) bool
	// Affiliations are a player's clubs and schools (shown where his
	// details are).
	Affiliations(ctx context.Context, playerID int64) ([]registry.Affiliation, error)
	ratingpages.Listed
	rankReviewer
	playerWriter
	staffpages.Registry
	institutionKeys
}

// playerCertificates is what a player's page shows of certification.
type playerCertificates interface {
	PlayerCertificates(ctx context.Context, playerID int64) ([]certs.Certificate, error)
}

// registryPages are the public pages of agencies and players.
type registryPages struct {
	*kit.Site
	reg     Registry
	certs   playerCertificates
	ratings ratingpages.Ratings // nil: no rating section
	events  playerEvents        // nil: no events and games
	// supervision names the agencies under the audit's supervision (监管); nil: none shown
	supervision auditpages.Supervisions
	// published is the audit's publication (通报) of the latest year; nil: none shown
	published auditpages.Published
	// sanctions are the players' sanctions in events (reprimands, prize
	// money one place lower)
	sanctions playerSanctions
}

// playerSanctions is what a player's page shows of his sanctions.
type playerSanctions interface {
	PlayerSanctions(ctx context.Context, playerID int64) ([]tournaments.Sanction, error)
}

func (p *registryPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", p.Get(p.home))
	mux.HandleFunc("GET /agencies", p.Get(p.agencies))
	mux.HandleFunc("GET /players", p.Get(p.players))
	mux.HandleFunc("GET /players/{id}", p.Get(p.player))
}

func (p *registryPages) home(w http.ResponseWriter, r *http.Request) error {
	as, err := p.reg.ListAgencies(r.Context())
	if err != nil {
		return err
	}
	p.Render(w, r, http.StatusOK, homePage(p.Page(w, r, ""), len(as)))
	return nil
}

func (p *registryPages) agencies(w http.ResponseWriter, r *http.Request) error {
	as, err := p.reg.ListAgencies(r.Context())
	if err != nil {
		return err
	}
	byPrefix := map[string]*registry.Agency{}
	for i := range as {
		byPrefix[as[i].Prefix] = &as[i]
	}
	supervised, err := auditpages.SupervisedUntil(r.Context(), p.supervision, p.Now())
	if err != nil {
		return err
	}
	pub, err := auditpages.LatestPublication(r.Context(), p.published)
	if err != nil {
		return err
	}
	var rows []agencyRow
	for _, pr := range registry.Provinces() {
		if pr.Prefix != registry.AssociationPrefix {
			rows = append(rows, agencyRow{Province: pr, Agency: byPrefix[pr.Prefix], SupervisedUntil: supervised[pr.Prefix]})
		}
	}
	p.Render(w, r, http.StatusOK, agenciesPage(p.Page(w, r, "agencies"), rows, pub))
	return nil
}

func (p *registryPages) players(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := searchQuery{Name: q.Get("name"), Province: q.Get("province"), Rank: q.Get("rank")}
	pg := p.Page(w, r, "players")
	page, err := p.reg.SearchPlayers(r.Context(), p.Actor(r), registry.PlayerQuery{Name: f.Name, ProvinceCode: f.Province, Rank: f.Rank, PageToken: q.Get("page")})
	if ledger.KindOf(err) == ledger.Invalid {
		p.Render(w, r, http.StatusBadRequest, playersPage(pg, f, registry.PlayerPage{}, p.UserError(r, pg, err), ""))
		return nil
	}
	if err != nil {
		return err
	}
	next := ""
	if page.NextPageToken != "" {
		nq := url.Values{"name": {f.Name}, "province": {f.Province}, "rank": {f.Rank}, "page": {page.NextPageToken}}
		next = "/players?" + nq.Encode()
	}
	p.Render(w, r, http.StatusOK, playersPage(pg, f, page, "", next))
	return nil
}

func (p *registryPages) player(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return ledger.ErrNotFound
	}
	pl, err := p.reg.GetPlayer(r.Context(), id)
	if err != nil {
		return err
	}
	agencyName := registry.AssociationPrefix
	if a, err := p.reg.GetAgency(r.Context(), pl.AgencyPrefix); err == nil {
		agencyName = a.Name
	}
	cs, err := p.certs.PlayerCertificates(r.Context(), pl.ID)
	if err != nil {
		return err
	}
	pg := p.Page(w, r, "")
	pg.Title = pl.Name
	rating, err := ratingpages.Section(r.Context(), pg, p.ratings, pl.ID, cs)
	if err != nil {
		return err
	}
	var history []book.Point
	var places pgPlaces
	if p.ratings != nil {
		rt, err := p.ratings.PlayerRating(r.Context(), pl.ID)
		switch {
		case err == nil:
			history = rt.History
			if above, ok := p.ratings.(rankedAbove); ok {
				if places.National, err = listPlace(r.Context(), above, p.reg, pl.ID, "", rt.Rating); err != nil {
					return err
				}
				if places.Provincial, err = listPlace(r.Context(), above, p.reg, pl.ID, pl.ProvinceCode, rt.Rating); err != nil {
					return err
				}
			}
		case !errors.Is(err, ledger.ErrNotFound):
			return err
		}
	}
	var evs []pgEvent
	if p.events != nil {
		if evs, err = playerGames(r.Context(), pg, p.events, pl.ID, history); err != nil {
			return err
		}
	}
	view := p.reg.ViewPlayer(r.Context(), p.Actor(r), pl)
	var affs []registry.Affiliation
	if view.Details { // a minor's school and club are his details too
		if affs, err = p.reg.Affiliations(r.Context(), pl.ID); err != nil {
			return err
		}
	}
	sanctions, err := p.sanctions.PlayerSanctions(r.Context(), pl.ID)
	if err != nil {
		return err
	}
	p.Render(w, r, http.StatusOK, playerPage(pg, view, agencyName, cs, rating, playerRecords(pg, affs, sanctions), evs, places))
	return nil
}

// certifiedRank is a player's certified rank, or "no certificate": a
// declared rank is never shown in its place.
func certifiedRank(p kit.Page, pl registry.Player) string { return certifiedRankOf(p, pl.Rank) }

func certifiedRankOf(p kit.Page, r registry.Rank) string {
	if r == registry.NoRank {
		return p.T["no_certificate"]
	}
	return kit.RankName(p.Lang, r)
}
