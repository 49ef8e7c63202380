package registry_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// TestIdempotencyRecordsKeepNoIdentityNumber: the record that answers a
// retried RegisterPlayer holds no full identity number (neither in the
// answer nor in the request's hash input), the retry still answers the same
// player in full, and the record is gone after its expiry.
func TestIdempotencyRecordsKeepNoIdentityNumber(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clk := fixture.NewClock(time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC))
	store := ledger.New(pool, clk.Now, nil)
	s := registry.New(store)
	if _, err := s.CreateAgency(ctx, staff, "", registry.AgencyInput{Prefix: "110", Name: "agency 110"}); err != nil {
		t.Fatal(err)
	}
	in := zhang()
	first, err := s.RegisterPlayer(ctx, beijing, "reg-1", in)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := pool.Query(ctx, `SELECT response::text, request_hash FROM idempotency_keys`)
	if err != nil {
		t.Fatal(err)
	}
	// a plain hash of the request could be reversed by trying numbers
	reqJSON, _ := json.Marshal(in)
	plain := sha256.Sum256(append([]byte("RegisterPlayer\x00"), reqJSON...))
	n := 0
	for rows.Next() {
		var (
			resp string
			hash []byte
		)
		if err := rows.Scan(&resp, &hash); err != nil {
			t.Fatal(err)
		}
		n++
		if strings.Contains(resp, in.IDNumber) {
			t.Errorf("idempotency record keeps the full number: %s", resp)
		}
		if bytes.Equal(hash, plain[:]) {
			t.Error("idempotency record keeps an unkeyed hash of the request")
		}
	}
	if rows.Err() != nil || n == 0 {
		t.Fatalf("idempotency records: %d, %v", n, rows.Err())
	}

	for _, tt := range []struct {
		name  string
		after time.Duration
		live  bool
	}{{"a day later", 24 * time.Hour, true}, {"past the expiry", 7 * 24 * time.Hour, false}} {
		t.Run(tt.name, func(t *testing.T) {
			clk.Advance(tt.after)
			gone, err := ledger.ExpireIdempotencyKeys(ctx, store)
			if err != nil {
				t.Fatal(err)
			}
			var left int
			if err := pool.QueryRow(ctx, `SELECT count(*) FROM idempotency_keys WHERE key = 'reg-1'`).Scan(&left); err != nil {
				t.Fatal(err)
			}
			if (left == 1) != tt.live || (gone > 0) == tt.live {
				t.Fatalf("record left: %d (deleted %d), want live=%v", left, gone, tt.live)
			}
			if !tt.live {
				return
			}
			again, err := s.RegisterPlayer(ctx, beijing, "reg-1", in)
			if err != nil {
				t.Fatal(err)
			}
			if again.ID != first.ID || again.IDNumber != in.IDNumber || again.Name != first.Name {
				t.Fatalf("retry answered %+v, want %+v", again, first)
			}
		})
	}
}
