package ledger

import (
	"context"
	"fmt"
	"slices"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// TreeSigner signs checkpoints of the event tree with a key kept outside
// the database, and answers the proofs the public endpoints serve.
type TreeSigner struct {
	db       Querier
	signer   note.Signer
	verifier note.Verifier
	vkey     string
	// public are the actions whose entries show their content (WithPublicActions)
	public map[string]bool
}

// NewTreeSigner takes the note signer key and its verifier key (the text
// note.GenerateKey returns).
func NewTreeSigner(db Querier, skey, vkey string) (*TreeSigner, error) {
	s, err := note.NewSigner(skey)
	if err != nil {
		return nil, fmt.Errorf("log signer key: %w", err)
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return nil, fmt.Errorf("log verifier key: %w", err)
	}
	if v.KeyHash() != s.KeyHash() || v.Name() != s.Name() {
		return nil, fmt.Errorf("log verifier key %q is not the signer key's", v.Name())
	}
	return &TreeSigner{db: db, signer: s, verifier: v, vkey: vkey}, nil
}

// VerifierKey is the public key text that checks the checkpoints.
func (t *TreeSigner) VerifierKey() string { return t.vkey }

// Checkpoint is the current tree head, signed: a note whose text is
// tlog.FormatTree's.
func (t *TreeSigner) Checkpoint(ctx context.Context) ([]byte, error) {
	head, err := TreeHead(ctx, t.db)
	if err != nil {
		return nil, err
	}
	return t.sign(head)
}

// sign signs a tree head. Checkpoints are signed when asked for, never
// stored: whatever copy of the database the head was read from (the
// primary, or a replica that has replayed less of the same append-only
// tree), a head it holds is one the log really had, so every later
// checkpoint is consistent with it.
func (t *TreeSigner) sign(head tlog.Tree) ([]byte, error) {
	msg, err := note.Sign(&note.Note{Text: string(tlog.FormatTree(head))}, t.signer)
	if err != nil {
		return nil, fmt.Errorf("sign checkpoint: %w", err)
	}
	return msg, nil
}

// Consistency proves the tree of old events a prefix of the tree of size.
func (t *TreeSigner) Consistency(ctx context.Context, old, size int64) (tlog.TreeProof, error) {
	return ProveConsistency(ctx, t.db, old, size)
}

// Inclusion proves leaf index in the tree of size.
func (t *TreeSigner) Inclusion(ctx context.Context, index, size int64) (tlog.RecordProof, error) {
	return ProveInclusion(ctx, t.db, index, size)
}

// OpenCheckpoint checks a checkpoint's signature with the verifier key and
// returns the tree it signs.
func OpenCheckpoint(msg []byte, vkey string) (tlog.Tree, error) {
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return tlog.Tree{}, fmt.Errorf("log verifier key: %w", err)
	}
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil {
		return tlog.Tree{}, fmt.Errorf("checkpoint signature: %w", err)
	}
	tree, err := tlog.ParseTree([]byte(n.Text))
	if err != nil {
		return tlog.Tree{}, fmt.Errorf("checkpoint text: %w", err)
	}
	return tree, nil
}

// Receipt is where one event sits in the tree: the proof that leaf Index
// (event Index+1, whose record is its chain hash Record) is in the tree of
// Size events with root TreeHash. Checkpoint is that very tree head signed
// (a note, as /log/checkpoint serves), so the receipt is checked offline
// with the verifier key alone, whatever the log has grown to since.
type Receipt struct {
	Index, Size int64
	Record      []byte
	TreeHash    tlog.Hash
	Proof       tlog.RecordProof
	Checkpoint  []byte
}

// Check verifies the receipt with the log's verifier key: the checkpoint's
// signature, that it signs the receipt's tree, and the inclusion proof of
// the record in that tree.
func (r *Receipt) Check(vkey string) error {
	tree, err := OpenCheckpoint(r.Checkpoint, vkey)
	if err != nil {
		return err
	}
	if tree.N != r.Size || tree.Hash != r.TreeHash {
		return fmt.Errorf("the checkpoint signs another tree (%d events) than the receipt's (%d)", tree.N, r.Size)
	}
	if err := tlog.CheckRecord(r.Proof, r.Size, r.TreeHash, r.Index, tlog.RecordHash(r.Record)); err != nil {
		return fmt.Errorf("inclusion proof: %w", err)
	}
	return nil
}

// Receipt proves the first event of the entity with one of the actions in
// the current tree; nil when there is none (or the tree does not reach it yet).
func (t *TreeSigner) Receipt(ctx context.Context, entityType, entityID string, actions ...string) (*Receipt, error) {
	events, err := EventsFor(ctx, t.db, entityType, entityID)
	if err != nil {
		return nil, err
	}
	head, err := TreeHead(ctx, t.db)
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		if !slices.Contains(actions, e.Action) || e.ID > head.N {
			continue
		}
		// head.N is the stored tree's size just read: no need to ask it again
		p, err := tlog.ProveRecord(head.N, e.ID-1, treeReader{ctx: ctx, db: t.db})
		if err != nil {
			return nil, fmt.Errorf("inclusion proof: %w", err)
		}
		cp, err := t.sign(head)
		if err != nil {
			return nil, err
		}
		return &Receipt{Index: e.ID - 1, Size: head.N, Record: e.Hash, TreeHash: head.Hash, Proof: p, Checkpoint: cp}, nil
	}
	return nil, nil
}
