package tournaments

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// Playoffs (加赛, art. 27 C): an event whose ties go to a playoff pairs,
// after its last round, playoff rounds among the players still equal on
// every criterion. Each group of players tied on the regular rounds plays
// a round robin among itself (two players: one game), one of its rounds
// each playoff round, until the playoff points separate them; a group
// still level after a whole cycle plays it again, colours reversed. The
// games are recorded and confirmed like any other, and count only as the
// last criterion of the standings.

func (s *Service) playoffRounds(ctx context.Context, q ledger.Querier, id int64) (int, error) {
	var n int
	if err := q.QueryRow(ctx, `SELECT count(*) FROM tournament_rounds WHERE tournament_id = $1 AND playoff`, id).Scan(&n); err != nil {
		return 0, fmt.Errorf("playoff rounds of tournament %d: %w", id, err)
	}
	return n, nil
}

// regularRounds is how many rounds the event's own schedule has, or 0 for
// a system whose standings are not settled by a playoff.
func regularRounds(e Event, ps []Participant) int {
	n := len(entered(ps))
	rr := n - 1 + n%2
	switch e.System {
	case SwissSystem, McMahonSystem:
		return e.Rounds
	case RoundRobinSystem:
		return rr
	case DoubleRoundRobinSystem:
		return 2 * rr
	case MultiRoundRobinSystem:
		return e.Cycles * rr
	}
	return 0
}

// PairPlayoff pairs the next playoff round among the tied players.
func (s *Service) PairPlayoff(ctx context.Context, actor ledger.Actor, key string, id int64) (RoundInfo, error) {
	return ledger.Mutate(ctx, s.store, actor, key, "PairPlayoff", id, func(tx *ledger.Tx, now time.Time) (RoundInfo, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return RoundInfo{}, err
		}
		if e.Ties != TiesPlayoff {
			return RoundInfo{}, ReasonPlayoffTies.New("event", eventID(id))
		}
		ps, err := s.participants(ctx, tx, id)
		if err != nil {
			return RoundInfo{}, err
		}
		want := regularRounds(e, ps)
		if e.Team || want == 0 {
			return RoundInfo{}, ReasonPlayoffSystem.With(ledger.Value("event", eventID(id)), systemWords(e.System))
		}
		rounds, err := s.rounds(ctx, tx, id)
		if err != nil {
			return RoundInfo{}, err
		}
		regular := 0
		var games []GameRow
		for _, r := range rounds {
			if !r.Playoff {
				regular++
			}
			games = append(games, r.Games...)
		}
		if regular < want {
			return RoundInfo{}, ReasonPlayoffEarly.New("event", eventID(id), "rounds", strconv.Itoa(want), "paired", strconv.Itoa(regular))
		}
		if g, open := pending(ps, games); open {
			return RoundInfo{}, ReasonResultMissing.New("round", strconv.Itoa(g.Round), "board", strconv.Itoa(g.Board))
		}
		pairs, err := playoffPairs(e, ps, rounds)
		if err != nil {
			return RoundInfo{}, err
		}
		if len(pairs) == 0 {
			return RoundInfo{}, ReasonNoTies.New("event", eventID(id))
		}
		round := len(rounds) + 1
		info := RoundInfo{Round: round, Seed: e.Seed + int64(round), Playoff: true}
		if _, err := tx.Exec(ctx, `INSERT INTO tournament_rounds (tournament_id, round, seed, paired_at, playoff) VALUES ($1, $2, $3, $4, true)`,
			id, round, info.Seed, now); err != nil {
			return RoundInfo{}, ledger.PgErr(err, "record playoff round")
		}
		for i, p := range pairs {
			g := GameRow{Game: Game{Round: round, Board: i + 1, Black: p.Black, White: p.White}}
			if _, err := tx.Exec(ctx, `INSERT INTO tournament_games (tournament_id, round, board, black, white) VALUES ($1, $2, $3, $4, $5)`,
				id, round, g.Board, g.Black, g.White); err != nil {
				return RoundInfo{}, ledger.PgErr(err, "record playoff pairing")
			}
			info.Games = append(info.Games, g)
		}
		err = ledger.Append(ctx, tx, now, actor, "tournament", eventID(id),
			PlayoffPairedPayload{Pairs: pairs, Round: round})
		return info, err
	})
}

// playoffPairs pairs the next playoff round: each group tied on the
// regular rounds that its playoff games have not yet separated plays the
// next round of its round robin.
func playoffPairs(e Event, ps []Participant, rounds []RoundInfo) ([]Pairing, error) {
	regular := make([]RoundInfo, 0, len(rounds))
	for _, r := range rounds {
		if !r.Playoff {
			regular = append(regular, r)
		}
	}
	before, err := Standings(field(e, ps, regular), e.Order)
	if err != nil {
		return nil, err
	}
	now, err := Standings(field(e, ps, rounds), e.Order)
	if err != nil {
		return nil, err
	}
	tiedNow := map[int]int{} // entrant → his place now, if tied
	for _, s := range now {
		if s.Tied {
			tiedNow[s.Entrant] = s.Place
		}
	}
	groups := map[int][]int{} // place on the regular rounds → tied entrants
	var places []int
	for _, s := range before {
		if s.Tied && !s.Withdrawn {
			if groups[s.Place] == nil {
				places = append(places, s.Place)
			}
			groups[s.Place] = append(groups[s.Place], s.Entrant)
		}
	}
	var out []Pairing
	for _, place := range places {
		g := groups[place]
		slices.Sort(g)
		still := false // two of the group still tied with each other
		seen := map[int]bool{}
		for _, n := range g {
			if p, ok := tiedNow[n]; ok {
				if seen[p] {
					still = true
				}
				seen[p] = true
			}
		}
		if !still {
			continue
		}
		played := 0 // playoff rounds this group has played
		for _, r := range rounds {
			if r.Playoff && slices.ContainsFunc(r.Games, func(x GameRow) bool { return slices.Contains(g, x.Black) }) {
				played++
			}
		}
		sched, err := RoundRobin(len(g), false)
		if err != nil {
			return nil, err
		}
		cycle, k := played/len(sched), played%len(sched)
		for _, p := range sched[k] {
			if p.Bye() {
				continue
			}
			a, b := g[p.A-1], g[p.B-1]
			if cycle%2 == 1 {
				a, b = b, a
			}
			out = append(out, Pairing{Black: a, White: b})
		}
	}
	return out, nil
}
