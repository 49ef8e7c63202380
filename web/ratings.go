package web

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/a-h/templ"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
)

// Ratings is what the rating pages read: a player's rating with its
// history, and the public lists.
type Ratings interface {
	PlayerRating(ctx context.Context, playerID int64) (book.Rating, error)
	ListRatings(ctx context.Context, q book.ListQuery) ([]book.Rating, error)
}

// ratingPages are the public rating lists by province and rank.
type ratingPages struct {
	*site
	ratings Ratings
}

func (p *ratingPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /ratings", p.list)
}

// ratingListPage is the number of players one list page shows.
const ratingListPage = 50

// ratingFilter is the list's form.
type ratingFilter struct {
	Province, Rank string
	Page           int
}

func (f ratingFilter) url(page int) string {
	return "/ratings?" + url.Values{"province": {f.Province}, "rank": {f.Rank}, "page": {strconv.Itoa(page)}}.Encode()
}

func (p *ratingPages) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := ratingFilter{Province: q.Get("province"), Rank: q.Get("rank")}
	f.Page, _ = strconv.Atoi(q.Get("page"))
	f.Page = min(max(f.Page, 1), book.MaxOffset/ratingListPage)
	pg := p.page(w, r, "ratings")
	if p.ratings == nil {
		p.render(w, r, http.StatusOK, ratingsPage(pg, f, nil, 0, "", ""))
		return
	}
	rs, err := p.ratings.ListRatings(r.Context(), book.ListQuery{Province: f.Province, Rank: f.Rank,
		Limit: ratingListPage + 1, Offset: (f.Page - 1) * ratingListPage})
	if ledger.KindOf(err) == ledger.Invalid {
		p.render(w, r, http.StatusBadRequest, ratingsPage(pg, f, nil, 0, p.userError(r, pg, err), ""))
		return
	}
	if err != nil {
		p.fail(w, r, err)
		return
	}
	next := ""
	if len(rs) > ratingListPage {
		rs, next = rs[:ratingListPage], f.url(f.Page+1)
	}
	p.render(w, r, http.StatusOK, ratingsPage(pg, f, rs, (f.Page-1)*ratingListPage, "", next))
}

// ratingSection is the rating part of a player's public page: his rating
// and estimate, the SVG chart of his history and its table; nil when the
// portal has no ratings, an empty note when he has no rated game.
func ratingSection(ctx context.Context, pg Page, rs Ratings, playerID int64, cs []certs.Certificate) (templ.Component, error) {
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
	return playerRating(pg, &r, newRatingChart(pg, r, cs)), nil
}

// gradeName writes a grade of the GoR scale (ratings.GoRRank) in the
// page's language.
func gradeName(l Lang, g int) string { return rankName(l, registry.Rank(g)) }

// estimateText is "3 dan (2 dan – 4 dan, 95 %)".
func estimateText(p Page, e ratings.Estimate) string {
	if e.Low == e.High {
		return gradeName(p.Lang, e.Rank)
	}
	return fmt.Sprintf(p.T["rating_estimate_fmt"], gradeName(p.Lang, e.Rank), gradeName(p.Lang, e.Low), gradeName(p.Lang, e.High))
}

func ratingText(x, sd float64) string { return fmt.Sprintf("%.0f ± %.0f", x, 1.96*sd) }

func winsText(w float64) string { return strconv.FormatFloat(w, 'f', -1, 64) }

// ratingChart is a rating history drawn as SVG on the server: the rating
// after each event, its 95 % band, grade lines, and the certified rank as
// a step line where the player holds certificates.
type ratingChart struct {
	Title         string
	Width, Height int
	Line, Band    string       // polyline and polygon points
	Certified     string       // polyline points; empty without certificates
	CertMarks     []chartPoint // each certificate at its issue
	Points        []chartPoint
	Grades        []gradeLine
	Left, Right   int
	First, Last   string // dates under the axis
	Bottom        int
}

type chartPoint struct {
	X, Y  int
	Title string
}

type gradeLine struct {
	Y     int
	Label string
}

// The rating chart's geometry, in SVG user units.
const (
	rcWidth, rcHeight = 640, 260
	rcLeft, rcRight   = 64, 16
	rcTop, rcBottom   = 12, 28
)

func newRatingChart(p Page, r book.Rating, cs []certs.Certificate) *ratingChart {
	hs := r.History
	if len(hs) == 0 {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, h := range hs {
		lo, hi = min(lo, h.Rating-1.96*h.SD), max(hi, h.Rating+1.96*h.SD)
	}
	var steps []certs.Certificate
	for _, c := range cs {
		if c.Status != certs.CertRevoked {
			steps = append(steps, c)
			g := ratings.GradeGoR(int(c.Rank))
			lo, hi = min(lo, g), max(hi, g)
		}
	}
	slices.SortStableFunc(steps, func(a, b certs.Certificate) int { return a.IssueDate.Compare(b.IssueDate) })
	lo, hi = math.Floor(lo/100)*100-50, math.Ceil(hi/100)*100+50
	// the time axis runs from the first event to the last event or
	// certificate, whichever is later; older certificates start at its edge
	t0, t1 := hs[0].Date, hs[len(hs)-1].Date
	for _, h := range hs {
		t0, t1 = minTime(t0, h.Date), maxTime(t1, h.Date)
	}
	if len(steps) > 0 {
		t1 = maxTime(t1, steps[len(steps)-1].IssueDate)
	}
	span := t1.Sub(t0).Hours()
	plotW, plotH := float64(rcWidth-rcLeft-rcRight), float64(rcHeight-rcTop-rcBottom)
	x := func(t time.Time) int {
		if span <= 0 {
			return rcLeft + int(plotW/2)
		}
		return rcLeft + int(math.Round(plotW*min(max(t.Sub(t0).Hours()/span, 0), 1)))
	}
	y := func(v float64) int { return rcTop + int(math.Round(plotH*(hi-v)/(hi-lo))) }
	c := &ratingChart{Title: fmt.Sprintf(p.T["rating_chart_title"], r.Name), Width: rcWidth, Height: rcHeight,
		Left: rcLeft, Right: rcWidth - rcRight, Bottom: rcHeight - rcBottom,
		First: t0.Format("2006-01-02"), Last: t1.Format("2006-01-02")}
	var upper, lower string
	for i, h := range hs {
		px := x(h.Date)
		c.Line += fmt.Sprintf("%d,%d ", px, y(h.Rating))
		upper += fmt.Sprintf("%d,%d ", px, y(h.Rating+1.96*h.SD))
		j := len(hs) - 1 - i
		lower += fmt.Sprintf("%d,%d ", x(hs[j].Date), y(hs[j].Rating-1.96*hs[j].SD))
		c.Points = append(c.Points, chartPoint{X: px, Y: y(h.Rating), Title: fmt.Sprintf("%s %s: %s (%s)",
			h.Date.Format("2006-01-02"), h.EventName, ratingText(h.Rating, h.SD), estimateText(p, h.Estimate))})
	}
	if len(hs) == 1 { // a band needs width: a short bar around the one point
		px := x(hs[0].Date)
		upper = fmt.Sprintf("%d,%d %d,%d ", px-6, y(hs[0].Rating+1.96*hs[0].SD), px+6, y(hs[0].Rating+1.96*hs[0].SD))
		lower = fmt.Sprintf("%d,%d %d,%d ", px+6, y(hs[0].Rating-1.96*hs[0].SD), px-6, y(hs[0].Rating-1.96*hs[0].SD))
	}
	c.Band = upper + lower
	// one line per grade, labelled every grade when few, else every other
	every := 1
	if (hi-lo)/100 > 10 {
		every = 2
	}
	last := ""
	for v, k := math.Ceil(lo/100)*100, 0; v <= hi; v, k = v+100, k+1 {
		label := gradeName(p.Lang, ratings.GoRRank(v))
		if k%every == 0 && label != last { // beyond 9 dan and 30 kyu the grades stop
			c.Grades = append(c.Grades, gradeLine{Y: y(v), Label: label})
			last = label
		}
	}
	// the certified rank: a step line from each certificate's issue on
	// (its rank as GoR), from the chart's left edge when issued before
	for i, s := range steps {
		g := y(ratings.GradeGoR(int(s.Rank)))
		to := rcWidth - rcRight
		if i+1 < len(steps) {
			to = x(steps[i+1].IssueDate)
		}
		c.Certified += fmt.Sprintf("%d,%d %d,%d ", x(s.IssueDate), g, max(to, x(s.IssueDate)), g)
		c.CertMarks = append(c.CertMarks, chartPoint{X: x(s.IssueDate), Y: g, Title: fmt.Sprintf("%s %s %s",
			s.IssueDate.Format("2006-01-02"), p.T["rating_certified_line"], rankName(p.Lang, s.Rank))})
	}
	return c
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
