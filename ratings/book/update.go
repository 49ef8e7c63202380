package book

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// RateEventTx rates a finished event's games, round by round, from its
// players' ratings as they stand, in tx: tournaments calls it from its
// finishing transaction (through internal/ratings). An event already rated
// is left alone, so it is safe to call twice.
func (b *Book) RateEventTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, tournament int64) (Run, error) {
	if err := lockRatings(ctx, tx); err != nil {
		return Run{}, err
	}
	var rated bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM rating_history WHERE tournament_id = $1)`, tournament).Scan(&rated); err != nil {
		return Run{}, fmt.Errorf("event %d rated: %w", tournament, err)
	}
	if rated {
		return Run{}, nil
	}
	games, err := tournaments.FinishedRatingGames(ctx, tx, tournament)
	if err != nil {
		return Run{}, err
	}
	if len(games) == 0 {
		return Run{}, nil // no game on the board: nothing to rate
	}
	entrants, index := entrantsOf(games)
	e, err := b.load(ctx, tx, entrants, index, false)
	if err != nil {
		return Run{}, err
	}
	ps := e.rateEvent(games)
	var seq int64
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(seq), 0) + 1 FROM rating_history`).Scan(&seq); err != nil {
		return Run{}, fmt.Errorf("rating order: %w", err)
	}
	run, err := b.insertRun(ctx, tx, now, actor, e.params, Run{Kind: "incremental", Tournament: tournament, Events: 1, Games: len(games), Players: len(entrants)})
	if err != nil {
		return Run{}, err
	}
	var h historyRows
	h.add(e, &games[0], seq, ps)
	if err := h.insert(ctx, tx, run.Kind, run.ID); err != nil {
		return Run{}, err
	}
	all := make([]int32, len(entrants))
	for i := range all {
		all[i] = int32(i)
	}
	if err := e.save(ctx, tx, now, all); err != nil {
		return Run{}, err
	}
	return run, ledger.Append(ctx, tx, now, actor, "tournament", strconv.FormatInt(tournament, 10),
		UpdatedPayload{Games: run.Games, Players: run.Players, Run: run.ID})
}

// Recompute rebuilds every rating from the games of all finished events in
// time order (event's first day, then event, round), the way the events
// would have been rated had they finished in that order; the history then
// shows the recompute. Staff only.
func (b *Book) Recompute(ctx context.Context, actor ledger.Actor, key string) (Run, error) {
	action := ledger.Words("action", "重算全部等级分", "recompute all ratings")
	switch {
	case actor.IsStaff():
	case actor.Kind == ledger.AgencyActor:
		return Run{}, access.ReasonStaffOnly.With(action)
	default:
		return Run{}, access.ReasonNeedsToken.With(action)
	}
	return ledger.Mutate(ctx, b.store, actor, key, "RecomputeRatings", struct{}{}, func(tx *ledger.Tx, now time.Time) (Run, error) {
		return b.recomputeTx(ctx, tx, now, actor)
	})
}

func (b *Book) recomputeTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor) (Run, error) {
	if err := lockRatings(ctx, tx); err != nil {
		return Run{}, err
	}
	games, err := tournaments.FinishedRatingGames(ctx, tx, 0)
	if err != nil {
		return Run{}, err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM rating_history`); err != nil {
		return Run{}, ledger.PgErr(err, "clear rating history")
	}
	if _, err := tx.Exec(ctx, `UPDATE rating_players SET mean = 0, variance = 0, last_day = 0, rank_gor = NULL, seen = false, games = 0, updated_at = $1`, now); err != nil {
		return Run{}, ledger.PgErr(err, "reset ratings")
	}
	entrants, index := entrantsOf(games)
	run := Run{Kind: "recompute", Games: len(games), Players: len(entrants)}
	var e *engine
	if len(entrants) > 0 {
		if e, err = b.load(ctx, tx, entrants, index, true); err != nil {
			return Run{}, err
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM rating_grades`); err != nil {
		return Run{}, ledger.PgErr(err, "reset the grades' weight")
	}
	params, err := ParamsTx(ctx, tx)
	if err != nil {
		return Run{}, err
	}
	var h historyRows
	for i := 0; i < len(games); {
		j := i + 1
		for j < len(games) && games[j].Tournament == games[i].Tournament {
			j++
		}
		run.Events++
		h.add(e, &games[i], int64(run.Events), e.rateEvent(games[i:j]))
		i = j
	}
	run, err = b.insertRun(ctx, tx, now, actor, params, run)
	if err != nil {
		return Run{}, err
	}
	if err := h.insert(ctx, tx, run.Kind, run.ID); err != nil {
		return Run{}, err
	}
	if e != nil {
		all := make([]int32, len(entrants))
		for i := range all {
			all[i] = int32(i)
		}
		if err := e.save(ctx, tx, now, all); err != nil {
			return Run{}, err
		}
	}
	return run, ledger.Append(ctx, tx, now, actor, "rating_run", strconv.FormatInt(run.ID, 10),
		RecomputedPayload{Events: run.Events, Games: run.Games, Players: run.Players})
}
