package tournaments

import (
	"slices"
	"sort"
	"strconv"
)

// teamRound pairs a round of a team event: the teams are paired as units
// (Berger tables for a round robin, by match points for Swiss and McMahon),
// then board k of one team meets board k of the other, the first-named team
// taking black on odd boards and white on even ones. A member who withdrew
// keeps his board: his games from then on are forfeits to his opponents
// (art. 28.4), recorded as the round is paired.
//
// In the formats seated by a lineup (定台换人制, 临场出人制) lineups gives
// each team's players of the round by board; an all-play match (全队轮赛制)
// of n boards takes n rounds, board i meeting board i+k in its k-th.
func teamRound(e Event, ps []Participant, games []GameRow, byes []byeRow, round int, seed uint64, lineups map[string]map[int]int) ([]Pairing, int, error) {
	roster := map[string]map[int]int{}
	var teams []string
	members := map[int]TeamMember{}
	strengthOf := map[string]int{}
	for _, p := range ps {
		members[p.Number] = TeamMember{Team: p.Team, Board: p.Board}
		if p.Team == "" || (p.Board < 1 && e.TeamFormat != FreeLineup) {
			return nil, 0, ReasonTeamBoardMissing.New("number", strconv.Itoa(p.Number), "name", p.Name)
		}
		if roster[p.Team] == nil {
			roster[p.Team] = map[int]int{}
			teams = append(teams, p.Team)
		}
		if other, dup := roster[p.Team][p.Board]; dup && p.Board > 0 {
			return nil, 0, ReasonTeamBoardTwice.New("team", p.Team, "board", strconv.Itoa(p.Board), "first", strconv.Itoa(other), "second", strconv.Itoa(p.Number))
		}
		if p.Reserve {
			continue
		}
		roster[p.Team][p.Board] = p.Number
		strengthOf[p.Team] += strength(p.Rank)
	}
	if e.TeamFormat.lineup() {
		for _, t := range teams {
			roster[t] = lineups[t]
		}
	}
	if len(teams) < 2 {
		return nil, 0, ReasonTeamCount.New("teams", strconv.Itoa(len(teams)))
	}
	teamRoundNo, rotation := round, 0
	if e.TeamFormat == AllPlay {
		n := max(len(roster[teams[0]]), 1)
		teamRoundNo, rotation = (round-1)/n+1, (round-1)%n
	}
	boards := len(roster[teams[0]])
	for _, t := range teams {
		if len(roster[t]) != boards {
			return nil, 0, ReasonTeamBoards.New("team", t, "boards", strconv.Itoa(len(roster[t])), "other", teams[0], "other_boards", strconv.Itoa(boards))
		}
		for b := 1; b <= boards; b++ {
			if _, ok := roster[t][b]; !ok {
				return nil, 0, ReasonTeamBoardEmpty.New("team", t, "board", strconv.Itoa(b))
			}
		}
	}
	index := map[string]int{}
	for i, t := range teams {
		index[t] = i + 1
	}
	byeTeams := teamsOf(members, byes)
	var tpairs []Pair
	byeTeam := 0
	switch e.System {
	case RoundRobinSystem, DoubleRoundRobinSystem:
		sched, err := RoundRobin(len(teams), e.System == DoubleRoundRobinSystem)
		if err != nil {
			return nil, 0, err
		}
		if teamRoundNo > len(sched) {
			return nil, 0, ReasonScheduleComplete.New("rounds", strconv.Itoa(len(sched)))
		}
		for _, p := range sched[teamRoundNo-1] {
			if p.Bye() {
				byeTeam = p.A
				continue
			}
			tpairs = append(tpairs, p)
		}
	case SwissSystem, McMahonSystem:
		if round > e.Rounds {
			return nil, 0, ReasonScheduleComplete.New("rounds", strconv.Itoa(e.Rounds))
		}
		var decided []Game
		met := map[string]map[int]bool{}
		for _, g := range games {
			decided = append(decided, g.Game)
			a, b := members[g.Black].Team, members[g.White].Team
			if met[a] == nil {
				met[a] = map[int]bool{}
			}
			if met[b] == nil {
				met[b] = map[int]bool{}
			}
			met[a][index[b]], met[b][index[a]] = true, true
		}
		how := byMatchPoints
		if e.TeamFormat == TotalScore {
			how = byBoardTotal
		}
		st, err := teamStandings(members, decided, byeTeams, how, 0)
		if err != nil {
			return nil, 0, err
		}
		score := map[string]int{}
		for _, s := range st {
			score[s.Team] = s.MatchPoints
			if e.TeamFormat == TotalScore {
				score[s.Team] = s.BoardPoints
			}
		}
		var state []SwissPlayer
		for _, t := range teams {
			state = append(state, SwissPlayer{ID: index[t], Score: score[t], Strength: strengthOf[t], Met: met[t], HadBye: slices.Contains(byeTeams, t)})
		}
		sr, err := PairSwiss(state, seed)
		if err != nil {
			return nil, 0, err
		}
		for _, p := range sr.Pairs {
			tpairs = append(tpairs, Pair{p.Black, p.White})
		}
		byeTeam = sr.Bye
		sort.Slice(tpairs, func(i, j int) bool { return tpairs[i].A < tpairs[j].A })
	case KnockoutSystem:
		var err error
		if tpairs, err = teamKnockout(teams, strengthOf, members, games, round); err != nil {
			return nil, 0, err
		}
	default:
		return nil, 0, ReasonTeamSystem.With(systemWords(e.System))
	}
	var out []Pairing
	for _, tp := range tpairs {
		a, b := teams[tp.A-1], teams[tp.B-1]
		for k := 1; k <= boards; k++ {
			pr := Pairing{Black: roster[a][k], White: roster[b][(k-1+rotation)%boards+1]}
			if (k+rotation)%2 == 0 {
				pr.Black, pr.White = pr.White, pr.Black
			}
			out = append(out, pr)
		}
	}
	bye := 0
	if byeTeam != 0 {
		bye = roster[teams[byeTeam-1]][1] // the bye is recorded on the team's first board
	}
	return out, bye, nil
}

// teamsOf names the teams of the participants who had byes.
func teamsOf(members map[int]TeamMember, byes []byeRow) []string {
	var out []string
	for _, b := range byes {
		if m, ok := members[b.number]; ok && m.Team != "" {
			out = append(out, m.Team)
		}
	}
	return out
}

// teamKnockout replays a team bracket: seeds by the teams' strength, byes to
// the top seeds, each later round from the winners of the matches before.
// A match goes to the team with more board points; level, to the winner of
// the first board that was won.
func teamKnockout(teams []string, strengthOf map[string]int, members map[int]TeamMember, games []GameRow, round int) ([]Pair, error) {
	seeds := make([]int, len(teams)) // seed → team index (1-based)
	for i := range seeds {
		seeds[i] = i + 1
	}
	sort.SliceStable(seeds, func(a, b int) bool { return strengthOf[teams[seeds[a]-1]] > strengthOf[teams[seeds[b]-1]] })
	out, champion, err := replayBracket(seeds, round, func(k int, p Pair) (int, error) { return matchWinner(teams, members, games, k, p) })
	switch {
	case err != nil:
		return nil, err
	case champion != 0:
		return nil, ReasonTeamKnockoutDecided.New("team", teams[champion-1])
	}
	return out, nil
}

func matchWinner(teams []string, members map[int]TeamMember, games []GameRow, round int, p Pair) (int, error) {
	a, b := teams[p.A-1], teams[p.B-1]
	points := map[string]int{}
	firstWin := map[int]string{} // board → the team that won it
	played := false
	for _, g := range games {
		tb, tw := members[g.Black], members[g.White]
		if g.Round != round || !((tb.Team == a && tw.Team == b) || (tb.Team == b && tw.Team == a)) {
			continue
		}
		played = true
		bp, wp := g.Result.Points()
		points[tb.Team] += bp
		points[tw.Team] += wp
		switch {
		case bp > wp:
			firstWin[tb.Board] = tb.Team
		case wp > bp:
			firstWin[tw.Board] = tw.Team
		}
	}
	if !played {
		return 0, ReasonNoGameBetween.New("round", strconv.Itoa(round), "a", a, "b", b)
	}
	switch {
	case points[a] > points[b]:
		return p.A, nil
	case points[b] > points[a]:
		return p.B, nil
	}
	boards := make([]int, 0, len(firstWin))
	for k := range firstWin {
		boards = append(boards, k)
	}
	sort.Ints(boards)
	if len(boards) > 0 {
		if firstWin[boards[0]] == a {
			return p.A, nil
		}
		return p.B, nil
	}
	return 0, ReasonTeamMatchLevel.New("round", strconv.Itoa(round), "a", a, "b", b)
}
