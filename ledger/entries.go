package ledger

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"golang.org/x/mod/sumdb/tlog"
)

// The log's public reads beyond the tree head: receipts of many events
// against one signed head, and the entries themselves (as Certificate
// Transparency's get-entries), whose content is served only for the
// actions declared public; the others show their hashes alone.

// MaxEntries bounds one read of entries.
const MaxEntries = 1000

// recordingReader answers any hash as zero and notes which were asked:
// the tlog functions ask for every hash they need in one ReadHashes call
// and only combine what they get, so a dry run lists what a real run reads.
type recordingReader struct{ asked []int64 }

func (r *recordingReader) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	r.asked = append(r.asked, indexes...)
	return make([]tlog.Hash, len(indexes)), nil
}

// Receipts proves each of events (rows of the log, e.g. as EventsFor reads
// them) in the current tree, every receipt against the same signed head.
// The tree's size and then every stored hash the root and all the proofs
// need are read in one query each, whatever the number of events. An event
// the tree does not reach gets a nil receipt.
func (t *TreeSigner) Receipts(ctx context.Context, events []Event) ([]*Receipt, error) {
	out := make([]*Receipt, len(events))
	if len(events) == 0 {
		return out, nil
	}
	n, err := TreeSize(ctx, t.db)
	if err != nil {
		return nil, err
	}
	// the dry run: which stored hashes the root and the proofs need
	var dry recordingReader
	if _, err := tlog.TreeHash(n, &dry); err != nil {
		return nil, fmt.Errorf("event tree hash: %w", err)
	}
	for _, e := range events {
		if e.ID >= 1 && e.ID <= n {
			if _, err := tlog.ProveRecord(n, e.ID-1, &dry); err != nil {
				return nil, fmt.Errorf("inclusion proof: %w", err)
			}
		}
	}
	slices.Sort(dry.asked)
	need := slices.Compact(dry.asked)
	hashes, err := treeReader{ctx: ctx, db: t.db}.ReadHashes(need)
	if err != nil {
		return nil, err
	}
	mem := make(memTree, len(need))
	for i, x := range need {
		mem[x] = hashes[i]
	}
	return t.receiptsFrom(ctx, n, mem, events)
}

// receiptsFrom proves events in the tree of n leaves whose stored hashes
// r reads, every receipt against the one signed head of that tree.
func (t *TreeSigner) receiptsFrom(ctx context.Context, n int64, r tlog.HashReader, events []Event) ([]*Receipt, error) {
	out := make([]*Receipt, len(events))
	root, err := tlog.TreeHash(n, r)
	if err != nil {
		return nil, fmt.Errorf("event tree hash: %w", err)
	}
	head := tlog.Tree{N: n, Hash: root}
	var cp []byte
	for i, e := range events {
		if e.ID < 1 || e.ID > n {
			continue
		}
		p, err := tlog.ProveRecord(n, e.ID-1, r)
		if err != nil {
			return nil, fmt.Errorf("inclusion proof: %w", err)
		}
		if cp == nil {
			// through the notary, which signs only an extension of the last
			// head it published and keeps it in the history
			s, err := t.notary.publish(ctx, t.db, t.primary, head)
			if err != nil {
				return nil, err
			}
			cp = s.Note
		}
		out[i] = &Receipt{Index: e.ID - 1, Size: n, Record: e.Hash, TreeHash: root, Proof: p, Checkpoint: cp}
	}
	return out, nil
}

// WithPublicActions returns a copy of t that serves the payload, actor and
// entity of entries of these actions in full (Entries); every other entry
// shows only its hashes. Without it no entry shows its content.
func (t *TreeSigner) WithPublicActions(actions ...string) *TreeSigner {
	c := *t
	c.public = map[string]bool{}
	for _, a := range actions {
		c.public[a] = true
	}
	return &c
}

// Withhold names, among events of public actions, those whose content
// must not leave after all (a minor holder's name): they are served as
// private entries, their hashes alone. It reads through db, the copy of
// the database the entries come from.
type Withhold func(ctx context.Context, db Querier, events []Event) (map[int64]bool, error)

// WithWithhold returns a copy of t whose Entries serve the events w names
// as private.
func (t *TreeSigner) WithWithhold(w Withhold) *TreeSigner {
	c := *t
	c.withhold = w
	return &c
}

// Entry is one row of the event log as the public reads it. A public
// entry carries everything its chain hash covers, so anyone recomputes
// Hash = ChainHash(PrevHash, the row) and the tree's leaf
// tlog.RecordHash(Hash); a private one (its payload may hold personal
// data) carries only its id and hashes, which still chain.
type Entry struct {
	ID     int64 `json:"id"`
	Public bool  `json:"public"`
	// At is the time exactly as the chain hash covers it (RFC 3339, UTC,
	// nanoseconds without trailing zeros).
	At         string `json:"at,omitempty"`
	Actor      string `json:"actor,omitempty"`
	Action     string `json:"action,omitempty"`
	EntityType string `json:"entity_type,omitempty"`
	EntityID   string `json:"entity_id,omitempty"`
	// Payload is the payload's exact bytes as a JSON string (the hash
	// covers these bytes, not a re-encoding of them).
	Payload  string `json:"payload,omitempty"`
	PrevHash []byte `json:"prev_hash"`
	Hash     []byte `json:"hash"`
}

// EntryOf is e as the public reads it: in full when public.
func EntryOf(e Event, public bool) Entry {
	out := Entry{ID: e.ID, Public: public, PrevHash: e.PrevHash, Hash: e.Hash}
	if public {
		out.At, out.Actor, out.Action = e.At.UTC().Format(time.RFC3339Nano), e.Actor, e.Action
		out.EntityType, out.EntityID, out.Payload = e.EntityType, e.EntityID, string(e.Payload)
	}
	return out
}

// Event is a public entry as the event it shows, for ChainHash.
func (en Entry) Event() (Event, error) {
	if !en.Public {
		return Event{}, errors.New("a private entry shows no content")
	}
	at, err := time.Parse(time.RFC3339Nano, en.At)
	if err != nil {
		return Event{}, fmt.Errorf("entry %d: time %q: %w", en.ID, en.At, err)
	}
	if got := at.UTC().Format(time.RFC3339Nano); got != en.At {
		return Event{}, fmt.Errorf("entry %d: time %q is not written as the chain hash writes it (%s)", en.ID, en.At, got)
	}
	return Event{ID: en.ID, At: at, Actor: en.Actor, Action: en.Action, EntityType: en.EntityType, EntityID: en.EntityID,
		Payload: json.RawMessage(en.Payload), PrevHash: en.PrevHash, Hash: en.Hash}, nil
}

// Check recomputes a public entry's chain hash from its content and
// compares it with Hash; a private entry's content cannot be checked.
func (en Entry) Check() error {
	e, err := en.Event()
	if err != nil {
		return err
	}
	if got := ChainHash(en.PrevHash, e); !bytes.Equal(got, en.Hash) {
		return fmt.Errorf("entry %d: its content hashes to %s, not to its hash %s", en.ID,
			base64.StdEncoding.EncodeToString(got), base64.StdEncoding.EncodeToString(en.Hash))
	}
	return nil
}

// The refusals of the log's public reads.
var (
	// ReasonEntriesRange refuses a read of entries outside 0 ≤ start < end,
	// or of more than MaxEntries of them.
	ReasonEntriesRange = NewReason(Invalid, "LOG_ENTRIES_RANGE",
		"日志条目范围 {start}–{end} 无效：须 0 ≤ start < end，每次最多 {max} 条。",
		"log entries {start} to {end}: want 0 <= start < end, at most {max} at a time.")
	// ReasonNoLog answers a read of the log on a server that signs none.
	ReasonNoLog = NewReason(Precondition, "LOG_NOT_SIGNED",
		"本服务器未配置事件日志签名密钥，不提供日志。", "this server signs no event log (no log key).")
)

// Entries reads the log's rows at leaf indexes start ≤ i < end (event ids
// start+1 … end) that the stored tree covers, in order, each public or
// private as WithPublicActions declared (and WithWithhold withheld).
func (t *TreeSigner) Entries(ctx context.Context, start, end int64) ([]Entry, error) {
	if start < 0 || end <= start || end-start > MaxEntries {
		return nil, ReasonEntriesRange.New("start", strconv.FormatInt(start, 10), "end", strconv.FormatInt(end, 10), "max", strconv.Itoa(MaxEntries))
	}
	n, err := TreeSize(ctx, t.db)
	if err != nil {
		return nil, err
	}
	end = min(end, n)
	if end <= start {
		return []Entry{}, nil
	}
	rows, err := t.db.Query(ctx, `SELECT `+eventColumns+` FROM events WHERE id > $1 AND id <= $2 ORDER BY id`, start, end)
	if err != nil {
		return nil, fmt.Errorf("read entries: %w", err)
	}
	events, err := scanEvents(rows)
	if err != nil {
		return nil, fmt.Errorf("read entries: %w", err)
	}
	var public []Event
	for _, e := range events {
		if t.public[e.Action] {
			public = append(public, e)
		}
	}
	withheld := map[int64]bool{}
	if t.withhold != nil && len(public) > 0 {
		if withheld, err = t.withhold(ctx, t.db, public); err != nil {
			return nil, fmt.Errorf("read entries: %w", err)
		}
	}
	out := make([]Entry, len(events))
	for i, e := range events {
		out[i] = EntryOf(e, t.public[e.Action] && !withheld[e.ID])
	}
	return out, nil
}

// PublicReceipt is a receipt as the public JSON endpoints serve it, with
// the event it proves.
type PublicReceipt struct {
	EventID    int64    `json:"event_id"`
	Action     string   `json:"action"`
	LeafIndex  int64    `json:"leaf_index"`
	TreeSize   int64    `json:"tree_size"`
	Record     []byte   `json:"record"`
	RootHash   []byte   `json:"root_hash"`
	Proof      [][]byte `json:"proof"`
	Checkpoint string   `json:"checkpoint"`
}

// Public is r as served, for the event of action.
func (r *Receipt) Public(action string) PublicReceipt {
	out := PublicReceipt{EventID: r.Index + 1, Action: action, LeafIndex: r.Index, TreeSize: r.Size, Record: r.Record,
		RootHash: r.TreeHash[:], Proof: [][]byte{}, Checkpoint: string(r.Checkpoint)}
	for _, h := range r.Proof {
		out.Proof = append(out.Proof, h[:])
	}
	return out
}

// Receipt is a served receipt read back, its hashes checked for size (not
// yet for what they prove: Receipt.Check).
func (p PublicReceipt) Receipt() (*Receipt, error) {
	if len(p.RootHash) != tlog.HashSize {
		return nil, fmt.Errorf("receipt of event %d: a root hash of %d bytes", p.EventID, len(p.RootHash))
	}
	if p.EventID != p.LeafIndex+1 {
		return nil, fmt.Errorf("receipt of event %d: leaf %d is another event's", p.EventID, p.LeafIndex)
	}
	r := &Receipt{Index: p.LeafIndex, Size: p.TreeSize, Record: p.Record, TreeHash: tlog.Hash(p.RootHash), Checkpoint: []byte(p.Checkpoint)}
	for _, h := range p.Proof {
		if len(h) != tlog.HashSize {
			return nil, fmt.Errorf("receipt of event %d: a proof hash of %d bytes", p.EventID, len(h))
		}
		r.Proof = append(r.Proof, tlog.Hash(h))
	}
	return r, nil
}
