package ledger

import (
	"bytes"
	"maps"
	"sync"

	"golang.org/x/mod/sumdb/tlog"
)

// logTip is the end of the event log as this process last appended to
// it: the last row, the tree's stored-hash count and the tree's right edge
// (the roots of its complete subtrees, which are all an append reads of
// the stored tree). An append uses the edge only when the row and count
// it read under the append lock are the tip's, so another process's
// append, a rolled-back one or a change of the rows only costs the read
// of the edge from the table again.
type logTip struct {
	mu        sync.Mutex
	lastID    int64
	lastHash  []byte
	treeCount int64
	edge      map[int64]tlog.Hash
}

// seed is a copy of the edge when the log ends where the tip says, or nil.
func (t *logTip) seed(lastID int64, lastHash []byte, treeCount int64) map[int64]tlog.Hash {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.edge == nil || t.lastID != lastID || t.treeCount != treeCount || !bytes.Equal(t.lastHash, lastHash) {
		return nil
	}
	return maps.Clone(t.edge)
}

// advance makes next the tip unless the tip is already further on (an
// append committed later whose commit was heard first).
func (t *logTip) advance(next *logTip) {
	if next == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if next.lastID > t.lastID || t.edge == nil {
		t.lastID, t.lastHash, t.treeCount, t.edge = next.lastID, next.lastHash, next.treeCount, next.edge
	}
}

// edgeOf is the right edge of the tree of n records, looked up in known,
// or nil when known lacks one of its hashes.
func edgeOf(n int64, known map[int64]tlog.Hash) map[int64]tlog.Hash {
	edge := map[int64]tlog.Hash{}
	for level := 0; n>>level > 0; level++ {
		if (n>>level)&1 == 0 {
			continue
		}
		i := tlog.StoredHashIndex(level, n>>level-1)
		h, ok := known[i]
		if !ok {
			return nil
		}
		edge[i] = h
	}
	return edge
}
