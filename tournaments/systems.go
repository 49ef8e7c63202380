package tournaments

import (
	"fmt"
	"strconv"
)

// The rarer systems article 26 names, beside round robins, Swiss and
// knockouts: multiple elimination (三败淘汰 and more lives), multiple round
// robin (three or more cycles), Swiss with elimination (积分编排加淘汰) and the
// best-of-N match (多局决胜制).

const (
	// MultiEliminationSystem: out after Lives losses (3 or more).
	MultiEliminationSystem System = "multi_elimination"
	// MultiRoundRobinSystem: Cycles (3 or more) round robins, colours
	// reversed every other cycle.
	MultiRoundRobinSystem System = "multi_round_robin"
	// SwissEliminationSystem: Swiss pairing among the players with fewer
	// than Lives losses; an odd field's bye as in any Swiss round.
	SwissEliminationSystem System = "swiss_elimination"
	// MatchSystem: two players play a best-of-BestOf series (3 to 7 games),
	// colours alternating, until one has won more than half.
	MatchSystem System = "match"
)

// Bounds of the systems' parameters.
const (
	maxLives  = 9
	maxCycles = 9
	minBestOf = 3
	maxBestOf = 7
)

// checkSystemParams validates the parameter a system needs, and fills in
// what it implies (the rounds of a match and of a multiple round robin
// come from the field or the series).
func (e *Event) checkSystemParams() error {
	switch e.System {
	case MultiEliminationSystem:
		if e.Lives < 3 || e.Lives > maxLives {
			return ReasonSystemParam.OnField("lives", "system", string(e.System), "min", "3", "max", fmt.Sprint(maxLives))
		}
	case SwissEliminationSystem:
		if e.Lives < 1 || e.Lives > maxLives {
			return ReasonSystemParam.OnField("lives", "system", string(e.System), "min", "1", "max", fmt.Sprint(maxLives))
		}
	case MultiRoundRobinSystem:
		if e.Cycles < 3 || e.Cycles > maxCycles {
			return ReasonSystemParam.OnField("cycles", "system", string(e.System), "min", "3", "max", fmt.Sprint(maxCycles))
		}
	case MatchSystem:
		if e.BestOf < minBestOf || e.BestOf > maxBestOf || e.BestOf%2 == 0 {
			return ReasonSystemParam.OnField("best_of", "system", string(e.System), "min", fmt.Sprint(minBestOf), "max", fmt.Sprint(maxBestOf))
		}
		e.Rounds = e.BestOf
	case ArenaSystem:
		if !e.Team {
			return ReasonArenaTeams.OnField("team")
		}
	}
	return nil
}

// multiRoundRobinRound pairs a round of a round robin played cycles
// times: each cycle is the single round robin's table, the colours reversed
// in the even cycles.
func multiRoundRobinRound(e Event, ps []Participant, round int) ([]Pairing, int, error) {
	ps = entered(ps)
	sched, err := RoundRobin(len(ps), false)
	if err != nil {
		return nil, 0, err
	}
	if round > len(sched)*e.Cycles {
		return nil, 0, ReasonScheduleComplete.New("rounds", strconv.Itoa(len(sched)*e.Cycles))
	}
	cycle, r := (round-1)/len(sched), (round-1)%len(sched)
	var pairs []Pairing
	bye := 0
	for _, p := range sched[r] {
		if p.Bye() {
			bye = p.A
			continue
		}
		if cycle%2 == 1 {
			p.A, p.B = p.B, p.A
		}
		pairs = append(pairs, Pairing{Black: ps[p.A-1].Number, White: ps[p.B-1].Number})
	}
	if bye != 0 {
		bye = ps[bye-1].Number
	}
	return pairs, bye, nil
}

// swissEliminationRound pairs, by the Swiss rules, the players still in:
// those with fewer than lives losses.
func swissEliminationRound(e Event, ps []Participant, games []GameRow, byes []byeRow, seed uint64) (SwissRound, error) {
	losses := map[int]int{}
	for _, g := range games {
		bp, wp := g.Result.Points()
		if bp < wp || g.Result.BothLost() {
			losses[g.Black]++
		}
		if wp < bp || g.Result.BothLost() {
			losses[g.White]++
		}
	}
	// a player left out of a round to keep the field even is out for good
	// ("被淘汰者即失去继续比赛资格"): he is in no game and has no bye of a
	// round already paired
	rounds := 0
	seen := map[[2]int]bool{}
	for _, g := range games {
		rounds = max(rounds, g.Round)
		seen[[2]int{g.Round, g.Black}], seen[[2]int{g.Round, g.White}] = true, true
	}
	for _, b := range byes {
		rounds = max(rounds, b.round)
		seen[[2]int{b.round, b.number}] = true
	}
	var in []SwissPlayer
	eliminated := false
	for _, p := range swissState(e, ps, games, byes) {
		left := false
		for r := 1; r <= rounds && !left; r++ {
			left = !seen[[2]int{r, p.ID}]
		}
		switch {
		case losses[p.ID] >= e.Lives || left:
			eliminated = true
		default:
			in = append(in, p)
		}
	}
	// "始终要保持参赛人数为偶数的原则" (积分编排加淘汰): once eliminations leave
	// an odd field, the lowest-placed survivor (score, then strength, then
	// the higher number) is eliminated with them rather than given a bye;
	// a field odd from the entry still gives the bye of a Swiss round.
	if eliminated && len(in)%2 == 1 && len(in) > 1 {
		low := 0
		for i, p := range in {
			q := in[low]
			if p.Score < q.Score || (p.Score == q.Score && (p.Strength < q.Strength || (p.Strength == q.Strength && p.ID > q.ID))) {
				low = i
			}
		}
		in = append(in[:low], in[low+1:]...)
	}
	switch len(in) {
	case 0, 1:
		return SwissRound{}, ReasonSwissEliminationOver.New("players", strconv.Itoa(len(in)), "lives", strconv.Itoa(e.Lives))
	}
	return PairSwiss(in, seed)
}

// matchRound pairs the next game of a best-of series: the two players,
// colours alternating (the first game's black is the stronger, or the
// lower number), until one has won more than half the series.
func matchRound(e Event, ps []Participant, games []GameRow, round int) ([]Pairing, error) {
	ps = entered(ps)
	if len(ps) != 2 {
		return nil, ReasonMatchPlayers.New("best_of", strconv.Itoa(e.BestOf), "players", strconv.Itoa(len(ps)))
	}
	seeds := bySeed(ps)
	a, b := seeds[0].Number, seeds[1].Number
	won := map[int]int{} // in points: a win 2, a draw 1
	for _, g := range games {
		bp, wp := g.Result.Points()
		won[g.Black] += bp
		won[g.White] += wp
	}
	if need := e.BestOf; won[a] > need || won[b] > need { // more than half the series, in points
		winner := a
		if won[b] > won[a] {
			winner = b
		}
		return nil, ReasonMatchDecided.New("best_of", strconv.Itoa(e.BestOf), "winner", strconv.Itoa(winner))
	}
	if round > e.BestOf {
		return nil, ReasonMatchLevel.New("best_of", strconv.Itoa(e.BestOf))
	}
	if round%2 == 0 {
		a, b = b, a
	}
	return []Pairing{{Black: a, White: b}}, nil
}
