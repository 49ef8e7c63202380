package draw

import (
	"fmt"
	"html"
	"strconv"
	"strings"
)

// The audit report's charts are SVG drawn on the server: a pure function
// of their numbers, no script. StackedBars draws one horizontal bar per
// row (an agency) split into series (ranks); Trend draws lines over years.

// Series is one series of a chart: its legend and colour.
type Series struct {
	Name  string
	Color string
}

// StackRow is one bar of a stacked chart: its label and a value per series.
type StackRow struct {
	Label  string
	Values []int
}

// stackSegment is one series' part of a bar, laid out.
type stackSegment struct {
	Series   int
	Value    int
	X, Width float64
}

// stackLaid is a bar laid out: its segments left to right and its total.
type stackLaid struct {
	Label    string
	Y        float64
	Total    int
	Segments []stackSegment
}

// The stacked chart's geometry, in SVG user units.
const (
	stackLabelW = 64
	stackBarMax = 440
	stackRowH   = 18
	stackLegend = 22
	stackWidth  = stackLabelW + stackBarMax + 56
)

// layoutStacks lays the bars out: the longest total spans stackBarMax,
// zero segments are left out.
func layoutStacks(rows []StackRow) (laid []stackLaid, top int) {
	for _, r := range rows {
		t := 0
		for _, v := range r.Values {
			t += max(v, 0)
		}
		top = max(top, t)
	}
	for i, r := range rows {
		l := stackLaid{Label: r.Label, Y: float64(stackLegend + i*stackRowH)}
		x := float64(stackLabelW)
		for s, v := range r.Values {
			if v <= 0 {
				continue
			}
			w := float64(v) * stackBarMax / float64(top)
			l.Segments = append(l.Segments, stackSegment{Series: s, Value: v, X: x, Width: w})
			l.Total += v
			x += w
		}
		laid = append(laid, l)
	}
	return laid, top
}

// StackedBars is the stacked bar chart; "" without a bar to draw.
func StackedBars(title, testID string, series []Series, rows []StackRow) string {
	laid, top := layoutStacks(rows)
	if top == 0 {
		return ""
	}
	height := stackLegend + len(laid)*stackRowH + 4
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s" data-testid="%s">`,
		stackWidth, height, stackWidth, height, html.EscapeString(title), html.EscapeString(testID))
	fmt.Fprintf(&b, `<title>%s</title><g font-family="sans-serif" font-size="11" fill="#333">`, html.EscapeString(title))
	x := float64(stackLabelW)
	for _, s := range series {
		fmt.Fprintf(&b, `<rect x="%.1f" y="4" width="10" height="10" fill="%s"/><text x="%.1f" y="13">%s</text>`,
			x, s.Color, x+13, html.EscapeString(s.Name))
		x += 18 + 7*float64(len([]rune(s.Name))) + 8
	}
	for _, l := range laid {
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`, stackLabelW-6, l.Y+12, html.EscapeString(l.Label))
		end := float64(stackLabelW)
		for _, sg := range l.Segments {
			name := ""
			if sg.Series < len(series) {
				name = series[sg.Series].Name
			}
			color := "#888"
			if sg.Series < len(series) {
				color = series[sg.Series].Color
			}
			fmt.Fprintf(&b, `<rect class="segment" data-series="%d" data-value="%d" x="%.1f" y="%.1f" width="%.1f" height="%d" fill="%s"><title>%s %s: %d</title></rect>`,
				sg.Series, sg.Value, sg.X, l.Y+2, sg.Width, stackRowH-4, color, html.EscapeString(l.Label), html.EscapeString(name), sg.Value)
			end = sg.X + sg.Width
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%d</text>`, end+4, l.Y+12, l.Total)
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}

// TrendLine is one series of a trend chart: a value per year.
type TrendLine struct {
	Series Series
	Values []int
}

// The trend chart's geometry.
const (
	trendW, trendH                               = 560, 200
	trendLeft, trendRight, trendTop, trendBottom = 48, 16, 24, 28
)

// trendPoints are a line's points: x by the year's index among n, y by
// value against top (0 at the bottom).
func trendPoints(values []int, n, top int) [][2]float64 {
	pts := make([][2]float64, len(values))
	for i, v := range values {
		x := float64(trendLeft + (trendW-trendLeft-trendRight)/2)
		if n > 1 {
			x = trendLeft + float64(i)*float64(trendW-trendLeft-trendRight)/float64(n-1)
		}
		y := float64(trendH - trendBottom)
		if top > 0 {
			y -= float64(v) * float64(trendH-trendTop-trendBottom) / float64(top)
		}
		pts[i] = [2]float64{x, y}
	}
	return pts
}

// Trend draws the lines over the years labelled; "" without a year.
func Trend(title, testID string, years []string, lines []TrendLine) string {
	if len(years) == 0 || len(lines) == 0 {
		return ""
	}
	top := 0
	for _, l := range lines {
		for _, v := range l.Values {
			top = max(top, v)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s" data-testid="%s">`,
		trendW, trendH, trendW, trendH, html.EscapeString(title), html.EscapeString(testID))
	fmt.Fprintf(&b, `<title>%s</title><g font-family="sans-serif" font-size="11" fill="#333">`, html.EscapeString(title))
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#999"/>`, trendLeft, trendH-trendBottom, trendW-trendRight, trendH-trendBottom)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%d</text><text x="%d" y="%d" text-anchor="end">0</text>`,
		trendLeft-6, trendTop+4, top, trendLeft-6, trendH-trendBottom+4)
	for i, p := range trendPoints(make([]int, len(years)), len(years), top) {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, p[0], trendH-8, html.EscapeString(years[i]))
	}
	x := float64(trendLeft)
	for _, l := range lines {
		fmt.Fprintf(&b, `<rect x="%.1f" y="4" width="10" height="10" fill="%s"/><text x="%.1f" y="13">%s</text>`,
			x, l.Series.Color, x+13, html.EscapeString(l.Series.Name))
		x += 18 + 7*float64(len([]rune(l.Series.Name))) + 8
		pts := trendPoints(l.Values, len(years), top)
		var coords []string
		for _, p := range pts {
			coords = append(coords, strconv.FormatFloat(p[0], 'f', 1, 64)+","+strconv.FormatFloat(p[1], 'f', 1, 64))
		}
		fmt.Fprintf(&b, `<polyline class="trend" points="%s" fill="none" stroke="%s" stroke-width="2"/>`, strings.Join(coords, " "), l.Series.Color)
		for i, p := range pts {
			fmt.Fprintf(&b, `<circle class="point" data-value="%d" cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s %s: %d</title></circle>`,
				l.Values[i], p[0], p[1], l.Series.Color, html.EscapeString(years[min(i, len(years)-1)]), html.EscapeString(l.Series.Name), l.Values[i])
		}
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}
