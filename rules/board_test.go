package rules

import (
	"strings"
	"testing"
)

// diagram builds a position from rows of X (black), O (white) and . (empty).
func diagram(t testing.TB, rows ...string) *Board {
	t.Helper()
	b, err := NewBoard(len(rows))
	if err != nil {
		t.Fatal(err)
	}
	for y, row := range rows {
		row = strings.ReplaceAll(row, " ", "")
		if len(row) != len(rows) {
			t.Fatalf("row %d has %d points, want %d", y, len(row), len(rows))
		}
		for x, ch := range row {
			switch ch {
			case 'X':
				b.Setup(Black, b.At(x, y))
			case 'O':
				b.Setup(White, b.At(x, y))
			}
		}
	}
	b.Remember(Black)
	return b
}

func (b *Board) stones(c Color) int {
	n := 0
	b.Points(func(p Point) {
		if b.Color(p) == c {
			n++
		}
	})
	return n
}

func TestPlay(t *testing.T) {
	tests := []struct {
		name          string
		rows          []string
		color         Color
		x, y          int
		want          Violation
		black, white  int // stones after the move
		capturedBlack int // stones black has captured
	}{
		{"capture in the corner", []string{
			"O X . . .",
			". . . . .",
			". . . . .",
			". . . . .",
			". . . . .",
		}, Black, 0, 1, NoViolation, 2, 0, 1},
		{"occupied point", []string{
			"O X . . .",
			". . . . .",
			". . . . .",
			". . . . .",
			". . . . .",
		}, Black, 0, 0, Occupied, 1, 1, 0},
		{"single-stone suicide", []string{
			". X . . .",
			"X . . . .",
			". . . . .",
			". . . . .",
			". . . . .",
		}, White, 0, 0, Suicide, 2, 0, 0},
		{"multi-stone suicide", []string{
			"O . X . .",
			"O X . . .",
			"X . . . .",
			". . . . .",
			". . . . .",
		}, White, 1, 0, Suicide, 3, 2, 0},
		{"filling the last liberty of both: the opponent's go", []string{
			". O X . .",
			"O X . . .",
			"X . . . .",
			". . . . .",
			". . . . .",
		}, Black, 0, 0, NoViolation, 4, 0, 2},
		{"capture of several groups at once", []string{
			". O X . .",
			"O . O X .",
			"X O X . .",
			". X . . .",
			". . . . .",
		}, Black, 1, 1, NoViolation, 6, 2, 2},
		{"snapback throw-in is legal", []string{
			". O X . .",
			". O X . .",
			"X X . . .",
			". . . . .",
			". . . . .",
		}, Black, 0, 0, NoViolation, 5, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := diagram(t, tt.rows...)
			before := b.Hash()
			got := b.Play(tt.color, b.At(tt.x, tt.y))
			if got != tt.want {
				t.Fatalf("Play = %v, want %v\n%s", got, tt.want, b)
			}
			if got != NoViolation && b.Hash() != before {
				t.Fatalf("an illegal move changed the position")
			}
			if b.stones(Black) != tt.black || b.stones(White) != tt.white || b.Captured(Black) != tt.capturedBlack {
				t.Fatalf("after the move: %d black, %d white, black captured %d; want %d, %d, %d\n%s",
					b.stones(Black), b.stones(White), b.Captured(Black), tt.black, tt.white, tt.capturedBlack, b)
			}
		})
	}
}

func TestSnapback(t *testing.T) {
	b := diagram(t,
		". O X . .",
		". O X . .",
		"X X . . .",
		". . . . .",
		". . . . .",
	)
	// Black throws in at the corner; white takes the stone...
	if v := b.Play(Black, b.At(0, 0)); v != NoViolation {
		t.Fatal(v)
	}
	if v := b.Play(White, b.At(0, 1)); v != NoViolation || b.Captured(White) != 1 {
		t.Fatalf("white takes the throw-in: %v, captured %d\n%s", v, b.Captured(White), b)
	}
	// ...and black takes back the three stones at once: not a ko.
	if v := b.Play(Black, b.At(0, 0)); v != NoViolation || b.Captured(Black) != 3 || b.stones(White) != 0 {
		t.Fatalf("snapback: %v, black captured %d\n%s", v, b.Captured(Black), b)
	}
}

func TestKo(t *testing.T) {
	rows := []string{
		". X O . .",
		"X O . O .",
		". X O . .",
		". . . . .",
		". . . . .",
	}
	for _, rule := range []KoRule{PositionalSuperko, SituationalSuperko, SimpleKo} {
		b := diagram(t, rows...)
		b.KoRule = rule
		if v := b.Play(Black, b.At(2, 1)); v != NoViolation || b.Captured(Black) != 1 {
			t.Fatalf("rule %d: black takes the ko: %v", rule, v)
		}
		if v := b.Play(White, b.At(1, 1)); v != Ko {
			t.Fatalf("rule %d: immediate recapture: %v, want ko", rule, v)
		}
		// A ko threat and its answer, then white may retake.
		if v := b.Play(White, b.At(4, 4)); v != NoViolation {
			t.Fatal(v)
		}
		if v := b.Play(Black, b.At(4, 3)); v != NoViolation {
			t.Fatal(v)
		}
		if v := b.Play(White, b.At(1, 1)); v != NoViolation {
			t.Fatalf("rule %d: retake after threats: %v\n%s", rule, v, b)
		}
	}
}

func TestAllowedSuicideRemovesTheStones(t *testing.T) {
	b := diagram(t,
		"O . X . .",
		"O X . . .",
		"X . . . .",
		". . . . .",
		". . . . .",
	)
	b.AllowSuicide = true
	if v := b.Play(White, b.At(1, 0)); v != NoViolation {
		t.Fatal(v)
	}
	if b.stones(White) != 0 || b.Captured(Black) != 3 {
		t.Fatalf("after suicide: %d white stones, black captured %d\n%s", b.stones(White), b.Captured(Black), b)
	}
}

func TestSetupReplacesStones(t *testing.T) {
	b := diagram(t,
		"X X X . .",
		". . . . .",
		". . . . .",
		". . . . .",
		". . . . .",
	)
	b.Setup(Empty, b.At(1, 0)) // AE in the middle splits the chain
	b.Setup(White, b.At(1, 1))
	if b.Liberties(b.At(0, 0)) != 2 || b.Liberties(b.At(2, 0)) != 3 || len(b.Chain(b.At(0, 0))) != 1 {
		t.Fatalf("chains after AE:\n%s libs %d %d", b, b.Liberties(b.At(0, 0)), b.Liberties(b.At(2, 0)))
	}
	// The split position's hash equals that of the same stones set up fresh.
	fresh := diagram(t,
		"X . X . .",
		". O . . .",
		". . . . .",
		". . . . .",
		". . . . .",
	)
	if b.Hash() != fresh.Hash() {
		t.Fatal("hash depends on how the position was reached")
	}
	if v := b.Play(White, b.At(1, 0)); v != NoViolation {
		t.Fatal(v)
	}
	if v := b.Play(White, b.At(0, 1)); v != NoViolation || b.Color(b.At(0, 0)) != Empty {
		t.Fatalf("capture after setup: %v\n%s", v, b)
	}
}

func TestCountSekiAndTerritory(t *testing.T) {
	// In the top left corner the black stone a2 (SGF "ba") and the white
	// group around it share the two last liberties: seki. Those two points
	// count for nobody; in Chinese counting, half to each side.
	b := diagram(t,
		". X . O X . .",
		"O O O O X . .",
		"X X X X X . .",
		"X X X X X X X",
		"O O O O O O O",
		". . . . . . .",
		". . . . . . .",
	)
	c := b.CountArea(nil)
	if c.Neutral != 2 || c.Stones[Black] != 15 || c.Territory[Black] != 6 || c.Stones[White] != 12 || c.Territory[White] != 14 {
		t.Fatalf("count %+v", c)
	}
	un := map[Point]bool{}
	for _, p := range b.Unsettled() {
		un[p] = true
	}
	if !un[b.At(1, 0)] || !un[b.At(3, 0)] {
		t.Fatal("the stones in seki were reported as unconditionally alive")
	}
	// Marking the white group dead gives black the corner.
	c = b.CountArea([]Point{b.At(3, 0)})
	if c.Removed[White] != 5 || c.Neutral != 0 || c.Territory[Black] != 6+7 {
		t.Fatalf("count with the white group dead %+v", c)
	}
}

func TestBensonTwoEyesAlive(t *testing.T) {
	b := diagram(t,
		". X . X O .",
		"X X X X O .",
		"O O O O O .",
		". . . . . .",
		". . . . . .",
		". . . . . .",
	)
	un := map[Point]bool{}
	for _, p := range b.Unsettled() {
		un[p] = true
	}
	if un[b.At(0, 1)] {
		t.Fatal("black with two eyes reported as not alive")
	}
	one := diagram(t,
		". X X X O .",
		"X X X X O .",
		"O O O O O .",
		". . . . . .",
		". . . . . .",
		". . . . . .",
	)
	found := false
	for _, p := range one.Unsettled() {
		found = found || p == one.At(1, 1)
	}
	if !found {
		t.Fatal("black with one eye reported as unconditionally alive")
	}
}

func TestHandicapPoints(t *testing.T) {
	tests := []struct {
		size, n int
		want    []string // GTP
	}{
		{19, 2, []string{"Q16", "D4"}},
		{19, 4, []string{"Q16", "D4", "Q4", "D16"}},
		{19, 5, []string{"Q16", "D4", "Q4", "D16", "K10"}},
		{13, 3, []string{"K10", "D4", "K4"}},
		{9, 9, []string{"G7", "C3", "G3", "C7", "C5", "G5", "E7", "E3", "E5"}},
	}
	for _, tt := range tests {
		pts, err := HandicapPoints(tt.size, tt.n)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range pts {
			got = append(got, GTPPoint(p, tt.size))
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%d×%d handicap %d: %v, want %v", tt.size, tt.size, tt.n, got, tt.want)
		}
	}
	if _, err := HandicapPoints(11, 4); err == nil {
		t.Error("11×11 has no standard points")
	}
}

func TestParsePoint(t *testing.T) {
	tests := []struct {
		in   string
		size int
		want Coord
		ok   bool
	}{
		{"D4", 19, Coord{3, 15}, true}, {"q16", 19, Coord{15, 3}, true}, {"T19", 19, Coord{18, 0}, true},
		{"J1", 9, Coord{8, 8}, true}, {"dd", 19, Coord{3, 3}, true}, {"I5", 19, Coord{}, false},
		{"Z1", 19, Coord{}, false}, {"D20", 19, Coord{}, false}, {"zz", 19, Coord{}, false}, {"", 9, Coord{}, false},
	}
	for _, tt := range tests {
		got, err := ParsePoint(tt.in, tt.size)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParsePoint(%q, %d) = %v, %v; want %v ok=%v", tt.in, tt.size, got, err, tt.want, tt.ok)
		}
	}
}
