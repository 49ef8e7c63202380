// Package ratingpages is the portal's ratings: the public lists by
// province and rank, and the rating section of a player's page.
package ratingpages

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/a-h/templ"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/draw"
	"github.com/dankyu/dankyu/web/kit"
)

// Ratings is what the rating pages read: a player's rating with its
// history, and the public lists.
type Ratings interface {
	PlayerRating(ctx context.Context, playerID int64) (book.Rating, error)
	ListRatings(ctx context.Context, q book.ListQuery) ([]book.Rating, error)
}

// Listed is the registry's rule of whom the public sees listed, the public
// player search's (no minor, no merged record): the lists leave out the
// registered players it does not return (registry.Service).
type Listed interface {
	PubliclyListed(ctx context.Context, ids []int64) (map[int64]registry.Player, error)
}

// Pages are the public rating lists by province and rank.
type Pages struct {
	*kit.Site
	ratings Ratings // nil: the lists are empty
	listed  Listed
}

// New returns the rating pages over the site.
func New(site *kit.Site, ratings Ratings, listed Listed) *Pages {
	return &Pages{Site: site, ratings: ratings, listed: listed}
}

// Routes registers the rating pages.
func (p *Pages) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /ratings", p.Get(p.list))
	mux.HandleFunc("GET /ratings/tune", p.tuneForm)
	p.Confirmed(mux, "/ratings/tune", kit.Confirmation{What: "confirm_rating_tune", Back: toTune},
		p.Post(toTune, p.failTune, p.tune))
}

// tuner is what the staff's tuning form needs of the book (optional, like
// paramSource).
type tuner interface {
	paramSource
	Tune(ctx context.Context, actor ledger.Actor, key string, req book.TuneRequest) (book.Params, error)
}

// Tunes says whether rs lets staff tune the parameters (the book does).
func Tunes(rs Ratings) bool {
	_, ok := rs.(tuner)
	return ok
}

func toTune(*http.Request) string { return "/ratings/tune" }

// tuneView is the staff's tuning form as typed.
type tuneView struct {
	Params                            paramsText
	Frac, Budget, OK, Err, Idem, CSRF string
}

// tuneForm is the staff's page to tune the registry's parameters on its
// own games; the public signs in, an agency is refused.
func (p *Pages) tuneForm(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	if !a.IsStaff() {
		pg := p.Page(w, r, "error")
		p.Render(w, r, http.StatusForbidden, kit.MessagePage(pg, pg.T["error"], pg.T["rating_tune_staff_only"]))
		return
	}
	p.showTune(w, r, http.StatusOK, tuneView{Frac: "0.3", Budget: "150", OK: r.URL.Query().Get("ok")})
}

func (p *Pages) showTune(w http.ResponseWriter, r *http.Request, code int, v tuneView) {
	pg := p.Page(w, r, "rating_tune")
	line, err := p.paramsLine(r.Context(), pg)
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	v.Params, v.Idem, v.CSRF = line, kit.RandomHex(12), pg.CSRF
	p.Render(w, r, code, tunePage(pg, v))
}

func (p *Pages) failTune(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string) {
	p.showTune(w, r, code, tuneView{Frac: r.PostFormValue("eval_frac"), Budget: r.PostFormValue("budget"), Err: errText})
}

// tune runs the tuning (the book checks the actor is staff, logs
// ratings.tuned and recomputes).
func (p *Pages) tune(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	t, ok := p.ratings.(tuner)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	frac, _ := strconv.ParseFloat(r.PostFormValue("eval_frac"), 64)
	budget, _ := strconv.Atoi(r.PostFormValue("budget"))
	_, err := t.Tune(r.Context(), a, key, book.TuneRequest{EvalFrac: frac, Budget: budget})
	return kit.Done("rating_tuned"), err
}

// ratingListPage is the number of players one list page shows.
const ratingListPage = 50

// ratingFilter is the list's form, and where its page starts: From rows
// into the book's list (which holds everyone), Place players shown before.
type ratingFilter struct {
	Province, Rank string
	From, Place    int
}

func (f ratingFilter) url(from, place int) string {
	return "/ratings?" + url.Values{"province": {f.Province}, "rank": {f.Rank}, "from": {strconv.Itoa(from)}, "place": {strconv.Itoa(place)}}.Encode()
}

// ratingListReads bounds the book's pages one list page reads to fill
// itself around players it may not show; a page short of them ends early,
// its next link going on from where it stopped.
const ratingListReads = 8

func (p *Pages) list(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := ratingFilter{Province: q.Get("province"), Rank: q.Get("rank")}
	f.From, _ = strconv.Atoi(q.Get("from"))
	f.From = min(max(f.From, 0), book.MaxOffset)
	f.Place, _ = strconv.Atoi(q.Get("place"))
	f.Place = min(max(f.Place, 0), f.From)
	pg := p.Page(w, r, "ratings")
	if p.ratings == nil {
		p.Render(w, r, http.StatusOK, ratingsPage(pg, f, nil, 0, "", "", paramsText{}))
		return nil
	}
	params, err := p.paramsLine(r.Context(), pg)
	if err != nil {
		return err
	}
	rs, next, err := p.listPage(r.Context(), f)
	if ledger.KindOf(err) == ledger.Invalid {
		p.Render(w, r, http.StatusBadRequest, ratingsPage(pg, f, nil, 0, p.UserError(r, pg, err), "", params))
		return nil
	}
	if err != nil {
		return err
	}
	p.Render(w, r, http.StatusOK, ratingsPage(pg, f, rs, f.Place, "", next, params))
	return nil
}

// listPage reads one page of the list from f.From on, leaving out the
// registered players the public search does not list (minors), so that
// the places count the players shown; next is the following page's
// address, "" at the list's end.
func (p *Pages) listPage(ctx context.Context, f ratingFilter) (shown []book.Rating, next string, err error) {
	from := f.From
	for range ratingListReads {
		rs, err := p.ratings.ListRatings(ctx, book.ListQuery{Province: f.Province, Rank: f.Rank, Limit: ratingListPage + 1, Offset: from})
		if err != nil {
			return nil, "", err
		}
		var ids []int64
		for _, x := range rs {
			if x.PlayerID != 0 {
				ids = append(ids, x.PlayerID)
			}
		}
		listed, err := p.listed.PubliclyListed(ctx, ids)
		if err != nil {
			return nil, "", err
		}
		for _, x := range rs {
			if _, ok := listed[x.PlayerID]; x.PlayerID != 0 && !ok {
				from++
				continue
			}
			if len(shown) == ratingListPage {
				// one more to show: the next page starts with it
				return shown, f.url(from, f.Place+len(shown)), nil
			}
			shown = append(shown, x)
			from++
		}
		if len(rs) <= ratingListPage {
			return shown, "", nil // the list's end
		}
	}
	return shown, f.url(from, f.Place+len(shown)), nil
}

// paramSource is what the book offers beyond Ratings: the parameters it
// rates with (optional, so a portal's other rating sources need not).
type paramSource interface {
	Params(ctx context.Context) (book.Params, error)
}

// paramsText is the sentence saying with which parameters the ratings
// are computed, and their values as the model names them (shown as code:
// identifiers, not words of either language).
type paramsText struct{ Line, Values string }

// paramsLine says with which parameters the ratings are computed: their
// version and the figures that chose them, or that they are the defaults.
func (p *Pages) paramsLine(ctx context.Context, pg kit.Page) (paramsText, error) {
	src, ok := p.ratings.(paramSource)
	if !ok {
		return paramsText{}, nil
	}
	ps, err := src.Params(ctx)
	if err != nil {
		return paramsText{}, err
	}
	b := ps.Bayes
	vals := fmt.Sprintf("sd0=%.4g drift=%.4g play=%.4g rank_sd=%.4g width=%.4g span=%.4g learn=%.4g kyu=%.4g", b.SD0, b.Drift, b.Play, b.RankSD, b.Width, b.Span, b.Learn, b.Kyu)
	if ps.Version == 0 {
		return paramsText{pg.T["rating_params_default"], vals}, nil
	}
	return paramsText{fmt.Sprintf(pg.T["rating_params_tuned"], ps.Version, ps.At.Format("2006-01-02"), ps.TrainGames, ps.EvalGames,
		ps.TunedLogLoss, ps.DefaultLogLoss, ps.RankOnlyLogLoss), vals}, nil
}

// Section is the rating part of a player's public page: his rating
// and estimate, the SVG chart of his history and its table; nil when the
// portal has no ratings, an empty note when he has no rated game.
func Section(ctx context.Context, pg kit.Page, rs Ratings, playerID int64, cs []certs.Certificate) (templ.Component, error) {
	if rs == nil {
		return nil, nil
	}
	r, err := rs.PlayerRating(ctx, playerID)
	if errors.Is(err, ledger.ErrNotFound) {
		return playerRating(pg, nil, nil), nil
	}
	if err != nil {
		return nil, err
	}
	return playerRating(pg, &r, draw.NewRatingChart(r, cs, draw.RatingWords{Title: fmt.Sprintf(pg.T["rating_chart_title"], r.Name),
		Certified: pg.T["rating_certified_line"], Rank: func(r registry.Rank) string { return kit.RankName(pg.Lang, r) },
		Estimate: func(e ratings.Estimate) string { return estimateText(pg, e) }})), nil
}

// gradeName writes a grade of the GoR scale (ratings.GoRRank) in the
// page's language.
func gradeName(l kit.Lang, g int) string { return kit.RankName(l, registry.Rank(g)) }

// estimateText is "3 dan (2 dan – 4 dan, 95 %)".
func estimateText(p kit.Page, e ratings.Estimate) string {
	if e.Low == e.High {
		return gradeName(p.Lang, e.Rank)
	}
	return fmt.Sprintf(p.T["rating_estimate_fmt"], gradeName(p.Lang, e.Rank), gradeName(p.Lang, e.Low), gradeName(p.Lang, e.High))
}

func winsText(w float64) string { return strconv.FormatFloat(w, 'f', -1, 64) }
