package audit_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// TestScanPassErrorStopsTheScan: a row the pass cannot read, after more
// rows than one batch of the scan and before more, fails the scorecards
// with that row named (not a cancelled scan), whichever goroutine sees it.
func TestScanPassErrorStopsTheScan(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 2, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		before int // rows before the bad one
	}{{"in the first batch", 10}, {"after several batches", 3000}} {
		t.Run(tc.name, func(t *testing.T) {
			pool, _ := harness.NewDB(t)
			clock := fixture.NewClock(time.Date(2026, 11, 20, 2, 0, 0, 0, time.UTC))
			store := ledger.New(pool, clock.Now, nil)
			reg := registry.New(store)
			au, err := audit.New(store, reg, audit.Config{})
			if err != nil {
				t.Fatal(err)
			}
			fixture.Agencies(t, reg, "110")
			actor := fixture.Agency("110")
			var bad int64
			err = ledger.Transact(ctx, store, func(tx *ledger.Tx) error {
				for i := range tc.before + 2000 {
					id := strconv.Itoa(tc.before*10_000 + i)
					p := oldRow{"player.registered", map[string]any{"id": i, "name": "棋手", "province_code": "11", "birth_date": "1990-01-01", "rank": ""}}
					if i == tc.before {
						// a certificate of a rank that is none
						p = oldRow{"certificate.issued", map[string]any{"number": "11026" + id, "player_id": 1, "rank": "nine dan", "issuer": "110"}}
					}
					if err := ledger.Append(ctx, tx, at, actor, "player", id, p); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := pool.QueryRow(ctx, `SELECT id FROM events WHERE action = 'certificate.issued'`).Scan(&bad); err != nil {
				t.Fatal(err)
			}
			_, err = au.ScorecardsNow(ctx, 2026, []string{"110"})
			if err == nil || !strings.Contains(err.Error(), "event "+strconv.FormatInt(bad, 10)+" (certificate.issued)") {
				t.Fatalf("scorecards over a bad row %d: %v", bad, err)
			}
		})
	}
}
