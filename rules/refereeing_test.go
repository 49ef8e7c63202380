package rules

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// koGame builds, on a 7×7 board, the ko of
//
//	. B W .
//	B . B W
//	. B W .
//
// white takes it at bb and black retakes at once at cb; then both pass.
const koGame = "(;SZ[7]KM[0];B[ba];W[ca];B[ab];W[db];B[cb];W[cc];B[bc];W[bb];B[cb];W[];B[])"

// TestRefereeingUnder2002Rules is the table of the 2002 Chinese rules'
// refereeing as the engine applies it to a record.
func TestRefereeingUnder2002Rules(t *testing.T) {
	tests := []struct {
		name           string
		sgf            string
		opt            Options
		result         string
		winner         string
		bothLose       bool
		warnB, warnW   int
		illegal        string // "move:reason,…"
		gameType       string
		komi, comp     float64
		noteContaining string
	}{
		{name: "two warnings lose", sgf: small("1.5", ""), opt: Options{Warnings: [3]int{White: 2}},
			result: "B+F", winner: "B", warnW: 2, gameType: EvenGame, komi: 1.5},
		{name: "both with two warnings both lose", sgf: small("1.5", ""), opt: Options{Warnings: [3]int{Black: 2, White: 2}},
			result: "Both lose", bothLose: true, warnB: 2, warnW: 2, gameType: EvenGame, komi: 1.5},
		{name: "ko recapture: void, a pass and a warning", sgf: koGame,
			warnB: 1, illegal: "9:ko", gameType: EvenGame, noteContaining: "retakes the ko at once"},
		{name: "ko warning and a referee's warning lose", sgf: koGame, opt: Options{Warnings: [3]int{Black: 1}},
			result: "W+F", winner: "W", warnB: 2, illegal: "9:ko", gameType: EvenGame},
		{name: "ko recapture under AGA rules is only void", sgf: koGame, opt: Options{Rules: AGA},
			illegal: "9:ko", gameType: EvenGame},
		// The void second move is not played: black 15, white 10, komi 1.5,
		// and the warning costs black one stone.
		{name: "double move: the second is void with a warning",
			sgf:    strings.Replace(small("1.5", ""), ";B[ca]", ";B[ca];B[aa]", 1),
			result: "B+1.5", winner: "B", warnB: 1, illegal: "2:double move", gameType: EvenGame, komi: 1.5},
		{name: "double moves by both sides, twice each",
			sgf:    "(;SZ[5]KM[1.5];B[ca];B[aa];W[da];W[ee];B[cb];B[ab];W[db];W[ed];B[];W[])",
			result: "Both lose", bothLose: true, warnB: 2, warnW: 2, illegal: "2:double move,4:double move,6:double move,8:double move", gameType: EvenGame, komi: 1.5},
		// 让先: no komi, black needs more than half the board.
		{name: "giving the move counts without komi", sgf: strings.Replace(small("1.5", ""), "KM[1.5]", "HA[1]", 1),
			result: "B+5", winner: "B", gameType: GivingMove, komi: 0},
		{name: "a tournament's komi does not reach 让先", sgf: strings.Replace(small("1.5", ""), "KM[1.5]", "HA[1]", 1),
			opt: Options{EvenKomi: ptr(7.5)}, result: "B+5", winner: "B", gameType: GivingMove, komi: 0},
		{name: "a tournament's komi sets an even game's", sgf: strings.Replace(small("1.5", ""), "KM[1.5]", "", 1),
			opt: Options{EvenKomi: ptr(4.5)}, result: "B+0.5", winner: "B", gameType: EvenGame, komi: 4.5},
		{name: "a handicap game keeps its compensation in a tournament",
			sgf: "(;SZ[9]HA[2]AB[cc][gg];W[ee];B[];W[])", opt: Options{EvenKomi: ptr(7.5)},
			gameType: HandicapGame, komi: 0, comp: 2},
		{name: "white setup stones: not a handicap game", sgf: "(;SZ[9]HA[2]AB[cc][gg]AW[ee];W[dd];B[];W[])",
			gameType: EvenGame, komi: 7.5, noteContaining: "not a handicap game"},
		{name: "black and white setup with white to move is no inferred handicap", sgf: "(;SZ[9]AB[cc][gg]AW[ee];W[dd];B[];W[])",
			gameType: EvenGame, komi: 7.5},
		{name: "board rules only: a second move in a row is played",
			sgf: strings.Replace(small("1.5", ""), ";B[ca]", ";B[ca];B[aa]", 1), opt: Options{BoardOnly: true},
			gameType: EvenGame, komi: 1.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := adjudicateString(t, tt.sgf, tt.opt)
			if tt.result != "" && (r.Result != tt.result || r.Winner != tt.winner) {
				t.Errorf("result %q winner %q, want %q %q (notes %q)", r.Result, r.Winner, tt.result, tt.winner, r.Notes)
			}
			if r.BothLose != tt.bothLose || r.BlackWarnings != tt.warnB || r.WhiteWarnings != tt.warnW {
				t.Errorf("both lose %v, warnings %d/%d; want %v, %d/%d", r.BothLose, r.BlackWarnings, r.WhiteWarnings, tt.bothLose, tt.warnB, tt.warnW)
			}
			var got []string
			for _, m := range r.IllegalMoves {
				got = append(got, strconv.Itoa(m.Move)+":"+m.Reason)
			}
			if strings.Join(got, ",") != tt.illegal {
				t.Errorf("illegal moves %q, want %q", got, tt.illegal)
			}
			if r.GameType != tt.gameType || r.Komi != tt.komi || r.Compensation != tt.comp {
				t.Errorf("type %s komi %v compensation %v, want %s %v %v", r.GameType, r.Komi, r.Compensation, tt.gameType, tt.komi, tt.comp)
			}
			if tt.noteContaining != "" && !strings.Contains(strings.Join(r.Notes, "\n"), tt.noteContaining) {
				t.Errorf("notes %q lack %q", r.Notes, tt.noteContaining)
			}
		})
	}
}

// TestRealRecordWithDoubleMove: a real record (an AI tournament, 2018)
// shows two black moves in a row at 283–284; the programs played on, the
// 2002 referee voids the second and warns black.
func TestRealRecordWithDoubleMove(t *testing.T) {
	data, err := os.ReadFile("testdata/corpus/games/resign19/yenw-R_6-1-4_Golaxy_vs_ELFOpenGo.SGF")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := AdjudicateSGF(data, "yenw", Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	if len(r.IllegalMoves) == 0 || r.IllegalMoves[0] != (IllegalMove{Move: 284, Reason: doubleMove}) || r.BlackWarnings < 1 {
		t.Fatalf("illegal %v, black warnings %d: want the double move at 284 warned", r.IllegalMoves, r.BlackWarnings)
	}
	if r.Result != "B+R" { // the resignation still decides
		t.Fatalf("result %s, want B+R", r.Result)
	}
}
