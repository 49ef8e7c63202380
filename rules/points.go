package rules

import (
	"strconv"
	"strings"
)

// Coord is a point as column x and row y from 0 at the top left, as SGF has it.
type Coord struct{ X, Y int }

// sgfLetter maps an SGF coordinate letter to 0…51 (a–z, A–Z).
func sgfLetter(c byte) (int, bool) {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a'), true
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 26, true
	}
	return 0, false
}

// ParseSGFPoint reads "dd"; pass reports an empty value or "tt" on boards up to 19.
func ParseSGFPoint(v string, size int) (c Coord, pass bool, err error) {
	v = strings.TrimSpace(v)
	if v == "" || (v == "tt" && size <= 19) {
		return Coord{}, true, nil
	}
	if len(v) != 2 {
		return Coord{}, false, &RecordError{Code: RecordPoint, Value: quote(v)}
	}
	x, okx := sgfLetter(v[0])
	y, oky := sgfLetter(v[1])
	if !okx || !oky {
		return Coord{}, false, &RecordError{Code: RecordPoint, Value: quote(v)}
	}
	return Coord{x, y}, false, nil
}

// ParsePointList expands SGF point lists, including compressed rectangles
// "aa:cc"; one property lists at most MaxPropertyPoints points.
func ParsePointList(values []string, size int) ([]Coord, error) {
	return parsePointList(values, size, nil)
}

// parsePointList is ParsePointList booking the points against a record's
// budget (nil: only the per-property cap). Each rectangle's size is checked
// before it is expanded, so a hostile list costs no memory.
func parsePointList(values []string, size int, b *budget) ([]Coord, error) {
	var out []Coord
	n := 0
	for _, v := range values {
		a, c, isRect := strings.Cut(v, ":")
		p, pass, err := ParseSGFPoint(a, size)
		if err != nil {
			return nil, err
		}
		if pass {
			continue
		}
		q := p
		if isRect {
			if q, _, err = ParseSGFPoint(c, size); err != nil {
				return nil, err
			}
		}
		n += (max(p.X, q.X) - min(p.X, q.X) + 1) * (max(p.Y, q.Y) - min(p.Y, q.Y) + 1)
		if n > MaxPropertyPoints {
			return nil, &LimitError{What: LimitPropertyPoints, Max: MaxPropertyPoints}
		}
	}
	if err := b.take(n); err != nil {
		return nil, err
	}
	out = make([]Coord, 0, n)
	for _, v := range values {
		a, c, isRect := strings.Cut(v, ":")
		p, pass, _ := ParseSGFPoint(a, size)
		if pass {
			continue
		}
		q := p
		if isRect {
			q, _, _ = ParseSGFPoint(c, size)
		}
		for y := min(p.Y, q.Y); y <= max(p.Y, q.Y); y++ {
			for x := min(p.X, q.X); x <= max(p.X, q.X); x++ {
				out = append(out, Coord{x, y})
			}
		}
	}
	return out, nil
}

// SGFPoint writes c as two SGF letters.
func SGFPoint(c Coord) string {
	letter := func(i int) byte {
		if i < 26 {
			return byte('a' + i)
		}
		return byte('A' + i - 26)
	}
	return string([]byte{letter(c.X), letter(c.Y)})
}

// gtpColumns are the GTP column letters: A to Z without I.
const gtpColumns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// ParsePoint reads a point as GTP ("D4", "q16": no letter I, row 1 at the
// bottom) or SGF ("dd").
func ParsePoint(s string, size int) (Coord, error) {
	t := strings.TrimSpace(s)
	if len(t) >= 2 && len(t) <= 3 {
		if col := strings.IndexByte(gtpColumns, upper(t[0])); col >= 0 {
			if row, err := strconv.Atoi(t[1:]); err == nil {
				if col >= size || row < 1 || row > size {
					return Coord{}, &PointError{Value: quote(s), OffBoard: true, Size: size}
				}
				return Coord{col, size - row}, nil
			}
		}
	}
	if len(t) == 2 && t[0] >= 'a' && t[0] <= 'z' && t[1] >= 'a' && t[1] <= 'z' {
		// two lower-case letters always read as an SGF point
		c, _, _ := ParseSGFPoint(t, MaxSize+1)
		if c.X >= size || c.Y >= size {
			return c, &PointError{Value: quote(s), OffBoard: true, Size: size}
		}
		return c, nil
	}
	return Coord{}, &PointError{Value: quote(s)}
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// GTPPoint writes c as GTP coordinates on a board of the given size.
func GTPPoint(c Coord, size int) string {
	return string(gtpColumns[c.X]) + strconv.Itoa(size-c.Y)
}

// HandicapPoints returns the standard handicap points for 9, 13 and 19
// (2–9 stones), as the Chinese rules place them.
func HandicapPoints(size, n int) ([]Coord, error) {
	var edge int
	switch size {
	case 9:
		edge = 2
	case 13, 19:
		edge = 3
	default:
		return nil, &RecordError{Code: RecordHandicapPoints, Property: "HA", Value: strconv.Itoa(n), Size: size, Handicap: n}
	}
	if n < 2 || n > 9 || (size == 9 && n > 9) {
		return nil, &RecordError{Code: RecordHandicapStones, Property: "HA", Value: strconv.Itoa(n), Size: size, Handicap: n}
	}
	lo, mid, hi := edge, size/2, size-1-edge
	// From black's view: top right, bottom left, bottom right, top left, then
	// centre (odd counts), left and right sides, top and bottom sides.
	corners := []Coord{{hi, lo}, {lo, hi}, {hi, hi}, {lo, lo}}
	var pts []Coord
	switch {
	case n <= 4:
		pts = corners[:n]
	case n == 5:
		pts = append(corners, Coord{mid, mid})
	case n == 6:
		pts = append(corners, Coord{lo, mid}, Coord{hi, mid})
	case n == 7:
		pts = append(corners, Coord{lo, mid}, Coord{hi, mid}, Coord{mid, mid})
	case n == 8:
		pts = append(corners, Coord{lo, mid}, Coord{hi, mid}, Coord{mid, lo}, Coord{mid, hi})
	default:
		pts = append(corners, Coord{lo, mid}, Coord{hi, mid}, Coord{mid, lo}, Coord{mid, hi}, Coord{mid, mid})
	}
	return pts, nil
}

// SplitPoints splits a list of points written with commas or spaces ("D4,Q16", "be bg").
func SplitPoints(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' })
}
