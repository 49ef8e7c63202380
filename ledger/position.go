package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// LogPosition is the log's newest row: its id and time (0 and the zero time
// when the log is empty). Every change is logged, so the pair says cheaply
// whether anything read from the registry may have changed since: the open
// data files derive their ETag and Last-Modified from it.
func LogPosition(ctx context.Context, q Querier) (int64, time.Time, error) {
	var (
		id int64
		at time.Time
	)
	err := q.QueryRow(ctx, `SELECT id, at FROM events ORDER BY id DESC LIMIT 1`).Scan(&id, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, time.Time{}, nil
	}
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("event log position: %w", err)
	}
	return id, at, nil
}

// LatestEvents returns the newest rows with one of the actions, newest
// first, at most limit (an index on the action serves it, so a rare action
// is found without reading the whole log).
func LatestEvents(ctx context.Context, q Querier, actions []string, limit int) ([]LoggedEvent, error) {
	return collectLogged(ctx, q, "latest events", `WHERE action = ANY($1) ORDER BY id DESC LIMIT $2`, actions, limit)
}

// EventsAfter returns the rows after id with one of the actions, oldest
// first, at most limit: a reader that follows the log (the webhooks'
// dispatcher) keeps the last id it handled and asks again from there.
func EventsAfter(ctx context.Context, q Querier, after int64, actions []string, limit int) ([]LoggedEvent, error) {
	return collectLogged(ctx, q, "events after", `WHERE id > $1 AND action = ANY($2) ORDER BY id LIMIT $3`, after, actions, limit)
}

func collectLogged(ctx context.Context, q Querier, what, where string, args ...any) ([]LoggedEvent, error) {
	rows, err := q.Query(ctx, `SELECT id, at, actor, action, entity_type, entity_id, payload::text FROM events `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []LoggedEvent
	for rows.Next() {
		var e LoggedEvent
		if err := rows.Scan(&e.ID, &e.At, &e.Actor, &e.Action, &e.EntityType, &e.EntityID, &e.Payload); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}
