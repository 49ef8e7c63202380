package draw

import "strconv"

// Bars is a horizontal bar chart drawn as SVG on the server (BarChart),
// laid out.
type Bars struct {
	Title  string // also the text alternative
	Height int
	Bars   []Bar
}

// Bar is one bar of a chart, laid out.
type Bar struct {
	Label, Value string
	Y, Width     int
}

// The chart's geometry, in SVG user units.
const (
	chartLabelWidth = 210
	chartBarMax     = 300
	chartRow        = 24
	chartWidth      = chartLabelWidth + chartBarMax + 50
)

// NewBars lays out a bar per label, the longest value spanning the chart.
func NewBars(title string, labels []string, values []int) *Bars {
	top := 0
	for _, v := range values {
		top = max(top, v)
	}
	c := &Bars{Title: title, Height: len(values)*chartRow + 4}
	for i, v := range values {
		w := 0
		if top > 0 {
			w = v * chartBarMax / top
		}
		c.Bars = append(c.Bars, Bar{Label: labels[i], Value: strconv.Itoa(v), Y: i*chartRow + 2, Width: w})
	}
	return c
}
