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
)

// Results lists every result, in the order forms show them.
func Results() []Result {
	return []Result{NoResult, BlackWins, WhiteWins, Draw, BlackForfeit, WhiteForfeit, BothLose, BothWin}
}

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
	return NoResult, fmt.Errorf("result %q: want one of black, white, draw, black_forfeit, white_forfeit, both_lose, both_win or empty", s)
}

// Individual scoring of the Chinese rules: win 2, draw 1, loss 0.
const (
	WinPoints  = 2
	DrawPoints = 1
)

// Points returns what black and white score for the result.
func (r Result) Points() (black, white int) {
	switch r {
	case BlackWins, BlackForfeit:
		return WinPoints, 0
	case WhiteWins, WhiteForfeit:
		return 0, WinPoints
	case Draw:
		return DrawPoints, DrawPoints
	case BothWin:
		return WinPoints, WinPoints
	}
	return 0, 0
}

// Played reports whether the game was played on the board (forfeits and
// void games were not): only played games count for opponents' scores' sake
// in some tie-breaks, and only played games carry a record.
func (r Result) Played() bool { return r == BlackWins || r == WhiteWins || r == Draw }

// Decided reports whether the game has a result at all.
func (r Result) Decided() bool { return r != NoResult }

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
	s := Side{Opponent: g.White, Colour: 'b', Forfeit: g.Result == BlackForfeit || g.Result == WhiteForfeit}
	mine, theirs := bp, wp
	if g.White == entrant {
		s.Opponent, s.Colour, mine, theirs = g.Black, 'w', wp, bp
	}
	switch {
	case !g.Result.Decided():
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
