package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/mod/sumdb/note"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/ledger"
)

// IntegrityCheck is one more thing the witness checks every interval
// (e.g. that the certificates agree with their events). An error that
// ledger.IsTampering calls tampering (a *ledger.Tampering, or one wrapping
// ledger.ErrTampered) trips the witness; any other is a check that could
// not run, logged and tried again.
type IntegrityCheck interface {
	Check(ctx context.Context) error
}

// IntegrityCheckFunc is a function as an IntegrityCheck.
type IntegrityCheckFunc func(ctx context.Context) error

func (f IntegrityCheckFunc) Check(ctx context.Context) error { return f(ctx) }

// LogHealthService is the gRPC health service name that answers for the
// event log's integrity alone (the server's "" answers for everything).
const LogHealthService = "dankyu.log"

// LogSettings are the witness's settings (from Config).
type LogSettings struct {
	KeyPath, HeadPath string
	Origin            string
	Rotate            bool
	Interval          time.Duration
	Refresh           time.Duration
	// Rows bounds the rows read per check, new and old each (0: 100 000).
	Rows int64
}

// Witness is the server as its own log's witness: it keeps the last
// checkpoint signed in a file beside the key and checks, at start and
// every interval, that the database's log extends it, that the key file
// is still the key it signs with, and whatever extra checks it was given.
// On a finding it trips, once and for good (until an operator restarts
// the server): the notary signs nothing, the store takes no write, health
// answers NOT_SERVING and the finding is logged as an error.
type Witness struct {
	store    *ledger.Store
	notary   *ledger.Notary
	settings LogSettings
	skey     string
	log      *slog.Logger

	mu       sync.Mutex // one check at a time
	verified *ledger.Verified
	extra    []IntegrityCheck

	tripped atomic.Pointer[string]
	health  atomic.Pointer[healthSetter]
}

// OpenWitness chooses the log's key (refusing a missing or changed one
// unless the settings rotate it, and recording a rotation), starts the
// witness from the kept head and runs its first check. A finding does not
// stop the start: the server comes up tripped, serving reads and its
// evidence, refusing writes.
func OpenWitness(ctx context.Context, store *ledger.Store, s LogSettings, log *slog.Logger) (*Witness, error) {
	if s.Rows <= 0 {
		s.Rows = 100_000
	}
	if s.Origin == "" {
		s.Origin = ledger.DefaultOrigin
	}
	db := store.DB()
	hasEvents, err := ledger.HasEvents(ctx, db)
	if err != nil {
		return nil, err
	}
	kept, keptKey, err := readKeptHead(s.HeadPath)
	if err != nil {
		log.Error("the kept head cannot be read", "head", s.HeadPath, "err", err)
		return nil, ledger.ReasonLogHeadUnreadable.New("head", s.HeadPath)
	}
	if kept == nil {
		// no file (a first start, or one of a version that kept none):
		// the history's newest checkpoint stands in, opened below
		newest, err := ledger.NewestCheckpoint(ctx, db)
		if err != nil {
			return nil, err
		}
		if newest != nil {
			log.Error("the kept head file is missing; the witness resumes from the newest checkpoint published in the database. If no operator removed it, the data folder was tampered with",
				"head", s.HeadPath, "size", newest.Size)
			kept = &ledger.SignedHead{Note: []byte(newest.Note)}
		}
	}
	keys, err := chooseLogKey(ctx, keyState{keyPath: s.KeyPath, headPath: s.HeadPath, origin: s.Origin, rotate: s.Rotate,
		hasEvents: hasEvents, keptKey: keptKeyOf(kept, keptKey, s)})
	if err != nil {
		return nil, err
	}
	if keptKey == "" && kept != nil {
		// the history's checkpoint: opened with the key chosen (or, on a
		// rotation, taken as the tree it names)
		c, err := ledger.OpenSignedCheckpoint(kept.Note, keys.vkey)
		if err != nil && keys.rotation == nil {
			log.Error("the key file does not open the newest checkpoint published", "err", err)
			return nil, ledger.ReasonLogKeyChanged.New("path", s.KeyPath, "head", "log_checkpoints", "kept", "?", "file", keyLabel(keys.vkey))
		}
		if err != nil {
			// a rotation: the old key is gone, the tree it signed is read as it stands
			var u *note.UnverifiedNoteError
			kept = nil
			if errors.As(err, &u) {
				if c, err = ledger.ParseCheckpoint([]byte(u.Note.Text)); err == nil {
					kept = &ledger.SignedHead{Note: []byte(u.Note.Text)}
				}
			}
		}
		if kept != nil {
			kept.Checkpoint = c
		}
	}
	if s.Rotate && keys.rotation == nil {
		log.Warn("--log-key-rotate given but the key is the one the kept head was signed with: nothing rotated; remove the setting", "key", keyLabel(keys.vkey))
	}
	w := &Witness{store: store, settings: s, skey: keys.skey, log: log}
	var last *ledger.SignedHead
	if kept != nil {
		last = kept
	}
	w.notary, err = ledger.NewNotary(keys.skey, keys.vkey, ledger.NotaryOptions{
		Origin: s.Origin, Now: store.Now, Refresh: s.Refresh, Last: last,
		Keep: func(ctx context.Context, sh ledger.SignedHead) error {
			if err := ledger.KeepCheckpoint(ctx, db, sh); err != nil {
				return err
			}
			return writeKeptHead(s.HeadPath, keys.vkey, sh)
		},
		Tamper: func(err error) { w.trip(err) },
	})
	if err != nil {
		return nil, err
	}
	start := ledger.SignedHead{}
	if kept != nil {
		start = *kept
	} else if hasEvents {
		// nothing kept anywhere: the log as it is, after a full check of
		// its chain and tree, is where the witness starts (said loudly)
		n, err := ledger.VerifyCheckpoint(ctx, db, start.Tree)
		if ledger.IsTampering(err) {
			w.trip(err)
			return w, nil
		}
		if err != nil {
			return nil, err
		}
		if start.Tree, err = ledger.TreeHead(ctx, db); err != nil {
			return nil, err
		}
		log.Warn("no checkpoint kept beside the key nor in the database: the witness starts from the log as it is, its whole chain checked", "events", n)
	}
	w.verified, err = ledger.WitnessFrom(ctx, db, start.Tree)
	if ledger.IsTampering(err) {
		w.trip(err)
		return w, nil
	}
	if err != nil {
		return nil, err
	}
	if keys.rotation != nil {
		if err := w.rotate(ctx, keys); err != nil {
			return nil, err
		}
	}
	if err := w.Check(ctx); err != nil && !w.Tripped() {
		return nil, err
	}
	return w, nil
}

// keptKeyOf is the verifier key of the kept head: the file's, or for the
// history's checkpoint the name it is signed under (its key is not in the
// database; the key file's opens it or it was another's).
func keptKeyOf(kept *ledger.SignedHead, fileKey string, s LogSettings) string {
	if fileKey != "" || kept == nil {
		return fileKey
	}
	if _, vkey, err := LoadLogKey(s.KeyPath); err == nil {
		if _, err := ledger.OpenSignedCheckpoint(kept.Note, vkey); err == nil {
			return vkey
		}
	}
	return "unknown (a checkpoint of the history the key file does not open)"
}

// rotate records a rotation of the key and publishes the checkpoint that
// includes it, co-signed by the old key where it still exists.
func (w *Witness) rotate(ctx context.Context, k logKeys) error {
	if strings.HasPrefix(k.rotation.OldKey, "unknown") {
		k.rotation.OldKey = ""
	}
	if err := ledger.RecordKeyRotation(ctx, w.store, *k.rotation); err != nil {
		return err
	}
	if _, err := w.notary.PublishRotation(ctx, w.store.DB(), k.old); err != nil {
		return err
	}
	w.log.Warn("the event log's key was rotated; the rotation is logged and published",
		"why", k.rotation.Why, "old", labelOr(k.rotation.OldKey), "new", keyLabel(k.vkey), "old_key_signs", k.rotation.OldKeySigns)
	return nil
}

func labelOr(vkey string) string {
	if vkey == "" {
		return "none kept"
	}
	return keyLabel(vkey)
}

// Notary is the signer of the server's checkpoints (PublicServices.Notary).
func (w *Witness) Notary() *ledger.Notary { return w.notary }

// VerifierKey is the log's verifier key.
func (w *Witness) VerifierKey() string { return w.notary.VerifierKey() }

// SignerKey is the log's signer key.
func (w *Witness) SignerKey() string { return w.skey }

// AddCheck adds an extra check, run every interval after the log's own
// (at wiring, before Run).
func (w *Witness) AddCheck(c IntegrityCheck) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.extra = append(w.extra, c)
}

// Failed is the refusal of a tripped witness (LOG_INTEGRITY), nil while
// the log checks: what /healthz and the write paths consult.
func (w *Witness) Failed() error {
	if w.tripped.Load() == nil {
		return nil
	}
	return ledger.ReasonLogIntegrity.New()
}

// Tripped reports whether the witness found tampering.
func (w *Witness) Tripped() bool { return w.tripped.Load() != nil }

// Finding is what the witness found ("" before any finding).
func (w *Witness) Finding() string {
	if f := w.tripped.Load(); f != nil {
		return *f
	}
	return ""
}

// trip stops signing and writing, turns health NOT_SERVING and logs the
// finding, once.
func (w *Witness) trip(err error) {
	finding := err.Error()
	if !w.tripped.CompareAndSwap(nil, &finding) {
		return
	}
	w.notary.Halt()
	w.store.RefuseWrites(ledger.ReasonLogIntegrity.New())
	if hs := w.health.Load(); hs != nil {
		(*hs).SetServingStatus("", healthpb.HealthCheckResponse_NOT_SERVING)
		(*hs).SetServingStatus(LogHealthService, healthpb.HealthCheckResponse_NOT_SERVING)
	}
	last := w.notary.Last()
	w.log.Error("EVENT LOG INTEGRITY CHECK FAILED: the log is not the one this server signed; signing stopped, writes refused, health NOT_SERVING until an operator has looked and restarted the server",
		"code", ledger.ReasonLogIntegrity.Code(), "finding", finding, "kept_head", w.settings.HeadPath,
		"last_signed_size", last.Tree.N, "last_signed_at", last.Time)
}

// Check runs one check now: the key file, the log against what is
// verified, the newest checkpoint published against the verified tree,
// the extra checks; then publishes the current head (keeping the head
// file current). It returns a check that could not run (the witness trips
// on tampering by itself).
func (w *Witness) Check(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.Tripped() {
		return nil
	}
	skey, _, err := LoadLogKey(w.settings.KeyPath)
	if err != nil || skey != w.skey {
		if err == nil {
			err = errors.New("it holds another key")
		}
		w.trip(&ledger.Tampering{What: fmt.Sprintf("the log key file %s was removed or replaced while the server ran (%v)", w.settings.KeyPath, err)})
		return nil
	}
	db := w.store.DB()
	if err := w.verified.Advance(ctx, db, w.settings.Rows); err != nil {
		return w.found(err)
	}
	if err := w.verified.Covers(ctx, db, w.notary.Last().Tree); err != nil {
		return w.found(err)
	}
	var failed []error // extra checks that could not run; the rest still do
	for _, c := range w.extra {
		if err := c.Check(ctx); err != nil {
			failed = append(failed, w.found(err))
			if w.Tripped() {
				return nil
			}
		}
	}
	if _, err := w.notary.Signer(db, true).Checkpoint(ctx); err != nil && !w.Tripped() {
		failed = append(failed, fmt.Errorf("publish checkpoint: %w", err))
	}
	return errors.Join(failed...)
}

// found trips on tampering and returns any other error.
func (w *Witness) found(err error) error {
	if ledger.IsTampering(err) {
		w.trip(err)
		return nil
	}
	return err
}

// Run checks every interval until ctx ends.
func (w *Witness) Run(ctx context.Context) {
	tick := time.NewTicker(w.settings.Interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if err := w.Check(ctx); err != nil && ctx.Err() == nil {
			w.log.Warn("the log's witness could not check; trying again next interval", "err", err)
		}
	}
}

// Health wraps the health server the supervisors move: while the witness
// is tripped, "" stays NOT_SERVING whatever they set, and the log's own
// service answers for the log.
func (w *Witness) Health(hs healthSetter) healthSetter {
	g := &witnessHealth{hs: hs, w: w}
	var set healthSetter = g.hs
	w.health.Store(&set)
	status := healthpb.HealthCheckResponse_SERVING
	if w.Tripped() {
		status = healthpb.HealthCheckResponse_NOT_SERVING
	}
	hs.SetServingStatus(LogHealthService, status)
	return g
}

type witnessHealth struct {
	hs healthSetter
	w  *Witness
}

func (g *witnessHealth) SetServingStatus(service string, status healthpb.HealthCheckResponse_ServingStatus) {
	if g.w.Tripped() && (service == "" || service == LogHealthService) {
		status = healthpb.HealthCheckResponse_NOT_SERVING
	}
	g.hs.SetServingStatus(service, status)
}

// readsWhileTripped are the portal's form posts that change nothing and
// stay open while the log is in doubt.
var readsWhileTripped = map[string]bool{"/verify/batch": true, "/adjudicate": true, "/login": true, "/logout": true}

// Guard is the portal's side of a tripped witness: /healthz answers 503
// with the code, and form posts that would change the registry are refused
// with it before they reach a page (the store refuses any that get
// through). Reads, the log's endpoints and its evidence stay up.
func (w *Witness) Guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		err := w.Failed()
		write := r.Method != http.MethodGet && r.Method != http.MethodHead && !readsWhileTripped[r.URL.Path]
		if err == nil || (!write && r.URL.Path != "/healthz") {
			h.ServeHTTP(rw, r)
			return
		}
		e, _ := ledger.AsError(err)
		rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
		rw.Header().Set("Cache-Control", "no-store")
		rw.Header().Set("X-Dankyu-Reason", e.Reason.Code())
		rw.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(rw, "%s\n%s\n%s\n", e.Reason.Code(), e.Message(ledger.Chinese), e.Message(ledger.English))
	})
}
