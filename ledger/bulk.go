package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/mod/sumdb/tlog"
)

// BulkEvent is one event of a bulk append (a data load): what Append takes.
type BulkEvent struct {
	At         time.Time
	Actor      string // as Actor.String writes it
	EntityType string
	EntityID   string
	Payload    Payload
	// Fill, when set, gives the payload instead (one of Payload's action),
	// from the event tree's head just before this event (what a service
	// reads with TreeHead inside its transaction, e.g. a roster submission).
	// BulkAppend puts it in Payload.
	Fill func(head tlog.Tree) (Payload, error)
}

// BulkResult is where a bulk append put its events.
type BulkResult struct {
	FirstID, LastID int64
	Head            tlog.Tree // the tree after the last event
}

// BulkAppend appends many events in one go inside tx, under the log's
// append lock, chained (ChainHash) and entered into the Merkle tree exactly
// as commit does, and written with COPY. The events must be in time order.
// The existing log must be covered by its stored tree (as every commit
// leaves it).
func BulkAppend(ctx context.Context, tx pgx.Tx, events []BulkEvent) (BulkResult, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, eventLogLock); err != nil {
		return BulkResult{}, fmt.Errorf("lock event log: %w", err)
	}
	var lastID int64
	prev := []byte{}
	err := tx.QueryRow(ctx, `SELECT id, hash FROM events ORDER BY id DESC LIMIT 1`).Scan(&lastID, &prev)
	if err != nil && err != pgx.ErrNoRows {
		return BulkResult{}, fmt.Errorf("read last event: %w", err)
	}
	n, err := TreeSize(ctx, tx)
	if err != nil {
		return BulkResult{}, err
	}
	if n != lastID {
		return BulkResult{}, fmt.Errorf("the event tree covers %d of %d events: append one event normally first", n, lastID)
	}
	// the stored hashes so far, then this load's, indexed by stored index
	stored := make(memSlice, 0, tlog.StoredHashCount(n+int64(len(events))))
	rows, err := tx.Query(ctx, `SELECT hash FROM event_tree ORDER BY idx`)
	if err != nil {
		return BulkResult{}, fmt.Errorf("read event tree: %w", err)
	}
	for rows.Next() {
		var h []byte
		if err := rows.Scan(&h); err != nil {
			rows.Close()
			return BulkResult{}, fmt.Errorf("read event tree: %w", err)
		}
		stored = append(stored, tlog.Hash(h))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return BulkResult{}, fmt.Errorf("read event tree: %w", err)
	}
	base := int64(len(stored))
	first := prev
	res := BulkResult{FirstID: lastID + 1}
	hashes := make([][]byte, len(events))
	raws := make([]json.RawMessage, len(events))
	var last time.Time
	for i := range events {
		e := &events[i]
		if e.Payload == nil {
			return BulkResult{}, fmt.Errorf("bulk event %d has no payload", i)
		}
		action := e.Payload.Action()
		at := e.At.UTC().Truncate(time.Microsecond)
		if at.Before(last) {
			return BulkResult{}, fmt.Errorf("bulk event %d (%s at %s) comes before the one before it (%s)", i, action, at, last)
		}
		last = at
		if e.Fill != nil {
			leaves := lastID + int64(i)
			h, err := tlog.TreeHash(leaves, stored)
			if err != nil {
				return BulkResult{}, fmt.Errorf("tree head before bulk event %d: %w", i, err)
			}
			p, err := e.Fill(tlog.Tree{N: leaves, Hash: h})
			if err != nil {
				return BulkResult{}, fmt.Errorf("payload of bulk event %d (%s): %w", i, action, err)
			}
			if p == nil || p.Action() != action {
				return BulkResult{}, fmt.Errorf("bulk event %d (%s) filled with another action's payload", i, action)
			}
			e.Payload = p
		}
		raw, err := encodePayload(e.Payload)
		if err != nil {
			return BulkResult{}, fmt.Errorf("bulk event %d: %w", i, err)
		}
		raws[i] = raw
		id := lastID + int64(i) + 1
		ev := Event{ID: id, At: at, Actor: e.Actor, Action: action, EntityType: e.EntityType, EntityID: e.EntityID, Payload: raw}
		hashes[i] = ChainHash(prev, ev)
		prev = hashes[i]
		hs, err := tlog.StoredHashes(id-1, hashes[i], stored)
		if err != nil {
			return BulkResult{}, fmt.Errorf("event tree hashes of event %d: %w", id, err)
		}
		stored = append(stored, hs...)
	}
	res.LastID = lastID + int64(len(events))
	prevs := func(i int) []byte {
		if i == 0 {
			return nil
		}
		return hashes[i-1]
	}
	i := 0
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"events"}, []string{"id", "at", "actor", "action", "entity_type", "entity_id", "payload", "prev_hash", "hash"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if i >= len(events) {
				return nil, nil
			}
			e := &events[i]
			p := prevs(i)
			if i == 0 {
				p = first
			}
			row := []any{lastID + int64(i) + 1, e.At.UTC().Truncate(time.Microsecond), e.Actor, e.Payload.Action(), e.EntityType, e.EntityID,
				string(raws[i]), p, hashes[i]}
			i++
			return row, nil
		}))
	if err != nil {
		return BulkResult{}, fmt.Errorf("copy %d events: %w", len(events), err)
	}
	j := base
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"event_tree"}, []string{"idx", "hash"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if j >= int64(len(stored)) {
				return nil, nil
			}
			row := []any{j, stored[j][:]}
			j++
			return row, nil
		}))
	if err != nil {
		return BulkResult{}, fmt.Errorf("copy event tree: %w", err)
	}
	h, err := tlog.TreeHash(res.LastID, stored)
	if err != nil {
		return BulkResult{}, fmt.Errorf("event tree hash: %w", err)
	}
	res.Head = tlog.Tree{N: res.LastID, Hash: h}
	return res, nil
}

// memSlice is the tree's stored hashes held in memory, by stored index.
type memSlice []tlog.Hash

func (m memSlice) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		if x < 0 || x >= int64(len(m)) {
			return nil, fmt.Errorf("tree has no hash %d", x)
		}
		out[i] = m[x]
	}
	return out, nil
}

// MoveSequence sets the id sequence of table past its largest id, after a
// bulk load wrote ids of its own. The owner names its table.
func MoveSequence(ctx context.Context, tx pgx.Tx, table string) error {
	_, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT coalesce(max(id), 0) + 1 FROM `+
		pgx.Identifier{table}.Sanitize()+`), false)`, table)
	if err != nil {
		return fmt.Errorf("move the id sequence of %s: %w", table, err)
	}
	return nil
}
