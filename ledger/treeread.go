package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"golang.org/x/mod/sumdb/tlog"
)

// A public read that answers with receipts (a certificate's verification)
// reads its row, the row's events and every stored tree hash their
// receipts need in one statement: the owner's query joins
// EventsAndTreeSQL laterally, and ReceiptsOf builds the receipts from what
// it scanned. Each hash comes from the database in the same snapshot as
// the row and the events, so a receipt never disagrees with the database
// (no cache to go stale behind a superuser's change: the witness and the
// notary see what the database holds, as before).

// treeNeedSQL is the stored hash indexes that the tree's root of n leaves
// and the inclusion proofs of events ids (leaf id-1) read, or a superset
// of them: the root is made of one complete subtree per bit of n (its
// "frontier"), and a leaf's proof of the complete sibling subtree at each
// level plus, for the incomplete right sibling, frontier subtrees again
// (tlog.ProveRecord splits at powers of two). A complete subtree at level
// l, k-th from the left, is stored at tlog.StoredHashIndex(l, k) =
// 2m − popcount(m) + l with m = (k+1)·2^l − 1.
// TestTreeNeedCoversProofs checks it against tlog's own dry run.
const treeNeedSQL = `ARRAY(
	SELECT 2 * m - bit_count(m::bit(64)) + l FROM (
		SELECT l, ((k + 1) << l) - 1 AS m FROM (
			SELECT l, (%[1]s >> l) - 1 AS k FROM generate_series(0, 62) l
			WHERE %[1]s > 0 AND (%[1]s >> l) & 1 = 1
			UNION
			SELECT l, ((id - 1) >> l) # 1 FROM unnest(%[2]s) id, generate_series(0, 62) l
			WHERE id >= 1 AND id <= %[1]s AND (1::bigint << l) < %[1]s AND (((((id - 1) >> l) # 1) + 1) << l) <= %[1]s
		) s
	) t)`

// treeLeavesSQL is the number of leaves whose stored hashes number
// count (which is 2n − popcount(n), strictly growing in n); NULL when no
// whole tree has that many (leavesFor then says so).
const treeLeavesSQL = `(SELECT n FROM generate_series(%[1]s / 2, %[1]s / 2 + 32) n WHERE 2 * n - bit_count(n::bit(64)) = %[1]s)`

var plainWord = regexp.MustCompile(`^[a-z_]+$`)

// EventsAndTreeSQL is a subquery for CROSS JOIN LATERAL in an owner's
// query: for the entity of entityType that the SQL expression entity
// names (a column of the outer row), its events of the actions in
// parameter $actionsParam (text[]), oldest first, and the event tree's
// stored hashes that prove them. It yields one row; scan its columns with
// TreeRead.Targets, after the outer row's own.
func EventsAndTreeSQL(entityType, entity string, actionsParam int) string {
	if !plainWord.MatchString(entityType) {
		panic("ledger: entity type " + strconv.Quote(entityType) + " is not a plain word")
	}
	p := "$" + strconv.Itoa(actionsParam)
	return `SELECT ev.ids, ev.ats, ev.actors, ev.actions, ev.entities, ev.payloads, ev.prevs, ev.hashes, sz.cnt, th.idx, th.h
	FROM (SELECT coalesce(array_agg(e.id ORDER BY e.id), '{}') AS ids, coalesce(array_agg(e.at ORDER BY e.id), '{}') AS ats,
		coalesce(array_agg(e.actor ORDER BY e.id), '{}') AS actors, coalesce(array_agg(e.action ORDER BY e.id), '{}') AS actions,
		coalesce(array_agg(e.entity_id ORDER BY e.id), '{}') AS entities, coalesce(array_agg(e.payload::text ORDER BY e.id), '{}') AS payloads,
		coalesce(array_agg(e.prev_hash ORDER BY e.id), '{}') AS prevs, coalesce(array_agg(e.hash ORDER BY e.id), '{}') AS hashes
		FROM events e WHERE e.entity_type = '` + entityType + `' AND e.entity_id = ` + entity + ` AND e.action = ANY(` + p + `)) ev
	CROSS JOIN (SELECT c0.cnt, ` + fmt.Sprintf(treeLeavesSQL, "c0.cnt") + ` AS n FROM (SELECT coalesce(max(idx) + 1, 0) AS cnt FROM event_tree) c0) sz
	CROSS JOIN LATERAL (SELECT coalesce(array_agg(t.idx), '{}') AS idx, coalesce(array_agg(t.hash), '{}') AS h FROM event_tree t
		WHERE t.idx = ANY(` + fmt.Sprintf(treeNeedSQL, "sz.n", "ev.ids") + `)) th`
}

// TreeRead is what EventsAndTreeSQL yields: an entity's events and the
// stored tree hashes their receipts need, read in one snapshot.
type TreeRead struct {
	entityType string
	ids        []int64
	ats        []time.Time
	actors     []string
	actions    []string
	entities   []string
	payloads   []string
	prevs      [][]byte
	hashes     [][]byte
	count      int64 // stored hashes in the tree
	idx        []int64
	tree       [][]byte
}

// NewTreeRead is a TreeRead to scan a subquery of EventsAndTreeSQL of
// entityType into.
func NewTreeRead(entityType string) *TreeRead { return &TreeRead{entityType: entityType} }

// Targets are the scan destinations of EventsAndTreeSQL's columns.
func (r *TreeRead) Targets() []any {
	return []any{&r.ids, &r.ats, &r.actors, &r.actions, &r.entities, &r.payloads, &r.prevs, &r.hashes, &r.count, &r.idx, &r.tree}
}

// Events are the entity's events, oldest first.
func (r *TreeRead) Events() []Event {
	if len(r.ids) == 0 {
		return nil
	}
	out := make([]Event, len(r.ids))
	for i, id := range r.ids {
		out[i] = Event{ID: id, At: r.ats[i], Actor: r.actors[i], Action: r.actions[i], EntityType: r.entityType,
			EntityID: r.entities[i], Payload: json.RawMessage(r.payloads[i]), PrevHash: r.prevs[i], Hash: r.hashes[i]}
	}
	return out
}

// ReceiptsOf proves each of events (read with r) in the tree r read,
// every receipt against the same signed head, as Receipts does but from
// the hashes already read: no further round trip unless the tree grew
// since the notary's last checkpoint (its consistency proof) or a hash is
// missing from r (then the database is asked, and answers as it holds).
func (t *TreeSigner) ReceiptsOf(ctx context.Context, events []Event, r *TreeRead) ([]*Receipt, error) {
	if len(events) == 0 {
		return make([]*Receipt, 0), nil
	}
	n, err := leavesFor(r.count)
	if err != nil {
		return nil, err
	}
	mem := make(memTree, len(r.idx))
	for i, x := range r.idx {
		if len(r.tree[i]) != tlog.HashSize {
			return nil, &TreeMismatch{fmt.Sprintf("event tree hash %d has %d bytes", x, len(r.tree[i]))}
		}
		mem[x] = tlog.Hash(r.tree[i])
	}
	return t.receiptsFrom(ctx, n, readThrough{mem: mem, db: treeReader{ctx: ctx, db: t.db}}, events)
}

// readThrough reads hashes from mem, and those it lacks from the database.
type readThrough struct {
	mem memTree
	db  treeReader
}

func (r readThrough) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	var missing []int64
	for i, x := range indexes {
		h, ok := r.mem[x]
		if !ok {
			missing = append(missing, x)
			continue
		}
		out[i] = h
	}
	if len(missing) == 0 {
		return out, nil
	}
	got, err := r.db.ReadHashes(missing)
	if err != nil {
		return nil, err
	}
	for i, x := range missing {
		r.mem[x] = got[i]
	}
	for i, x := range indexes {
		out[i] = r.mem[x]
	}
	return out, nil
}
