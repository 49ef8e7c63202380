package certs_test

import (
	"context"
	"encoding/json"
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
			what, err = e.cs.WithdrawBasisTx(ctx, tx, e.clock.Now(), fixture.Staff, app.ID,
				certs.VoidedBasis{Event: 7, Reason: "成绩作废", Wins: 4, Threshold: 5})
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
	// the flag is a code with its parameters, worded in either language;
	// the text column keeps the English
	r := rs[0]
	if r.Code != "REVIEW_BASIS_VOIDED" || r.Params["event"] != "7" || r.Params["wins"] != "4" || r.Params["threshold"] != "5" ||
		r.Params["reason"] != "成绩作废" || r.Reason != r.ReasonText(ledger.English) ||
		r.ReasonText(ledger.Chinese) != "比赛 7 有成绩被取消（成绩作废）：现为 4 胜，达标须 5 胜。" {
		t.Fatalf("flag %+v, in Chinese %q", r, r.ReasonText(ledger.Chinese))
	}
	if got := (certs.Review{Reason: "stored before codes"}).ReasonText(ledger.Chinese); got != "stored before codes" {
		t.Fatalf("a flag from before codes reads %q", got)
	}
	evs, err := ledger.EventsFor(ctx, e.pool, "certificate", c.Number)
	if err != nil {
		t.Fatal(err)
	}
	named := false
	for _, ev := range evs {
		if ev.Action == "certificate.review_requested" {
			var pl certs.CertificateReviewRequestedPayload
			if err := json.Unmarshal(ev.Payload, &pl); err != nil {
				t.Fatal(err)
			}
			named = pl.ReasonCode == "REVIEW_BASIS_VOIDED" && pl.ReasonParams["event"] == "7" && pl.Reason == r.Reason
		}
	}
	if !named {
		t.Fatalf("no review_requested event under %s: %+v", c.Number, evs)
	}
}
