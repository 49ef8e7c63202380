package certs_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// TestOpenApplicationNamedAsSeen (issue 24): a second application for a
// player with one open names the player by name and registry number and
// the open application by its date and rank, not by internal ids.
func TestOpenApplicationNamedAsSeen(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 10)
	p := fixture.Player(t, e.reg, "110", "赵明", "", "1990-05-01", 3)
	open := e.apply(t, beijing, p, "2d")
	_, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
	le, ok := ledger.AsError(err)
	if !ok || le.Reason != certs.ReasonOpenApplication {
		t.Fatalf("second application: %v", err)
	}
	date := open.AppliedAt.In(ledger.ChinaTime).Format("2006-01-02")
	for _, c := range []struct {
		lang ledger.Lang
		want []string
	}{
		{ledger.Chinese, []string{"赵明", "登记号 " + strconv.FormatInt(p.ID, 10), date, "2段"}},
		{ledger.English, []string{"赵明", "registry no. " + strconv.FormatInt(p.ID, 10), date, "2d"}},
	} {
		msg := le.Message(c.lang)
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s message %q lacks %q", c.lang, msg, w)
			}
		}
		if strings.Contains(msg, "("+strconv.FormatInt(open.ID, 10)+")") || strings.Contains(msg, "（"+strconv.FormatInt(open.ID, 10)+"）") {
			t.Errorf("%s message %q names the application's internal id", c.lang, msg)
		}
	}
}
