package ledger

// SpoilCache overwrites every cached hash with another: a cache that
// disagrees with the database, for the test that it is never served.
func (t *TreeSigner) SpoilCache() int {
	t.seen.mu.Lock()
	defer t.seen.mu.Unlock()
	for x, h := range t.seen.hashes {
		h[0] ^= 0xff
		t.seen.hashes[x] = h
	}
	return len(t.seen.hashes)
}
