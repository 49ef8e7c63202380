package certs_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// TestIssuanceWaitsForAPaperSerialWithoutHoldingTheLog: an approval whose
// next serial is a certificate recorded from paper skips it; when the
// serial after is one a paper import is writing (not yet committed), the
// approval waits for that import, whose append at commit must then get
// the event log: the approval does not hold the log while it waits, so
// both commit (no deadlock) and the approval takes the serial after both.
func TestIssuanceWaitsForAPaperSerialWithoutHoldingTheLog(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	i := issuing110(t, pool)
	clock, store, reg, cs, ts := i.clock, i.store, i.reg, i.cs, i.ts
	year := clock.Now().In(ledger.ChinaTime).Year()
	holder := fixture.Player(t, reg, "110", "纸本甲", "", "1990-01-01", 0)
	p := fixture.Player(t, reg, "110", "审批乙", "", "1990-01-01", 1).ID
	ev := fixture.Earned(t, ts, "1d", p)
	agency := fixture.Agency("110")
	a, err := cs.Apply(ctx, agency, "", certs.ApplicationInput{PlayerID: p, TargetRank: "1d", Basis: "tournament", EventID: ev})
	if err != nil {
		t.Fatal(err)
	}
	yy := year % 100
	number := func(serial int) string { return fmt.Sprintf("110%02d%04d", yy, serial) }
	paper := func(tx *ledger.Tx, serial int) error {
		if _, err := tx.Exec(ctx, `INSERT INTO certificates (number, kind, issuing_prefix, year, serial, player_id, rank, previous_rank,
			basis, issued_at, granted_at, issue_date, athlete_grade, status, holder_name, issuing_body, from_paper, paper_basis)
			VALUES ($1, 'dan', '110', $2, $3, $4, 1, 0, $5, $6, $6, $6::timestamptz::date, '', 'valid', $7, '', true, '')`,
			number(serial), yy, serial, holder.ID, certs.PaperBasis, clock.Now(), holder.Name); err != nil {
			return err
		}
		return ledger.Append(ctx, tx, clock.Now(), fixture.Staff, "certificate", number(serial),
			certs.CertificateRecordedFromPaperPayload{Holder: holder.Name, Issuer: "110", PlayerID: holder.ID, Rank: "1d"})
	}
	if err := ledger.Transact(ctx, store, func(tx *ledger.Tx) error { return paper(tx, 1) }); err != nil {
		t.Fatal(err)
	}
	approved := make(chan certs.Application, 1)
	failed := make(chan error, 1)
	err = ledger.Transact(ctx, store, func(tx *ledger.Tx) error {
		if err := paper(tx, 2); err != nil {
			return err
		}
		go func() {
			got, err := cs.Approve(ctx, agency, "race", a.ID)
			if err != nil {
				failed <- err
				return
			}
			approved <- got
		}()
		// the approval, past serial 1, waits for serial 2's writer
		for waiting := 0; waiting == 0; {
			if err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted`).Scan(&waiting); err != nil {
				return err
			}
			select {
			case err := <-failed:
				return fmt.Errorf("the approval ended while serial 2 was being written: %w", err)
			case got := <-approved:
				return fmt.Errorf("the approval took %s while serial 2 was being written", got.CertificateNumber)
			default:
			}
		}
		return nil // the append at commit takes the log
	})
	if err != nil {
		t.Fatalf("paper import alongside the approval: %v", err)
	}
	select {
	case err := <-failed:
		t.Fatalf("approval: %v", err)
	case got := <-approved:
		if got.CertificateNumber != number(3) {
			t.Fatalf("approval took %s, want %s (serials 1 and 2 are paper)", got.CertificateNumber, number(3))
		}
	}
	if n, err := ledger.VerifyLog(ctx, pool); err != nil {
		t.Fatalf("log of %d events: %v", n, err)
	}
}
