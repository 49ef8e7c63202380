package ledger

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// A checkpoint is the C2SP tlog-checkpoint text, signed as a note:
//
//	dankyu.events/registry          the log's origin (its own name)
//	1234                            the tree's size
//	<base64 root hash>
//	time 2026-03-01T08:00:00Z       an extension line: when it was signed
//
// The origin names this log (never the Go checksum database's), and the
// time makes a frozen log show: a checkpoint that stays old while the
// registry keeps working is a log that stopped growing in public.

// DefaultOrigin is the origin of a log whose operator named none.
const DefaultOrigin = "dankyu.events/registry"

// legacyOrigin is the origin line of checkpoints signed before they had
// one of their own (tlog.FormatTree's); they still open, without a time.
const legacyOrigin = "go.sum database tree"

// maxCheckpoint bounds a checkpoint read from outside: the text of a few
// lines and a handful of signatures.
const maxCheckpoint = 8 << 10

// Checkpoint is a signed tree head's content.
type Checkpoint struct {
	Origin string
	Tree   tlog.Tree
	// Time is when it was signed, to the second; zero on a checkpoint of
	// the old format.
	Time time.Time
}

// FormatCheckpoint is c's text, as signed.
func FormatCheckpoint(c Checkpoint) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n%d\n%s\n", c.Origin, c.Tree.N, base64.StdEncoding.EncodeToString(c.Tree.Hash[:]))
	if !c.Time.IsZero() {
		fmt.Fprintf(&b, "time %s\n", c.Time.UTC().Format(time.RFC3339))
	}
	return b.Bytes()
}

// ParseCheckpoint reads a checkpoint's text (a note's, the signatures
// apart): the new format, or the old one of tlog.FormatTree.
func ParseCheckpoint(text []byte) (Checkpoint, error) {
	if len(text) > maxCheckpoint {
		return Checkpoint{}, errors.New("checkpoint too long")
	}
	s := string(text)
	if !strings.HasSuffix(s, "\n") {
		return Checkpoint{}, errors.New("checkpoint text does not end in a newline")
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) < 3 {
		return Checkpoint{}, errors.New("checkpoint: want origin, size and root hash lines")
	}
	c := Checkpoint{Origin: lines[0]}
	if c.Origin == "" || strings.TrimSpace(c.Origin) != c.Origin {
		return Checkpoint{}, errors.New("checkpoint: empty or padded origin")
	}
	n, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || n < 0 || strconv.FormatInt(n, 10) != lines[1] {
		return Checkpoint{}, fmt.Errorf("checkpoint: size %q", lines[1])
	}
	h, err := base64.StdEncoding.Strict().DecodeString(lines[2])
	if err != nil || len(h) != tlog.HashSize {
		return Checkpoint{}, fmt.Errorf("checkpoint: root hash %q", lines[2])
	}
	c.Tree = tlog.Tree{N: n, Hash: tlog.Hash(h)}
	if c.Origin == legacyOrigin {
		if len(lines) != 3 {
			return Checkpoint{}, errors.New("checkpoint of the old format with extra lines")
		}
		return c, nil
	}
	for _, ext := range lines[3:] {
		v, ok := strings.CutPrefix(ext, "time ")
		if !ok {
			continue // another extension: C2SP lets a log add its own
		}
		if !c.Time.IsZero() {
			return Checkpoint{}, errors.New("checkpoint: two time lines")
		}
		// one spelling only: UTC, whole seconds, as FormatCheckpoint writes it
		if c.Time, err = time.Parse(time.RFC3339, v); err != nil || c.Time.UTC().Format(time.RFC3339) != v {
			return Checkpoint{}, fmt.Errorf("checkpoint: time %q", v)
		}
	}
	if c.Time.IsZero() {
		return Checkpoint{}, errors.New("checkpoint: no time line")
	}
	return c, nil
}

// OpenSignedCheckpoint checks a checkpoint's signature with the verifier
// key and returns what it signs.
func OpenSignedCheckpoint(msg []byte, vkey string) (Checkpoint, error) {
	if len(msg) > maxCheckpoint {
		return Checkpoint{}, errors.New("checkpoint too long")
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return Checkpoint{}, fmt.Errorf("log verifier key: %w", err)
	}
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint signature: %w", err)
	}
	c, err := ParseCheckpoint([]byte(n.Text))
	if err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint text: %w", err)
	}
	return c, nil
}

// OpenCheckpoint checks a checkpoint's signature with the verifier key and
// returns the tree it signs.
func OpenCheckpoint(msg []byte, vkey string) (tlog.Tree, error) {
	c, err := OpenSignedCheckpoint(msg, vkey)
	return c.Tree, err
}

// SignedHead is a checkpoint and its signed note.
type SignedHead struct {
	Checkpoint
	Note []byte
}

// TreeSigner signs checkpoints of the event tree of one database copy
// through the process's notary, and answers the proofs the public
// endpoints serve.
type TreeSigner struct {
	db      Querier
	notary  *Notary
	primary bool
	// public are the actions whose entries show their content (WithPublicActions)
	public map[string]bool
	// withhold names public actions' events served as private (WithWithhold)
	withhold Withhold
	// seen caches stored hashes of complete subtrees for ReceiptsOf
	seen *hashCache
}

// NewTreeSigner takes the note signer key and its verifier key (the text
// note.GenerateKey returns): a signer of its own, which keeps no history
// (the CLI's, tests'). The server's come from one Notary.
func NewTreeSigner(db Querier, skey, vkey string) (*TreeSigner, error) {
	n, err := NewNotary(skey, vkey, NotaryOptions{})
	if err != nil {
		return nil, err
	}
	return n.Signer(db, true), nil
}

// VerifierKey is the public key text that checks the checkpoints.
func (t *TreeSigner) VerifierKey() string { return t.notary.vkey }

// Notary is the notary the signer signs through.
func (t *TreeSigner) Notary() *Notary { return t.notary }

// Checkpoint is the current tree head, signed.
func (t *TreeSigner) Checkpoint(ctx context.Context) ([]byte, error) {
	head, err := TreeHead(ctx, t.db)
	if err != nil {
		return nil, err
	}
	s, err := t.notary.publish(ctx, t.db, t.primary, head)
	return s.Note, err
}

// sign signs a tree head now, recording nothing (tests).
func (t *TreeSigner) sign(head tlog.Tree) ([]byte, error) {
	s, err := t.notary.signHead(head, nil)
	return s.Note, err
}

// Consistency proves the tree of old events a prefix of the tree of size.
func (t *TreeSigner) Consistency(ctx context.Context, old, size int64) (tlog.TreeProof, error) {
	return ProveConsistency(ctx, t.db, old, size)
}

// Inclusion proves leaf index in the tree of size.
func (t *TreeSigner) Inclusion(ctx context.Context, index, size int64) (tlog.RecordProof, error) {
	return ProveInclusion(ctx, t.db, index, size)
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
