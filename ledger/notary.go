package ledger

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// Notary is the one signer of a process's checkpoints. It remembers the
// last checkpoint it published and signs a new tree head only when that
// head extends it (a consistency proof from the database, checked): a
// stored tree that shrank or forked is refused at the moment of signing,
// not only at the witness's next check. Once halted it signs nothing.
type Notary struct {
	signer  note.Signer
	vkey    string
	origin  string
	now     Clock
	refresh time.Duration
	keep    func(ctx context.Context, s SignedHead) error
	tamper  func(err error)

	mu   sync.Mutex
	last SignedHead

	halted atomic.Pointer[Error]
}

// NotaryOptions are the notary's settings; the zero value signs with the
// default origin and the wall clock, and keeps nothing.
type NotaryOptions struct {
	// Origin is the log's name in its checkpoints ("" is DefaultOrigin).
	Origin string
	// Now is the clock of the checkpoints' time lines (nil: time.Now).
	Now Clock
	// Refresh: a tree that has not grown is signed again, with a new time,
	// once the last checkpoint is this old (0 never re-signs one size), so
	// the newest checkpoint's time tells how fresh the log is.
	Refresh time.Duration
	// Keep records each checkpoint published (the history table, the head
	// kept beside the key) before it is served; an error withholds it.
	Keep func(ctx context.Context, s SignedHead) error
	// Last is the checkpoint published before (the kept head), which every
	// later one must extend.
	Last *SignedHead
	// Tamper hears of a tree that does not extend the last checkpoint,
	// after the notary has halted (the server's witness trips on it).
	Tamper func(err error)
}

// NewNotary takes the note signer key and its verifier key.
func NewNotary(skey, vkey string, o NotaryOptions) (*Notary, error) {
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
	n := &Notary{signer: s, vkey: vkey, origin: o.Origin, now: o.Now, refresh: o.Refresh, keep: o.Keep, tamper: o.Tamper}
	if n.origin == "" {
		n.origin = DefaultOrigin
	}
	if n.now == nil {
		n.now = time.Now
	}
	if o.Last != nil {
		n.last = *o.Last
	}
	return n, nil
}

// Signer is a tree signer over one copy of the database: the primary, or
// a replica (whose tree may be behind the last checkpoint published).
func (n *Notary) Signer(db Querier, primary bool) *TreeSigner {
	return &TreeSigner{db: db, notary: n, primary: primary, seen: newHashCache()}
}

// VerifierKey is the public key text that checks the checkpoints.
func (n *Notary) VerifierKey() string { return n.vkey }

// Origin is the log's name in its checkpoints.
func (n *Notary) Origin() string { return n.origin }

// Last is the newest checkpoint published (zero before the first).
func (n *Notary) Last() SignedHead {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.last
}

// Halt stops all signing: every later checkpoint and receipt is refused
// with LOG_INTEGRITY.
func (n *Notary) Halt() { n.halted.CompareAndSwap(nil, ReasonLogIntegrity.New()) }

// Halted is the refusal of a halted notary, nil while it signs.
func (n *Notary) Halted() error {
	if e := n.halted.Load(); e != nil {
		return e
	}
	return nil
}

// found halts the notary on a tree that does not extend what it
// published; the witness is told once the lock is released (*told).
func (n *Notary) found(err error, told *error) error {
	n.Halt()
	*told = err
	return fmt.Errorf("%w: %w", n.Halted(), err)
}

// signHead signs head now, with the co-signers too.
func (n *Notary) signHead(head tlog.Tree, cosigners []note.Signer) (SignedHead, error) {
	c := Checkpoint{Origin: n.origin, Tree: head, Time: n.now().UTC().Truncate(time.Second)}
	msg, err := note.Sign(&note.Note{Text: string(FormatCheckpoint(c))}, append([]note.Signer{n.signer}, cosigners...)...)
	if err != nil {
		return SignedHead{}, fmt.Errorf("sign checkpoint: %w", err)
	}
	return SignedHead{Checkpoint: c, Note: msg}, nil
}

// publish returns a checkpoint of head: the last one when it signs the
// same tree and is fresh, else a new one, kept before it is returned. A
// head of the primary that does not extend the last checkpoint halts the
// notary. A replica's head behind the last is signed as it is (a prefix of
// the primary's tree) and not kept.
func (n *Notary) publish(ctx context.Context, db Querier, primary bool, head tlog.Tree) (SignedHead, error) {
	s, _, err := n.publishHead(ctx, db, primary, head, false)
	return s, err
}

// publishKept is publish of a head this tree's signer kept from an
// earlier read of the database (TreeSigner.ReceiptsOf): ok is false, and
// nothing signed, when the notary has published a later head since, which
// is no finding (the head kept is older, not the tree smaller).
func (n *Notary) publishKept(ctx context.Context, db Querier, primary bool, head tlog.Tree) (s SignedHead, ok bool, err error) {
	return n.publishHead(ctx, db, primary, head, true)
}

func (n *Notary) publishHead(ctx context.Context, db Querier, primary bool, head tlog.Tree, kept bool) (SignedHead, bool, error) {
	if err := n.Halted(); err != nil {
		return SignedHead{}, false, err
	}
	var finding error
	defer func() {
		// after the unlock below: the witness reads the notary
		if finding != nil && n.tamper != nil {
			n.tamper(finding)
		}
	}()
	n.mu.Lock()
	defer n.mu.Unlock()
	last := n.last
	if kept && last.Note != nil && head.N < last.Tree.N {
		return SignedHead{}, false, nil
	}
	if last.Note != nil {
		switch {
		case head.N < last.Tree.N && primary:
			return SignedHead{}, false, n.found(&TreeMismatch{fmt.Sprintf("the stored tree has %d events, fewer than the %d of the checkpoint last published: rows were deleted", head.N, last.Tree.N)}, &finding)
		case head.N < last.Tree.N:
			s, err := n.signHead(head, nil)
			return s, err == nil, err
		case head.N == last.Tree.N && head.Hash != last.Tree.Hash:
			return SignedHead{}, false, n.found(&TreeMismatch{fmt.Sprintf("the stored tree of %d events has another root than the checkpoint last published: the log was rewritten", head.N)}, &finding)
		case head.N == last.Tree.N && (n.refresh <= 0 || n.now().Sub(last.Time) < n.refresh):
			return last, true, nil
		case head.N > last.Tree.N && last.Tree.N > 0:
			p, err := tlog.ProveTree(head.N, last.Tree.N, treeReader{ctx: ctx, db: db})
			if err != nil {
				return SignedHead{}, false, fmt.Errorf("consistency with the last checkpoint: %w", err)
			}
			if err := tlog.CheckTree(p, head.N, head.Hash, last.Tree.N, last.Tree.Hash); err != nil {
				return SignedHead{}, false, n.found(&TreeMismatch{fmt.Sprintf("the stored tree of %d events does not extend the checkpoint of %d last published: %v", head.N, last.Tree.N, err)}, &finding)
			}
		}
	}
	s, err := n.signHead(head, nil)
	if err != nil {
		return SignedHead{}, false, err
	}
	if n.keep != nil {
		if err := n.keep(ctx, s); err != nil {
			return SignedHead{}, false, fmt.Errorf("keep checkpoint: %w", err)
		}
	}
	n.last = s
	return s, true, nil
}

// PublishRotation signs the current tree (which holds the rotation's
// event) with the new key and, where it still exists, the old one, and
// keeps it: a holder of the old verifier key sees the hand-over signed by
// the key they trust.
func (n *Notary) PublishRotation(ctx context.Context, db Querier, old note.Signer) (SignedHead, error) {
	if err := n.Halted(); err != nil {
		return SignedHead{}, err
	}
	head, err := TreeHead(ctx, db)
	if err != nil {
		return SignedHead{}, err
	}
	var co []note.Signer
	if old != nil {
		co = append(co, old)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	s, err := n.signHead(head, co)
	if err != nil {
		return SignedHead{}, err
	}
	if n.keep != nil {
		if err := n.keep(ctx, s); err != nil {
			return SignedHead{}, fmt.Errorf("keep checkpoint: %w", err)
		}
	}
	n.last = s
	return s, nil
}
