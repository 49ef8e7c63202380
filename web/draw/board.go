// Package draw is the portal's pictures and documents: the board, the
// charts (SVG) and the PDFs. Pure functions of their data and of words
// already in the page's language; nothing here knows HTTP or the portal's
// pages.
package draw

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/rules"
)

// boardCell is the distance between two lines of a drawn board, in SVG units.
const boardCell = 24

// boardColumns are the column letters of a board, I left out.
const boardColumns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// Board draws a position as SVG: the lines, the stones, the last move,
// the point of every illegal move (a red ring and cross), and at the end
// the dead stones (crossed) and the counted points (a small square of
// their owner's colour). label is the picture's accessible name.
func Board(pos rules.Position, label string) string {
	n := pos.Size
	if n <= 0 {
		return ""
	}
	const m = boardCell + 4 // margin, room for the coordinates
	side := 2*m + (n-1)*boardCell
	at := func(i int) int { return m + i*boardCell }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s" data-testid="board" data-size="%d" data-moves="%d">`,
		side, side, side, side, html.EscapeString(label), n, pos.Moves)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="#dcb35c"/>`, side, side)
	b.WriteString(`<g stroke="#222" stroke-width="1">`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, at(0), at(i), at(n-1), at(i))
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, at(i), at(0), at(i), at(n-1))
	}
	b.WriteString(`</g><g fill="#222">`)
	for _, c := range starPoints(n) {
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="3"/>`, at(c.X), at(c.Y))
	}
	b.WriteString(`</g><g font-family="sans-serif" font-size="11" fill="#222" text-anchor="middle">`)
	for i := 0; i < n && i < len(boardColumns); i++ {
		fmt.Fprintf(&b, `<text x="%d" y="%d">%c</text><text x="%d" y="%d">%c</text>`, at(i), m-boardCell/2-2, boardColumns[i], at(i), side-6, boardColumns[i])
		row := strconv.Itoa(n - i)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text><text x="%d" y="%d">%s</text>`, m/2-2, at(i)+4, row, side-m/2+2, at(i)+4, row)
	}
	b.WriteString(`</g>`)
	dead := map[rules.Coord]bool{}
	for _, c := range pos.Dead {
		dead[c] = true
	}
	r := boardCell/2 - 1
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			c := pos.Board[y][x]
			if c != rules.Black && c != rules.White {
				continue
			}
			pt := rules.SGFPoint(rules.Coord{X: x, Y: y})
			fill, stroke, class := "#111", "#000", "stone black"
			if c == rules.White {
				fill, stroke, class = "#fafafa", "#333", "stone white"
			}
			opacity := ""
			if dead[rules.Coord{X: x, Y: y}] {
				class += " dead"
				opacity = ` opacity="0.45"`
			}
			fmt.Fprintf(&b, `<circle class="%s" data-point="%s" cx="%d" cy="%d" r="%d" fill="%s" stroke="%s"%s/>`, class, pt, at(x), at(y), r, fill, stroke, opacity)
		}
	}
	if pos.Final && pos.Owner != nil {
		s := boardCell / 3
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				owner := pos.Owner[y][x]
				stone := pos.Board[y][x]
				if (owner != rules.Black && owner != rules.White) || (stone == owner && !dead[rules.Coord{X: x, Y: y}]) {
					continue // neutral, or a live stone counting for its side
				}
				fill, class := "#111", "area black"
				if owner == rules.White {
					fill, class = "#fafafa", "area white"
				}
				fmt.Fprintf(&b, `<rect class="%s" data-point="%s" x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#555" stroke-width="0.5"/>`,
					class, rules.SGFPoint(rules.Coord{X: x, Y: y}), at(x)-s/2, at(y)-s/2, s, s, fill)
			}
		}
		for c := range dead {
			fmt.Fprintf(&b, `<g class="dead-mark" stroke="#c00" stroke-width="2"><line x1="%d" y1="%d" x2="%d" y2="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/></g>`,
				at(c.X)-5, at(c.Y)-5, at(c.X)+5, at(c.Y)+5, at(c.X)-5, at(c.Y)+5, at(c.X)+5, at(c.Y)-5)
		}
	}
	if pos.Last != nil {
		mark := "#fafafa"
		if pos.Board[pos.Last.Y][pos.Last.X] == rules.White {
			mark = "#111"
		}
		fmt.Fprintf(&b, `<circle class="last-move" data-point="%s" cx="%d" cy="%d" r="%d" fill="none" stroke="%s" stroke-width="2"/>`,
			rules.SGFPoint(*pos.Last), at(pos.Last.X), at(pos.Last.Y), r/2, mark)
	}
	for _, il := range pos.Illegal {
		if il.At.X < 0 || il.At.Y < 0 || il.At.X >= n || il.At.Y >= n {
			continue
		}
		x, y := at(il.At.X), at(il.At.Y)
		fmt.Fprintf(&b, `<g class="illegal" data-point="%s" data-move="%d" data-reason="%s" stroke="#d00" stroke-width="3" fill="none"><circle cx="%d" cy="%d" r="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/></g>`,
			rules.SGFPoint(il.At), il.Move, html.EscapeString(il.Reason), x, y, r, x-6, y-6, x+6, y+6, x-6, y+6, x+6, y-6)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// starPoints are the marked points of a board of n lines.
func starPoints(n int) []rules.Coord {
	var lines []int
	switch {
	case n >= 15:
		lines = []int{3, n / 2, n - 4}
	case n >= 9:
		lines = []int{2, n - 3}
		if n%2 == 1 {
			lines = []int{2, n / 2, n - 3}
		}
	default:
		return nil
	}
	var out []rules.Coord
	for _, y := range lines {
		for _, x := range lines {
			if n < 15 && n%2 == 1 && (x == n/2) != (y == n/2) {
				continue // small boards: the corners and the centre
			}
			out = append(out, rules.Coord{X: x, Y: y})
		}
	}
	return out
}

// GamePosition replays the first game of an SGF record up to move upto (all
// when negative) for drawing.
func GamePosition(sgf []byte, opt rules.Options, upto int) (rules.Position, error) {
	trees, err := rules.ParseSGF(sgf)
	if err != nil {
		return rules.Position{}, err
	}
	if len(trees) == 0 {
		return rules.Position{}, fmt.Errorf("no game in the record")
	}
	g, err := rules.GameFromTree(trees[0])
	if err != nil {
		return rules.Position{}, err
	}
	return rules.Replay(g, opt, upto)
}
