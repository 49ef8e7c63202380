package nationaldata

import (
	"fmt"
	"strings"

	"github.com/dankyu/dankyu/rules"
	"github.com/dankyu/dankyu/tournaments"
)

// record writes a short legal game ending in the reported winner's
// resignation, and what the rules engine makes of it.
func (pl *planner) record(e tournaments.Event, g tournaments.GameRow, black, white *player) (string, string) {
	b, err := rules.NewBoard(19)
	if err != nil {
		panic(err) // 19 is a board size
	}
	winner := "W"
	if g.Result == tournaments.BlackWins {
		winner = "B"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[7.5]RU[Chinese]EV[%s]RO[%d]PB[%s]PW[%s]BR[%s]WR[%s]DT[%s]RE[%s+R]",
		e.Name, g.Round, black.row.Name, white.row.Name, black.row.PlayingRank().String(), white.row.PlayingRank().String(),
		e.Start.Format("2006-01-02"), winner)
	moves := 40 + pl.r.IntN(120)
	colour := rules.Black
	for range moves {
		for try := 0; try < 30; try++ {
			x, y := pl.r.IntN(19), pl.r.IntN(19)
			p := b.At(x, y)
			if b.Check(colour, p) != rules.NoViolation {
				continue
			}
			b.Play(colour, p)
			name := "B"
			if colour == rules.White {
				name = "W"
			}
			fmt.Fprintf(&sb, ";%s[%c%c]", name, 'a'+x, 'a'+y)
			break
		}
		colour = rules.Black + rules.White - colour
	}
	sb.WriteString(")")
	komi := e.Komi
	rs, err := rules.AdjudicateSGF([]byte(sb.String()), "", rules.Options{Rules: rules.Chinese, Komi: &komi})
	if err != nil || len(rs) != 1 {
		return sb.String(), ""
	}
	return sb.String(), rs[0].Result
}
