package ledger

import (
	"context"
	"time"
)

// ScanEntityEvents streams, oldest first, the rows about entities of one
// type with the given actions, an id up to and including upTo and a time in
// [from, before): an "as of" reading of one kind of history (the audit
// report's certificates) that the (entity_type, entity_id, id) index serves
// without reading the whole log. fn must not keep Payload beyond the call.
func ScanEntityEvents(ctx context.Context, q Querier, entityType string, actions []string, upTo int64, from, before time.Time,
	fn func(LoggedEvent) error) error {
	return scanLogged(ctx, q, "scan "+entityType+" events", `WHERE entity_type = $1 AND action = ANY($2) AND id <= $3 AND at >= $4 AND at < $5`,
		[]any{entityType, actions, upTo, from, before}, fn)
}
