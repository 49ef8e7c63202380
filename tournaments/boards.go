package tournaments

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// BoardOrder is how a team event's boards are set (art. 25: "各队按棋手段位
// 结合近期公布等级分，排定台次，台次一经排定，比赛中不得更改").
type BoardOrder string

const (
	// BoardsGiven: the organiser gives each member's board at entry (or
	// with SetBoard before the first round).
	BoardsGiven BoardOrder = "given"
	// BoardsByRank: members are entered without boards; the first pairing
	// orders each team by rank (certified, else declared), then by the
	// current rating of the ratings book, then by entry number.
	BoardsByRank BoardOrder = "rank"
)

func boardOrder(in string, team bool) (BoardOrder, error) {
	b := BoardOrder(cmp.Or(strings.TrimSpace(in), string(BoardsGiven)))
	if b != BoardsGiven && b != BoardsByRank {
		return "", ReasonBoardOrder.OnField("team_boards", "value", in)
	}
	if b == BoardsByRank && !team {
		return "", ReasonBoardOrder.OnField("team_boards", "value", in)
	}
	return b, nil
}

// RatingReader reads a registered player's current rating, for ordering
// team boards; the ratings book implements it, wired at the entry point
// (internal/eventratings), so tournaments does not import it. rated is
// false when none of his games has been rated.
type RatingReader interface {
	CurrentRatingTx(ctx context.Context, q ledger.Querier, playerID int64) (rating float64, rated bool, err error)
}

// WithBoardRatings orders team boards by rating after rank.
func WithBoardRatings(r RatingReader) Option { return func(s *Service) { s.ratings = r } }

// checkEntryBoard refuses a board where the event orders them itself, and
// any entry to a team event once its boards are fixed by the first round.
func checkEntryBoard(e Event, board int) error {
	if !e.Team {
		return nil
	}
	if e.PairedRounds > 0 {
		return ReasonBoardsFixed.New("event", eventID(e.ID))
	}
	if board < 0 || board > 99 {
		return ledger.ReasonOutOfRange.OnField("board", "min", "1", "max", "99")
	}
	if e.Boards == BoardsByRank && board != 0 {
		return ReasonBoardByRank.OnField("board", "event", eventID(e.ID))
	}
	return nil
}

// SetBoard gives a team member his board before the first round; once a
// round is paired the boards are fixed (art. 25) and every change is refused.
func (s *Service) SetBoard(ctx context.Context, actor ledger.Actor, key string, id int64, number, board int) (Participant, error) {
	req := []any{id, number, board}
	return ledger.Mutate(ctx, s.store, actor, key, "SetBoard", req, func(tx *ledger.Tx, now time.Time) (Participant, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return Participant{}, err
		}
		if !e.Team {
			return Participant{}, ReasonNotTeamEvent.New("event", eventID(id))
		}
		if board < 1 {
			return Participant{}, ledger.ReasonOutOfRange.OnField("board", "min", "1", "max", "99")
		}
		if err := checkEntryBoard(e, board); err != nil {
			return Participant{}, err
		}
		tag, err := tx.Exec(ctx, `UPDATE participants SET board = $3 WHERE tournament_id = $1 AND number = $2`, id, number, board)
		if err != nil {
			return Participant{}, ledger.PgErr(err, "set board")
		}
		if tag.RowsAffected() == 0 {
			return Participant{}, ReasonNoSuchParticipant.New("event", eventID(id), "number", strconv.Itoa(number))
		}
		ps, err := s.participants(ctx, tx, id)
		if err != nil {
			return Participant{}, err
		}
		err = ledger.Append(ctx, tx, now, actor, "tournament", eventID(id),
			BoardSetPayload{Board: board, Number: number})
		return ps[number-1], err
	})
}

// boardKey is what a member's board is ordered by: rank, then rating.
type boardKey struct {
	strength int
	rated    bool
	rating   float64
}

// orderBoards sets the boards of a team event whose boards go by rank, as
// its first round is paired: within each team the strongest rank (the
// registry's certified rank, else the declared one; a guest's entered
// rank) takes board 1, equal ranks by the current rating (rated before
// unrated), then by entry number. It records the order in the event log.
func (s *Service) orderBoards(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, e Event, ps []Participant) ([]Participant, error) {
	keys := map[int]boardKey{}
	for _, p := range ps {
		k := boardKey{strength: strength(p.Rank)}
		if p.PlayerID != 0 {
			pl, err := registry.PlayerTx(ctx, tx, p.PlayerID, false)
			if err != nil {
				return nil, err
			}
			k.strength = strength(pl.PlayingRank())
			if s.ratings != nil {
				if k.rating, k.rated, err = s.ratings.CurrentRatingTx(ctx, tx, p.PlayerID); err != nil {
					return nil, fmt.Errorf("rating of player %d: %w", p.PlayerID, err)
				}
			}
		}
		keys[p.Number] = k
	}
	order := orderBoardsBy(ps, keys)
	for team, numbers := range order {
		for i, n := range numbers {
			if _, err := tx.Exec(ctx, `UPDATE participants SET board = $3 WHERE tournament_id = $1 AND number = $2`, e.ID, n, i+1); err != nil {
				return nil, ledger.PgErr(err, "order boards of team "+team)
			}
		}
	}
	if err := ledger.Append(ctx, tx, now, actor, "tournament", eventID(e.ID),
		BoardsOrderedPayload{Boards: order, By: "rank, rating, number"}); err != nil {
		return nil, err
	}
	return s.participants(ctx, tx, e.ID)
}

// orderBoardsBy orders each team's members for their boards: by strength,
// then rated before unrated and the higher rating first, then by number.
// It returns each team's participant numbers, board 1 first.
func orderBoardsBy(ps []Participant, keys map[int]boardKey) map[string][]int {
	byTeam := map[string][]Participant{}
	for _, p := range ps {
		byTeam[p.Team] = append(byTeam[p.Team], p)
	}
	out := map[string][]int{}
	for team, members := range byTeam {
		slices.SortStableFunc(members, func(a, b Participant) int {
			if a.Reserve != b.Reserve { // the substitutes' places come after the starters'
				if b.Reserve {
					return -1
				}
				return 1
			}
			ka, kb := keys[a.Number], keys[b.Number]
			if c := cmp.Compare(kb.strength, ka.strength); c != 0 {
				return c
			}
			if ka.rated != kb.rated {
				if ka.rated {
					return -1
				}
				return 1
			}
			if c := cmp.Compare(kb.rating, ka.rating); c != 0 {
				return c
			}
			return cmp.Compare(a.Number, b.Number)
		})
		for _, m := range members {
			out[team] = append(out[team], m.Number)
		}
	}
	return out
}
