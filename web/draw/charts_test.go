package draw

import (
	"math"
	"strings"
	"testing"
)

// TestLayoutStacks: the longest bar spans the chart, segments are
// proportional and in series order, zeros are left out.
func TestLayoutStacks(t *testing.T) {
	tests := []struct {
		name   string
		rows   []StackRow
		top    int
		widths [][]float64 // per row, its segments' widths
		series [][]int
	}{
		{"empty", nil, 0, nil, nil},
		{"all zero", []StackRow{{"110", []int{0, 0}}}, 0, [][]float64{nil}, [][]int{nil}},
		{"one bar", []StackRow{{"110", []int{1, 3}}}, 4, [][]float64{{110, 330}}, [][]int{{0, 1}}},
		{"two bars, a zero skipped", []StackRow{{"110", []int{2, 0, 2}}, {"310", []int{0, 1, 0}}}, 4,
			[][]float64{{220, 220}, {110}}, [][]int{{0, 2}, {1}}},
		{"negative counts as none", []StackRow{{"110", []int{-5, 8}}}, 8, [][]float64{{440}}, [][]int{{1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			laid, top := layoutStacks(tt.rows)
			if top != tt.top || len(laid) != len(tt.rows) {
				t.Fatalf("top %d rows %d, want %d %d", top, len(laid), tt.top, len(tt.rows))
			}
			for i, l := range laid {
				if len(l.Segments) != len(tt.widths[i]) {
					t.Fatalf("row %d: %d segments, want %d", i, len(l.Segments), len(tt.widths[i]))
				}
				x := float64(stackLabelW)
				for j, s := range l.Segments {
					if math.Abs(s.Width-tt.widths[i][j]) > 1e-9 || s.Series != tt.series[i][j] || math.Abs(s.X-x) > 1e-9 {
						t.Errorf("row %d segment %d: %+v, want width %v series %d at %v", i, j, s, tt.widths[i][j], tt.series[i][j], x)
					}
					x += s.Width
				}
			}
		})
	}
}

// TestAuditChartsSVG: the charts draw a rect per non-zero segment and a
// point per year, escape their words, and draw nothing without data.
func TestAuditChartsSVG(t *testing.T) {
	series := []Series{{"级位 & <kyu>", "#aaa"}, {"1段", "#333"}}
	tests := []struct {
		name      string
		svg       string
		want      []string
		segments  int
		points    int
		forbidden []string
	}{
		{"stacked", StackedBars("发放 <x>", "c", series, []StackRow{{"110", []int{3, 1}}, {"310", []int{0, 2}}}),
			[]string{`data-testid="c"`, `aria-label="发放 &lt;x&gt;"`, "级位 &amp; &lt;kyu&gt;", `data-value="3"`, `>4</text>`}, 3, 0, []string{"<kyu>"}},
		{"stacked, nothing issued", StackedBars("t", "c", series, []StackRow{{"110", []int{0, 0}}}), nil, 0, 0, []string{"<svg"}},
		{"trend", Trend("趋势", "t", []string{"2024", "2025", "2026"}, []TrendLine{{Series{"全国", "#00f"}, []int{5, 0, 10}}}),
			[]string{`data-testid="t"`, "2024", "2026", `points="48.0,98.0 296.0,172.0 544.0,24.0"`, `>10</text>`}, 0, 3, nil},
		{"trend of one year", Trend("t", "t", []string{"2026"}, []TrendLine{{Series{"x", "#00f"}, []int{0}}}),
			[]string{`points="296.0,172.0"`}, 0, 1, nil},
		{"trend without years", Trend("t", "t", nil, nil), nil, 0, 0, []string{"<svg"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, w := range tt.want {
				if !strings.Contains(tt.svg, w) {
					t.Errorf("missing %q in\n%s", w, tt.svg)
				}
			}
			for _, f := range tt.forbidden {
				if strings.Contains(tt.svg, f) {
					t.Errorf("has %q", f)
				}
			}
			if n := strings.Count(tt.svg, `class="segment"`); n != tt.segments {
				t.Errorf("%d segments, want %d", n, tt.segments)
			}
			if n := strings.Count(tt.svg, `class="point"`); n != tt.points {
				t.Errorf("%d points, want %d", n, tt.points)
			}
		})
	}
}
