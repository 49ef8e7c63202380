package replicas

import (
	"context"
	"testing"
	"time"
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
