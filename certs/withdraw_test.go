package certs_test

import (
	"context"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// TestFlagSurvivesAConcurrentReissue: a reissue and a withdrawn basis of
// the same certificate, the reissue first in the queue for the
// certificate's row lock: the withdrawal waits, then flags the new number
// (its fresh snapshot sees the reissue), and the flag's event names it.
func TestFlagSurvivesAConcurrentReissue(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 10)
	store := ledger.New(e.pool, e.clock.Now, nil)
	p := fixture.Player(t, e.reg, "110", "小明", "", "1990-03-01", 1)
	app, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "1d").ID)
	if err != nil {
		t.Fatal(err)
	}
	// hold the certificate's row so that both wait, in a known order
	hold, err := e.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Rollback(ctx)
	if _, err := hold.Exec(ctx, `SELECT 1 FROM certificates WHERE number = $1 FOR UPDATE`, app.CertificateNumber); err != nil {
		t.Fatal(err)
	}
	waiting := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			var got int
			if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d transactions waiting, want %d", got, n)
			}
		}
	}
	reissued := make(chan certs.Certificate, 1)
	go func() {
		c, err := e.cs.Reissue(ctx, beijing, "", app.CertificateNumber, "遗失")
		if err != nil {
			t.Error(err)
		}
		reissued <- c
	}()
	waiting(1)
	withdrawn := make(chan string, 1)
	go func() {
		var what string
		err := ledger.Transact(ctx, store, func(tx *ledger.Tx) error {
			var err error
			what, err = e.cs.WithdrawBasisTx(ctx, tx, e.clock.Now(), fixture.Staff, app.ID, "成绩作废")
			return err
		})
		if err != nil {
			t.Error(err)
		}
		withdrawn <- what
	}()
	waiting(2)
	if err := hold.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	c, what := <-reissued, <-withdrawn
	if what != certs.BasisFlagged {
		t.Fatalf("the withdrawal did %q, want %q", what, certs.BasisFlagged)
	}
	rs, err := e.cs.CertificatesForReview(ctx, fixture.Staff)
	if err != nil || len(rs) != 1 || rs[0].Number != c.Number {
		t.Fatalf("flagged %+v (%v), want the new number %s", rs, err, c.Number)
	}
	evs, err := ledger.EventsFor(ctx, e.pool, "certificate", c.Number)
	if err != nil {
		t.Fatal(err)
	}
	named := false
	for _, ev := range evs {
		named = named || ev.Action == "certificate.review_requested"
	}
	if !named {
		t.Fatalf("no review_requested event under %s: %+v", c.Number, evs)
	}
}
