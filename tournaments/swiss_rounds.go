package tournaments

import (
	"context"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/ledger"
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
