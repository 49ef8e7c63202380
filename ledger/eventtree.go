package ledger

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"golang.org/x/mod/sumdb/tlog"
)

// The event log is also an RFC 6962 Merkle tree: the record of event N is
// its chain hash, its leaf tlog.RecordHash of that, at index N-1. The
// tree's stored hashes are written with the events, under the append lock,
// so a signed tree head (a checkpoint) kept outside the database pins every
// row up to its size.

// treeReader reads stored hashes from event_tree, with those not yet
// written (this append's) in pending.
type treeReader struct {
	ctx     context.Context
	db      Querier
	pending map[int64]tlog.Hash
}

func (r treeReader) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	var missing []int64
	for i, x := range indexes {
		if h, ok := r.pending[x]; ok {
			out[i] = h
		} else {
			missing = append(missing, x)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	rows, err := r.db.Query(r.ctx, `SELECT idx, hash FROM event_tree WHERE idx = ANY($1)`, missing)
	if err != nil {
		return nil, fmt.Errorf("read event tree: %w", err)
	}
	defer rows.Close()
	found := make(map[int64]tlog.Hash, len(missing))
	for rows.Next() {
		var x int64
		var h []byte
		if err := rows.Scan(&x, &h); err != nil {
			return nil, fmt.Errorf("read event tree: %w", err)
		}
		found[x] = tlog.Hash(h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read event tree: %w", err)
	}
	for i, x := range indexes {
		if _, ok := r.pending[x]; ok {
			continue
		}
		h, ok := found[x]
		if !ok {
			// a hash the tree's size says is there: rows were deleted
			return nil, &TreeMismatch{fmt.Sprintf("event tree has no hash %d", x)}
		}
		out[i] = h
	}
	return out, nil
}

// leavesFor is the number of records whose stored hashes number count.
func leavesFor(count int64) (int64, error) {
	n := sort.Search(int(count)+1, func(n int) bool { return tlog.StoredHashCount(int64(n)) >= count })
	if tlog.StoredHashCount(int64(n)) != count {
		return 0, &TreeMismatch{fmt.Sprintf("event tree holds %d hashes, no whole tree", count)}
	}
	return int64(n), nil
}

// TreeSize is the number of events the stored tree covers.
func TreeSize(ctx context.Context, db Querier) (int64, error) {
	// the stored hashes are numbered 0, 1, …: the highest (an index
	// look-up, unlike count) says how many there are
	var count int64
	if err := db.QueryRow(ctx, `SELECT coalesce(max(idx) + 1, 0) FROM event_tree`).Scan(&count); err != nil {
		return 0, fmt.Errorf("size of event tree: %w", err)
	}
	return leavesFor(count)
}

// extendTree computes the stored hashes that add to the tree (of treeCount
// stored hashes) the records of events after its last one: those already
// in the table up to lastID (rows from before the tree existed; none once
// it has caught up) and then the given new ones. The caller writes them.
// known holds stored hashes already known (the tree's right edge, kept
// from the last append), read from the table only when missing; it comes
// back with the new hashes too, and size is the tree's new number of
// records.
func extendTree(ctx context.Context, tx *Tx, treeCount, lastID int64, fresh []Event, known map[int64]tlog.Hash) (idx []int64, hashes [][]byte, size int64, _ map[int64]tlog.Hash, err error) {
	n, err := leavesFor(treeCount)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	var records [][]byte
	if n < lastID {
		rows, err := tx.Query(ctx, `SELECT hash FROM events WHERE id > $1 ORDER BY id`, n)
		if err != nil {
			return nil, nil, 0, nil, fmt.Errorf("read events after the tree: %w", err)
		}
		for rows.Next() {
			var h []byte
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return nil, nil, 0, nil, fmt.Errorf("read events after the tree: %w", err)
			}
			records = append(records, h)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, 0, nil, fmt.Errorf("read events after the tree: %w", err)
		}
	}
	for _, e := range fresh {
		records = append(records, e.Hash)
	}
	if known == nil {
		known = map[int64]tlog.Hash{}
	}
	r := treeReader{ctx: ctx, db: tx, pending: known}
	if edgeOf(n, known) == nil {
		// the edge in one read: it is all the appends below read of the
		// stored tree, and it is kept for the next append
		var want []int64
		for level := 0; n>>level > 0; level++ {
			if (n>>level)&1 == 1 {
				want = append(want, tlog.StoredHashIndex(level, n>>level-1))
			}
		}
		hs, err := r.ReadHashes(want)
		if err != nil {
			return nil, nil, 0, nil, err
		}
		for i, x := range want {
			known[x] = hs[i]
		}
	}
	for i, rec := range records {
		leaf := n + int64(i)
		hs, err := tlog.StoredHashes(leaf, rec, r)
		if err != nil {
			return nil, nil, 0, nil, fmt.Errorf("event tree hashes of record %d: %w", leaf, err)
		}
		base := tlog.StoredHashIndex(0, leaf)
		for j, h := range hs {
			r.pending[base+int64(j)] = h
			idx = append(idx, base+int64(j))
			hashes = append(hashes, h[:])
		}
	}
	return idx, hashes, n + int64(len(records)), known, nil
}

// TreeHead is the stored tree's size and root hash.
func TreeHead(ctx context.Context, db Querier) (tlog.Tree, error) {
	n, err := TreeSize(ctx, db)
	if err != nil {
		return tlog.Tree{}, err
	}
	h, err := tlog.TreeHash(n, treeReader{ctx: ctx, db: db})
	if err != nil {
		return tlog.Tree{}, fmt.Errorf("event tree hash: %w", err)
	}
	return tlog.Tree{N: n, Hash: h}, nil
}

// ErrTreeRange is a proof asked for past the stored tree.
var ErrTreeRange = errors.New("outside the event tree")

// ProveConsistency proves that the tree of size old is a prefix of the tree
// of size size.
func ProveConsistency(ctx context.Context, db Querier, old, size int64) (tlog.TreeProof, error) {
	n, err := TreeSize(ctx, db)
	if err != nil {
		return nil, err
	}
	if old < 1 || old > size || size > n {
		return nil, fmt.Errorf("consistency %d to %d of a tree of %d: %w", old, size, n, ErrTreeRange)
	}
	p, err := tlog.ProveTree(size, old, treeReader{ctx: ctx, db: db})
	if err != nil {
		return nil, fmt.Errorf("consistency proof: %w", err)
	}
	return p, nil
}

// ProveInclusion proves that leaf index (event index+1) is in the tree of size size.
func ProveInclusion(ctx context.Context, db Querier, index, size int64) (tlog.RecordProof, error) {
	n, err := TreeSize(ctx, db)
	if err != nil {
		return nil, err
	}
	if index < 0 || index >= size || size > n {
		return nil, fmt.Errorf("inclusion of %d in a tree of %d (stored %d): %w", index, size, n, ErrTreeRange)
	}
	p, err := tlog.ProveRecord(size, index, treeReader{ctx: ctx, db: db})
	if err != nil {
		return nil, fmt.Errorf("inclusion proof: %w", err)
	}
	return p, nil
}

// memTree is a tree recomputed in memory from the event rows.
type memTree map[int64]tlog.Hash

func (m memTree) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		h, ok := m[x]
		if !ok {
			return nil, fmt.Errorf("recomputed tree has no hash %d", x)
		}
		out[i] = h
	}
	return out, nil
}

// TreeMismatch is what a check against a checkpoint found wrong.
type TreeMismatch struct{ Reason string }

func (t *TreeMismatch) Error() string { return t.Reason }

// VerifyCheckpoint checks the event log against a tree head signed earlier
// and kept outside the database: the chain of rows holds (VerifyLog), the
// tree recomputed from the rows has the checkpoint's hash at its size, the
// current tree is consistent with it, and the stored tree matches the rows.
// It returns the number of rows, and a *TreeMismatch or *BrokenLink saying
// what is wrong.
func VerifyCheckpoint(ctx context.Context, db Querier, cp tlog.Tree) (int64, error) {
	n, err := VerifyLog(ctx, db)
	if err != nil {
		return n, err
	}
	if n < cp.N {
		return n, &TreeMismatch{fmt.Sprintf("the log has %d rows but the checkpoint signed %d: %d rows are missing (deleted or truncated)", n, cp.N, cp.N-n)}
	}
	rows, err := db.Query(ctx, `SELECT hash FROM events ORDER BY id`)
	if err != nil {
		return n, fmt.Errorf("read event log: %w", err)
	}
	mem := memTree{}
	var leaf int64
	for rows.Next() {
		var rec []byte
		if err := rows.Scan(&rec); err != nil {
			rows.Close()
			return n, fmt.Errorf("read event log: %w", err)
		}
		hs, err := tlog.StoredHashes(leaf, rec, mem)
		if err != nil {
			rows.Close()
			return n, fmt.Errorf("recompute tree: %w", err)
		}
		for j, h := range hs {
			mem[tlog.StoredHashIndex(0, leaf)+int64(j)] = h
		}
		leaf++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("read event log: %w", err)
	}
	if cp.N > 0 {
		old, err := tlog.TreeHash(cp.N, mem)
		if err != nil {
			return n, fmt.Errorf("recompute tree: %w", err)
		}
		if old != cp.Hash {
			return n, &TreeMismatch{fmt.Sprintf("the first %d rows do not hash to the checkpoint's tree: the log was rewritten (a recomputed chain)", cp.N)}
		}
		cur, err := tlog.TreeHash(n, mem)
		if err != nil {
			return n, fmt.Errorf("recompute tree: %w", err)
		}
		p, err := tlog.ProveTree(n, cp.N, mem)
		if err != nil {
			return n, fmt.Errorf("consistency proof: %w", err)
		}
		if err := tlog.CheckTree(p, n, cur, cp.N, cp.Hash); err != nil {
			return n, &TreeMismatch{fmt.Sprintf("the tree of %d rows is not consistent with the checkpoint of %d: %v", n, cp.N, err)}
		}
	}
	stored, err := TreeHead(ctx, db)
	if err != nil {
		return n, &TreeMismatch{fmt.Sprintf("the stored event tree cannot be read: %v", err)}
	}
	if stored.N != n {
		return n, &TreeMismatch{fmt.Sprintf("the stored event tree covers %d rows, the log has %d", stored.N, n)}
	}
	if want, _ := tlog.TreeHash(n, mem); want != stored.Hash {
		return n, &TreeMismatch{"the stored event tree does not match the event rows"}
	}
	return n, nil
}
