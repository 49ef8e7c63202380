package rules

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// RuleSet names a rule set for legality, compensation and counting.
type RuleSet string

const (
	// Chinese: area counting, no suicide, positional superko, komi 3¾ stones
	// (7.5 points), black gives back half the handicap stones (N points).
	Chinese RuleSet = "chinese"
	// AGA: as Chinese, but white gets N−1 points for N handicap stones.
	AGA RuleSet = "aga"
	// Japanese (and Korean): territory plus prisoners, komi 6.5.
	Japanese RuleSet = "japanese"
	// Ing: area counting like Chinese, suicide allowed, komi 8 with ties to black.
	Ing RuleSet = "ing"
	// TrompTaylor: every stone on the board is alive, suicide allowed.
	TrompTaylor RuleSet = "tromp-taylor"
)

// ParseRuleSet reads a rule-set name; "" means "from the record".
func ParseRuleSet(s string) (RuleSet, error) {
	switch r := RuleSet(strings.ToLower(strings.TrimSpace(s))); r {
	case "", Chinese, AGA, Japanese, Ing, TrompTaylor:
		return r, nil
	case "korean":
		return Japanese, nil
	case "tt", "tromp/taylor", "tromptaylor":
		return TrompTaylor, nil
	}
	return "", fmt.Errorf("rules %q: want chinese, japanese, ing, tromp-taylor or aga", s)
}

// ParseKomi reads a komi in points as typed by a person; "" means "the
// record's" (nil).
func ParseKomi(s string) (*float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	k, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(k) || math.IsInf(k, 0) {
		return nil, fmt.Errorf("komi %q: want a number of points such as 7.5", s)
	}
	return &k, nil
}

// ruleSetForRecord picks the rule set for a record with no --rules: the
// Chinese rules, except that AGA records keep their N−1 handicap compensation.
func ruleSetForRecord(ru string) RuleSet {
	if strings.Contains(strings.ToUpper(ru), "AGA") {
		return AGA
	}
	return Chinese
}

// Options tune one adjudication.
type Options struct {
	Rules  RuleSet  // "" reads the record's RU (see ruleSetForRecord)
	Komi   *float64 // replaces the record's komi
	Dead   []string // dead stones, GTP or SGF points; each stands for its chain
	Strict bool     // reject the record at its first illegal move
	// DeadFromMarkup takes the dead stones from the record's final TB/TW
	// markup (stones inside the other side's territory) when Dead is empty.
	DeadFromMarkup bool
	Ko             *KoRule // nil: positional superko
	Warnings       [3]int  // referee's warnings per colour: one stone each, two lose the game
	// BoardOnly replays the board's rules alone, as the program that wrote
	// a record did: no refereeing warnings, and a second move in a row is
	// played rather than voided.
	BoardOnly bool
	// AllAlive counts every stone on the board as alive without settling
	// the position, as servers that make the players capture dead stones
	// before passing (CGOS) count.
	AllAlive bool
	// EvenKomi replaces the komi of an even game only: a tournament's komi,
	// which handicap and 让先 games must not take (they keep their own
	// compensation and play without komi).
	EvenKomi *float64
}

// OptionError is an option that does not fit the record, such as a dead
// stone off its board.
type OptionError struct {
	Option string
	Err    error
}

func (e *OptionError) Error() string { return e.Option + ": " + e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// IllegalMove is a move the rules forbid.
type IllegalMove struct {
	Move   int    `json:"move"`
	Reason string `json:"reason"`
}

// Result is the outcome of one game, in the shape `dankyu adjudicate --json` prints.
type Result struct {
	File           string        `json:"file"`
	Game           int           `json:"game,omitempty"` // 1-based index when a file holds several trees
	Winner         string        `json:"winner"`
	MarginPoints   float64       `json:"margin_points"`
	Result         string        `json:"result"`
	ResultZH       string        `json:"result_zh"`
	BlackArea      float64       `json:"black_area"`
	WhiteArea      float64       `json:"white_area"`
	Moves          int           `json:"moves"`
	IllegalMoves   []IllegalMove `json:"illegal_moves"`
	End            string        `json:"end"`
	Unsettled      []string      `json:"unsettled"`
	Rules          RuleSet       `json:"rules"`
	Komi           float64       `json:"komi"`
	Handicap       int           `json:"handicap"`
	Compensation   float64       `json:"handicap_compensation_points"`
	RecordedResult string        `json:"recorded_result"`
	Notes          []string      `json:"notes"`
	// GameType is even, giving_move (让先: HA[1], no komi, black needs more
	// than 180½) or handicap.
	GameType string `json:"game_type"`
	// BlackWarnings and WhiteWarnings are the referee's warnings plus those
	// the record itself earns under the 2002 Chinese rules: an immediate ko
	// recapture (article 18) and a second move in a row (article 17).
	BlackWarnings int `json:"black_warnings"`
	WhiteWarnings int `json:"white_warnings"`
	// BothLose is set when both sides hold two warnings: both lose the game.
	BothLose bool `json:"both_lose"`
	// Settlement, for a count without dead stones given, says which stones
	// the engine found dead by rule and whether that decides the winner;
	// when it does not (Deferred), Winner is empty and the record's own
	// result stands.
	Settlement *Settlement `json:"settlement,omitempty"`
	// Warnings are coded warnings a person should look at, such as a
	// charset guessed for a record without CA.
	Warnings []Warning `json:"warnings"`
	// Cycle is set when a move recreated an earlier whole-board position
	// other than by retaking a single ko (triple ko, eternal life…): the
	// event's supplementary rule decides what such a game ends as.
	Cycle bool `json:"cycle"`
}

// Game types.
const (
	EvenGame     = "even"
	GivingMove   = "giving_move" // 让先
	HandicapGame = "handicap"
)

// doubleMove is the reason given for a second move in a row by one side.
const doubleMove = "double move"

// End reasons.
const (
	EndPasses      = "passes"
	EndResignation = "resignation"
	EndTime        = "time"
	EndForfeit     = "forfeit"
	EndAgreement   = "agreement" // no two passes, but the record gives a score
	EndUnfinished  = "unfinished"
	EndIllegal     = "illegal" // --strict rejected the record
)

// AdjudicateSGF parses an SGF collection and adjudicates every game tree.
func AdjudicateSGF(data []byte, name string, opt Options) ([]Result, error) {
	return AdjudicateSGFContext(context.Background(), data, name, opt)
}

// AdjudicateSGFContext is AdjudicateSGF that stops with ctx's error once
// ctx is done (the client left), checked before each game and every
// checkEvery moves.
func AdjudicateSGFContext(ctx context.Context, data []byte, name string, opt Options) ([]Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	trees, warnings, err := ParseSGFWarnings(data)
	if err != nil {
		return nil, err
	}
	var out []Result
	b := &budget{} // one budget for the whole collection
	for i, t := range trees {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g, err := gameFromTree(t, b)
		if err != nil {
			return nil, &GameError{Game: i + 1, Err: err}
		}
		r, err := adjudicate(ctx, g, opt)
		if err != nil && errors.Is(err, ctx.Err()) {
			return nil, err // the client's leaving, not the game's fault
		}
		if err != nil {
			return nil, &GameError{Game: i + 1, Err: err}
		}
		r.File = name
		r.Warnings = append(r.Warnings, warnings[i]...)
		for _, w := range warnings[i] {
			if w.Code == WarnCharsetGuessed {
				r.Notes = append(r.Notes, fmt.Sprintf("no CA property: the text was read as %s (also plausible: %s)", w.Charset, strings.Join(w.Others, ", ")))
			}
		}
		if len(trees) > 1 {
			r.Game = i + 1
		}
		out = append(out, r)
	}
	return out, nil
}

// recorded is what an RE property says.
type recorded struct {
	winner string // "B", "W", "0", ""
	how    string // "R", "T", "F", "score", "draw", "void", ""
}

func parseRE(re string) recorded {
	if strings.ContainsAny(re, "黑白和") {
		return parseChineseRE(re)
	}
	s := strings.ToUpper(strings.TrimSpace(re))
	switch s {
	case "0", "DRAW", "JIGO", "D":
		return recorded{"0", "draw"}
	case "VOID":
		return recorded{"", "void"}
	}
	w, rest, ok := strings.Cut(s, "+")
	if !ok || (w != "B" && w != "W") {
		return recorded{}
	}
	switch {
	case rest == "R" || strings.HasPrefix(rest, "RES"):
		return recorded{w, "R"}
	case rest == "T" || strings.HasPrefix(rest, "TIME"):
		return recorded{w, "T"}
	case rest == "F" || strings.HasPrefix(rest, "FORF"):
		return recorded{w, "F"}
	}
	if _, err := strconv.ParseFloat(strings.TrimSpace(rest), 64); err == nil || rest == "" {
		return recorded{w, "score"}
	}
	return recorded{w, ""}
}

// parseChineseRE reads results written in Chinese: 黑中盘胜, 白胜3又3/4子,
// 黑超时负, 和棋.
func parseChineseRE(re string) recorded {
	if strings.Contains(re, "和") {
		return recorded{"0", "draw"}
	}
	b, w := strings.Index(re, "黑"), strings.Index(re, "白")
	winner := "B"
	if w >= 0 && (b < 0 || w < b) {
		winner = "W"
	}
	if strings.Contains(re, "负") && !strings.Contains(re, "胜") { // the named side lost
		winner = map[string]string{"B": "W", "W": "B"}[winner]
	}
	switch {
	case strings.Contains(re, "中盘") || strings.Contains(re, "认输"):
		return recorded{winner, "R"}
	case strings.Contains(re, "超时"):
		return recorded{winner, "T"}
	case strings.Contains(re, "弃权") || strings.Contains(re, "判负"):
		return recorded{winner, "F"}
	}
	return recorded{winner, "score"}
}

// checkEvery is how many steps of a record are played between looks at
// whether the adjudication is still wanted.
const checkEvery = 256

// Adjudicate replays the main line of g under the options and counts it.
func Adjudicate(g *Game, opt Options) (Result, error) {
	return adjudicate(context.Background(), g, opt)
}

func adjudicate(ctx context.Context, g *Game, opt Options) (Result, error) {
	rules := opt.Rules
	if rules == "" {
		rules = ruleSetForRecord(g.Rules)
	}
	r := Result{Rules: rules, Handicap: g.Handicap, RecordedResult: g.Result, IllegalMoves: []IllegalMove{}, Unsettled: []string{}, Notes: []string{}, Warnings: []Warning{}}
	note := func(format string, args ...any) { r.Notes = append(r.Notes, fmt.Sprintf(format, args...)) }
	// Handicap stones: from the record (AB), or on the standard points. A
	// position set up with white stones too is a problem or a teaching
	// position, not a handicap game.
	m, err := newMainLine(g, opt)
	if err != nil {
		return r, err
	}
	b := m.b
	r.Handicap = m.handicap
	if m.whiteSetupHA > 0 {
		note("HA[%d] with white setup stones: not a handicap game", m.whiteSetupHA)
	}
	if m.placed {
		note("placed %d handicap stones on the standard points", r.Handicap)
	}
	if r.Handicap == 0 && g.Handicap == 0 && m.setupBlack >= 2 && m.setupWhite == 0 && firstMover(g) == White {
		r.Handicap = m.setupBlack
		note("no HA property: %d black setup stones and white to move read as a handicap of %d", m.setupBlack, m.setupBlack)
	}
	r.GameType = EvenGame
	switch {
	case r.Handicap >= 2:
		r.GameType = HandicapGame
	case r.Handicap == 1:
		r.GameType = GivingMove
	}
	r.Komi, r.Compensation = komiFor(rules, g, r.Handicap)
	if g.KomiNote != "" {
		note("%s", g.KomiNote)
	}
	if opt.EvenKomi != nil && r.GameType == EvenGame {
		r.Komi = *opt.EvenKomi
	}
	if opt.Komi != nil {
		r.Komi = *opt.Komi
	}

	// The 2002 Chinese rules warn for an immediate ko recapture and for a
	// second move in a row; the other rule sets only void such moves.
	// The 2002 Chinese rules warn for an immediate ko recapture and for a
	// second move in a row; the other rule sets only void such moves.
	warn := opt.Warnings
	afterEnd := 0
	for i, s := range g.Steps {
		if i%checkEvery == checkEvery-1 {
			if err := ctx.Err(); err != nil {
				return r, err
			}
		}
		if r.End == EndPasses {
			if s.Kind == MoveStep {
				afterEnd++
			}
			continue
		}
		out := m.step(s)
		if !out.move {
			continue
		}
		r.Moves++
		reason := ""
		switch {
		case out.double:
			reason = doubleMove
		case out.violation != NoViolation:
			reason = out.violation.String()
		}
		if reason != "" {
			r.IllegalMoves = append(r.IllegalMoves, IllegalMove{Move: r.Moves, Reason: reason})
			if opt.Strict {
				note("record rejected at move %d (%s %s): %s", r.Moves, s.Color, SGFPoint(s.At), reason)
				r.End, r.Result, r.ResultZH = EndIllegal, "Void", "无胜负（第"+strconv.Itoa(r.Moves)+"手违规）"
				return r, nil
			}
		}
		switch v := out.violation; {
		case out.double: // article 17: the second move is void and earns a warning
			warn[s.Color]++
			note("move %d (%s %s) is a second move in a row: void, with a warning", r.Moves, s.Color, SGFPoint(s.At))
		case v == NoViolation:
		case v == Ko && m.refereed: // article 18
			warn[s.Color]++
			note("move %d (%s %s) retakes the ko at once: void, counted as a pass, with a warning", r.Moves, s.Color, SGFPoint(s.At))
		case v == Superko:
			r.Cycle = true
			note("move %d (%s %s) repeats an earlier whole-board position: void, counted as a pass; the event's rule for cycles decides the game", r.Moves, s.Color, SGFPoint(s.At))
		default:
			note("move %d (%s %s) is illegal (%s): void, counted as a pass", r.Moves, s.Color, SGFPoint(s.At), v)
		}
		if m.ended() {
			r.End = EndPasses
		}
	}
	if afterEnd > 0 {
		note("%d moves recorded after two passes ended the game were not played", afterEnd)
	}

	re := parseRE(g.Result)
	switch {
	case re.how == "R" || re.how == "T" || re.how == "F":
		r.End = map[string]string{"R": EndResignation, "T": EndTime, "F": EndForfeit}[re.how]
	case r.End == EndPasses:
	case re.how == "score" || re.how == "draw":
		r.End = EndAgreement
	default:
		r.End = EndUnfinished
	}

	// Count the board (also for decided games, so the areas are there to read).
	dead, empty, err := deadPoints(b, opt.Dead)
	if err != nil {
		return r, err
	}
	for _, d := range empty {
		note("dead stone %s: the point is empty", d)
	}
	if len(opt.Dead) == 0 && opt.DeadFromMarkup {
		dead = markupDead(b, g)
		note("%d dead stones taken from the record's TB/TW markup", len(dead))
	}
	if rules == TrompTaylor && len(dead) > 0 {
		note("Tromp–Taylor counts every stone on the board as alive: the dead stones given were ignored")
		dead = nil
	}
	counted := r.End == EndPasses || r.End == EndAgreement || r.End == EndUnfinished
	if counted && len(dead) == 0 && rules != TrompTaylor {
		for _, p := range b.Unsettled() {
			x, y := b.XY(p)
			r.Unsettled = append(r.Unsettled, SGFPoint(Coord{x, y}))
		}
		sort.Strings(r.Unsettled)
	}
	r.BlackWarnings, r.WhiteWarnings = warn[Black], warn[White]
	// margin counts with dead off the board; each warning costs the warned
	// side one stone (two points).
	margin := func(dead []Point) (diff float64, neutral int) {
		bl, wh, n := areasFor(b, rules, dead)
		return bl - wh - r.Komi - r.Compensation + 2*float64(warn[White]-warn[Black]), n
	}
	if len(dead) == 0 && settles(g, opt, rules, r.End == EndPasses) && (r.End == EndPasses || r.End == EndAgreement) {
		st := settleCount(b, margin, r.End != EndPasses, rules == Ing)
		r.Settlement = &st
		dead = st.deadPoints(b)
	}
	r.BlackArea, r.WhiteArea, _ = areasFor(b, rules, dead)
	diff, _ := margin(dead)

	switch {
	case warn[Black] >= 2 && warn[White] >= 2:
		r.Winner, r.BothLose, r.Result, r.ResultZH = "", true, "Both lose", "双方判负（双方各两次警告）"
		return r, nil
	case warn[Black] >= 2:
		r.Winner, r.Result, r.ResultZH = "W", "W+F", "白胜（黑方两次警告判负）"
		return r, nil
	case warn[White] >= 2:
		r.Winner, r.Result, r.ResultZH = "B", "B+F", "黑胜（白方两次警告判负）"
		return r, nil
	}

	switch r.End {
	case EndResignation, EndTime, EndForfeit:
		r.Winner = re.winner
		r.Result = re.winner + "+" + re.how
		win, loser := "黑", "白"
		if re.winner == "W" {
			win, loser = "白", "黑"
		}
		r.ResultZH = map[string]string{"R": win + "中盘胜", "T": win + "胜（" + loser + "超时）", "F": win + "胜（" + loser + "弃权）"}[re.how]
		return r, nil
	case EndUnfinished:
		r.Result, r.ResultZH = "?", "未终局"
		return r, nil
	}
	if r.Settlement != nil && settledResult(&r, rules) {
		return r, nil
	}
	r.MarginPoints = diff
	switch {
	case diff > 0 || (diff == 0 && rules == Ing): // Ing: black wins ties
		r.Winner = "B"
	case diff < 0:
		r.Winner = "W"
	default:
		r.Winner = "0"
	}
	r.Result, r.ResultZH = formatResult(r.Winner, diff, rules)
	return r, nil
}

// firstMover is the colour of the first move, black when there is none.
func firstMover(g *Game) Color {
	for _, s := range g.Steps {
		if s.Kind == MoveStep || s.Kind == PlayerStep {
			return s.Color
		}
	}
	return Black
}

// komiFor returns the komi (the record's, else the rule set's) and the
// handicap compensation in points.
func komiFor(rules RuleSet, g *Game, handicap int) (komi, comp float64) {
	if handicap >= 2 {
		switch rules {
		case Chinese, Ing:
			comp = float64(handicap) // black gives back half a stone per handicap stone
		case AGA:
			comp = float64(handicap - 1)
		}
	}
	if g.HasKomi {
		return g.Komi, comp
	}
	if handicap >= 1 { // handicap stones, or 让先: no komi
		return 0, comp
	}
	switch rules {
	case Japanese:
		return 6.5, comp
	case Ing:
		return 8, comp
	}
	return 7.5, comp
}

// formatResult writes a margin as SGF ("B+7.5") and in Chinese: stones for
// area counting ("黑胜3又3/4子"), points (目) for territory counting.
func formatResult(winner string, diff float64, rules RuleSet) (string, string) {
	if winner == "0" {
		return "0", "和棋"
	}
	side := map[string]string{"B": "黑胜", "W": "白胜"}[winner]
	m := math.Abs(diff)
	sgf := winner + "+" + strconv.FormatFloat(m, 'f', -1, 64)
	if m == 0 {
		sgf = winner + "+0"
	}
	if rules == Japanese {
		whole, half := int(m), m-math.Floor(m) >= 0.5
		switch {
		case whole == 0 && half:
			return sgf, side + "半目"
		case half:
			return sgf, side + strconv.Itoa(whole) + "目半"
		}
		return sgf, side + strconv.Itoa(whole) + "目"
	}
	quarters := int(math.Round(m * 2)) // a stone is two points: quarter stones are half points
	whole, frac := quarters/4, quarters%4
	fracs := [...]string{"", "1/4", "1/2", "3/4"}
	switch {
	case quarters == 0:
		return sgf, side // Ing tie to black
	case whole == 0:
		return sgf, side + fracs[frac] + "子"
	case frac == 0:
		return sgf, side + strconv.Itoa(whole) + "子"
	}
	return sgf, side + strconv.Itoa(whole) + "又" + fracs[frac] + "子"
}

// deadPoints reads the dead stones of opt.Dead on b, each distinct point
// once, and the ones that name an empty point (as given). A list longer
// than the board has points is refused before any is read: with repeats
// allowed, its length and not the board would set the work.
func deadPoints(b *Board, list []string) (dead []Point, empty []string, err error) {
	if n := b.Size() * b.Size(); len(list) > n {
		return nil, nil, &OptionError{Option: "dead", Err: &LimitError{What: LimitDeadPoints, Max: n}}
	}
	seen := make([]bool, len(b.color))
	for _, d := range list {
		c, err := ParsePoint(d, b.Size())
		if err != nil {
			return nil, nil, &OptionError{Option: "dead", Err: err}
		}
		p := b.At(c.X, c.Y)
		if seen[p] {
			continue
		}
		seen[p] = true
		if b.Color(p) == Empty {
			empty = append(empty, d)
			continue
		}
		dead = append(dead, p)
	}
	return dead, empty, nil
}

// markupDead finds the stones lying in the other side's marked territory.
func markupDead(b *Board, g *Game) []Point {
	var dead []Point
	for _, m := range []struct {
		pts   []Coord
		enemy Color
	}{{g.TerritoryBlack, White}, {g.TerritoryWhite, Black}} {
		for _, c := range m.pts {
			if b.OnBoard(c.X, c.Y) && b.Color(b.At(c.X, c.Y)) == m.enemy {
				dead = append(dead, b.At(c.X, c.Y))
			}
		}
	}
	return dead
}
