package tournaments

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// TeamFormat is a team event's format of article 25 (团体赛的比赛类型).
type TeamFormat string

const (
	// FixedBoards (分台定人制): every member keeps his board all event; the
	// national team events' format. No substitutes play.
	FixedBoards TeamFormat = "fixed_boards"
	// FixedOrder (定台换人制): each member, substitutes too, has a fixed
	// place in the team's order; before each round the organiser names who
	// plays, and they sit in that order.
	FixedOrder TeamFormat = "fixed_order"
	// FreeLineup (临场出人制): before each round the organiser names who plays
	// on which board, as a coach would: any member, any board.
	FreeLineup TeamFormat = "free_lineup"
	// AllPlay (全队轮赛制): in a match every member of one team plays every
	// member of the other, one rotation a round (a match of n boards takes
	// n rounds); for round robins of teams.
	AllPlay TeamFormat = "all_play"
	// TotalScore (队员总分制): boards as in FixedBoards, teams ranked by the
	// sum of their members' points before match points.
	TotalScore TeamFormat = "total_score"
)

// TeamFormats lists the formats, in the order forms show them.
func TeamFormats() []TeamFormat {
	return []TeamFormat{FixedBoards, FixedOrder, FreeLineup, AllPlay, TotalScore}
}

// maxReserves bounds the substitutes per team.
const maxReserves = 9

// lineup reports whether the format seats players by a lineup per round.
func (f TeamFormat) lineup() bool { return f == FixedOrder || f == FreeLineup }

func teamFormat(in string, reserves int, e Event) (TeamFormat, int, error) {
	f := TeamFormat(cmp.Or(strings.TrimSpace(in), string(FixedBoards)))
	if !slices.Contains(TeamFormats(), f) || (f != FixedBoards && !e.Team) || (e.System == ArenaSystem && f != FixedBoards) {
		return "", 0, ReasonTeamFormat.OnField("team_format", "value", in)
	}
	if f == AllPlay && e.System != RoundRobinSystem && e.System != DoubleRoundRobinSystem {
		return "", 0, ReasonTeamFormat.OnField("team_format", "value", in)
	}
	if reserves < 0 || reserves > maxReserves || (reserves > 0 && !f.lineup()) {
		return "", 0, ReasonReserves.OnField("reserves", "max", strconv.Itoa(maxReserves))
	}
	return f, reserves, nil
}

// checkReserve refuses a substitute where the format plays none, and one
// more than the event allows a team.
func checkReserve(ctx context.Context, tx *ledger.Tx, e Event, p Participant) error {
	if !p.Reserve {
		return nil
	}
	if !e.Team || !e.TeamFormat.lineup() || e.Reserves == 0 {
		return ReasonReserves.OnField("reserve", "max", strconv.Itoa(e.Reserves))
	}
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM participants WHERE tournament_id = $1 AND team = $2 AND reserve`, e.ID, p.Team).Scan(&n); err != nil {
		return fmt.Errorf("reserves of team %s: %w", p.Team, err)
	}
	if n >= e.Reserves {
		return ReasonReserves.OnField("reserve", "max", strconv.Itoa(e.Reserves))
	}
	return nil
}

// LineupInput names a team's players for the next round, board 1 first.
type LineupInput struct {
	Team    string
	Numbers []int
}

// SetLineup records who plays for a team in the next round (定台换人制 and
// 临场出人制), before it is paired: as many players as the team has
// starters, all its own, none withdrawn; in 定台换人制 in the order of
// their fixed places. A withdrawn member may be named only when nobody
// else of the team can play (his board is a forfeit). Named again, the
// lineup replaces the last one.
func (s *Service) SetLineup(ctx context.Context, actor ledger.Actor, key string, id int64, in LineupInput) ([]int, error) {
	req := []any{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "SetLineup", req, func(tx *ledger.Tx, now time.Time) ([]int, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return nil, err
		}
		if !e.Team || !e.TeamFormat.lineup() {
			return nil, ReasonLineupFormat.New("event", eventID(id))
		}
		ps, err := s.participants(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		if err := checkLineup(e, ps, in); err != nil {
			return nil, err
		}
		round := e.PairedRounds + 1
		if _, err := tx.Exec(ctx, `DELETE FROM tournament_lineups WHERE tournament_id = $1 AND round = $2 AND team = $3`, id, round, in.Team); err != nil {
			return nil, ledger.PgErr(err, "replace lineup")
		}
		for i, n := range in.Numbers {
			if _, err := tx.Exec(ctx, `INSERT INTO tournament_lineups (tournament_id, round, team, board, number) VALUES ($1, $2, $3, $4, $5)`,
				id, round, in.Team, i+1, n); err != nil {
				return nil, ledger.PgErr(err, "record lineup")
			}
		}
		err = ledger.Append(ctx, tx, now, actor, "tournament", eventID(id),
			LineupPayload{Boards: in.Numbers, Round: round, Team: in.Team})
		return in.Numbers, err
	})
}

// checkLineup validates a lineup against the team and the format.
func checkLineup(e Event, ps []Participant, in LineupInput) error {
	starters, known := 0, false
	byNumber := map[int]Participant{}
	for _, p := range ps {
		byNumber[p.Number] = p
		if p.Team == in.Team {
			known = true
			if !p.Reserve {
				starters++
			}
		}
	}
	if !known {
		return ReasonLineupNoTeam.OnField("team", "team", in.Team)
	}
	if len(in.Numbers) != starters {
		return ReasonLineupSize.OnField("lineup", "team", in.Team, "boards", strconv.Itoa(starters), "named", strconv.Itoa(len(in.Numbers)))
	}
	named := map[int]bool{}
	for _, n := range in.Numbers {
		named[n] = true
	}
	// a withdrawn member may be named only when nobody else of the team
	// can play: his board is then a forfeit (art. 28.4)
	spare := false
	for _, p := range ps {
		if p.Team == in.Team && !p.Withdrawn && !named[p.Number] {
			spare = true
		}
	}
	seen := map[int]bool{}
	for i, n := range in.Numbers {
		p, ok := byNumber[n]
		switch {
		case !ok || p.Team != in.Team:
			return ReasonLineupNotMember.OnField("lineup", "number", strconv.Itoa(n), "team", in.Team)
		case seen[n]:
			return ReasonLineupTwice.OnField("lineup", "number", strconv.Itoa(n))
		case p.Withdrawn && spare:
			return ReasonLineupWithdrawn.OnField("lineup", "number", strconv.Itoa(n))
		case e.TeamFormat == FixedOrder && i > 0 && p.Board <= byNumber[in.Numbers[i-1]].Board:
			return ReasonLineupOrder.OnField("lineup", "team", in.Team)
		}
		seen[n] = true
	}
	return nil
}

// lineups reads the lineups of a round: team → board → participant.
func (s *Service) lineups(ctx context.Context, q ledger.Querier, id int64, round int) (map[string]map[int]int, error) {
	rows, err := q.Query(ctx, `SELECT team, board, number FROM tournament_lineups WHERE tournament_id = $1 AND round = $2`, id, round)
	if err != nil {
		return nil, fmt.Errorf("lineups of tournament %d round %d: %w", id, round, err)
	}
	out := map[string]map[int]int{}
	var team string
	var board, number int
	_, err = pgx.ForEachRow(rows, []any{&team, &board, &number}, func() error {
		if out[team] == nil {
			out[team] = map[int]int{}
		}
		out[team][board] = number
		return nil
	})
	return out, err
}

// missingLineup names a team without a lineup for the round, "" when all have one.
func missingLineup(ps []Participant, lineups map[string]map[int]int) string {
	for _, p := range ps {
		if p.Team != "" && lineups[p.Team] == nil {
			return p.Team
		}
	}
	return ""
}

// starters is the number of boards a team plays: its members but the reserves.
func starters(ps []Participant) int {
	n := map[string]int{}
	first := ""
	for _, p := range ps {
		if first == "" {
			first = p.Team
		}
		if !p.Reserve {
			n[p.Team]++
		}
	}
	return n[first]
}

// matchRounds maps the rounds of an all-play team event to its team
// rounds (a match of n boards is n rounds), so that standings see one match.
func matchRounds(e Event, ps []Participant, games []Game) []Game {
	if e.TeamFormat != AllPlay {
		return games
	}
	n := max(starters(ps), 1)
	out := slices.Clone(games)
	for i := range out {
		out[i].Round = (out[i].Round-1)/n + 1
	}
	return out
}
