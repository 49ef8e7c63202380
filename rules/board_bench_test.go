package rules

import (
	"os"
	"path/filepath"
	"testing"
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
