package draw

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/registry"
)

// rankLevel puts kyu and dan on one scale without the gap at 0: 1 kyu is
// 0, 1 dan 1, 2 kyu -1.
func rankLevel(r registry.Rank) int {
	if r > 0 {
		return int(r)
	}
	return int(r) + 1
}

// levelRank is rankLevel's inverse.
func levelRank(l int) registry.Rank {
	if l > 0 {
		return registry.Rank(l)
	}
	return registry.Rank(l - 1)
}

// The room the chart's labels take, in the drawing's units at font size
// 11: a label is not drawn where it would touch the one before.
const (
	rankLabelGap   = 14 // vertical, between rank labels
	dateLabelWidth = 44 // "2006-01"
	yearLabelWidth = 28 // "2006"
	labelPad       = 6
)

// RankHistory draws a player's certified rank over time as an SVG step
// chart: each certificate a point at its issue date and rank, the line
// through the valid ones (and those replaced by a reissue, which kept the
// rank); a revoked certificate is a red ring off the line. label is the
// picture's accessible name, rankName words a rank; "" without a dated
// certificate.
func RankHistory(label string, rankName func(registry.Rank) string, cs []certs.Certificate) string {
	var pts []certs.Certificate
	for _, c := range cs {
		if !c.IssueDate.IsZero() && c.Rank != registry.NoRank {
			pts = append(pts, c)
		}
	}
	if len(pts) == 0 {
		return ""
	}
	// certificates of one date in rising rank (then issue time): a
	// promotion by two steps on one day ends at the higher rank
	sort.SliceStable(pts, func(i, j int) bool {
		a, b := pts[i], pts[j]
		if !a.IssueDate.Equal(b.IssueDate) {
			return a.IssueDate.Before(b.IssueDate)
		}
		if a.Rank != b.Rank {
			return rankLevel(a.Rank) < rankLevel(b.Rank)
		}
		return a.IssuedAt.Before(b.IssuedAt)
	})
	lo, hi := rankLevel(pts[0].Rank), rankLevel(pts[0].Rank)
	for _, c := range pts {
		lo, hi = min(lo, rankLevel(c.Rank)), max(hi, rankLevel(c.Rank))
	}
	lo, hi = lo-1, hi+1
	first, last := pts[0].IssueDate, pts[len(pts)-1].IssueDate
	span := last.Sub(first)
	if span < 365*24*time.Hour {
		span = 365 * 24 * time.Hour
	}
	end := first.Add(span + span/10)
	const width, height, left, right, top, bottom = 600, 220, 56, 16, 12, 28
	x := func(t time.Time) float64 {
		return left + float64(t.Sub(first))/float64(end.Sub(first))*(width-left-right)
	}
	y := func(l int) float64 {
		return top + float64(hi-l)/float64(hi-lo)*(height-top-bottom)
	}
	var b strings.Builder
	// the drawing scales to its box (a phone's 390 px); no style attribute,
	// which the pages' Content-Security-Policy would refuse
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 %d %d" width="100%%" preserveAspectRatio="xMinYMin meet" role="img" aria-label="%s" data-testid="rank-chart">`,
		width, height, html.EscapeString(label))
	b.WriteString(`<g font-family="sans-serif" font-size="11" fill="#333">`)
	// rank labels at least rankLabelGap apart: every rank of a short span,
	// every second or third of a long one
	step := max(1, int(math.Ceil(rankLabelGap*float64(hi-lo)/(height-top-bottom))))
	for l := lo; l <= hi; l += step {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`, left, y(l), width-right, y(l))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`, left-6, y(l)+4, html.EscapeString(rankName(levelRank(l))))
	}
	// the first date's label ("2006-01", start-anchored), then the years
	// (centred) that leave room beside the last label drawn: over a long
	// span every second or fifth year is named, the grid line stays
	fmt.Fprintf(&b, `<text class="x-label" x="%.1f" y="%d" text-anchor="start">%s</text>`, x(first), height-8, first.Format("2006-01"))
	labelEnd := x(first) + dateLabelWidth
	for yr := first.Year(); yr <= end.Year(); yr++ {
		t := time.Date(yr, 1, 1, 0, 0, 0, 0, first.Location())
		if t.Before(first) || t.After(end) {
			continue
		}
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>`, x(t), top, x(t), height-bottom)
		if x(t)-yearLabelWidth/2 < labelEnd+labelPad || x(t)+yearLabelWidth/2 > width {
			continue
		}
		fmt.Fprintf(&b, `<text class="x-label" x="%.1f" y="%d" text-anchor="middle">%d</text>`, x(t), height-8, yr)
		labelEnd = x(t) + yearLabelWidth/2
	}
	b.WriteString(`</g>`)
	var line []string
	level := 0
	for _, c := range pts {
		if c.Status == certs.CertRevoked {
			continue
		}
		if len(line) > 0 {
			line = append(line, fmt.Sprintf("%.1f,%.1f", x(c.IssueDate), y(level)))
		}
		level = rankLevel(c.Rank)
		line = append(line, fmt.Sprintf("%.1f,%.1f", x(c.IssueDate), y(level)))
	}
	if len(line) > 0 {
		line = append(line, fmt.Sprintf("%.1f,%.1f", x(end), y(level)))
		fmt.Fprintf(&b, `<polyline class="rank-line" points="%s" fill="none" stroke="#1d5fa8" stroke-width="2"/>`, strings.Join(line, " "))
	}
	for _, c := range pts {
		fill, stroke, class := "#1d5fa8", "#1d5fa8", "rank-point"
		if c.Status == certs.CertRevoked {
			fill, stroke, class = "none", "#d00", "rank-point revoked"
		}
		fmt.Fprintf(&b, `<circle class="%s" data-rank="%s" data-date="%s" cx="%.1f" cy="%.1f" r="4" fill="%s" stroke="%s" stroke-width="2"><title>%s %s</title></circle>`,
			class, c.Rank.String(), c.IssueDate.Format(time.DateOnly), x(c.IssueDate), y(rankLevel(c.Rank)), fill, stroke,
			html.EscapeString(rankName(c.Rank)), c.IssueDate.Format(time.DateOnly))
	}
	b.WriteString(`</svg>`)
	return b.String()
}
