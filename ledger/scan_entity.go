package ledger

import (
	"context"
	"fmt"
	"time"
)

// ScanEntityEvents streams, oldest first, the rows about entities of one
// type with the given actions, an id up to and including upTo and a time in
// [from, before): an "as of" reading of one kind of history (the audit
// report's certificates) that the (entity_type, entity_id, id) index serves
// without reading the whole log. fn must not keep Payload beyond the call.
func ScanEntityEvents(ctx context.Context, q Querier, entityType string, actions []string, upTo int64, from, before time.Time,
	fn func(LoggedEvent) error) error {
	rows, err := q.Query(ctx, `SELECT id, at, actor, action, entity_type, entity_id, payload::text FROM events
		WHERE entity_type = $1 AND action = ANY($2) AND id <= $3 AND at >= $4 AND at < $5 ORDER BY id`,
		entityType, actions, upTo, from, before)
	if err != nil {
		return fmt.Errorf("scan %s events: %w", entityType, err)
	}
	defer rows.Close()
	var e LoggedEvent
	for rows.Next() {
		if err := rows.Scan(&e.ID, &e.At, &e.Actor, &e.Action, &e.EntityType, &e.EntityID, &e.Payload); err != nil {
			return fmt.Errorf("scan %s events: %w", entityType, err)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("scan %s events: %w", entityType, err)
	}
	return nil
}
