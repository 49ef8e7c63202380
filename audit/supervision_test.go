package audit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// TestSupervisionReservesHighDanToStaff: a conditional pass that puts
// Beijing under supervision with its 4–5 dan approved by the association
// refuses Beijing's own approval of a 4 dan (and a 5 dan) until the period
// ends; staff approve meanwhile; 1–3 dan and other agencies are untouched.
func TestSupervisionReservesHighDanToStaff(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clock := fixture.NewClock(time.Date(2026, 11, 20, 2, 0, 0, 0, time.UTC))
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	fixture.Agencies(t, reg, "110", "310")
	au, err := audit.New(store, reg, audit.Config{})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithGrantGate(au), certs.WithApprovalGate(au), certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	clock.Set(time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC)) // the year has ended: it opens
	if _, err := au.OpenYear(ctx, staff, "", 2026); err != nil {
		t.Fatal(err)
	}
	bj, err := au.Audit(ctx, staff, "110", 2026)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range bj.Findings {
		if _, err := au.DecideFinding(ctx, staff, "", f.ID, true, "核实"); err != nil {
			t.Fatal(err)
		}
	}
	until := time.Date(2027, 6, 30, 0, 0, 0, 0, time.UTC)
	if _, err := au.Rule(ctx, staff, "", audit.RulingInput{AgencyPrefix: "110", Year: 2026, Outcome: audit.Conditional,
		StaffApprovesHighDan: true}); !isReason(err, "AUDIT_SUPERVISION_NEEDED") {
		t.Fatalf("the measure without a period: %v", err)
	}
	r, err := au.Rule(ctx, staff, "", audit.RulingInput{AgencyPrefix: "110", Year: 2026, Outcome: audit.Conditional,
		SupervisionUntil: &until, StaffApprovesHighDan: true, Measures: "监管期内 4–5 段须经协会审批"})
	if err != nil || !r.StaffApprovesHighDan {
		t.Fatalf("ruling: %+v %v", r, err)
	}

	fixture.Bootstrap(t, au, 2026, "110", "310") // the registry's first year
	fixture.Stock(t, cs, "110", 2026, 10, 10)
	fixture.Stock(t, cs, "310", 2026, 10, 10)
	fixture.Stock(t, cs, "110", 2027, 10, 10) // the conditional pass lets next year's stock through
	clock.Set(time.Date(2026, 12, 10, 2, 0, 0, 0, time.UTC))
	apply := func(agency, name, rank, target string, seq int) certs.Application {
		t.Helper()
		p := fixture.Player(t, reg, agency, name, rank, "1990-01-01", seq)
		a, err := cs.Apply(ctx, fixture.Agency(agency), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: target, Basis: "tournament",
			EventID: fixture.Earned(t, ts, target, p.ID)})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	four := apply("110", "四段甲", "3d", "4d", 1)
	if _, err := cs.Approve(ctx, beijing, "", four.ID); !errors.Is(err, ledger.ErrPermissionDenied) || !isReason(err, "AUDIT_SUPERVISED") {
		t.Fatalf("Beijing approving its 4 dan under supervision: %v", err)
	}
	five := apply("110", "五段甲", "3d", "5d", 2)
	if _, err := cs.Approve(ctx, beijing, "", five.ID); !isReason(err, "AUDIT_SUPERVISED") {
		t.Fatalf("Beijing approving its 5 dan under supervision: %v", err)
	}
	if a, err := cs.Approve(ctx, staff, "", four.ID); err != nil || a.Status != certs.AppOnNotice {
		t.Fatalf("staff approving Beijing's 4 dan: %+v %v", a, err)
	}
	sh := apply("310", "四段乙", "3d", "4d", 3)
	if _, err := cs.Approve(ctx, fixture.Agency("310"), "", sh.ID); err != nil {
		t.Fatalf("Shanghai, not supervised: %v", err)
	}

	clock.Set(time.Date(2027, 7, 1, 2, 0, 0, 0, time.UTC)) // the period is over
	if a, err := cs.Approve(ctx, beijing, "", five.ID); err != nil || a.Status != certs.AppOnNotice {
		t.Fatalf("Beijing after its supervision: %+v %v", a, err)
	}
}

func isReason(err error, code string) bool {
	var le *ledger.Error
	return errors.As(err, &le) && le.Reason.Code() == code
}
