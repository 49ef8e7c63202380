package tournaments_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/tournaments"
)

// TestResultsTheRulesAllow records results a 2002-rules referee would
// correct: two warnings decide a game whatever is reported, a handicap game
// keeps its compensation under the event's komi, and a record that earns
// warnings the report lacks is flagged.
func TestResultsTheRulesAllow(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, _ := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "裁判规则", Start: e.ts.Today(), Level: "city", System: "round_robin", Rounds: 3})
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("R%d", i), "", "1990-01-01", i)
		e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	if _, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID); err != nil {
		t.Fatal(err)
	}
	// 9×9, black owns columns a–e (45 points), white f–i (36): black by 9
	// on the board; with two handicap stones white gets 2 points back.
	var moves strings.Builder
	for y := 'a'; y <= 'i'; y++ {
		fmt.Fprintf(&moves, ";W[f%c];B[e%c]", y, y)
	}
	handicapGame := "(;GM[1]SZ[9]HA[2]AB[cc][dg]" + moves.String() + ";W[];B[])"

	tests := []struct {
		name        string
		in          tournaments.ResultInput
		result      tournaments.Result
		flagged     bool
		adjudicated string
		reasonHolds string
	}{
		{name: "two warnings lose whatever is reported", in: tournaments.ResultInput{Board: 1, Result: "black", BlackWarnings: 2}, result: tournaments.WhiteWins},
		{name: "both with two warnings both lose", in: tournaments.ResultInput{Board: 1, Result: "white", BlackWarnings: 2, WhiteWarnings: 2}, result: tournaments.BothLose},
		{name: "a forfeit stands beside warnings", in: tournaments.ResultInput{Board: 1, Result: "white_forfeit", BlackWarnings: 2}, result: tournaments.WhiteForfeit},
		{name: "handicap compensation kept", in: tournaments.ResultInput{Board: 2, Result: "black", SGF: handicapGame}, result: tournaments.BlackWins, adjudicated: "B+7"},
		{name: "a record's ko recapture the report lacks is flagged",
			in:     tournaments.ResultInput{Board: 2, Result: "black", SGF: "(;SZ[7]KM[0]RE[B+R];B[ba];W[ca];B[ab];W[db];B[cb];W[cc];B[bc];W[bb];B[cb];W[])"},
			result: tournaments.BlackWins, flagged: true, reasonHolds: "warnings 1/0"},
		{name: "the same with the warning reported agrees",
			in:     tournaments.ResultInput{Board: 2, Result: "black", BlackWarnings: 1, SGF: "(;SZ[7]KM[0]RE[B+R];B[ba];W[ca];B[ab];W[db];B[cb];W[cc];B[bc];W[bb];B[cb];W[])"},
			result: tournaments.BlackWins, adjudicated: "B+R"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Round = 1
			g, err := e.ts.RecordResult(ctx, beijing, fmt.Sprintf("ref-%d", i), ev.ID, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if g.Result != tt.result || g.Flagged != tt.flagged || (tt.adjudicated != "" && g.Adjudicated != tt.adjudicated) ||
				!strings.Contains(g.FlagReason, tt.reasonHolds) {
				t.Fatalf("got %s flagged %v (%s) adjudicated %s; want %s flagged %v adjudicated %s", g.Result, g.Flagged, g.FlagReason, g.Adjudicated,
					tt.result, tt.flagged, tt.adjudicated)
			}
		})
	}
}
