package tournaments

import (
	"context"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// StandingsCache keeps events' standings (the part of a report that an
// approval's evidence reads), each with the snapshot it was read in. An
// event's standings need all its participants and games; approving its
// players one by one would compute them once per player. A record is taken
// from the cache only while no change of the event's rows is visible that
// the entry's snapshot did not see, checked in the caller's transaction
// before anything else of the event: a result voided or corrected, a
// participant added, withdrawn or merged, a rule changed is seen by the
// next read. The zero value is not usable; a nil cache computes every time.
type StandingsCache struct {
	mu     sync.Mutex
	events map[int64]cachedStandings
}

type cachedStandings struct {
	// snapshot (pg_snapshot as text) the first read of the standings was
	// taken in, and the reading transaction's id then ("" when it had
	// none): its own later writes are new to the entry although the
	// snapshot counts them as seen
	snapshot, own string
	report        Report
}

// maxCachedEvents bounds the cache: approvals come in batches per event.
const maxCachedEvents = 64

// NewStandingsCache returns an empty cache.
func NewStandingsCache() *StandingsCache {
	return &StandingsCache{events: map[int64]cachedStandings{}}
}

// PlayerRecord is PlayerRecordTx, through the cache.
func (c *StandingsCache) PlayerRecord(ctx context.Context, q ledger.Querier, eventID, playerID int64) (PlayerRecord, error) {
	if c == nil {
		return PlayerRecordTx(ctx, q, eventID, playerID)
	}
	return c.playerRecord(eventID, playerID, func(sql string, args []any, scan func(pgx.Row) error) {
		_ = scan(q.QueryRow(ctx, sql, args...)) // its error is kept for finish
	})(ctx, q)
}

// QueuePlayerRecord is PlayerRecord in two steps: it queues on b the
// cache's check (one statement), so that the caller sends it with its own
// reads; finish, called once b is sent in the same transaction (before
// anything else of the event is read), gives the record, reading the
// standings when the cache cannot.
func (c *StandingsCache) QueuePlayerRecord(b *pgx.Batch, eventID, playerID int64) (finish func(context.Context, ledger.Querier) (PlayerRecord, error)) {
	return c.playerRecord(eventID, playerID, func(sql string, args []any, scan func(pgx.Row) error) {
		b.Queue(sql, args...).QueryRow(scan)
	})
}

// playerRecord sends the cache's check with send (now or queued) and
// returns what finishes the read once it is sent.
func (c *StandingsCache) playerRecord(eventID, playerID int64, send func(sql string, args []any, scan func(pgx.Row) error)) func(context.Context, ledger.Querier) (PlayerRecord, error) {
	c.mu.Lock()
	e, hit := c.events[eventID]
	c.mu.Unlock()
	var cached *cachedStandings
	if hit {
		cached = &e
	}
	var (
		v       version
		readErr error
	)
	sendEventVersion(send, eventID, cached, &v, &readErr)
	return func(ctx context.Context, q ledger.Querier) (PlayerRecord, error) {
		if readErr != nil {
			return PlayerRecord{}, readErr
		}
		if !v.exists {
			return PlayerRecord{}, nil // no such event
		}
		if hit && v.unchanged {
			return recordOf(e.report, playerID), nil
		}
		r, ok, err := standingsOf(ctx, q, eventID)
		if err != nil || !ok {
			return PlayerRecord{}, err
		}
		if v.ownWrites {
			// computed with this transaction's uncommitted changes of the
			// event, which may yet roll back: not for others
			return recordOf(r, playerID), nil
		}
		c.mu.Lock()
		if _, ok := c.events[eventID]; !ok && len(c.events) >= maxCachedEvents {
			for id := range c.events { // any one: the map is small
				delete(c.events, id)
				break
			}
		}
		c.events[eventID] = cachedStandings{snapshot: v.snapshot, own: v.own, report: r}
		c.mu.Unlock()
		return recordOf(r, playerID), nil
	}
}

// version is what sendEventVersion reads.
type version struct {
	exists    bool   // the event exists
	unchanged bool   // no change since the cached entry's snapshot
	ownWrites bool   // this transaction has changed the event's rows
	snapshot  string // the statement's snapshot
	own       string // this transaction's id, "" when it has none yet
}

// sendEventVersion sends (with send) the statement that reads whether the event exists, the
// snapshot and transaction id to keep with standings read now, and
// whether anything of the event changed that the cached entry's snapshot
// did not see. Every writer of the rows the standings are read from (the
// event's row, groups, grading rules, participants, rounds, games, extra
// byes) leaves its transaction id in tournament_changes by trigger
// (migration 00113); a change is new to a snapshot when its writer was
// running or not yet started then (pg_visible_in_snapshot), or is the
// entry's own reader that wrote after reading. Only changes at or after
// the snapshot's oldest running transaction are read (by the primary
// key), so this costs the same on an event of any size; it replaced a
// digest of every row version of the seven tables, 0.4 ms on an event of
// 751 players, read by every approval. An entry whose snapshot is ahead
// of the database's transaction ids (a promoted replica that had not
// received the last commits, which reuses their ids) is not trusted.
// v and readErr are set when its result is read.
func sendEventVersion(send func(string, []any, func(pgx.Row) error), id int64, cached *cachedStandings, v *version, readErr *error) {
	var snap, own *string
	if cached != nil {
		snap = &cached.snapshot
		if cached.own != "" {
			own = &cached.own
		}
	}
	send(`SELECT EXISTS (SELECT FROM tournaments WHERE id = $1),
		pg_current_snapshot()::text, coalesce(pg_current_xact_id_if_assigned()::text, ''),
		EXISTS (SELECT FROM tournament_changes c WHERE c.tournament_id = $1 AND c.xid = pg_current_xact_id_if_assigned()),
		pg_snapshot_xmax(pg_current_snapshot()) >= pg_snapshot_xmax($2::text::pg_snapshot)
		AND NOT EXISTS (SELECT FROM tournament_changes c WHERE c.tournament_id IN ($1, 0)
			AND c.xid >= pg_snapshot_xmin($2::text::pg_snapshot)
			AND (NOT pg_visible_in_snapshot(c.xid, $2::text::pg_snapshot) OR c.xid = $3::text::xid8))`,
		[]any{id, snap, own}, func(r pgx.Row) error {
			var unchanged *bool
			if err := r.Scan(&v.exists, &v.snapshot, &v.own, &v.ownWrites, &unchanged); err != nil {
				*readErr = fmt.Errorf("version of tournament %d: %w", id, err)
				return nil
			}
			v.unchanged = cached != nil && unchanged != nil && *unchanged
			return nil
		})
}
