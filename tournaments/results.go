package tournaments

import (
	"fmt"
	"strconv"
)

// Result is the outcome of one game.
type Result string

const (
	NoResult     Result = ""              // not played yet, or void
	BlackWins    Result = "black"         // black won on the board
	WhiteWins    Result = "white"         // white won on the board
	Draw         Result = "draw"          // jigo
	BlackForfeit Result = "black_forfeit" // black won by forfeit (white did not play)
	WhiteForfeit Result = "white_forfeit" // white won by forfeit
	BothLose     Result = "both_lose"     // both lost (e.g. both late)
	BothWin      Result = "both_win"      // both credited with a win (EGD files have it)
	// The referee's further outcomes (2002 rules, art. 14, 20–22 and the
	// event's supplementary rules).
	BlackTimeLoss Result = "black_time_loss" // black lost on time ("用时（包括读秒）超过时限，一律判负"): white wins, rated
	WhiteTimeLoss Result = "white_time_loss" // white lost on time: black wins, rated
	BlackLate     Result = "black_late"      // black came beyond the lateness limit and lost: white wins, not played
	WhiteLate     Result = "white_late"      // white came beyond the lateness limit and lost
	BothLate      Result = "both_late"       // both came beyond the limit: both lose, no winner
	Replayed      Result = "replayed"        // 重赛: the game is replaced by a replay, whose result counts (once)
	FinalNoResult Result = "no_result_final" // 无胜负 as the final word: unrated, no points, does not block the next round
	RuleDraw      Result = "rule_draw"       // a draw the event's supplementary rules give (a rare cycle)
)

// Results lists every result, in the order forms show them.
func Results() []Result {
	return []Result{NoResult, BlackWins, WhiteWins, Draw, BlackForfeit, WhiteForfeit, BothLose, BothWin,
		BlackTimeLoss, WhiteTimeLoss, BlackLate, WhiteLate, BothLate, Replayed, FinalNoResult, RuleDraw}
}

// Winner is who won: 'b', 'w', or 0 (a draw, both lost, both won, no
// result yet or none at all).
func (r Result) Winner() byte {
	switch r {
	case BlackWins, BlackForfeit, WhiteTimeLoss, WhiteLate:
		return 'b'
	case WhiteWins, WhiteForfeit, BlackTimeLoss, BlackLate:
		return 'w'
	}
	return 0
}

// BothLost reports whether neither side won nor drew: both lose (both
// late, two warnings each …), each counted a loss.
func (r Result) BothLost() bool { return r == BothLose || r == BothLate }

// Unplayed reports whether the game was decided without play on the board
// (a forfeit or lateness): the winner scores, nothing is rated.
func (r Result) Unplayed() bool {
	return r == BlackForfeit || r == WhiteForfeit || r == BlackLate || r == WhiteLate || r == BothLate
}

// Rated is the result as ratings read it: BlackWins, WhiteWins or Draw for
// a game played on the board (a loss on time is a loss, a draw by the
// supplementary rules a draw), NoResult for anything else (forfeits,
// lateness, a final no-result, a game being replayed).
func (r Result) Rated() Result {
	switch r {
	case BlackWins, WhiteTimeLoss:
		return BlackWins
	case WhiteWins, BlackTimeLoss:
		return WhiteWins
	case Draw, RuleDraw:
		return Draw
	}
	return NoResult
}

// ratedResultSQL is Rated in SQL over a games row g: the stored result
// read as ratings read it (” when not rated).
const ratedResultSQL = `CASE g.result WHEN 'black' THEN 'black' WHEN 'white_time_loss' THEN 'black'
	WHEN 'white' THEN 'white' WHEN 'black_time_loss' THEN 'white' WHEN 'draw' THEN 'draw' WHEN 'rule_draw' THEN 'draw' ELSE '' END`

// Swapped is the result with the colours exchanged: what "black won"
// means for the seats when the players sat with each other's colours.
func (r Result) Swapped() Result {
	switch r {
	case BlackWins:
		return WhiteWins
	case WhiteWins:
		return BlackWins
	case BlackForfeit:
		return WhiteForfeit
	case WhiteForfeit:
		return BlackForfeit
	case BlackTimeLoss:
		return WhiteTimeLoss
	case WhiteTimeLoss:
		return BlackTimeLoss
	case BlackLate:
		return WhiteLate
	case WhiteLate:
		return BlackLate
	}
	return r
}

// ForfeitReason says why a game was lost without play.
type ForfeitReason string

const (
	NoForfeitReason  ForfeitReason = ""
	Late             ForfeitReason = "late"         // beyond the lateness limit (art. 22)
	Absent           ForfeitReason = "absent"       // did not come
	Disqualified     ForfeitReason = "disqualified" // by the referee (art. 23)
	WithdrawnForfeit ForfeitReason = "withdrawn"    // left the event (art. 28)
)

// correctableMoves is how far into a game wrong colours are still
// corrected (art. 17: up to and including move 10).
const correctableMoves = 10

// warnedResult applies the two-warnings rule (2002 rules, articles 17–19):
// a side with two warnings loses the game whatever was reported, and when
// both sides have two, both lose.
func warnedResult(r Result, blackWarnings, whiteWarnings int) Result {
	switch {
	case blackWarnings >= 2 && whiteWarnings >= 2:
		return BothLose
	case blackWarnings >= 2 && r != WhiteForfeit:
		return WhiteWins
	case whiteWarnings >= 2 && r != BlackForfeit:
		return BlackWins
	}
	return r
}

// ParseResult reads a result name; "" is no result.
func ParseResult(s string) (Result, error) {
	for _, r := range Results() {
		if string(r) == s {
			return r, nil
		}
	}
	return NoResult, fmt.Errorf("result %q: want one of black, white, draw, black_forfeit, white_forfeit, both_lose, both_win, black_time_loss, white_time_loss, black_late, white_late, both_late, replayed, no_result_final, rule_draw or empty", s)
}

// Individual scoring of the Chinese rules: win 2, draw 1, loss 0.
const (
	WinPoints  = 2
	DrawPoints = 1
)

// Points returns what black and white score for the result.
func (r Result) Points() (black, white int) {
	switch r {
	case BlackWins, BlackForfeit, WhiteTimeLoss, WhiteLate:
		return WinPoints, 0
	case WhiteWins, WhiteForfeit, BlackTimeLoss, BlackLate:
		return 0, WinPoints
	case Draw, RuleDraw:
		return DrawPoints, DrawPoints
	case BothWin:
		return WinPoints, WinPoints
	}
	return 0, 0
}

// Played reports whether the game was played on the board (forfeits and
// void games were not): only played games count for opponents' scores' sake
// in some tie-breaks, and only played games carry a record.
func (r Result) Played() bool { return r.Rated() != NoResult }

// Decided reports whether the game has a result at all: a game to be
// replayed has not (its replay's result will decide it), a final
// no-result has.
func (r Result) Decided() bool { return r != NoResult && r != Replayed }

// Side is a game seen from one of its players.
type Side struct {
	Opponent int
	Colour   byte // 'b' or 'w'
	Outcome  byte // '+' win, '-' loss, '=' draw, '?' no result
	Forfeit  bool
}

// SideOf reads the game from entrant's side; ok is false when he did not play in it.
func (g Game) SideOf(entrant int) (Side, bool) {
	if g.Black != entrant && g.White != entrant {
		return Side{}, false
	}
	bp, wp := g.Result.Points()
	s := Side{Opponent: g.White, Colour: 'b', Forfeit: g.Result.Unplayed()}
	mine, theirs := bp, wp
	if g.White == entrant {
		s.Opponent, s.Colour, mine, theirs = g.Black, 'w', wp, bp
	}
	switch {
	case !g.Result.Decided() || g.Result == FinalNoResult:
		s.Outcome = '?'
	case mine == WinPoints:
		s.Outcome = '+'
	case mine == DrawPoints && theirs == DrawPoints:
		s.Outcome = '='
	default:
		s.Outcome = '-'
	}
	return s, true
}

// HalfString writes a score kept doubled (so that halves stay exact): 7 → "3.5".
func HalfString(x2 int) string {
	if x2%2 == 0 {
		return strconv.Itoa(x2 / 2)
	}
	return strconv.Itoa(x2/2) + ".5"
}
