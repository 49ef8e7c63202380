package rules

import (
	"os"
	"path/filepath"
	"testing"
)

func replayString(t *testing.T, sgf string, opt Options, upto int) Position {
	t.Helper()
	trees, err := ParseSGF([]byte(sgf))
	if err != nil {
		t.Fatal(err)
	}
	g, err := GameFromTree(trees[0])
	if err != nil {
		t.Fatal(err)
	}
	pos, err := Replay(g, opt, upto)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// TestReplay: the position after N moves, the illegal moves' points, and
// at the end the dead stones and the owners of the counted points.
func TestReplay(t *testing.T) {
	// the ko retaken at once (move 3) and a suicide (move 4), as in TestIllegalMovesAreVoid
	ko := "(;SZ[5]KM[0]AB[ba][ab][bc][de][ed]AW[ca][db][cc];B[cb];W[bb];B[cb];W[ee];B[])"
	tests := []struct {
		name    string
		sgf     string
		opt     Options
		upto    int
		moves   int
		final   bool
		stones  map[Coord]Color
		illegal []IllegalPoint
		last    *Coord
	}{
		{"after the ko capture", ko, Options{}, 2, 2, false,
			map[Coord]Color{{2, 1}: Empty, {1, 1}: White, {3, 1}: White}, nil, &Coord{1, 1}},
		{"the whole record", ko, Options{}, -1, 5, true,
			map[Coord]Color{{2, 1}: Empty, {4, 4}: Empty}, []IllegalPoint{{3, Coord{2, 1}, "ko"}, {4, Coord{4, 4}, "suicide"}}, nil},
		{"the first move", ko, Options{}, 1, 1, false, map[Coord]Color{{2, 1}: Black, {1, 1}: Empty}, nil, &Coord{2, 1}},
		{"handicap on the standard points", "(;SZ[9]HA[2]KM[0];W[ee])", Options{}, 0, 0, false,
			map[Coord]Color{{6, 2}: Black, {2, 6}: Black, {4, 4}: Empty}, nil, nil},
		// as Adjudicate plays them (the board a game page draws is the one counted)
		{"white setup stones: no handicap on the standard points", "(;SZ[9]HA[2]KM[0]AW[aa];W[ee])", Options{}, 0, 0, false,
			map[Coord]Color{{6, 2}: Empty, {2, 6}: Empty, {0, 0}: White}, nil, nil},
		{"a second move in a row is not played (2002 rules)", "(;SZ[5]KM[0];B[aa];B[bb];W[cc])", Options{Rules: Chinese}, -1, 3, true,
			map[Coord]Color{{0, 0}: Black, {1, 1}: Empty, {2, 2}: White}, []IllegalPoint{{2, Coord{1, 1}, "double move"}}, &Coord{2, 2}},
		{"a second move in a row, board only", "(;SZ[5]KM[0];B[aa];B[bb];W[cc])", Options{Rules: Chinese, BoardOnly: true}, -1, 3, true,
			map[Coord]Color{{0, 0}: Black, {1, 1}: Black, {2, 2}: White}, nil, &Coord{2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := replayString(t, tt.sgf, tt.opt, tt.upto)
			if pos.Moves != tt.moves || pos.Final != tt.final {
				t.Errorf("moves %d final %v, want %d %v", pos.Moves, pos.Final, tt.moves, tt.final)
			}
			for c, want := range tt.stones {
				if got := pos.Board[c.Y][c.X]; got != want {
					t.Errorf("%s is %v, want %v", SGFPoint(c), got, want)
				}
			}
			if len(pos.Illegal) != len(tt.illegal) {
				t.Fatalf("illegal %v, want %v", pos.Illegal, tt.illegal)
			}
			for i := range tt.illegal {
				if pos.Illegal[i] != tt.illegal[i] {
					t.Errorf("illegal %v, want %v", pos.Illegal[i], tt.illegal[i])
				}
			}
			if (pos.Last == nil) != (tt.last == nil) || (pos.Last != nil && *pos.Last != *tt.last) {
				t.Errorf("last %v, want %v", pos.Last, tt.last)
			}
		})
	}

	// dead stones: the white stone in black's corner is taken off and its point counts for black
	dead := replayString(t, "(;SZ[5]KM[0]AB[ca][cb][cc][cd][ce]AW[aa];B[];W[])", Options{Dead: []string{"aa"}}, -1)
	if len(dead.Dead) != 1 || dead.Dead[0] != (Coord{0, 0}) || dead.Owner[0][0] != Black || dead.Owner[4][4] != Black {
		t.Errorf("dead %v owner %v", dead.Dead, dead.Owner)
	}
}

// TestReplayCountsAsAdjudicate: the owners of the final position add up to
// the areas Adjudicate counts, on every record of the corpus.
func TestReplayCountsAsAdjudicate(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*", "*.sgf"))
	more, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*.sgf"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no corpus records")
	}
	if step := len(files) / 60; step > 1 { // a spread of 60 over the corpus
		var some []string
		for i := 0; i < len(files); i += step {
			some = append(some, files[i])
		}
		files = some
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		trees, err := ParseSGF(data)
		if err != nil {
			continue
		}
		opt := Options{Rules: Chinese, DeadFromMarkup: true}
		for _, tree := range trees {
			g, err := GameFromTree(tree)
			if err != nil {
				continue
			}
			r, err := Adjudicate(g, opt)
			if err != nil {
				continue
			}
			pos, err := Replay(g, opt, -1)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			var area [3]float64
			for y := range pos.Owner {
				for x := range pos.Owner[y] {
					switch c := pos.Owner[y][x]; c {
					case Black, White:
						area[c]++
					default:
						area[Black] += 0.5
						area[White] += 0.5
					}
				}
			}
			if area[Black] != r.BlackArea || area[White] != r.WhiteArea {
				t.Errorf("%s: replay counts %v–%v, Adjudicate %v–%v", f, area[Black], area[White], r.BlackArea, r.WhiteArea)
			}
			if len(pos.Illegal) > len(r.IllegalMoves) {
				t.Errorf("%s: %d illegal moves drawn, %d found", f, len(pos.Illegal), len(r.IllegalMoves))
			}
		}
	}
}
