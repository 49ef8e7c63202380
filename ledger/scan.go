package ledger

import (
	"context"
	"fmt"
	"time"
)

// LoggedEvent is an event-log row as a reader of the history needs it: no
// hashes, the payload as sent.
type LoggedEvent struct {
	ID         int64
	At         time.Time
	Actor      string
	Action     string
	EntityType string
	EntityID   string
	Payload    []byte
}

// LastEventID is the log's position: the id of its newest row (0 when empty).
// Appends are serialised and committed in id order, so every row at or below
// the position a transaction reads is already there and none will be added.
func LastEventID(ctx context.Context, q Querier) (int64, error) {
	var id int64
	if err := q.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM events`).Scan(&id); err != nil {
		return 0, fmt.Errorf("event log position: %w", err)
	}
	return id, nil
}

// ScanEvents streams, oldest first, every row with an id up to and including
// upTo and a time before before (the zero time: any), to fn: one query for
// the whole history, so an "as of" reading of the log (the audit's) is a
// single pass. fn must not keep Payload beyond the call.
func ScanEvents(ctx context.Context, q Querier, upTo int64, before time.Time, fn func(LoggedEvent) error) error {
	if before.IsZero() {
		before = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return scanLogged(ctx, q, "scan event log", `WHERE id <= $1 AND at < $2`, []any{upTo, before}, fn)
}

// scanLogged streams the rows where says, oldest first, to fn; what names
// the reading in errors.
func scanLogged(ctx context.Context, q Querier, what, where string, args []any, fn func(LoggedEvent) error) error {
	rows, err := q.Query(ctx, `SELECT id, at, actor, action, entity_type, entity_id, payload::text FROM events `+where+` ORDER BY id`, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var e LoggedEvent
	for rows.Next() {
		if err := rows.Scan(&e.ID, &e.At, &e.Actor, &e.Action, &e.EntityType, &e.EntityID, &e.Payload); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
