package certs_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// TestOneClockDecidesTheNoticePeriod runs the service clock hours away from
// the database's (the machine's real time) in both directions. Lodging an
// objection, ruling on one and sweeping must still agree about whether a
// notice period has ended: a minute before its end by the service clock
// nothing issues and an objection is heard; a minute after, objections are
// refused and the sweep issues.
func TestOneClockDecidesTheNoticePeriod(t *testing.T) {
	for _, tt := range []struct {
		name string
		skew time.Duration // service clock minus database clock
	}{
		{"service clock behind the database by more than a notice period", -200 * time.Hour},
		{"service clock ahead of the database by ten hours", 10 * time.Hour},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnvAt(t, certs.Config{}, time.Now().UTC().Add(tt.skew).Truncate(time.Microsecond))
			e.stock(t, "110", 10, 0)
			p := fixture.Player(t, e.reg, "110", "时钟", "3d", "1990-01-01", 1)
			app, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "4d").ID)
			if err != nil {
				t.Fatal(err)
			}
			n, err := e.cs.GetNotice(ctx, app.NoticeID)
			if err != nil {
				t.Fatal(err)
			}
			objection := func(who string) (certs.Objection, error) {
				return e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: n.ID, Name: who, Contact: "c", Reason: "r", Address: who})
			}

			e.clock.Set(n.EndsAt.Add(-time.Minute))
			if issued, err := e.cs.Sweep(ctx); err != nil || len(issued) != 0 {
				t.Fatalf("a minute before the end: sweep issued %v, %v", issued, err)
			}
			o, err := objection("early")
			if err != nil {
				t.Fatalf("a minute before the end: objection refused: %v", err)
			}
			if _, err := e.cs.RuleObjection(ctx, staff, "", o.ID, false, "不成立"); err != nil {
				t.Fatal(err)
			}
			if got, _ := e.cs.GetApplication(ctx, staff, app.ID); got.Status != certs.AppOnNotice {
				t.Fatalf("dismissal before the end: application %s, want still on notice", got.Status)
			}
			if issued, err := e.cs.Sweep(ctx); err != nil || len(issued) != 0 {
				t.Fatalf("a minute before the end, no objection open: sweep issued %v, %v", issued, err)
			}

			e.clock.Set(n.EndsAt.Add(time.Minute))
			if _, err := objection("late"); !errors.Is(err, ledger.ErrPrecondition) {
				t.Fatalf("a minute after the end: objection %v, want failed precondition", err)
			}
			issued, err := e.cs.Sweep(ctx)
			if want := e.number("110", 1); err != nil || len(issued) != 1 || issued[0].Number != want {
				t.Fatalf("a minute after the end: sweep issued %+v, %v; want %s", issued, err, want)
			}
			if c := issued[0]; !c.IssuedAt.Equal(e.clock.Now()) {
				t.Fatalf("issued at %s, want the service clock's %s", c.IssuedAt, e.clock.Now())
			}
		})
	}
}
