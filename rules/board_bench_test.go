package rules

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchGames loads the 19×19 records of the corpus as move lists.
func benchGames(b testing.TB) ([][]Step, int) {
	b.Helper()
	files, _ := filepath.Glob("testdata/corpus/games/*/*")
	var games [][]Step
	moves := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		trees, err := ParseSGF(data)
		if err != nil {
			b.Fatal(err)
		}
		g, err := GameFromTree(trees[0])
		if err != nil || g.Size != 19 {
			continue
		}
		games = append(games, g.Steps)
		moves += g.Moves()
	}
	if len(games) == 0 {
		b.Fatal("no 19×19 records")
	}
	return games, moves
}

// replay plays every game once on board, returning the moves played.
func replay(board *Board, games [][]Step) int {
	n := 0
	for _, steps := range games {
		board.Reset()
		for _, s := range steps {
			p := Pass
			if !s.Pass {
				p = board.At(s.At.X, s.At.Y)
			}
			switch s.Kind {
			case SetupStep:
				board.Setup(s.Color, p)
			case MoveStep:
				board.Play(s.Color, p)
				n++
			}
		}
	}
	return n
}

func benchmarkReplay(b *testing.B, rule KoRule) {
	games, moves := benchGames(b)
	board, _ := NewBoard(19)
	board.KoRule = rule
	replay(board, games) // grow the history table once
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		replay(board, games)
	}
	perMove := float64(b.Elapsed().Nanoseconds()) / float64(b.N*moves)
	b.ReportMetric(perMove, "ns/move")
	b.ReportMetric(1e9/perMove, "moves/s")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkPlayPositionalSuperko replays real 19×19 games, checking
// captures, suicide and positional superko at every move: 0 allocs/op.
func BenchmarkPlayPositionalSuperko(b *testing.B) { benchmarkReplay(b, PositionalSuperko) }

// BenchmarkPlaySimpleKo is the baseline: the same replay with only the simple ko check.
func BenchmarkPlaySimpleKo(b *testing.B) { benchmarkReplay(b, SimpleKo) }

func TestReplayAllocatesNothing(t *testing.T) {
	games, _ := benchGames(t)
	board, _ := NewBoard(19)
	replay(board, games)
	if a := testing.AllocsPerRun(5, func() { replay(board, games) }); a != 0 {
		t.Fatalf("replaying %d games allocates %v times", len(games), a)
	}
}

// floorBoard is the least a move with positional superko can cost, the
// floor of issue 30: store the stone, update the Zobrist hash, probe and
// add to the hash set, read the 4 neighbours and count the empty ones.
type floorBoard struct {
	b       *Board // for At and the frame; its stones are not touched
	color   []Color
	hash    uint64
	history hashSet
	libs    int
}

func newFloorBoard(b *Board) *floorBoard {
	f := &floorBoard{b: b, color: make([]Color, len(b.color))}
	f.history.init(512)
	return f
}

func (f *floorBoard) reset() {
	copy(f.color, f.b.color) // b is reset and empty: the frame and empty points
	f.hash = 0
	f.history.clear()
}

func (f *floorBoard) play(c Color, p Point) bool {
	if p == Pass {
		return true
	}
	f.color[p] = c
	h := f.hash ^ f.b.zob.stone[c][p]
	s := Point(f.b.stride)
	for _, n := range [4]Point{p - s, p - 1, p + 1, p + s} {
		if f.color[n] == Empty {
			f.libs++
		}
	}
	if f.history.has(h) {
		return false
	}
	f.history.add(h)
	f.hash = h
	return true
}

func (f *floorBoard) replay(games [][]Step) int {
	n := 0
	for _, steps := range games {
		f.reset()
		for _, st := range steps {
			p := Pass
			if !st.Pass {
				p = f.b.At(st.At.X, st.At.Y)
			}
			if st.Kind == MoveStep && f.play(st.Color, p) {
				n++
			}
		}
	}
	return n
}

// BenchmarkPlayVsFloor replays the corpus with positional superko and, in
// the same iteration, with the floor above; it reports the engine's time
// per move as a ratio to the floor's. Each is its fastest pass of the run:
// on a shared machine the minimum is what load does not inflate.
func BenchmarkPlayVsFloor(b *testing.B) {
	games, moves := benchGames(b)
	board, _ := NewBoard(19)
	board.KoRule = PositionalSuperko
	empty, _ := NewBoard(19)
	floor := newFloorBoard(empty)
	replay(board, games)
	floor.replay(games)
	engine, base := time.Duration(1<<62), time.Duration(1<<62)
	for b.Loop() {
		t0 := time.Now()
		floor.replay(games)
		t1 := time.Now()
		replay(board, games)
		base = min(base, t1.Sub(t0))
		engine = min(engine, time.Since(t1))
	}
	b.ReportMetric(float64(base.Nanoseconds())/float64(moves), "floor-ns/move")
	b.ReportMetric(float64(engine.Nanoseconds())/float64(moves), "engine-ns/move")
	b.ReportMetric(float64(engine)/float64(base), "engine/floor")
}
