package draw

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
)

// RatingText is a rating with its 95 % margin: "2150 ± 80".
func RatingText(x, sd float64) string { return fmt.Sprintf("%.0f ± %.0f", x, 1.96*sd) }

// RatingChart is a rating history drawn as SVG on the server
// (RatingSVG), laid out: the rating after each event, its 95 % band, grade
// lines, and the certified rank as a step line where the player holds
// certificates.
type RatingChart struct {
	Title         string
	CertifiedName string // the certified rank's line
	Width, Height int
	Line, Band    string       // polyline and polygon points
	Certified     string       // polyline points; empty without certificates
	CertMarks     []ChartPoint // each certificate at its issue
	Points        []ChartPoint
	Grades        []GradeLine
	Left, Right   int
	First, Last   string // dates under the axis
	Bottom        int
}

// ChartPoint is a marked point and its tooltip.
type ChartPoint struct {
	X, Y  int
	Title string
}

// GradeLine is a grade's line across the chart.
type GradeLine struct {
	Y     int
	Label string
}

// The rating chart's geometry, in SVG user units.
const (
	rcWidth, rcHeight = 640, 260
	rcLeft, rcRight   = 64, 16
	rcTop, rcBottom   = 12, 28
)

// RatingWords word a rating chart in the page's language.
type RatingWords struct {
	Title     string                        // the chart's name, its text alternative
	Certified string                        // the certified rank's line
	Rank      func(registry.Rank) string    // a rank, or a grade of the GoR scale
	Estimate  func(ratings.Estimate) string // a rating's estimated rank
}

// NewRatingChart lays out a player's rating history with his certificates
// (nil without a rated event).
func NewRatingChart(r book.Rating, cs []certs.Certificate, w RatingWords) *RatingChart {
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
	c := &RatingChart{Title: w.Title, CertifiedName: w.Certified, Width: rcWidth, Height: rcHeight,
		Left: rcLeft, Right: rcWidth - rcRight, Bottom: rcHeight - rcBottom,
		First: t0.Format("2006-01-02"), Last: t1.Format("2006-01-02")}
	var upper, lower string
	for i, h := range hs {
		px := x(h.Date)
		c.Line += fmt.Sprintf("%d,%d ", px, y(h.Rating))
		upper += fmt.Sprintf("%d,%d ", px, y(h.Rating+1.96*h.SD))
		j := len(hs) - 1 - i
		lower += fmt.Sprintf("%d,%d ", x(hs[j].Date), y(hs[j].Rating-1.96*hs[j].SD))
		c.Points = append(c.Points, ChartPoint{X: px, Y: y(h.Rating), Title: fmt.Sprintf("%s %s: %s (%s)",
			h.Date.Format("2006-01-02"), h.EventName, RatingText(h.Rating, h.SD), w.Estimate(h.Estimate))})
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
		label := w.Rank(registry.Rank(ratings.GoRRank(v)))
		if k%every == 0 && label != last { // beyond 9 dan and 30 kyu the grades stop
			c.Grades = append(c.Grades, GradeLine{Y: y(v), Label: label})
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
		c.CertMarks = append(c.CertMarks, ChartPoint{X: x(s.IssueDate), Y: g, Title: fmt.Sprintf("%s %s %s",
			s.IssueDate.Format("2006-01-02"), w.Certified, w.Rank(s.Rank))})
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
