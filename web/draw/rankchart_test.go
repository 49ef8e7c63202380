package draw

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/registry"
)

var (
	rankLinePoints = regexp.MustCompile(`class="rank-line" points="([^"]*)"`)
	rankPointAt    = regexp.MustCompile(`data-rank="([^"]+)" data-date="[^"]*" cx="[^"]*" cy="([^"]*)"`)
	xLabel         = regexp.MustCompile(`<text class="x-label" x="([^"]*)" y="[^"]*" text-anchor="(start|middle)">([^<]*)</text>`)
	yLabel         = regexp.MustCompile(`<text x="[^"]*" y="([^"]*)" text-anchor="end">`)
)

// TestRankChartSameDayAndLabels (issue 24): two certificates of one date
// end the line at the higher rank whatever order they come in; the x
// labels never overlap however long the history, the rank labels keep
// their distance, and the drawing scales to its box.
func TestRankChartSameDayAndLabels(t *testing.T) {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	cert := func(r registry.Rank, date time.Time, at int) certs.Certificate {
		return certs.Certificate{Rank: r, IssueDate: date, IssuedAt: date.Add(time.Duration(at) * time.Minute), Status: certs.CertValid}
	}
	long := []certs.Certificate{cert(-15, day(2001, 3, 1), 0)}
	for i, r := range []registry.Rank{-10, -5, -1, 1, 2, 3, 4, 5, 6, 7} {
		long = append(long, cert(r, day(2003+2*i, 5, 1), 0))
	}
	tests := []struct {
		name string
		cs   []certs.Certificate
		last registry.Rank
	}{
		{"newest first (the database's order)", []certs.Certificate{cert(2, day(2026, 6, 1), 2), cert(1, day(2026, 6, 1), 1)}, 2},
		{"oldest first", []certs.Certificate{cert(1, day(2026, 6, 1), 1), cert(2, day(2026, 6, 1), 2)}, 2},
		{"one day, three ranks, shuffled", []certs.Certificate{cert(3, day(2025, 1, 9), 0), cert(-1, day(2020, 1, 1), 0), cert(1, day(2025, 1, 9), 0), cert(2, day(2025, 1, 9), 0)}, 3},
		{"twenty-five years", long, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svg := RankHistory("段位", func(r registry.Rank) string { return r.String() }, tt.cs)
			m := rankLinePoints.FindStringSubmatch(svg)
			if m == nil {
				t.Fatalf("no rank line:\n%s", svg)
			}
			pts := regexp.MustCompile(`[ ,]`).Split(m[1], -1)
			lastY := pts[len(pts)-1]
			var want string
			for _, p := range rankPointAt.FindAllStringSubmatch(svg, -1) {
				if p[1] == tt.last.String() {
					want = p[2]
				}
			}
			if want == "" || lastY != want {
				t.Errorf("the line ends at y=%s, the %s point is at y=%q", lastY, tt.last, want)
			}
			type span struct{ lo, hi float64 }
			var spans []span
			for _, l := range xLabel.FindAllStringSubmatch(svg, -1) {
				x, _ := strconv.ParseFloat(l[1], 64)
				w := float64(len(l[3])) * 6.2 // an 11-unit sans-serif digit or hyphen is at most ~6.2 wide
				if l[2] == "middle" {
					spans = append(spans, span{x - w/2, x + w/2})
				} else {
					spans = append(spans, span{x, x + w})
				}
			}
			if len(spans) < 2 {
				t.Errorf("%d x labels, want the first date and at least one year", len(spans))
			}
			sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
			for i := 1; i < len(spans); i++ {
				if spans[i].lo < spans[i-1].hi {
					t.Errorf("x labels overlap: %v and %v", spans[i-1], spans[i])
				}
			}
			var ys []float64
			for _, l := range yLabel.FindAllStringSubmatch(svg, -1) {
				y, _ := strconv.ParseFloat(l[1], 64)
				ys = append(ys, y)
			}
			for i := 1; i < len(ys); i++ {
				if math.Abs(ys[i]-ys[i-1]) < 12 {
					t.Errorf("rank labels %v apart at y=%v", math.Abs(ys[i]-ys[i-1]), ys[i])
				}
			}
			if !regexp.MustCompile(`<svg [^>]*viewBox="0 0 600 220" width="100%"`).MatchString(svg) {
				t.Errorf("the chart does not scale to its box: %.200s", svg)
			}
		})
	}
}
