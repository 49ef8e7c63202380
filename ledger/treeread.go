package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/mod/sumdb/tlog"
)

// A public read that answers with receipts (a certificate's verification)
// reads its row and the row's events in one statement: the owner's query
// joins EventsJoinSQL and selects EventColumnsSQL, and ReceiptsOf builds
// the receipts.
//
// The tree's head (its size and root) is the one this signer last read
// from the database and published, kept in memory with the hashes of its
// root, as the Go checksum database's clients keep a tree head and its
// tiles: an event within that head is proved from it and the cache of
// complete subtrees' hashes (which never change once written) without
// reading the tree again. Each proof is checked against the head's root and
// the event's record read in the statement before it is served. A proof
// that does not check (a record that is not the tree's, a cache or head
// that disagrees with the database) drops the cache and the head, and the
// receipts are made as for a tree grown beyond the head: the tree's size
// and root hashes read from the database, the proofs made from its hashes
// alone, the new head published by the notary (which refuses a head that
// does not extend the last it published). A proof that checks is the
// tree's only one for that record and root (else SHA-256 collides), so a
// receipt never disagrees with the event read or the head published.

var plainWord = regexp.MustCompile(`^[a-z_]+$`)

// EventsJoinSQL is a LEFT JOIN LATERAL for an owner's query: the events of
// the entity of entityType that the SQL expression entity names (a column
// of the outer row), of the actions in parameter $actionsParam (text[]),
// one row each (none: one row of NULLs). Order the query by ev.id.
func EventsJoinSQL(entityType, entity string, actionsParam int) string {
	return eventsJoinSQL(entityType, entity, `= ANY($`+strconv.Itoa(actionsParam)+`)`)
}

// actionWord is an action's name as it may stand in a statement's text.
var actionWord = regexp.MustCompile(`^[a-z_]+(\.[a-z_]+)*$`)

// EventsOfActionsJoinSQL is EventsJoinSQL with the actions written in the
// statement (names of the code's, plain words) rather than a parameter:
// no array encoded and sent with every call of a hot read.
func EventsOfActionsJoinSQL(entityType, entity string, actions []string) string {
	if len(actions) == 0 {
		panic("ledger: no actions for entity type " + strconv.Quote(entityType))
	}
	in := ""
	for i, a := range actions {
		if !actionWord.MatchString(a) {
			panic("ledger: action " + strconv.Quote(a) + " is not a plain name")
		}
		if i > 0 {
			in += ", "
		}
		in += "'" + a + "'"
	}
	return eventsJoinSQL(entityType, entity, `IN (`+in+`)`)
}

// eventsJoinSQL is the join of EventsJoinSQL and EventsOfActionsJoinSQL,
// the event's action kept by the condition actions (`= ANY($2)`, `IN (…)`).
func eventsJoinSQL(entityType, entity, actions string) string {
	if !plainWord.MatchString(entityType) {
		panic("ledger: entity type " + strconv.Quote(entityType) + " is not a plain word")
	}
	return ` LEFT JOIN LATERAL (SELECT e.id, e.at, e.actor, e.action, e.entity_id, e.payload::text AS payload, e.prev_hash, e.hash
		FROM events e WHERE e.entity_type = '` + entityType + `' AND e.entity_id = ` + entity + ` AND e.action ` + actions + `) ev ON true`
}

// EventColumnsSQL are the select list's columns for EventsJoinSQL's
// event. Scan them with TreeRead.Targets.
func EventColumnsSQL() string {
	return `ev.id, ev.at, ev.actor, ev.action, ev.entity_id, ev.payload, ev.prev_hash, ev.hash`
}

// treeColumnsSQL reads the tree's count of stored hashes and, sorted by
// index, the hashes at the indexes in $1 (bigint[], the frontier).
const treeColumnsSQL = `SELECT (SELECT coalesce(max(idx) + 1, 0) FROM event_tree),
	(SELECT coalesce(array_agg(t.hash ORDER BY t.idx), '{}') FROM event_tree t WHERE t.idx = ANY($1))`

// TreeRead collects what EventColumnsSQL yields, row by row: an entity's
// events (and, once ReceiptsOf reads them, the tree's count and root
// hashes).
type TreeRead struct {
	entityType string
	events     []Event
	tree       bool // count and hashes read
	frontier   []int64
	count      int64
	hashes     [][]byte
	// one row's event, NULL when the entity has none
	id                      *int64
	at                      *time.Time
	actor, action, entityID *string
	payload                 *string
	prev, hash              []byte
}

// NewTreeRead is a TreeRead for a query of entityType's events.
func NewTreeRead(entityType string) *TreeRead {
	return &TreeRead{entityType: entityType}
}

// Targets are one row's scan destinations for EventColumnsSQL; call Next
// after each row's scan.
func (r *TreeRead) Targets() []any { return r.AppendTargets(nil) }

// AppendTargets appends Targets to dest (a select list's other columns'
// destinations, made with room for them: no copy per row).
func (r *TreeRead) AppendTargets(dest []any) []any {
	return append(dest, &r.id, &r.at, &r.actor, &r.action, &r.entityID, &r.payload, &r.prev, &r.hash)
}

// Next keeps the row just scanned.
func (r *TreeRead) Next() {
	if r.id == nil {
		return
	}
	r.events = append(r.events, Event{ID: *r.id, At: *r.at, Actor: *r.actor, Action: *r.action, EntityType: r.entityType,
		EntityID: *r.entityID, Payload: json.RawMessage(*r.payload), PrevHash: r.prev, Hash: r.hash})
	r.id, r.prev, r.hash = nil, nil, nil
}

// Take adds the events of another row's read (of the same entity).
func (r *TreeRead) Take(row *TreeRead) { r.events = append(r.events, row.events...) }

// Events are the entity's events, oldest first.
func (r *TreeRead) Events() []Event {
	slices.SortFunc(r.events, func(a, b Event) int { return int(a.ID - b.ID) })
	return r.events
}

// frontierOf is the stored hashes the root of a tree of n leaves is made of.
func frontierOf(n int64) []int64 {
	var dry recordingReader
	if _, err := tlog.TreeHash(n, &dry); err != nil {
		return nil
	}
	slices.Sort(dry.asked)
	return slices.Compact(dry.asked)
}

// frontier is the indexes of the hashes of the root of the tree as this
// signer last saw it (when the tree has grown since, ReceiptsOf reads the
// new root's in a second query).
func (t *TreeSigner) frontier() []int64 {
	if t.seen == nil {
		return []int64{}
	}
	return t.seen.frontier()
}

// ReceiptsOf proves each of events (read with r) in the tree, every
// receipt against the same signed head, as Receipts does: from the head
// kept in memory and the cache of complete subtrees' hashes when every
// event is within that head, with no query once the cache holds the
// proofs' hashes. Else (the tree grew, or a proof did not check) from the
// tree's size and root read from the database, and the notary's
// consistency proof with the last head it published.
func (t *TreeSigner) ReceiptsOf(ctx context.Context, events []Event, r *TreeRead) ([]*Receipt, error) {
	if len(events) == 0 {
		return make([]*Receipt, 0), nil
	}
	if !r.tree {
		if h := t.seen.head(); h != nil && within(events, h.N) {
			rcs, err := t.receiptsAt(ctx, events, h)
			if rcs != nil || err != nil {
				return rcs, err
			}
		}
		r.frontier = t.frontier()
		if err := t.db.QueryRow(ctx, treeColumnsSQL, r.frontier).Scan(&r.count, &r.hashes); err != nil {
			return nil, fmt.Errorf("event tree head: %w", err)
		}
		r.tree = true
	}
	n, err := leavesFor(r.count)
	if err != nil {
		return nil, err
	}
	db := treeReader{ctx: ctx, db: t.db}
	// the root from the database's hashes alone: those read with the row
	// when the tree is the size the frontier was asked for, else read now
	fresh := memTree{}
	if slices.Equal(r.frontier, frontierOf(n)) && len(r.hashes) == len(r.frontier) {
		for i, x := range r.frontier {
			if len(r.hashes[i]) != tlog.HashSize {
				return nil, &TreeMismatch{fmt.Sprintf("event tree hash %d has %d bytes", x, len(r.hashes[i]))}
			}
			fresh[x] = tlog.Hash(r.hashes[i])
		}
	}
	root, err := tlog.TreeHash(n, layers{fresh, nil, nil, recorder{db, fresh}})
	if err != nil {
		return nil, fmt.Errorf("event tree hash: %w", err)
	}
	if t.seen != nil {
		t.seen.saw(n)
	}
	// the hashes the proofs need that neither the statement nor the cache
	// holds, in one query (none once the cache has them)
	read, err := t.missingHashes(db, n, fresh, events)
	if err != nil {
		return nil, err
	}
	out := make([]*Receipt, len(events))
	var cp []byte
	for i, e := range events {
		if e.ID < 1 || e.ID > n {
			continue
		}
		p, err := t.prove(n, e, root, fresh, read, db)
		if err != nil {
			return nil, err
		}
		if cp == nil {
			// through the notary, which signs only an extension of the last
			// head it published and keeps it in the history
			s, err := t.notary.publish(ctx, t.db, t.primary, tlog.Tree{N: n, Hash: root})
			if err != nil {
				return nil, err
			}
			cp = s.Note
		}
		out[i] = &Receipt{Index: e.ID - 1, Size: n, Record: e.Hash, TreeHash: root, Proof: p, Checkpoint: cp}
	}
	// what the database answered made proofs that checked: kept, and the
	// head the notary signed kept for the next events within it
	t.seen.keep(read)
	if cp != nil {
		t.seen.setHead(&treeHead{Tree: tlog.Tree{N: n, Hash: root}, root: fresh})
	}
	return out, nil
}

// within says whether every event is a leaf of the tree of n leaves.
func within(events []Event, n int64) bool {
	for _, e := range events {
		if e.ID < 1 || e.ID > n {
			return false
		}
	}
	return true
}

// treeHead is a head of the tree read from the database and published by
// the notary, with its root's stored hashes.
type treeHead struct {
	tlog.Tree
	root memTree
}

// receiptsAt proves events (every one within h) against the head h kept
// in memory, from its root's hashes and the cache, reading the hashes
// neither holds in one query. A proof that does not check against h's
// root drops the cache and the head and answers nil, nil, as does a head
// older than the notary's last of the primary's tree: the caller reads the
// tree from the database.
func (t *TreeSigner) receiptsAt(ctx context.Context, events []Event, h *treeHead) ([]*Receipt, error) {
	db := treeReader{ctx: ctx, db: t.db}
	read, err := t.missingHashes(db, h.N, h.root, events)
	if err != nil {
		return nil, err
	}
	out := make([]*Receipt, len(events))
	for i, e := range events {
		p, err := tlog.ProveRecord(h.N, e.ID-1, layers{h.root, t.seen, read, recorder{db, read}})
		if err != nil {
			return nil, fmt.Errorf("inclusion proof: %w", err)
		}
		if tlog.CheckRecord(p, h.N, h.Hash, e.ID-1, tlog.RecordHash(e.Hash)) != nil {
			t.seen.clear()
			t.seen.setHead(nil)
			return nil, nil
		}
		out[i] = &Receipt{Index: e.ID - 1, Size: h.N, Record: e.Hash, TreeHash: h.Hash, Proof: p}
	}
	// through the notary, as every head served: it refuses while halted and
	// signs afresh when its checkpoint is due
	s, ok, err := t.notary.publishKept(ctx, t.db, t.primary, h.Tree)
	switch {
	case err != nil:
		return nil, err
	case !ok && t.primary:
		// the notary published a later head of this tree since (a
		// checkpoint asked for): read it rather than sign an older one
		return nil, nil
	case !ok:
		// a replica's tree behind the primary's: its own head, signed as
		// it is (a prefix of the primary's tree)
		if s, err = t.notary.publish(ctx, t.db, t.primary, h.Tree); err != nil {
			return nil, err
		}
	}
	for _, rc := range out {
		rc.Checkpoint = s.Note
	}
	t.seen.keep(read)
	return out, nil
}

// prove is the inclusion proof of e in the tree of n leaves with root,
// from the cache where it agrees, checked before it is returned: where it
// does not, the cache is forgotten and the proof made from the
// database's hashes alone (noted in read).
func (t *TreeSigner) prove(n int64, e Event, root tlog.Hash, fresh, read memTree, db treeReader) (tlog.RecordProof, error) {
	leaf := tlog.RecordHash(e.Hash)
	if t.seen != nil {
		p, err := tlog.ProveRecord(n, e.ID-1, layers{fresh, t.seen, read, recorder{db, read}})
		if err == nil && tlog.CheckRecord(p, n, root, e.ID-1, leaf) == nil {
			return p, nil
		}
		t.seen.clear()
	}
	p, err := tlog.ProveRecord(n, e.ID-1, layers{fresh, nil, read, recorder{db, read}})
	if err != nil {
		return nil, fmt.Errorf("inclusion proof: %w", err)
	}
	if err := tlog.CheckRecord(p, n, root, e.ID-1, leaf); err != nil {
		return nil, &TreeMismatch{fmt.Sprintf("event %d: the stored tree does not prove its record: %v", e.ID, err)}
	}
	return p, nil
}

// layers reads a hash from fresh, else the cache, else read, else the
// database.
type layers struct {
	fresh memTree
	cache *hashCache
	read  memTree
	db    tlog.HashReader
}

func (l layers) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	var missing []int64
	var at []int
	for i, x := range indexes {
		if h, ok := l.fresh[x]; ok {
			out[i] = h
		} else if h, ok := l.cache.get(x); ok {
			out[i] = h
		} else if h, ok := l.read[x]; ok {
			out[i] = h
		} else {
			missing, at = append(missing, x), append(at, i)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	got, err := l.db.ReadHashes(missing)
	if err != nil {
		return nil, err
	}
	for j, i := range at {
		out[i] = got[j]
	}
	return out, nil
}

// recorder reads from the database and notes what it read.
type recorder struct {
	db   tlog.HashReader
	read memTree
}

func (r recorder) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	hs, err := r.db.ReadHashes(indexes)
	if err == nil {
		for i, x := range indexes {
			r.read[x] = hs[i]
		}
	}
	return hs, err
}

// maxCachedHashes bounds the cache of complete subtrees' hashes (32 bytes
// each): 2^18 of them, about 16 MB with the map's own.
const maxCachedHashes = 1 << 18

// hashCache holds stored hashes read from the database and the tree's
// size as last read.
type hashCache struct {
	mu     sync.RWMutex
	hashes map[int64]tlog.Hash
	n      atomic.Int64
	front  atomic.Pointer[[]int64]
	last   atomic.Pointer[treeHead]
}

func newHashCache() *hashCache { return &hashCache{hashes: map[int64]tlog.Hash{}} }

func (c *hashCache) get(x int64) (tlog.Hash, bool) {
	if c == nil {
		return tlog.Hash{}, false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	h, ok := c.hashes[x]
	return h, ok
}

// keep adds hashes that made a proof that checked.
func (c *hashCache) keep(m memTree) {
	if c == nil || len(m) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.hashes)+len(m) > maxCachedHashes {
		clear(c.hashes)
	}
	for x, h := range m {
		c.hashes[x] = h
	}
}

func (c *hashCache) clear() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.hashes)
}

// head is the tree head last published from the database, nil for none.
func (c *hashCache) head() *treeHead {
	if c == nil {
		return nil
	}
	return c.last.Load()
}

func (c *hashCache) setHead(h *treeHead) {
	if c != nil {
		c.last.Store(h)
	}
}

func (c *hashCache) saw(n int64) {
	if c.n.Swap(n) != n {
		f := frontierOf(n)
		c.front.Store(&f)
	}
}

func (c *hashCache) frontier() []int64 {
	if f := c.front.Load(); f != nil {
		return *f
	}
	return []int64{}
}

// missingHashes reads, in one query, the hashes that the inclusion proofs
// of events (those within the tree of n leaves) need and that neither
// known (the root's hashes) nor the cache holds: a dry run of the proofs
// records what they would ask for.
func (t *TreeSigner) missingHashes(db treeReader, n int64, known memTree, events []Event) (memTree, error) {
	var dry recordingReader
	for _, e := range events {
		if e.ID >= 1 && e.ID <= n {
			if _, err := tlog.ProveRecord(n, e.ID-1, layers{known, t.seen, nil, &dry}); err != nil {
				return nil, fmt.Errorf("inclusion proof: %w", err)
			}
		}
	}
	read := memTree{}
	if len(dry.asked) == 0 {
		return read, nil
	}
	slices.Sort(dry.asked)
	need := slices.Compact(dry.asked)
	hs, err := db.ReadHashes(need)
	if err != nil {
		return nil, err
	}
	for i, x := range need {
		read[x] = hs[i]
	}
	return read, nil
}
