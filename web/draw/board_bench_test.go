package draw

import (
	"os"
	"testing"

	"github.com/dankyu/dankyu/rules"
)

// BenchmarkBoardSVG draws the final position of a 19×19 game (replay and
// SVG) against replaying it alone, the baseline.
func BenchmarkBoardSVG(b *testing.B) {
	data, err := os.ReadFile("../../rules/testdata/corpus/games/dead-stones/gnugo-dublin2.sgf")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("replay-baseline", func(b *testing.B) {
		for b.Loop() {
			if _, err := GamePosition(data, rules.Options{}, -1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("replay-and-draw", func(b *testing.B) {
		for b.Loop() {
			pos, err := GamePosition(data, rules.Options{}, -1)
			if err != nil {
				b.Fatal(err)
			}
			_ = Board(pos, "x")
		}
	})
}
