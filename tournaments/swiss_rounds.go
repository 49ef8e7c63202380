package tournaments

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// maxSwissRounds bounds a Swiss event's rounds.
const maxSwissRounds = 99

// SetSwissRounds changes how many rounds a Swiss or McMahon event (with or
// without elimination) plays, after creation: "由于它的轮次可以根据情况适当增
// 减" (积分编排制). Never below the rounds already paired; the event must be
// open. The organiser or staff decide it, logged as tournament.rounds_added.
func (s *Service) SetSwissRounds(ctx context.Context, actor ledger.Actor, key string, id int64, rounds int) (Event, error) {
	req := []any{id, rounds}
	return ledger.Mutate(ctx, s.store, actor, key, "SetSwissRounds", req, func(tx *ledger.Tx, now time.Time) (Event, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return Event{}, err
		}
		swiss := e.System == SwissSystem || e.System == McMahonSystem || e.System == SwissEliminationSystem
		if !swiss || rounds < max(e.PairedRounds, 1) || rounds > maxSwissRounds {
			return Event{}, ReasonSwissAddRounds.OnField("rounds", "paired", strconv.Itoa(e.PairedRounds))
		}
		if _, err := tx.Exec(ctx, `UPDATE tournaments SET rounds = $2 WHERE id = $1`, id, rounds); err != nil {
			return Event{}, ledger.PgErr(err, "set rounds")
		}
		if err := ledger.Append(ctx, tx, now, actor, "tournament", eventID(id), RoundsAddedPayload{Rounds: rounds, Was: e.Rounds}); err != nil {
			return Event{}, err
		}
		return s.getEvent(ctx, tx, id)
	})
}

// PairingConstraint is an event's rule that players of one club, school
// or family are not paired in its first Rounds rounds, where the field
// allows (OpenGotha and pairgoth offer the same; in a provincial dan-grade
// event the same club is the usual channel for arranged games).
type PairingConstraint struct {
	Rounds int      // 0: none
	Kinds  []string // of club, school, family
}

// pairingKinds are the constraint's kinds, in the order shown.
var pairingKinds = []string{"club", "school", "family"}

// PairingConstraintKinds lists the kinds a constraint may name.
func PairingConstraintKinds() []string { return slices.Clone(pairingKinds) }

// SetPairingConstraint states the event's pairing constraint (Swiss and
// McMahon, with or without elimination), before or between rounds; logged.
func (s *Service) SetPairingConstraint(ctx context.Context, actor ledger.Actor, key string, id int64, c PairingConstraint) (PairingConstraint, error) {
	var kinds []string
	for _, k := range c.Kinds {
		k = strings.TrimSpace(k)
		if !slices.Contains(pairingKinds, k) {
			return PairingConstraint{}, ReasonPairingConstraint.OnField("kinds", "value", k)
		}
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	if c.Rounds < 0 || c.Rounds > maxSwissRounds || (c.Rounds > 0) != (len(kinds) > 0) {
		return PairingConstraint{}, ReasonPairingConstraint.OnField("avoid_rounds", "value", strconv.Itoa(c.Rounds))
	}
	if kinds == nil {
		kinds = []string{}
	}
	c = PairingConstraint{Rounds: c.Rounds, Kinds: kinds}
	return ledger.Mutate(ctx, s.store, actor, key, "SetPairingConstraint", []any{id, c}, func(tx *ledger.Tx, now time.Time) (PairingConstraint, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return PairingConstraint{}, err
		}
		if e.System != SwissSystem && e.System != McMahonSystem && e.System != SwissEliminationSystem {
			return PairingConstraint{}, ReasonPairingConstraint.OnField("avoid_rounds", "value", string(e.System))
		}
		if _, err := tx.Exec(ctx, `UPDATE tournaments SET avoid_rounds = $2, avoid_kinds = $3 WHERE id = $1`, id, c.Rounds, c.Kinds); err != nil {
			return PairingConstraint{}, ledger.PgErr(err, "set pairing constraint")
		}
		return c, ledger.Append(ctx, tx, now, actor, "tournament", eventID(id), PairingConstraintSetPayload{Kinds: c.Kinds, Rounds: c.Rounds})
	})
}

// GetPairingConstraint reads an event's pairing constraint.
func (s *Service) GetPairingConstraint(ctx context.Context, id int64) (PairingConstraint, error) {
	return pairingConstraint(ctx, s.db, id)
}

func pairingConstraint(ctx context.Context, q ledger.Querier, id int64) (PairingConstraint, error) {
	var c PairingConstraint
	if err := q.QueryRow(ctx, `SELECT avoid_rounds, avoid_kinds FROM tournaments WHERE id = $1`, id).Scan(&c.Rounds, &c.Kinds); err != nil {
		return PairingConstraint{}, ledger.RowErr(err, fmt.Sprintf("tournament %d", id), ReasonNoSuchEvent.New("event", eventID(id)))
	}
	return c, nil
}

// avoidKeys fills each player's Avoid keys when the event's constraint
// covers round; players are SwissPlayers by participant number.
func avoidKeys(ctx context.Context, q ledger.Querier, e Event, round int, ps []Participant, sps []SwissPlayer) error {
	c, err := pairingConstraint(ctx, q, e.ID)
	if err != nil || round > c.Rounds {
		return err
	}
	byNumber := map[int]int64{}
	var ids []int64
	for _, p := range ps {
		if p.PlayerID != 0 {
			byNumber[p.Number] = p.PlayerID
			ids = append(ids, p.PlayerID)
		}
	}
	keys, err := registry.PairingKeys(ctx, q, ids, e.Start, c.Kinds)
	if err != nil {
		return err
	}
	for i := range sps {
		sps[i].Avoid = keys[byNumber[sps[i].ID]]
	}
	return nil
}
