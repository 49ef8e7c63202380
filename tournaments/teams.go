package tournaments

import (
	"fmt"
	"sort"
	"strconv"
)

// TeamMember places a participant on a team's board.
type TeamMember struct {
	Team  string
	Board int // 1 is the first board
}

// TeamStanding is one line of team standings.
type TeamStanding struct {
	Place       int
	Team        string
	MatchPoints int   // match won 2, drawn 1, lost 0
	BoardPoints int   // the members' game points (win 2, draw 1)
	ByBoard     []int // board points of board 1, 2, …
	Matches     int
	// SOS and Total are a team Swiss ranked by total score (A): the
	// opponents' match points, and total = match points + SOS ÷ rounds −
	// rounds; zero otherwise.
	SOS   int
	Total float64
}

// teamRanking is what team standings compare first.
type teamRanking int

const (
	byMatchPoints teamRanking = iota // the Chinese rules' default: 场分
	byBoardTotal                     // 队员总分制: the members' points
	bySwissTotal                     // a team Swiss by total score (A)
)

// TeamStandings ranks teams by the Chinese rules: match points, then board
// points, then the first board's points, then the next board's; teams equal
// in all of these share the place. A match is every game of a round between
// the same two teams. A team's bye (byes names one team per entry) counts as
// a match won, with no board points.
func TeamStandings(members map[int]TeamMember, games []Game, byes []string) ([]TeamStanding, error) {
	return teamStandings(members, games, byes, byMatchPoints, 0)
}

// TeamStandingsByTotal ranks teams as 队员总分制 does: by the sum of the
// members' points (board points) first, then match points, then the boards.
func TeamStandingsByTotal(members map[int]TeamMember, games []Game, byes []string) ([]TeamStanding, error) {
	return teamStandings(members, games, byes, byBoardTotal, 0)
}

// TeamStandingsBySwissTotal ranks a team Swiss by total score, as the
// rules allow ("在积分编排赛制的团体赛中，团体成绩根据总得分或总积分的高低区分
// 名次，总得分计算办法与个人积分编排制比赛相同。如相同则依循环赛顺序区分名次"):
// total = match points + SOS ÷ rounds − rounds, as the individual Swiss (A)
// (SwissTotalOrder) counts it with the teams' match points, then the
// round-robin order (match points, board points, the boards).
func TeamStandingsBySwissTotal(members map[int]TeamMember, games []Game, byes []string, rounds int) ([]TeamStanding, error) {
	if rounds <= 0 {
		return nil, fmt.Errorf("swiss total needs the number of rounds")
	}
	return teamStandings(members, games, byes, bySwissTotal, rounds)
}

func teamStandings(members map[int]TeamMember, games []Game, byes []string, how teamRanking, rounds int) ([]TeamStanding, error) {
	boards := 0
	teams := map[string]*TeamStanding{}
	for _, m := range members {
		boards = max(boards, m.Board)
		if teams[m.Team] == nil {
			teams[m.Team] = &TeamStanding{Team: m.Team}
		}
	}
	for _, t := range teams {
		t.ByBoard = make([]int, boards)
	}
	type match struct {
		round  int
		a, b   string
		pa, pb int
	}
	matches := map[[3]string]*match{}
	for _, g := range games {
		if !g.Result.Decided() {
			continue
		}
		mb, okB := members[g.Black]
		mw, okW := members[g.White]
		if !okB || !okW {
			return nil, ReasonGameWithoutTeam.New("round", strconv.Itoa(g.Round), "black", strconv.Itoa(g.Black), "white", strconv.Itoa(g.White))
		}
		if mb.Team == mw.Team {
			return nil, ReasonGameSameTeam.New("round", strconv.Itoa(g.Round), "black", strconv.Itoa(g.Black), "white", strconv.Itoa(g.White), "team", mb.Team)
		}
		bp, wp := g.Result.Points()
		tb, tw := teams[mb.Team], teams[mw.Team]
		tb.BoardPoints += bp
		tw.BoardPoints += wp
		if mb.Board >= 1 {
			tb.ByBoard[mb.Board-1] += bp
		}
		if mw.Board >= 1 {
			tw.ByBoard[mw.Board-1] += wp
		}
		a, b, pa, pb := mb.Team, mw.Team, bp, wp
		if a > b {
			a, b, pa, pb = b, a, wp, bp
		}
		k := [3]string{fmt.Sprint(g.Round), a, b}
		m := matches[k]
		if m == nil {
			m = &match{round: g.Round, a: a, b: b}
			matches[k] = m
		}
		m.pa += pa
		m.pb += pb
	}
	opponents := map[string][]string{}
	for _, m := range matches {
		ta, tb := teams[m.a], teams[m.b]
		opponents[m.a] = append(opponents[m.a], m.b)
		opponents[m.b] = append(opponents[m.b], m.a)
		ta.Matches++
		tb.Matches++
		switch {
		case m.pa > m.pb:
			ta.MatchPoints += WinPoints
		case m.pa < m.pb:
			tb.MatchPoints += WinPoints
		default:
			ta.MatchPoints += DrawPoints
			tb.MatchPoints += DrawPoints
		}
	}
	for _, b := range byes {
		if t := teams[b]; t != nil {
			t.MatchPoints += WinPoints
			t.Matches++
		}
	}
	var out []TeamStanding
	for name, t := range teams {
		if how == bySwissTotal {
			for _, o := range opponents[name] {
				t.SOS += teams[o].MatchPoints
			}
			t.Total = float64(t.MatchPoints) + float64(t.SOS)/float64(rounds) - float64(rounds)
		}
		out = append(out, *t)
	}
	less := func(x, y TeamStanding) int { // >0 when x ranks above y
		switch {
		case how == byBoardTotal && x.BoardPoints != y.BoardPoints:
			return x.BoardPoints - y.BoardPoints
		case how == bySwissTotal:
			// total·R = points·R + SOS − R² keeps the comparison exact
			if d := (x.MatchPoints*rounds + x.SOS) - (y.MatchPoints*rounds + y.SOS); d != 0 {
				return d
			}
		}
		if x.MatchPoints != y.MatchPoints {
			return x.MatchPoints - y.MatchPoints
		}
		if x.BoardPoints != y.BoardPoints {
			return x.BoardPoints - y.BoardPoints
		}
		for i := range x.ByBoard {
			if x.ByBoard[i] != y.ByBoard[i] {
				return x.ByBoard[i] - y.ByBoard[i]
			}
		}
		return 0
	}
	sort.SliceStable(out, func(i, j int) bool {
		if c := less(out[i], out[j]); c != 0 {
			return c > 0
		}
		return out[i].Team < out[j].Team
	})
	for i := range out {
		out[i].Place = i + 1
		if i > 0 && less(out[i], out[i-1]) == 0 {
			out[i].Place = out[i-1].Place // the rules allow a shared place
		}
	}
	return out, nil
}
