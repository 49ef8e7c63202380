package replicas

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// TestLagFromThePrimarysHistory: a replica's lag is how long ago the
// primary had written past what the replica replayed, and nothing when it
// replayed everything, however old the last transaction.
func TestLagFromThePrimarysHistory(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	r := New(nil, nil, Options{MaxLag: time.Second})
	for i, lsn := range []int64{100, 100, 200, 300, 300, 400} {
		r.record(t0.Add(time.Duration(i)*time.Second), lsn)
	}
	now := t0.Add(6 * time.Second)
	for _, tt := range []struct {
		replayed, head int64
		want           time.Duration
	}{
		{400, 400, 0},               // caught up
		{450, 400, 0},               // ahead of the sample (the head moved since)
		{300, 400, 1 * time.Second}, // missing what the primary wrote at 5 s
		{200, 400, 3 * time.Second}, // missing what it wrote at 3 s
		{150, 400, 4 * time.Second}, // missing the write of 2 s
		{50, 400, 6 * time.Second},  // behind the oldest sample: at least that long
	} {
		if got := r.lagOf(now, tt.replayed, tt.head); got != tt.want {
			t.Errorf("lag with %d replayed of %d = %s, want %s", tt.replayed, tt.head, got, tt.want)
		}
	}
	// samples older than ten times the setting are dropped, the newest kept
	r.record(t0.Add(time.Minute), 500)
	if len(r.samples) != 1 || r.samples[0].lsn != 500 {
		t.Errorf("samples after a minute: %+v", r.samples)
	}
}

// TestPickTakesTurnsAmongThoseInRotation: reads go round the replicas in
// rotation, to the primary when none is, and always to the primary for a
// request marked OnPrimary.
func TestPickTakesTurnsAmongThoseInRotation(t *testing.T) {
	r := New(nil, []DB{{Name: "a"}, {Name: "b"}, {Name: "c"}}, Options{})
	ctx := context.Background()
	if got := r.Pick(ctx); got != -1 {
		t.Fatalf("before any check: %d, want the primary", got)
	}
	r.reps[0].in.Store(true)
	r.reps[2].in.Store(true)
	seen := map[int]int{}
	for range 100 {
		seen[r.Pick(ctx)]++
	}
	if seen[0] == 0 || seen[2] == 0 || seen[1] != 0 || seen[-1] != 0 {
		t.Errorf("picks %v, want only replicas 0 and 2", seen)
	}
	if got := r.Pick(OnPrimary(ctx)); got != -1 {
		t.Errorf("marked for the primary: %d", got)
	}
	r.takeOut(0, context.DeadlineExceeded)
	r.takeOut(2, context.DeadlineExceeded)
	if got, st := r.Pick(ctx), r.Status(); got != -1 || st[0].Err == "" || st[0].InRotation {
		t.Errorf("all taken out: pick %d, status %+v", got, st)
	}
}

// TestPinKeepsARequestOnOneDatabase: a pinned request's reads all go where
// its first went, to the primary once that replica leaves rotation, and
// never back to a replica; unpinned reads still take turns.
func TestPinKeepsARequestOnOneDatabase(t *testing.T) {
	r := New(nil, []DB{{Name: "a"}, {Name: "b"}}, Options{})
	r.reps[0].in.Store(true)
	r.reps[1].in.Store(true)
	ctx := Pin(context.Background())
	first := r.Pick(ctx)
	if first < 0 {
		t.Fatalf("first pick %d, want a replica", first)
	}
	for range 10 {
		if got := r.Pick(ctx); got != first {
			t.Fatalf("pinned request picked %d after %d", got, first)
		}
	}
	if a, b := r.Pick(context.Background()), r.Pick(context.Background()); a == b {
		t.Errorf("unpinned picks %d, %d; want turns", a, b)
	}
	r.takeOut(first, context.DeadlineExceeded)
	for range 3 {
		if got := r.Pick(ctx); got != -1 {
			t.Fatalf("pinned replica out of rotation: picked %d, want the primary", got)
		}
	}
	r.reps[first].in.Store(true)
	if got := r.Pick(ctx); got != -1 {
		t.Errorf("back in rotation mid-request: picked %d, want the primary still", got)
	}
	if got := r.Pick(Pin(OnPrimary(context.Background()))); got != -1 {
		t.Errorf("pinned and marked for the primary: %d", got)
	}
}

// TestReadFallsBackByCause: on a replica, a refusal is the answer; a read
// that finds the replica Behind is asked of the primary with the replica
// kept in rotation; any other failure takes the replica out. Reads marked
// for the primary are not counted as the public's.
func TestReadFallsBackByCause(t *testing.T) {
	refusal := &ledger.Error{}
	failure := errors.New("connection reset")
	for _, tt := range []struct {
		name        string
		onReplica   error
		want        error // the answer Read returns
		primaryRead bool
		keptIn      bool
	}{
		{"answered", nil, nil, false, true},
		{"refused", refusal, refusal, false, true},
		{"not found", ledger.ErrNotFound, ledger.ErrNotFound, false, true},
		{"behind", Behind(ledger.ErrTreeRange), nil, true, true},
		{"behind a refusal", Behind(refusal), nil, true, true},
		{"failed", failure, nil, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := New(nil, []DB{{Name: "a"}}, Options{})
			r.reps[0].in.Store(true)
			s := &Set[string]{r: r, primary: "primary", reps: []string{"a"}}
			var ran []string
			err := s.Read(context.Background(), func(db string) error {
				ran = append(ran, db)
				if db == "a" {
					return tt.onReplica
				}
				return nil
			})
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Errorf("Read = %v, want %v", err, tt.want)
			}
			if got := slices.Contains(ran, "primary"); got != tt.primaryRead || ran[0] != "a" {
				t.Errorf("ran on %v; want the replica first, then the primary: %v", ran, tt.primaryRead)
			}
			if got := r.reps[0].in.Load(); got != tt.keptIn {
				t.Errorf("replica in rotation after: %v, want %v", got, tt.keptIn)
			}
			if got, want := r.PrimaryReads(), map[bool]int64{true: 1, false: 0}[tt.primaryRead]; got != want {
				t.Errorf("primary reads %d, want %d", got, want)
			}
		})
	}
	// a Behind answer from the primary stands, the cause still reachable
	s := Single("primary")
	err := s.Read(context.Background(), func(string) error { return Behind(ledger.ErrTreeRange) })
	if !errors.Is(err, ledger.ErrTreeRange) || err.Error() != ledger.ErrTreeRange.Error() {
		t.Errorf("Behind on the primary: %v", err)
	}
	if s.r.PrimaryReads() != 1 {
		t.Errorf("public read on the primary counted %d", s.r.PrimaryReads())
	}
	_ = s.Read(OnPrimary(context.Background()), func(string) error { return nil })
	if s.r.PrimaryReads() != 1 {
		t.Errorf("read marked for the primary counted as the public's: %d", s.r.PrimaryReads())
	}
}

// TestInsertedEndLeavesOutAnEmptyPageHeader: an idle primary's insert
// position just past a page header is the end of its WAL, so a replica that
// replayed everything is not "behind" by a header; any other position is
// the insert position itself.
func TestInsertedEndLeavesOutAnEmptyPageHeader(t *testing.T) {
	const blk, seg = 8192, 16 << 20
	for _, tt := range []struct{ in, want int64 }{
		{3*seg + longPageHeader, 3 * seg},                  // a segment's first page: long header
		{3*seg + 5*blk + shortPageHeader, 3*seg + 5*blk},   // any other page: short header
		{3*seg + 5*blk + 96, 3*seg + 5*blk + 96},           // records follow the header
		{3*seg + shortPageHeader, 3*seg + shortPageHeader}, // the first page's header is the long one
	} {
		if got := insertedEnd(tt.in, blk, seg); got != tt.want {
			t.Errorf("insertedEnd(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
