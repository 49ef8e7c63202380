package ledger

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"golang.org/x/mod/sumdb/tlog"
)

// Event is one row of the append-only event log.
type Event struct {
	ID         int64
	At         time.Time
	Actor      string
	Action     string
	EntityType string
	EntityID   string
	Payload    json.RawMessage
	PrevHash   []byte
	Hash       []byte
}

// eventLogLock is the advisory lock that serialises appends, so that each
// row's prev_hash is the hash of the row before it ("events" in ASCII).
const eventLogLock int64 = 0x6576656e7473

// ChainHash is SHA-256 over the previous row's hash and this row's content,
// each field length-prefixed so no two different rows encode alike.
func ChainHash(prev []byte, e Event) []byte {
	var buf bytes.Buffer
	field := func(b []byte) {
		buf.Write(binary.AppendUvarint(nil, uint64(len(b))))
		buf.Write(b)
	}
	field(prev)
	field(binary.BigEndian.AppendUint64(nil, uint64(e.ID)))
	field([]byte(e.At.UTC().Format(time.RFC3339Nano)))
	field([]byte(e.Actor))
	field([]byte(e.Action))
	field([]byte(e.EntityType))
	field([]byte(e.EntityID))
	field(e.Payload)
	sum := sha256.Sum256(buf.Bytes())
	return sum[:]
}

// Tx is a transaction of the database that gathers the events
// of a change and appends them to the log in one go just before commit, so
// the log's lock is held for the last few statements only.
type Tx struct {
	pgx.Tx
	pending []Event
	// written are the events appended, told to the store's observers
	// once the transaction has committed.
	written []Event
	// tip is the store's end of the log, whose tree edge an append reuses;
	// next is the end this transaction's append leaves, made the tip once
	// it has committed.
	tip, next *logTip
	// ended: the transaction committed with its last write (lastWrite).
	ended bool
	// head is the log's end read ahead under the log's lock
	// (QueueLogHead), nil when not
	head *logHead
}

// logHead is the log's end: its last row and the tree's size.
type logHead struct {
	lastID    int64
	prev      []byte
	treeCount int64
	read      bool
}

// QueueLogHead queues on b the log's lock and the read of its end that
// the append at commit makes first, so that a change which is to append
// sends them with its own statements, in the round trip after which it
// holds its other locks, instead of in one of their own. The lock is held
// from then to commit (what is read stays the end); b must be sent in tx.
// A change that queues it takes the log's lock after the locks its
// statements before it in b take, as an append at commit would.
func (tx *Tx) QueueLogHead(b *pgx.Batch) {
	h := &logHead{prev: []byte{}}
	tx.head = h
	queueLogLockAndEnd(b, h)
}

// queueLogLockAndEnd queues the log's lock and, bound once it is held,
// the read of its end into h.
func queueLogLockAndEnd(b *pgx.Batch, h *logHead) {
	b.Queue(`SELECT pg_advisory_xact_lock($1)`, eventLogLock)
	queueLogEnd(b, h, nil)
}

// LogLock is the event log's advisory lock, for a statement that takes it
// itself (QueueLogEndAfter): pg_advisory_xact_lock(LogLock).
const LogLock = eventLogLock

// QueueLogEndAfter is QueueLogHead for a change whose statement queued
// before on b takes the log's lock itself, and only when it makes the
// change that is to append: it queues the read of the log's end, which is
// kept when *locked is true as that result is read (the statement's own
// scan sets it) and dropped otherwise, the append at commit then locking
// and reading the end itself. A statement that may do nothing and be
// tried again takes the lock so, lest a try that did nothing hold the
// log while the next waits for a row another appender is writing, that
// appender waiting for the log.
func (tx *Tx) QueueLogEndAfter(b *pgx.Batch, locked *bool) {
	h := &logHead{prev: []byte{}}
	tx.head = h
	queueLogEnd(b, h, locked)
}

// queueLogEnd queues the read of the log's end into h, kept when locked
// is nil or true when it is read.
func queueLogEnd(b *pgx.Batch, h *logHead, locked *bool) {
	b.Queue(`SELECT coalesce(e.id, 0), coalesce(e.hash, ''::bytea), t.count
		FROM (SELECT coalesce(max(idx) + 1, 0) AS count FROM event_tree) t
		LEFT JOIN LATERAL (SELECT id, hash FROM events ORDER BY id DESC LIMIT 1) e ON true`).QueryRow(func(r pgx.Row) error {
		if err := r.Scan(&h.lastID, &h.prev, &h.treeCount); err != nil {
			return err
		}
		h.read = locked == nil || *locked
		return nil
	})
}

// rider is a statement written by the append's own statement (a
// data-modifying WITH), so that it costs no round trip of its own while
// the locks are held: its SQL numbers its parameters from $1, renumbered
// when it rides.
type rider struct {
	sql  string
	args []any
}

// renumbered is r's SQL with its parameters numbered after the first n.
func (r rider) renumbered(n int) string {
	if n == 0 {
		return r.sql
	}
	return placeholder.ReplaceAllStringFunc(r.sql, func(p string) string {
		i, _ := strconv.Atoi(p[1:])
		return "$" + strconv.Itoa(n+i)
	})
}

// placeholder is a parameter of a statement ($1, $2, …).
var placeholder = regexp.MustCompile(`\$[0-9]+`)

// Payload is the payload of one action of the event log: a struct of the
// package that writes the action, whose JSON tags are the row's keys. Each
// action has exactly one payload type, named by Action (as the type's own
// constant), and the readers of the log read only keys its tags declare
// (internal/archtest holds both to it).
type Payload interface {
	Action() string
}

// Append queues the event p of an entity in tx: the action p names, with p
// as its payload. It is written, chained, at commit.
func Append(_ context.Context, tx *Tx, at time.Time, actor Actor, entityType, entityID string, p Payload) error {
	raw, err := encodePayload(p)
	if err != nil {
		return err
	}
	tx.pending = append(tx.pending, Event{
		At:         at.UTC().Truncate(time.Microsecond), // what PostgreSQL keeps
		Actor:      actor.String(),
		Action:     p.Action(),
		EntityType: entityType,
		EntityID:   entityID,
		Payload:    raw,
	})
	return nil
}

// encodePayload is p as the log stores it.
func encodePayload(p Payload) (json.RawMessage, error) {
	if p == nil {
		return nil, errors.New("an event without a payload")
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encode %s event payload: %w", p.Action(), err)
	}
	return raw, nil
}

// flushEvents appends the queued events, chained to the last row, under the
// advisory lock that keeps appends in order, writes with them what rides
// along (nil: nothing) and commits in the same round trip (tx.ended): the
// locks the change holds (the log's, a series row's) are released one
// round trip sooner.
func (tx *Tx) flushEvents(ctx context.Context, ride *rider) error {
	if len(tx.pending) == 0 {
		if ride != nil {
			return tx.lastWrite(ctx, ride.sql, ride.args)
		}
		return nil
	}
	// the lock and the log's end (its last row and the tree's size) in
	// one round trip: the read is pipelined behind the lock, and the
	// server binds it, taking its snapshot, only once the lock is held,
	// so it sees every append before this one. The lock is held from here
	// to commit, so a round trip less here is one less for every writer.
	h := tx.head
	tx.head = nil // the end moves with this append
	if h == nil || !h.read {
		h = &logHead{prev: []byte{}}
		head := &pgx.Batch{}
		queueLogLockAndEnd(head, h)
		if err := tx.SendBatch(ctx, head).Close(); err != nil {
			return fmt.Errorf("lock event log and read its end: %w", err)
		}
	}
	lastID, prev, treeCount := h.lastID, h.prev, h.treeCount
	var (
		sql  strings.Builder
		args []any
	)
	sql.WriteString(`INSERT INTO events (id, at, actor, action, entity_type, entity_id, payload, prev_hash, hash) VALUES `)
	for i := range tx.pending {
		e := &tx.pending[i]
		lastID++
		e.ID, e.PrevHash = lastID, prev
		e.Hash = ChainHash(prev, *e)
		prev = e.Hash
		if i > 0 {
			sql.WriteString(", ")
		}
		n := len(args)
		fmt.Fprintf(&sql, "($%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d)", n+1, n+2, n+3, n+4, n+5, n+6, n+7, n+8, n+9)
		args = append(args, e.ID, e.At, e.Actor, e.Action, e.EntityType, e.EntityID, string(e.Payload), e.PrevHash, e.Hash)
	}
	// the tree's new hashes (catching up on any rows it does not cover
	// yet), written by the same statement as the events
	firstID, firstPrev := lastID-int64(len(tx.pending)), tx.pending[0].PrevHash
	var known map[int64]tlog.Hash
	if tx.tip != nil {
		known = tx.tip.seed(firstID, firstPrev, treeCount)
	}
	idx, hashes, size, known, err := extendTree(ctx, tx, treeCount, firstID, tx.pending, known)
	if err != nil {
		return err
	}
	stmt := sql.String()
	var with []string
	if len(idx) > 0 {
		n := len(args)
		with = append(with, fmt.Sprintf(`tree AS (INSERT INTO event_tree (idx, hash) SELECT * FROM unnest($%d::bigint[], $%d::bytea[]))`, n+1, n+2))
		args = append(args, idx, hashes)
	}
	if ride != nil {
		with = append(with, `rider AS (`+ride.renumbered(len(args))+`)`)
		args = append(args, ride.args...)
	}
	if len(with) > 0 {
		stmt = `WITH ` + strings.Join(with, ", ") + ` ` + stmt
	}
	if err := tx.lastWrite(ctx, stmt, args); err != nil {
		return fmt.Errorf("append %d events: %w", len(tx.pending), err)
	}
	if edge := edgeOf(size, known); edge != nil && tx.tip != nil && size == lastID {
		tx.next = &logTip{lastID: lastID, lastHash: prev, treeCount: treeCount + int64(len(idx)), edge: edge}
	}
	tx.written = append(tx.written, tx.pending...)
	tx.pending = tx.pending[:0]
	return nil
}

// lastWrite sends the transaction's last statement with its commit,
// pipelined: the server runs the commit only when the statement succeeded
// (a failure skips it, and the transaction is rolled back as usual).
func (tx *Tx) lastWrite(ctx context.Context, sql string, args []any) error {
	b := &pgx.Batch{}
	b.Queue(sql, args...)
	b.Queue(`commit`).Exec(func(ct pgconn.CommandTag) error {
		if ct.String() == "ROLLBACK" {
			return pgx.ErrTxCommitRollback
		}
		tx.ended = true
		return nil
	})
	return tx.SendBatch(ctx, b).Close()
}

// BrokenLink describes the first event row whose chain does not hold.
type BrokenLink struct {
	ID     int64
	Reason string
}

func (b *BrokenLink) Error() string { return fmt.Sprintf("event %d: %s", b.ID, b.Reason) }

// VerifyLog walks the whole event log in order and returns how many rows it
// checked, and a *BrokenLink error naming the first row that does not match.
func VerifyLog(ctx context.Context, db Querier) (int64, error) {
	rows, err := db.Query(ctx, `SELECT id, at, actor, action, entity_type, entity_id, payload::text, prev_hash, hash FROM events ORDER BY id`)
	if err != nil {
		return 0, fmt.Errorf("read event log: %w", err)
	}
	defer rows.Close()
	var (
		n    int64
		prev = []byte{}
		last int64
	)
	for rows.Next() {
		var e Event
		var payload string
		if err := rows.Scan(&e.ID, &e.At, &e.Actor, &e.Action, &e.EntityType, &e.EntityID, &payload, &e.PrevHash, &e.Hash); err != nil {
			return n, fmt.Errorf("read event: %w", err)
		}
		e.Payload = json.RawMessage(payload)
		switch {
		case e.ID != last+1:
			return n, &BrokenLink{e.ID, fmt.Sprintf("follows event %d: a row is missing", last)}
		case !bytes.Equal(e.PrevHash, prev):
			return n, &BrokenLink{e.ID, "prev_hash does not match the hash of the row before"}
		case !bytes.Equal(e.Hash, ChainHash(prev, e)):
			return n, &BrokenLink{e.ID, "content does not match its hash (the row was changed)"}
		}
		prev, last = e.Hash, e.ID
		n++
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("read event log: %w", err)
	}
	return n, nil
}

const eventColumns = `id, at, actor, action, entity_type, entity_id, payload::text, prev_hash, hash`

func scanEvents(rows pgx.Rows) ([]Event, error) {
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Event, error) {
		var e Event
		var payload string
		err := r.Scan(&e.ID, &e.At, &e.Actor, &e.Action, &e.EntityType, &e.EntityID, &payload, &e.PrevHash, &e.Hash)
		e.Payload = json.RawMessage(payload)
		return e, err
	})
}

// EventsFor lists the events of one entity, oldest first.
func EventsFor(ctx context.Context, db Querier, entityType, entityID string) ([]Event, error) {
	rows, err := db.Query(ctx, `SELECT `+eventColumns+` FROM events WHERE entity_type = $1 AND entity_id = $2 ORDER BY id`, entityType, entityID)
	if err != nil {
		return nil, fmt.Errorf("events of %s %s: %w", entityType, entityID, err)
	}
	return scanEvents(rows)
}

// EventsBy lists what one actor (as the log writes it, e.g. "agency:110")
// did from from (inclusive) to to (exclusive), oldest first: the audit reads
// an agency's activity from it.
func EventsBy(ctx context.Context, db Querier, actor string, from, to time.Time) ([]Event, error) {
	rows, err := db.Query(ctx, `SELECT `+eventColumns+` FROM events WHERE actor = $1 AND at >= $2 AND at < $3 ORDER BY id`, actor, from, to)
	if err != nil {
		return nil, fmt.Errorf("events by %s: %w", actor, err)
	}
	return scanEvents(rows)
}

// EventsOfEntities lists the events of the given actions of many entities
// of one type in one query, oldest first (a certificate's verification
// reads its state events with it).
func EventsOfEntities(ctx context.Context, db Querier, entityType string, ids, actions []string) ([]Event, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := db.Query(ctx, `SELECT `+eventColumns+` FROM events WHERE entity_type = $1 AND entity_id = ANY($2) AND action = ANY($3) ORDER BY id`,
		entityType, ids, actions)
	if err != nil {
		return nil, fmt.Errorf("events of %d %s entities: %w", len(ids), entityType, err)
	}
	return scanEvents(rows)
}
