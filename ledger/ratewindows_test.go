package ledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// TestRateWindowsCountAtomically: a window's count rises to its limit and
// no further (a refused spend adds nothing), a new window starts again,
// and an ended window's row is swept by a later spend.
func TestRateWindowsCountAtomically(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	s := ledger.New(pool, func() time.Time { return now }, nil)
	start := now.Truncate(time.Hour)
	spend := func(n int) bool {
		t.Helper()
		ok, err := s.SpendRateWindow(ctx, "objection", "10.0.0.1", start, start.Add(time.Hour), n, 3)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	for i, tt := range []struct {
		n    int
		want bool
	}{{1, true}, {4, false}, {2, true}, {1, false}, {1, false}} {
		if got := spend(tt.n); got != tt.want {
			t.Fatalf("spend %d (#%d): %v, want %v", tt.n, i, got, tt.want)
		}
	}
	var used int
	if err := pool.QueryRow(ctx, `SELECT used FROM rate_windows WHERE name = 'objection'`).Scan(&used); err != nil || used != 3 {
		t.Fatalf("used %d, %v; want 3", used, err)
	}
	// two hours on: a new window, and the old row swept
	now = now.Add(2 * time.Hour)
	start = now.Truncate(time.Hour)
	if !spend(3) {
		t.Fatal("a new window refused")
	}
	var rows int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM rate_windows`).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("%d rows after the sweep, %v; want 1", rows, err)
	}
}
