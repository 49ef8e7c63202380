// Package replicas routes the public's reads to streaming standbys of the
// primary: a replica that is down or whose replay lags more than a setting
// is out of rotation, and its reads fall back to the primary. Everything
// signed-in and every write stays on the primary (the caller decides which
// reads are public; OnPrimary marks the rest).
package replicas

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/ledger"
)

// DB is one database the router reads from.
type DB struct {
	Name string
	Pool *pgxpool.Pool
}

// Options tune the router.
type Options struct {
	// MaxLag is the replay lag past which a replica leaves rotation
	// (default 5 s).
	MaxLag time.Duration
	Log    *slog.Logger
}

// Router picks the database a public read goes to.
type Router struct {
	primary  *pgxpool.Pool
	reps     []*replica
	maxLag   time.Duration
	log      *slog.Logger
	next     atomic.Uint64
	fromMain atomic.Int64 // reads served by the primary

	mu      sync.Mutex
	samples []sample // the primary's WAL position over time, oldest first
}

// sample is where the primary's WAL was at a moment.
type sample struct {
	at  time.Time
	lsn int64
}

type replica struct {
	name    string
	pool    *pgxpool.Pool
	in      atomic.Bool
	lag     atomic.Int64 // nanoseconds, at the last check
	reads   atomic.Int64
	lastErr atomic.Pointer[string]
	down    atomic.Bool // the last check had no answer at all
}

// Status is a replica as the last check found it.
type Status struct {
	Name       string
	InRotation bool
	Lag        time.Duration
	Reads      int64  // public reads it served
	Err        string // why it is out of rotation, if it is
	Down       bool   // out of rotation because it did not answer at all
}

// New returns a router over the primary and its replicas, every replica
// out of rotation until the first Check.
func New(primary *pgxpool.Pool, reps []DB, opt Options) *Router {
	if opt.MaxLag <= 0 {
		opt.MaxLag = 5 * time.Second
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	r := &Router{primary: primary, maxLag: opt.MaxLag, log: opt.Log}
	for _, d := range reps {
		rep := &replica{name: d.Name, pool: d.Pool}
		msg := "not checked yet"
		rep.lastErr.Store(&msg)
		r.reps = append(r.reps, rep)
	}
	return r
}

type primaryKey struct{}

// OnPrimary marks ctx as a request that reads from the primary: a signed-in
// user reads what they just wrote.
func OnPrimary(ctx context.Context) context.Context {
	return context.WithValue(ctx, primaryKey{}, true)
}

func onPrimary(ctx context.Context) bool { v, _ := ctx.Value(primaryKey{}).(bool); return v }

type pinKey struct{}

// pin is the database a pinned request's reads go to, once its first read
// has picked one.
type pin struct {
	mu     sync.Mutex
	picked bool
	i      int
}

// Pin makes every read of a request go to the database its first read
// went to, so that the parts of one answer (a verification and its
// receipt, a page and its agency names) come from one copy: replicas replay
// at their own pace, and a request spread over two could see a certificate
// on one and miss its issuance on the other. A pinned replica that leaves
// rotation hands the rest of the request to the primary, which is ahead of
// every replica.
func Pin(ctx context.Context) context.Context {
	return context.WithValue(ctx, pinKey{}, &pin{})
}

// Pick is the replica a public read goes to, or -1 for the primary (no
// replica in rotation, or ctx marked OnPrimary). Replicas take turns, but
// a pinned request (Pin) keeps to its first pick.
func (r *Router) Pick(ctx context.Context) int {
	if len(r.reps) == 0 || onPrimary(ctx) {
		return -1
	}
	p, _ := ctx.Value(pinKey{}).(*pin)
	if p == nil {
		return r.pick()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case !p.picked:
		p.picked, p.i = true, r.pick()
	case p.i >= 0 && !r.reps[p.i].in.Load():
		p.i = -1
	}
	return p.i
}

func (r *Router) pick() int {
	n := r.next.Add(1)
	for i := range r.reps {
		k := int((n + uint64(i)) % uint64(len(r.reps)))
		if r.reps[k].in.Load() {
			return k
		}
	}
	return -1
}

// Pool is the pool of Pick's answer.
func (r *Router) Pool(i int) *pgxpool.Pool {
	if i < 0 {
		return r.primary
	}
	return r.reps[i].pool
}

// PrimaryReads is how many public reads the primary served (reads marked
// OnPrimary are not the public's and are not counted).
func (r *Router) PrimaryReads() int64 { return r.fromMain.Load() }

// Status is every replica as the last check found it.
func (r *Router) Status() []Status {
	out := make([]Status, len(r.reps))
	for i, rep := range r.reps {
		out[i] = Status{Name: rep.name, InRotation: rep.in.Load(), Lag: time.Duration(rep.lag.Load()), Reads: rep.reads.Load()}
		if e := rep.lastErr.Load(); e != nil && !out[i].InRotation {
			out[i].Err, out[i].Down = *e, rep.down.Load()
		}
	}
	return out
}

// Check measures every replica once. The lag is measured against the
// primary's own WAL history (dated from its insert position: insertedEnd) rather than the replay timestamp alone (an idle
// primary writes no transactions, so the last one replayed may be old
// while the replica is wholly caught up): a replica that has replayed what
// the primary had written at time t lags by now - t, and by nothing when it
// has replayed everything the primary has written.
func (r *Router) Check(ctx context.Context) {
	if len(r.reps) == 0 {
		return
	}
	var head, block, segment int64
	err := withTimeout(ctx, func(ctx context.Context) error {
		return r.primary.QueryRow(ctx, `SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint,
			current_setting('wal_block_size')::bigint,
			(SELECT setting::bigint FROM pg_settings WHERE name = 'wal_segment_size')`).Scan(&head, &block, &segment)
	})
	head = insertedEnd(head, block, segment)
	now := time.Now()
	if err != nil {
		// without the primary's position nothing can be said of the lag:
		// keep the rotation as it was
		r.log.Warn("read the primary's WAL position", "err", err)
		return
	}
	r.record(now, head)
	for _, rep := range r.reps {
		r.checkOne(ctx, rep, now, head)
	}
}

// The primary's WAL is dated from its insert position, not its write
// position (pg_current_wal_lsn): with asynchronous commit a committed
// transaction's WAL waits in the primary's buffers for the WAL writer (up
// to three times wal_writer_delay, longer on a busy machine), so the write
// position dated a commit only when it was written out. A replica paused
// behind it was then measured at the first check that saw it: "lag 0",
// kept in rotation while missing an acknowledged certificate (the flaky
// TestPublicReadsFromReplica, issue 28).
//
// Page-header sizes of a 64-bit build: the insert position of an idle
// primary whose last record ended on a page boundary points past the next
// page's header, where no replica's replay position can be.
const (
	shortPageHeader = 24 // SizeOfXLogShortPHD, MAXALIGNed
	longPageHeader  = 40 // SizeOfXLogLongPHD, the first page of a segment
)

// insertedEnd is the end of the WAL the primary has inserted: its insert
// position, less a page header nothing follows yet.
func insertedEnd(insert, block, segment int64) int64 {
	switch {
	case segment > 0 && insert%segment == longPageHeader:
		return insert - longPageHeader
	case block > 0 && insert%block == shortPageHeader && (segment <= 0 || insert%segment >= block):
		return insert - shortPageHeader
	}
	return insert
}

// withTimeout runs one check's query under a deadline of its own, so that
// a replica that hangs cannot use up the others' time.
func withTimeout(ctx context.Context, query func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return query(ctx)
}

func (r *Router) record(now time.Time, head int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.samples); n == 0 || r.samples[n-1].lsn != head {
		r.samples = append(r.samples, sample{at: now, lsn: head})
	}
	// keep what a lag up to ten times the setting needs, and a bounded number
	keep := 0
	for keep < len(r.samples)-1 && (now.Sub(r.samples[keep].at) > 10*r.maxLag || len(r.samples)-keep > 4096) {
		keep++
	}
	r.samples = r.samples[keep:]
}

// lagOf is how long ago the primary had written past replayed: the time of
// the oldest sample beyond it (or, beyond every sample but the oldest kept,
// at least that long).
func (r *Router) lagOf(now time.Time, replayed, head int64) time.Duration {
	if replayed >= head {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.samples {
		if s.lsn > replayed {
			return now.Sub(s.at)
		}
	}
	return 0
}

func (r *Router) checkOne(ctx context.Context, rep *replica, now time.Time, head int64) {
	var recovering bool
	var replayed int64
	err := withTimeout(ctx, func(ctx context.Context) error {
		return rep.pool.QueryRow(ctx, `SELECT pg_is_in_recovery(),
			COALESCE((pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint, 0)`).Scan(&recovering, &replayed)
	})
	rep.down.Store(err != nil)
	var why string
	switch {
	case err != nil:
		why = fmt.Sprintf("does not answer: %v", err)
	case !recovering:
		why = "is not in recovery (promoted?): it no longer follows the primary"
	}
	lag := time.Duration(0)
	if why == "" {
		lag = r.lagOf(now, replayed, head)
		if lag > r.maxLag {
			why = fmt.Sprintf("replay lags %s, more than %s", lag.Round(time.Millisecond), r.maxLag)
		}
	}
	rep.lag.Store(int64(lag))
	was := rep.in.Load()
	if why == "" {
		rep.in.Store(true)
		if !was {
			r.log.Info("replica in rotation", "replica", rep.name, "lag", lag)
		}
		return
	}
	rep.lastErr.Store(&why)
	rep.in.Store(false)
	if was {
		r.log.Warn("replica out of rotation; public reads fall back to the primary", "replica", rep.name, "why", why)
	}
}

// takeOut puts a replica out of rotation after a read on it failed, until
// the next check finds it well.
func (r *Router) takeOut(i int, err error) {
	rep := r.reps[i]
	why := fmt.Sprintf("a read failed: %v", err)
	rep.lastErr.Store(&why)
	if rep.in.Swap(false) {
		r.log.Warn("replica out of rotation; public reads fall back to the primary", "replica", rep.name, "why", why)
	}
}

// Set is one service built over each database: the primary's and one per
// replica, in the router's order.
type Set[T any] struct {
	r       *Router
	primary T
	reps    []T
}

// NewSet builds the service over every database with build.
func NewSet[T any](r *Router, build func(*pgxpool.Pool) (T, error)) (*Set[T], error) {
	p, err := build(r.primary)
	if err != nil {
		return nil, err
	}
	s := &Set[T]{r: r, primary: p}
	for _, rep := range r.reps {
		t, err := build(rep.pool)
		if err != nil {
			return nil, fmt.Errorf("replica %s: %w", rep.name, err)
		}
		s.reps = append(s.reps, t)
	}
	return s, nil
}

// Single is a set of one service over the primary alone (a server
// without replicas): every read goes to it.
func Single[T any](primary T) *Set[T] {
	return &Set[T]{r: New(nil, nil, Options{}), primary: primary}
}

// Primary is the service over the primary.
func (s *Set[T]) Primary() T { return s.primary }

// Read runs a public read on a replica in rotation, or on the primary. A
// read a replica fails for any cause but a refusal or a missing row (the
// replica died, restarts, or cancelled it in a recovery conflict) takes the
// replica out of rotation and is run again on the primary, so a dying
// replica costs the public no failed request. A read that finds the
// replica Behind is run again on the primary, the replica staying in.
func (s *Set[T]) Read(ctx context.Context, read func(T) error) error {
	i := s.r.Pick(ctx)
	if i < 0 {
		if !onPrimary(ctx) {
			s.r.fromMain.Add(1)
		}
		return read(s.primary)
	}
	err := read(s.reps[i])
	isBehind := errors.Is(err, errBehind)
	if err == nil || ctx.Err() != nil || (answered(err) && !isBehind) {
		s.r.reps[i].reads.Add(1)
		return err
	}
	if !isBehind {
		s.r.takeOut(i, err)
	}
	s.r.fromMain.Add(1)
	return read(s.primary)
}

var errBehind = errors.New("the replica has not replayed that far")

// behind is a read's answer that the replica lacks what it asks for.
type behind struct{ err error }

func (b behind) Error() string   { return b.err.Error() }
func (b behind) Unwrap() []error { return []error{b.err, errBehind} }

// Behind marks err, a read's answer, as one a copy gives when it has not
// replayed what the read asks for (a proof of a tree larger than its own,
// say, asked by a client who saw that tree elsewhere): Read asks the
// primary instead and keeps the replica in rotation. On the primary the
// answer stands; err stays reachable with errors.Is and errors.As.
func Behind(err error) error {
	if err == nil {
		return nil
	}
	return behind{err}
}

// answered says err is the database's answer, the same on any copy.
func answered(err error) bool {
	var refusal *ledger.Error
	return errors.As(err, &refusal) || errors.Is(err, ledger.ErrNotFound)
}
