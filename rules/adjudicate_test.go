package rules

import (
	"os"
	"strings"
	"testing"
)

func adjudicateString(t *testing.T, sgf string, opt Options) Result {
	t.Helper()
	rs, err := AdjudicateSGF([]byte(sgf), "test.sgf", opt)
	if err != nil {
		t.Fatal(err)
	}
	return rs[0]
}

// A 5×5 game: black owns the two left columns plus the middle, white the rest.
const smallGame = "(;SZ[5]KM[%s]RE[%s];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[];W[])"

func small(komi, re string) string {
	return strings.Replace(strings.Replace(smallGame, "%s", komi, 1), "%s", re, 1)
}

func TestAreaCountingAndResults(t *testing.T) {
	tests := []struct {
		name       string
		sgf        string
		opt        Options
		winner     string
		margin     float64
		result, zh string
		end        string
	}{
		// Black 15 points, white 10.
		{"black by 3¾ stones", small("1.5", ""), Options{}, "B", 3.5, "B+3.5", "黑胜1又3/4子", EndPasses},
		{"komi replaced", small("1.5", ""), Options{Komi: ptr(5.0)}, "0", 0, "0", "和棋", EndPasses},
		{"white by a quarter stone", small("5.5", ""), Options{}, "W", -0.5, "W+0.5", "白胜1/4子", EndPasses},
		{"half a stone", small("4", ""), Options{}, "B", 1, "B+1", "黑胜1/2子", EndPasses},
		{"Ing: black wins ties", small("5", ""), Options{Rules: Ing}, "B", 0, "B+0", "黑胜", EndPasses},
		{"Japanese counts territory", small("0.5", ""), Options{Rules: Japanese}, "B", 4.5, "B+4.5", "黑胜4目半", EndPasses},
		{"resignation", "(;SZ[9]RE[W+Resign];B[ee];W[cc])", Options{}, "W", 0, "W+R", "白中盘胜", EndResignation},
		{"time", "(;SZ[9]RE[B+T];B[ee];W[cc])", Options{}, "B", 0, "B+T", "黑胜（白超时）", EndTime},
		{"forfeit", "(;SZ[9]RE[W+F];B[ee])", Options{}, "W", 0, "W+F", "白胜（黑弃权）", EndForfeit},
		{"unfinished", "(;SZ[9];B[ee];W[cc])", Options{}, "", 0, "?", "未终局", EndUnfinished},
		{"one warning costs a stone", small("1.5", ""), Options{Warnings: [3]int{Black: 1}}, "B", 1.5, "B+1.5", "黑胜3/4子", EndPasses},
		{"two warnings lose", small("1.5", ""), Options{Warnings: [3]int{Black: 2}}, "W", 0, "W+F", "白胜（黑方两次警告判负）", EndPasses},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := adjudicateString(t, tt.sgf, tt.opt)
			if r.Winner != tt.winner || r.MarginPoints != tt.margin || r.Result != tt.result || r.ResultZH != tt.zh || r.End != tt.end {
				t.Fatalf("got %s %v %s %s %s; want %s %v %s %s %s", r.Winner, r.MarginPoints, r.Result, r.ResultZH, r.End,
					tt.winner, tt.margin, tt.result, tt.zh, tt.end)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestHandicapCompensation(t *testing.T) {
	// Four handicap stones on the standard points, then both pass.
	sgf := "(;SZ[19]HA[4]KM[0.5]RU[%s];W[];B[])"
	tests := []struct {
		ru    string
		rules RuleSet
		comp  float64
	}{
		{"Chinese", Chinese, 4}, {"AGA", AGA, 3}, {"Japanese", Chinese, 4},
	}
	for _, tt := range tests {
		r := adjudicateString(t, strings.Replace(sgf, "%s", tt.ru, 1), Options{})
		if r.Rules != tt.rules || r.Compensation != tt.comp || r.Handicap != 4 {
			t.Errorf("RU[%s]: rules %s, compensation %v, handicap %d; want %s, %v", tt.ru, r.Rules, r.Compensation, r.Handicap, tt.rules, tt.comp)
		}
		// The whole board is black's: 361 − 0.5 komi − compensation.
		if want := 361 - 0.5 - tt.comp; r.MarginPoints != want {
			t.Errorf("RU[%s]: margin %v, want %v", tt.ru, r.MarginPoints, want)
		}
	}
	r := adjudicateString(t, "(;SZ[19]HA[4]KM[0.5];W[];B[])", Options{Rules: Japanese})
	if r.Compensation != 0 {
		t.Errorf("Japanese rules give no compensation, got %v", r.Compensation)
	}
	// Free placement from the record: AB stones are the handicap.
	r = adjudicateString(t, "(;SZ[9]HA[2]KM[0]AB[cc][gg];W[ee];B[];W[])", Options{})
	if r.Compensation != 2 || strings.Contains(strings.Join(r.Notes, " "), "standard points") {
		t.Errorf("free placement: compensation %v, notes %v", r.Compensation, r.Notes)
	}
}

func TestIllegalMovesAreVoid(t *testing.T) {
	// A ko: black retakes only after a threat and its answer (legal); then
	// black retakes at once (move 3) and white plays suicide (move 4).
	sgf := "(;SZ[5]KM[0]AB[ba][ab][bc][de][ed]AW[ca][db][cc];B[cb];W[bb];B[ae];W[dd];B[cb];W[];B[])"
	r := adjudicateString(t, sgf, Options{})
	if len(r.IllegalMoves) != 0 {
		t.Fatalf("legal record reported %v", r.IllegalMoves)
	}
	sgf = "(;SZ[5]KM[0]AB[ba][ab][bc][de][ed]AW[ca][db][cc];B[cb];W[bb];B[cb];W[ee];B[])"
	r = adjudicateString(t, sgf, Options{})
	if len(r.IllegalMoves) != 2 || r.IllegalMoves[0] != (IllegalMove{3, "ko"}) || r.IllegalMoves[1] != (IllegalMove{4, "suicide"}) {
		t.Fatalf("illegal moves %v, want ko at 3 and suicide at 4", r.IllegalMoves)
	}
	if r.End != EndUnfinished {
		t.Fatalf("void moves must not end the game: %s", r.End)
	}
	strict := adjudicateString(t, sgf, Options{Strict: true})
	if strict.End != EndIllegal || strict.Result != "Void" || len(strict.IllegalMoves) != 1 || strict.Moves != 3 {
		t.Fatalf("strict: %+v", strict)
	}
	occupied := adjudicateString(t, "(;SZ[9];B[ee];W[ee])", Options{})
	if len(occupied.IllegalMoves) != 1 || occupied.IllegalMoves[0].Reason != "occupied" {
		t.Fatalf("occupied: %v", occupied.IllegalMoves)
	}
}

// TestTripleKo replays a real triple ko (Fuego's test record): positional
// superko forbids the move that would repeat the cycle; simple ko does not.
func TestTripleKo(t *testing.T) {
	data, err := os.ReadFile("testdata/corpus/edge/real/fuego-triple-ko.sgf")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		ko    KoRule
		first int
	}{{PositionalSuperko, 6}, {SituationalSuperko, 6}, {SimpleKo, 0}} {
		rs, err := AdjudicateSGF(data, "triple", Options{Ko: &tt.ko})
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		if len(rs[0].IllegalMoves) > 0 {
			got = rs[0].IllegalMoves[0].Move
		}
		if got != tt.first {
			t.Errorf("ko rule %d: first illegal move %d, want %d (%v)", tt.ko, got, tt.first, rs[0].IllegalMoves)
		}
		// The cycle is reported, for the event's supplementary rule to decide.
		if rs[0].Cycle != (tt.ko != SimpleKo) {
			t.Errorf("ko rule %d: cycle %v", tt.ko, rs[0].Cycle)
		}
	}
}

func TestDeadStonesAndUnsettled(t *testing.T) {
	// A lone white stone inside black's area: alive until the count says dead.
	sgf := "(;SZ[5]KM[0]AB[ca][cb][cc][cd][ce]AW[aa]PL[W];W[];B[])"
	r := adjudicateString(t, sgf, Options{})
	if len(r.Unsettled) == 0 {
		t.Fatal("no unsettled stones reported without dead stones")
	}
	for _, dead := range []string{"A5", "aa"} {
		d := adjudicateString(t, sgf, Options{Dead: []string{dead}})
		if d.BlackArea != 25 || d.WhiteArea != 0 || len(d.Unsettled) != 0 {
			t.Errorf("--dead %s: black %v white %v unsettled %v", dead, d.BlackArea, d.WhiteArea, d.Unsettled)
		}
	}
	tt := adjudicateString(t, sgf, Options{Rules: TrompTaylor, Dead: []string{"aa"}})
	if tt.WhiteArea != 1 {
		t.Errorf("Tromp–Taylor must keep every stone: white %v", tt.WhiteArea)
	}
	if _, err := AdjudicateSGF([]byte(sgf), "x", Options{Dead: []string{"Z9"}}); err == nil {
		t.Error("a dead stone off the board must be an error")
	}
}

func TestKomiInStones(t *testing.T) {
	for _, tt := range []struct {
		km   string
		want float64
	}{{"3.75", 7.5}, {"375", 7.5}, {"2.75", 5.5}, {"7.5", 7.5}, {"98", 98}, {"-1.5", -1.5}, {"0", 0}} {
		r := adjudicateString(t, "(;SZ[9]KM["+tt.km+"];B[];W[])", Options{})
		if r.Komi != tt.want {
			t.Errorf("KM[%s]: komi %v, want %v", tt.km, r.Komi, tt.want)
		}
	}
}

// TestDeadFromMarkup derives the dead stones of the corpus's counted games
// from their TB/TW markup and expects the manifest's margins.
func TestDeadFromMarkup(t *testing.T) {
	n := 0
	for _, e := range loadManifest(t) {
		if e.Category != "real-dead-stones" {
			continue
		}
		data, err := os.ReadFile("testdata/corpus/" + e.File)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := AdjudicateSGF(data, e.File, Options{DeadFromMarkup: true})
		if err != nil {
			t.Fatal(err)
		}
		if rs[0].MarginPoints != *e.Margin {
			t.Errorf("%s: margin %v from markup, want %v", e.File, rs[0].MarginPoints, *e.Margin)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no dead-stone records")
	}
}

func TestParseRE(t *testing.T) {
	tests := []struct {
		re, winner, how string
	}{
		{"B+R", "B", "R"}, {"W+Resign", "W", "R"}, {"B+T", "B", "T"}, {"W+Time", "W", "T"}, {"B+F", "B", "F"},
		{"W+7.5", "W", "score"}, {"B+", "B", "score"}, {"0", "0", "draw"}, {"Draw", "0", "draw"}, {"Void", "", "void"},
		{"?", "", ""}, {"", "", ""},
		{"黑中盘胜", "B", "R"}, {"白中盘胜", "W", "R"}, {"白胜3又3/4子", "W", "score"}, {"黑超时负", "W", "T"},
		{"和棋", "0", "draw"}, {"黑胜1/4子", "B", "score"},
	}
	for _, tt := range tests {
		if got := parseRE(tt.re); got.winner != tt.winner || got.how != tt.how {
			t.Errorf("parseRE(%q) = %+v, want %s %s", tt.re, got, tt.winner, tt.how)
		}
	}
}
