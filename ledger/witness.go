package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"golang.org/x/mod/sumdb/tlog"
)

// The server is its own log's first witness: it keeps the last checkpoint
// it signed outside the database and checks, at start and every interval,
// that the database's log still extends it. What this file checks, in one
// snapshot of the database:
//
//   - the stored tree still holds the verified head: the hashes of its
//     complete subtrees are the ones verified, and event N still has the
//     chain hash verified (so no row up to N was rewritten with its tree);
//   - no row past the tree was deleted (the tree covers no event missing);
//   - each row added since chains to the one before and matches its own
//     hash, and the tree's stored hashes for it are the ones its chain
//     hash gives (leaf = RecordHash(chain hash));
//   - a bounded slice of the old rows, a different one each time, is
//     walked again and folded into the tree; when the slices reach the
//     verified head, their root must be its root, so a row edited in
//     place (payload changed, hash left) is found within a few intervals
//     without re-reading millions of rows each time.

// ErrTampered marks an integrity check's finding that the log or what it
// covers was changed behind the server's back (a *TreeMismatch or
// *BrokenLink is one too); other errors of a check mean it could not run.
var ErrTampered = errors.New("log tampered with")

// Tampering is an integrity check's finding (e.g. a certificate that
// disagrees with its events): what was changed behind the server's back.
type Tampering struct{ What string }

func (t *Tampering) Error() string { return t.What }

// Is makes errors.Is(err, ErrTampered) hold.
func (t *Tampering) Is(target error) bool { return target == ErrTampered }

// IsTampering reports whether err is a finding of tampering rather than a
// check that could not run (a database that does not answer).
func IsTampering(err error) bool {
	var tm *TreeMismatch
	var bl *BrokenLink
	return errors.Is(err, ErrTampered) || errors.As(err, &tm) || errors.As(err, &bl)
}

// Reasons of the log's integrity.
var (
	ReasonLogIntegrity = NewReason(Precondition, "LOG_INTEGRITY",
		"事件日志未通过完整性核查：登记系统暂停一切变更与签名，待运维人员查明（见运维文档“日志见证”一节）。",
		"the event log failed its integrity check: the registry takes no changes and signs nothing until an operator has looked (see the operations guide, \"The log's witness\").")
	ReasonLogKeyMissing = NewReason(Precondition, "LOG_KEY_MISSING",
		"事件日志签名密钥 {path} 不存在，而日志已有记录（或保存了签名树头 {head}）：不会悄悄另建新密钥。请从备份恢复该密钥；确需更换时以 --log-key-rotate 启动，更换将记入日志。",
		"the event log's signing key {path} is missing while the log has events (or a signed head is kept in {head}): a new key is never made silently. Restore the key from a backup; to replace it, start with --log-key-rotate, and the rotation is logged.")
	ReasonLogHeadUnreadable = NewReason(Precondition, "LOG_HEAD_UNREADABLE",
		"保存的签名树头 {head} 无法读取或验证（详情见服务器日志）。请从备份恢复该文件；移走它则从数据库中最新的已发布检查点继续核查。",
		"the kept signed head {head} cannot be read or checked (the server's log says why). Restore it from a backup; moved aside, the witness resumes from the newest checkpoint published in the database.")
	ReasonLogKeyChanged = NewReason(Precondition, "LOG_KEY_CHANGED",
		"事件日志签名密钥 {path}（{file}）不是签署已保存树头 {head} 的密钥（{kept}）：密钥被替换了。请恢复原密钥；确需更换时以 --log-key-rotate 启动，更换将记入日志。",
		"the event log's signing key {path} ({file}) is not the key that signed the kept head {head} ({kept}): the key was replaced. Restore the original key; to replace it, start with --log-key-rotate, and the rotation is logged.")
)

// RefuseWrites makes every later transaction of the store fail with err
// (a witness that found the log tampered with): nothing is appended to a
// log that no longer proves what it holds.
func (s *Store) RefuseWrites(err *Error) { s.refusal.CompareAndSwap(nil, err) }

// Writable is nil while the store takes changes, else the refusal.
func (s *Store) Writable() error {
	if e := s.refusal.Load(); e != nil {
		return e
	}
	return nil
}

// Verified is what the witness has verified of the log: its first N
// events chain to Last and form the tree of root Root, whose complete
// subtrees' hashes are frontier.
type Verified struct {
	N        int64
	Root     tlog.Hash
	Last     []byte
	frontier memTree
	sweep    sweep
}

// sweep is the walk, a slice per check, of the rows up to target.
type sweep struct {
	next     int64 // next event id to read; 0 before a walk starts
	prev     []byte
	frontier memTree
	target   int64
	root     tlog.Hash
}

// Beginner is a pool or connection that starts transactions.
type Beginner interface {
	BeginTx(ctx context.Context, opts pgx.TxOptions) (pgx.Tx, error)
}

// snapshot runs f in one read-only repeatable-read transaction, so every
// table is read as of one moment.
func snapshot(ctx context.Context, db Beginner, f func(tx pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, db, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, f)
}

// frontierIndexes are the stored-hash indexes of the complete subtrees
// that make up the tree of n leaves, left to right.
func frontierIndexes(n int64) []int64 {
	var out []int64
	var start int64
	for level := 62; level >= 0; level-- {
		if n&(1<<level) != 0 {
			out = append(out, tlog.StoredHashIndex(level, start>>level))
			start += 1 << level
		}
	}
	return out
}

// prune keeps of m only the complete subtrees of the tree of n leaves.
func (m memTree) prune(n int64) {
	keep := map[int64]bool{}
	for _, x := range frontierIndexes(n) {
		keep[x] = true
	}
	for x := range m {
		if !keep[x] {
			delete(m, x)
		}
	}
}

// WitnessFrom checks that the database holds the tree head kept (signed
// earlier, read from outside the database) and returns it as the
// witness's starting point: the stored complete subtrees give its root,
// and event N is in it with the chain hash the tree holds.
func WitnessFrom(ctx context.Context, db Beginner, kept tlog.Tree) (*Verified, error) {
	v := &Verified{N: kept.N, Root: kept.Hash, Last: []byte{}, frontier: memTree{}}
	if kept.N == 0 {
		v.Root, _ = tlog.TreeHash(0, memTree{})
		return v, nil
	}
	err := snapshot(ctx, db, func(tx pgx.Tx) error {
		n, err := TreeSize(ctx, tx)
		if err != nil {
			return err
		}
		if n < kept.N {
			return &TreeMismatch{fmt.Sprintf("the stored tree has %d events, fewer than the %d of the kept head: rows were deleted", n, kept.N)}
		}
		r := treeReader{ctx: ctx, db: tx}
		idx := frontierIndexes(kept.N)
		hs, err := r.ReadHashes(idx)
		if err != nil {
			return err
		}
		for i, x := range idx {
			v.frontier[x] = hs[i]
		}
		if root, err := tlog.TreeHash(kept.N, v.frontier); err != nil || root != kept.Hash {
			return &TreeMismatch{fmt.Sprintf("the stored tree's first %d events do not hash to the kept head: the log was rewritten (tree recomputed)", kept.N)}
		}
		e, err := eventAt(ctx, tx, kept.N)
		if err != nil {
			return err
		}
		if e == nil {
			return &TreeMismatch{fmt.Sprintf("event %d, the kept head's last, is missing: rows were deleted", kept.N)}
		}
		if !bytes.Equal(e.Hash, ChainHash(e.PrevHash, *e)) {
			return &BrokenLink{e.ID, "content does not match its hash (the row was changed)"}
		}
		p, err := tlog.ProveRecord(kept.N, kept.N-1, r)
		if err != nil {
			return fmt.Errorf("inclusion proof of event %d: %w", kept.N, err)
		}
		if tlog.CheckRecord(p, kept.N, kept.Hash, kept.N-1, tlog.RecordHash(e.Hash)) != nil {
			return &TreeMismatch{fmt.Sprintf("event %d is not the one the kept head holds: the log was rewritten", kept.N)}
		}
		v.Last = e.Hash
		return nil
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// eventAt reads event id, nil when there is none.
func eventAt(ctx context.Context, q Querier, id int64) (*Event, error) {
	rows, err := q.Query(ctx, `SELECT `+eventColumns+` FROM events WHERE id = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("read event %d: %w", id, err)
	}
	es, err := scanEvents(rows)
	if err != nil || len(es) == 0 {
		return nil, err
	}
	return &es[0], nil
}

// Advance checks the log against what is verified and moves the verified
// head to the stored tree's end, reading at most maxRows new rows and
// maxRows old ones (the sweep); what is left is read at the next call. A
// *TreeMismatch or *BrokenLink is tampering; the state is then unchanged.
func (v *Verified) Advance(ctx context.Context, db Beginner, maxRows int64) error {
	next := *v
	next.frontier = clone(v.frontier)
	next.sweep.frontier = clone(v.sweep.frontier)
	err := snapshot(ctx, db, func(tx pgx.Tx) error {
		if err := next.holds(ctx, tx); err != nil {
			return err
		}
		if err := next.extend(ctx, tx, maxRows); err != nil {
			return err
		}
		return next.sweepOn(ctx, tx, maxRows)
	})
	if err != nil {
		return err
	}
	*v = next
	return nil
}

func clone(m memTree) memTree {
	out := make(memTree, len(m))
	for k, h := range m {
		out[k] = h
	}
	return out
}

// holds checks the database still holds the verified head.
func (v *Verified) holds(ctx context.Context, tx pgx.Tx) error {
	n, err := TreeSize(ctx, tx) // a torn tree is a *TreeMismatch, a database away not
	if err != nil {
		return err
	}
	if n < v.N {
		return &TreeMismatch{fmt.Sprintf("the stored tree has %d events, fewer than the %d verified: rows were deleted", n, v.N)}
	}
	var last int64
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM events`).Scan(&last); err != nil {
		return fmt.Errorf("last event: %w", err)
	}
	if last < n {
		return &TreeMismatch{fmt.Sprintf("the tree covers %d events but the log's last is %d: the newest rows were deleted", n, last)}
	}
	if v.N == 0 {
		return nil
	}
	idx := frontierIndexes(v.N)
	hs, err := treeReader{ctx: ctx, db: tx}.ReadHashes(idx)
	if err != nil {
		return err // a hash missing is a *TreeMismatch
	}
	for i, x := range idx {
		if hs[i] != v.frontier[x] {
			return &TreeMismatch{fmt.Sprintf("the stored tree's first %d events no longer hash to the verified head: the log was rewritten (tree recomputed)", v.N)}
		}
	}
	e, err := eventAt(ctx, tx, v.N)
	if err != nil {
		return err
	}
	switch {
	case e == nil:
		return &TreeMismatch{fmt.Sprintf("event %d, the verified head's last, is missing: rows were deleted", v.N)}
	case !bytes.Equal(e.Hash, v.Last):
		return &BrokenLink{e.ID, "its hash is not the one verified: the log was rewritten (chain recomputed)"}
	case !bytes.Equal(e.Hash, ChainHash(e.PrevHash, *e)):
		return &BrokenLink{e.ID, "content does not match its hash (the row was changed)"}
	}
	return nil
}

// extend verifies the rows after the head that the stored tree covers
// (up to maxRows of them) and the tree's stored hashes for them.
func (v *Verified) extend(ctx context.Context, tx pgx.Tx, maxRows int64) error {
	n, err := TreeSize(ctx, tx)
	if err != nil {
		return err
	}
	end := min(n, v.N+maxRows)
	if end == v.N {
		return nil
	}
	stored := map[int64]tlog.Hash{}
	rows, err := tx.Query(ctx, `SELECT idx, hash FROM event_tree WHERE idx >= $1 AND idx < $2`,
		tlog.StoredHashIndex(0, v.N), tlog.StoredHashIndex(0, end))
	if err != nil {
		return fmt.Errorf("read event tree: %w", err)
	}
	for rows.Next() {
		var x int64
		var h []byte
		if err := rows.Scan(&x, &h); err != nil {
			rows.Close()
			return fmt.Errorf("read event tree: %w", err)
		}
		stored[x] = tlog.Hash(h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read event tree: %w", err)
	}
	rows, err = tx.Query(ctx, `SELECT `+eventColumns+` FROM events WHERE id > $1 AND id <= $2 ORDER BY id`, v.N, end)
	if err != nil {
		return fmt.Errorf("read events: %w", err)
	}
	events, err := scanEvents(rows)
	if err != nil {
		return fmt.Errorf("read events: %w", err)
	}
	for _, e := range events {
		if err := v.link(e); err != nil {
			return err
		}
		leaf := e.ID - 1
		hs, err := tlog.StoredHashes(leaf, e.Hash, v.frontier)
		if err != nil {
			return fmt.Errorf("tree hashes of event %d: %w", e.ID, err)
		}
		base := tlog.StoredHashIndex(0, leaf)
		for j, h := range hs {
			if got, ok := stored[base+int64(j)]; !ok || got != h {
				return &TreeMismatch{fmt.Sprintf("the stored tree's hash %d does not match event %d: the tree was changed", base+int64(j), e.ID)}
			}
			v.frontier[base+int64(j)] = h
		}
		v.frontier.prune(e.ID)
		v.N, v.Last = e.ID, e.Hash
	}
	if v.N != end {
		return &TreeMismatch{fmt.Sprintf("the tree covers event %d but the log has no row %d: rows were deleted", end, v.N+1)}
	}
	v.Root, err = tlog.TreeHash(v.N, v.frontier)
	return err
}

// link checks that e follows the verified head.
func (v *Verified) link(e Event) error {
	switch {
	case e.ID != v.N+1:
		return &BrokenLink{e.ID, fmt.Sprintf("follows event %d: a row is missing", v.N)}
	case !bytes.Equal(e.PrevHash, v.Last):
		return &BrokenLink{e.ID, "prev_hash does not match the hash of the row before"}
	case !bytes.Equal(e.Hash, ChainHash(v.Last, e)):
		return &BrokenLink{e.ID, "content does not match its hash (the row was changed)"}
	}
	return nil
}

// sweepOn walks up to maxRows of the rows up to the sweep's target; at the
// target the rows' tree must be the verified one. A finished walk starts
// over, up to the head verified then.
func (v *Verified) sweepOn(ctx context.Context, tx pgx.Tx, maxRows int64) error {
	s := &v.sweep
	if s.next == 0 || s.next > s.target {
		*s = sweep{next: 1, prev: []byte{}, frontier: memTree{}, target: v.N, root: v.Root}
	}
	if s.target == 0 {
		return nil
	}
	end := min(s.target, s.next+maxRows-1)
	rows, err := tx.Query(ctx, `SELECT `+eventColumns+` FROM events WHERE id >= $1 AND id <= $2 ORDER BY id`, s.next, end)
	if err != nil {
		return fmt.Errorf("read events: %w", err)
	}
	events, err := scanEvents(rows)
	if err != nil {
		return fmt.Errorf("read events: %w", err)
	}
	for _, e := range events {
		switch {
		case e.ID != s.next:
			return &BrokenLink{e.ID, fmt.Sprintf("follows event %d: a row is missing", s.next-1)}
		case !bytes.Equal(e.PrevHash, s.prev):
			return &BrokenLink{e.ID, "prev_hash does not match the hash of the row before"}
		case !bytes.Equal(e.Hash, ChainHash(s.prev, e)):
			return &BrokenLink{e.ID, "content does not match its hash (the row was changed)"}
		}
		hs, err := tlog.StoredHashes(e.ID-1, e.Hash, s.frontier)
		if err != nil {
			return fmt.Errorf("tree hashes of event %d: %w", e.ID, err)
		}
		base := tlog.StoredHashIndex(0, e.ID-1)
		for j, h := range hs {
			s.frontier[base+int64(j)] = h
		}
		s.frontier.prune(e.ID)
		s.next, s.prev = e.ID+1, e.Hash
	}
	if s.next <= end {
		return &BrokenLink{s.next, "the row is missing"}
	}
	if s.next > s.target {
		root, err := tlog.TreeHash(s.target, s.frontier)
		if err != nil {
			return err
		}
		if root != s.root {
			return &TreeMismatch{fmt.Sprintf("events 1 to %d no longer hash to the tree verified: a row was rewritten", s.target)}
		}
	}
	return nil
}

// Covers checks that a checkpoint published holds a prefix of the
// verified tree (or is the head itself), with a consistency proof from
// the database checked against the verified root.
func (v *Verified) Covers(ctx context.Context, db Querier, c tlog.Tree) error {
	switch {
	case c.N > v.N || c.N == 0:
		return nil // not verified yet (the next check reaches it), or empty
	case c.N == v.N:
		if c.Hash != v.Root {
			return &TreeMismatch{fmt.Sprintf("the checkpoint of %d events published has another root than the tree verified", c.N)}
		}
		return nil
	}
	p, err := tlog.ProveTree(v.N, c.N, treeReader{ctx: ctx, db: db})
	if err != nil {
		return fmt.Errorf("consistency proof: %w", err)
	}
	if tlog.CheckTree(p, v.N, v.Root, c.N, c.Hash) != nil {
		return &TreeMismatch{fmt.Sprintf("the checkpoint of %d events published is not a prefix of the tree verified", c.N)}
	}
	return nil
}

// HasEvents reports whether the log holds any row (a first start on an
// empty database may make the log's key).
func HasEvents(ctx context.Context, db Querier) (bool, error) {
	var any bool
	if err := db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM events)`).Scan(&any); err != nil {
		return false, fmt.Errorf("read event log: %w", err)
	}
	return any, nil
}

// The published checkpoints' history (log_checkpoints): append-only, as
// the log is, so a frozen or forked log shows to anyone who kept one.

// KeptCheckpoint is one row of the history.
type KeptCheckpoint struct {
	ID       int64     `json:"id"`
	Size     int64     `json:"size"`
	SignedAt time.Time `json:"time"`
	Note     string    `json:"checkpoint"`
}

// KeepCheckpoint appends a published checkpoint to the history.
func KeepCheckpoint(ctx context.Context, db Execer, s SignedHead) error {
	_, err := db.Exec(ctx, `INSERT INTO log_checkpoints (size, root, signed_at, note) VALUES ($1, $2, $3, $4)`,
		s.Tree.N, s.Tree.Hash[:], s.Time, string(s.Note))
	if err != nil {
		return fmt.Errorf("keep checkpoint: %w", err)
	}
	return nil
}

// MaxCheckpointsPage bounds one page of the history.
const MaxCheckpointsPage = 500

// CheckpointsAfter lists the history's checkpoints after id (0: from the
// first), oldest first, at most limit (bounded by MaxCheckpointsPage).
func CheckpointsAfter(ctx context.Context, db Querier, after int64, limit int) ([]KeptCheckpoint, error) {
	if limit <= 0 || limit > MaxCheckpointsPage {
		limit = MaxCheckpointsPage
	}
	rows, err := db.Query(ctx, `SELECT id, size, signed_at, note FROM log_checkpoints WHERE id > $1 ORDER BY id LIMIT $2`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("checkpoint history: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (KeptCheckpoint, error) {
		var k KeptCheckpoint
		err := r.Scan(&k.ID, &k.Size, &k.SignedAt, &k.Note)
		k.SignedAt = k.SignedAt.UTC()
		return k, err
	})
}

// Execer runs a statement: a pool, a connection or a transaction.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// LogKeyRotatedPayload is log.key_rotated's payload: the log's signing key
// was replaced. The checkpoint that first includes this event is signed by
// the new key and, when OldKeySigns, by the old one too.
type LogKeyRotatedPayload struct {
	OldKey      string `json:"old_key"` // the old verifier key; "" when none was kept
	NewKey      string `json:"new_key"`
	OldKeySigns bool   `json:"old_key_signs"`
	Why         string `json:"why"` // missing, changed or planned
}

func (LogKeyRotatedPayload) Action() string { return "log.key_rotated" }

// Payloads are the kernel's own payload types, one value of each.
func Payloads() []Payload { return []Payload{LogKeyRotatedPayload{}} }

// RecordKeyRotation logs a rotation of the log's key (by the system).
func RecordKeyRotation(ctx context.Context, s *Store, p LogKeyRotatedPayload) error {
	return Transact(ctx, s, func(tx *Tx) error {
		return Append(ctx, tx, s.Now(), Actor{Kind: SystemActor, Name: "dankyud"}, "log", "key", p)
	})
}

// keptHead is a signed head as the kept file holds it, with the
// verifier key that checks it.
type keptHead struct {
	Key        string `json:"key"`
	Checkpoint string `json:"checkpoint"`
}

// EncodeKeptHead is the kept-head file's content: the checkpoint and the
// verifier key that signed it.
func EncodeKeptHead(vkey string, s SignedHead) ([]byte, error) {
	b, err := json.MarshalIndent(keptHead{Key: vkey, Checkpoint: string(s.Note)}, "", "  ")
	return append(b, '\n'), err
}

// DecodeKeptHead reads a kept-head file: the checkpoint, opened with the
// key the file names, and that key.
func DecodeKeptHead(b []byte) (SignedHead, string, error) {
	if len(b) > 4*maxCheckpoint {
		return SignedHead{}, "", errors.New("kept head too long")
	}
	var k keptHead
	if err := json.Unmarshal(b, &k); err != nil {
		return SignedHead{}, "", fmt.Errorf("kept head: %w", err)
	}
	c, err := OpenSignedCheckpoint([]byte(k.Checkpoint), k.Key)
	if err != nil {
		return SignedHead{}, "", fmt.Errorf("kept head: %w", err)
	}
	return SignedHead{Checkpoint: c, Note: []byte(k.Checkpoint)}, k.Key, nil
}

// NewestCheckpoint is the history's newest checkpoint, nil when it is empty.
func NewestCheckpoint(ctx context.Context, db Querier) (*KeptCheckpoint, error) {
	rows, err := db.Query(ctx, `SELECT id, size, signed_at, note FROM log_checkpoints ORDER BY id DESC LIMIT 1`)
	if err != nil {
		return nil, fmt.Errorf("checkpoint history: %w", err)
	}
	ks, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (KeptCheckpoint, error) {
		var k KeptCheckpoint
		err := r.Scan(&k.ID, &k.Size, &k.SignedAt, &k.Note)
		return k, err
	})
	if err != nil || len(ks) == 0 {
		return nil, err
	}
	return &ks[0], nil
}

// History lists the published checkpoints this copy of the database holds
// after id (the public /log/checkpoints).
func (t *TreeSigner) History(ctx context.Context, after int64, limit int) ([]KeptCheckpoint, error) {
	return CheckpointsAfter(ctx, t.db, after, limit)
}
