package tournaments

import (
	"cmp"
	"slices"
	"strconv"
)

// ArenaSystem is the arena team match of article 26.6 (擂台赛): two teams,
// each with its players' order fixed in advance (their board numbers); the
// first game is first against first, the winner stays on and meets the
// next player of the losing side, and the team whose players are all beaten
// loses. One game is paired a round.
//
// A draw (or both losing, both late) puts both players out: the rules say
// nothing of draws in an arena, and with both out the match stays finite,
// neither side gains by playing for a draw, and each team's next player
// comes on as after any game. When that leaves both teams without players
// the match is level (each team a draw's match point; a decider is then the
// event's business). A game without a result (a void, a cycle ruled "no
// result") is replayed between the same two players. With colours by draw,
// the player coming on takes black; both coming on after a draw, the side
// that had white; the first game's black is the first-entered team's.
const ArenaSystem System = "arena"

// ArenaPlayer is one player of an arena match.
type ArenaPlayer struct {
	Number int
	Team   string
	Order  int // his place in the team's order (the board), 1 first
	// Wins is his run of wins (连胜): a player stays on until beaten, so
	// every win of his is in one unbroken run.
	Wins   int
	Played bool
	Out    bool // beaten (or out by a draw)
}

// ArenaResult is the state of an arena match, as its games give it.
type ArenaResult struct {
	Teams   [2]string // the first-entered team first
	Players []ArenaPlayer
	Left    [2]int // players of each team not yet beaten
	Decided bool
	Winner  string // the winning team; "" when undecided or level
	Level   bool   // both teams' last players went out in one game
	Next    Pairing
}

// ArenaState replays an arena match from its games.
func ArenaState(ps []Participant, games []Game, colours Colours) (ArenaResult, error) {
	var r ArenaResult
	var teams []string
	order := map[string][]Participant{}
	for _, p := range ps {
		if p.Team == "" || p.Board < 1 {
			return r, ReasonArenaPlace.New("number", strconv.Itoa(p.Number), "name", p.Name)
		}
		if order[p.Team] == nil {
			teams = append(teams, p.Team)
		}
		order[p.Team] = append(order[p.Team], p)
	}
	if len(teams) != 2 {
		return r, ReasonArenaTeamCount.New("teams", strconv.Itoa(len(teams)))
	}
	r.Teams = [2]string{teams[0], teams[1]}
	if len(order[teams[0]]) != len(order[teams[1]]) {
		return r, ReasonArenaTeamSizes.New("team", teams[0], "size", strconv.Itoa(len(order[teams[0]])),
			"other", teams[1], "other_size", strconv.Itoa(len(order[teams[1]])))
	}
	index := map[int]int{} // participant → index in r.Players
	var lines [2][]int
	for t, name := range r.Teams {
		m := order[name]
		slices.SortFunc(m, func(a, b Participant) int { return cmp.Compare(a.Board, b.Board) })
		for i, p := range m {
			if p.Board != i+1 {
				return r, ReasonArenaPlaceEmpty.New("team", name, "place", strconv.Itoa(i+1))
			}
			index[p.Number] = len(r.Players)
			lines[t] = append(lines[t], len(r.Players))
			r.Players = append(r.Players, ArenaPlayer{Number: p.Number, Team: name, Order: p.Board})
		}
	}
	n := len(lines[0])
	var at [2]int // the next player of each team, by place
	sorted := slices.Clone(games)
	slices.SortFunc(sorted, func(a, b Game) int { return cmp.Or(cmp.Compare(a.Round, b.Round), cmp.Compare(a.Board, b.Board)) })
	lastBlack := -1 // the team that had black in the last game
	var lastOn [2]int
	lastOn[0], lastOn[1] = -1, -1
	for _, g := range sorted {
		if at[0] >= n || at[1] >= n {
			return r, ReasonArenaGameAfterEnd.New("round", strconv.Itoa(g.Round))
		}
		a, b := r.Players[lines[0][at[0]]].Number, r.Players[lines[1][at[1]]].Number
		var pa, pb int
		bp, wp := g.Result.Points()
		switch {
		case g.Black == a && g.White == b:
			pa, pb, lastBlack = bp, wp, 0
		case g.Black == b && g.White == a:
			pa, pb, lastBlack = wp, bp, 1
		default:
			return r, ReasonArenaWrongPlayers.New("round", strconv.Itoa(g.Round), "black", strconv.Itoa(g.Black), "white", strconv.Itoa(g.White),
				"a", strconv.Itoa(a), "b", strconv.Itoa(b))
		}
		lastOn = at
		pla, plb := &r.Players[index[a]], &r.Players[index[b]]
		pla.Played, plb.Played = true, true
		switch {
		case !g.Result.Decided():
			continue // replayed
		case pa > pb:
			pla.Wins++
			plb.Out = true
			at[1]++
		case pb > pa:
			plb.Wins++
			pla.Out = true
			at[0]++
		case g.Result == BothWin:
			return r, ReasonArenaBothWon.New("round", strconv.Itoa(g.Round))
		default: // a draw, or both lose: both are out
			pla.Out, plb.Out = true, true
			at[0]++
			at[1]++
		}
	}
	r.Left = [2]int{n - at[0], n - at[1]}
	switch {
	case at[0] >= n && at[1] >= n:
		r.Decided, r.Level = true, true
		return r, nil
	case at[1] >= n:
		r.Decided, r.Winner = true, r.Teams[0]
		return r, nil
	case at[0] >= n:
		r.Decided, r.Winner = true, r.Teams[1]
		return r, nil
	}
	a, b := r.Players[lines[0][at[0]]].Number, r.Players[lines[1][at[1]]].Number
	black := 0 // the first game: the first-entered team
	newA, newB := at[0] != lastOn[0], at[1] != lastOn[1]
	switch {
	case lastBlack < 0:
	case newA && !newB:
		black = 0
	case newB && !newA:
		black = 1
	case newA && newB:
		black = 1 - lastBlack
	default: // a replay keeps the colours
		black = lastBlack
	}
	r.Next = Pairing{Black: a, White: b}
	if black == 1 {
		r.Next = Pairing{Black: b, White: a}
	}
	r.Next.Nigiri = colours == ColoursNigiri
	return r, nil
}

// arenaRound pairs the next game of an arena match.
func arenaRound(e Event, ps []Participant, games []GameRow) ([]Pairing, error) {
	st, err := ArenaState(ps, plainGames(games), e.Colours)
	if err != nil {
		return nil, err
	}
	switch {
	case st.Level:
		return nil, ReasonArenaLevel.New()
	case st.Decided:
		return nil, ReasonArenaDecided.New("team", st.Winner)
	}
	return []Pairing{st.Next}, nil
}

func plainGames(games []GameRow) []Game {
	out := make([]Game, len(games))
	for i, g := range games {
		out[i] = g.Game
	}
	return out
}

// ArenaTeamStandings is an arena match as team standings: the winner
// first with a match won (a level match a draw each), board points the
// sum of the players' points, by place in the order.
func ArenaTeamStandings(st ArenaResult, standings []Standing) []TeamStanding {
	points := map[int]int{}
	for _, s := range standings {
		points[s.Entrant] = s.Points
	}
	out := make([]TeamStanding, 2)
	for t, name := range st.Teams {
		out[t] = TeamStanding{Place: 1, Team: name, Matches: 1}
		if !st.Decided {
			out[t].Matches = 0
		}
	}
	for _, p := range st.Players {
		t := 0
		if p.Team == st.Teams[1] {
			t = 1
		}
		for len(out[t].ByBoard) < p.Order {
			out[t].ByBoard = append(out[t].ByBoard, 0)
		}
		out[t].ByBoard[p.Order-1] += points[p.Number]
		out[t].BoardPoints += points[p.Number]
	}
	switch {
	case st.Level:
		out[0].MatchPoints, out[1].MatchPoints = DrawPoints, DrawPoints
	case st.Winner == st.Teams[0]:
		out[0].MatchPoints, out[1].Place = WinPoints, 2
	case st.Winner == st.Teams[1]:
		out[1].MatchPoints, out[0].Place = WinPoints, 2
		out[0], out[1] = out[1], out[0]
	}
	return out
}
