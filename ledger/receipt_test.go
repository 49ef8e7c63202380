package ledger

import (
	"crypto/rand"
	"fmt"
	"testing"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// TestReceiptCheck: a receipt checks with the verifier key alone, and
// refuses a record, proof or checkpoint that is not the tree's.
func TestReceiptCheck(t *testing.T) {
	skey, vkey, err := note.GenerateKey(rand.Reader, "dankyu-test")
	if err != nil {
		t.Fatal(err)
	}
	signer, err := NewTreeSigner(nil, skey, vkey)
	if err != nil {
		t.Fatal(err)
	}
	_, otherV, err := note.GenerateKey(rand.Reader, "dankyu-test")
	if err != nil {
		t.Fatal(err)
	}
	// a tree of 7 records in memory, as the stored one is built
	mem := memTree{}
	records := make([][]byte, 7)
	for i := range records {
		records[i] = []byte(fmt.Sprintf("event %d", i+1))
		hs, err := tlog.StoredHashes(int64(i), records[i], mem)
		if err != nil {
			t.Fatal(err)
		}
		for j, h := range hs {
			mem[tlog.StoredHashIndex(0, int64(i))+int64(j)] = h
		}
	}
	receipt := func(index, size int64) *Receipt {
		t.Helper()
		root, err := tlog.TreeHash(size, mem)
		if err != nil {
			t.Fatal(err)
		}
		p, err := tlog.ProveRecord(size, index, mem)
		if err != nil {
			t.Fatal(err)
		}
		cp, err := signer.sign(tlog.Tree{N: size, Hash: root})
		if err != nil {
			t.Fatal(err)
		}
		return &Receipt{Index: index, Size: size, Record: records[index], TreeHash: root, Proof: p, Checkpoint: cp}
	}
	if err := receipt(4, 7).Check(vkey); err != nil {
		t.Fatalf("a true receipt: %v", err)
	}
	smaller := receipt(4, 5) // from a copy that has replayed less
	if err := smaller.Check(vkey); err != nil {
		t.Fatalf("a true receipt of a smaller tree: %v", err)
	}
	for _, tt := range []struct {
		name   string
		tamper func(r *Receipt)
		vkey   string
	}{
		{"another record", func(r *Receipt) { r.Record = records[3] }, vkey},
		{"another leaf", func(r *Receipt) { r.Index = 3 }, vkey},
		{"a proof hash changed", func(r *Receipt) { r.Proof[0][0] ^= 1 }, vkey},
		{"the checkpoint of another tree", func(r *Receipt) { r.Checkpoint = smaller.Checkpoint }, vkey},
		{"a root the checkpoint does not sign", func(r *Receipt) { r.TreeHash[0] ^= 1 }, vkey},
		{"another key", func(*Receipt) {}, otherV},
	} {
		r := receipt(4, 7)
		tt.tamper(r)
		if err := r.Check(tt.vkey); err == nil {
			t.Errorf("%s: the receipt checks", tt.name)
		}
	}
}
