package auditeval_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/auditeval"
	"github.com/dankyu/dankyu/internal/nationaldata"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/ledger"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

// auditYear is the generated year; the audits open the day after its period.
const auditYear = 2026

// seeds are 1–10, or DANKYU_EVAL_SEEDS of them (a quicker look).
func seeds() int {
	if n, err := strconv.Atoi(os.Getenv("DANKYU_EVAL_SEEDS")); err == nil && n > 0 {
		return n
	}
	return 10
}

// TestPlantedAbusesAreCaught: on a realistic generated year (regional
// circuits, agencies of different habits, a naturally idle agency) with
// the generator's five anomalies and the six abuses of issue 23 planted
// through the services, for each of ten seeds every planted agency is red
// in the family meant for it, and at most two other agencies have any red
// mark (the idle agency's 长期不作为 expected). The scale is small unless
// DANKYU_EVAL_SCALE says national; the table docs/audit.md states is
// printed at the end (go test -v).
func TestPlantedAbusesAreCaught(t *testing.T) {
	at := time.Date(auditYear, time.December, 1, 12, 0, 0, 0, ledger.ChinaTime)
	scale := nationaldata.Small
	if os.Getenv("DANKYU_EVAL_SCALE") == string(nationaldata.National) {
		scale = nationaldata.National
	}
	var outs []auditeval.Outcome
	for seed := uint64(1); seed <= uint64(seeds()); seed++ {
		plan, err := nationaldata.Build(nationaldata.Options{Years: []int{auditYear}, Seed: seed, Scale: scale, Realistic: true,
			Anomalies: []nationaldata.Anomaly{{Kind: nationaldata.OverIssue}, {Kind: nationaldata.Forfeits}, {Kind: nationaldata.Inactive},
				{Kind: nationaldata.BirthDates}, {Kind: nationaldata.LateResults}}})
		if err != nil {
			t.Fatal(err)
		}
		pool, _ := harness.NewDB(t)
		o, err := auditeval.Run(context.Background(), pool, plan, at)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, o)
		t.Logf("seed %d (load %s, plants %s, audit %s): caught %d/%d, missed %v, other agencies red %v, expected %v",
			seed, o.Load.Round(time.Millisecond), o.PlantTime.Round(time.Millisecond), o.AuditTime.Round(time.Millisecond),
			o.Caught, o.Planted, o.Missed, o.FalseAgencies, o.Expected)
		for _, tg := range o.Targets {
			t.Logf("  %-20s %s %-14s caught=%-5v meant=%-5v prevented=%-5v red %v — %s", tg.What, tg.Agency, tg.Family, tg.Caught, tg.OnMeant,
				tg.Prevented, tg.Red, tg.Note)
		}
		if o.Planted+o.Prevented != 11 || o.Caught != o.Planted || len(o.FalseAgencies) > 2 {
			t.Errorf("seed %d: caught %d of %d (missed %v), other agencies with a red mark %v", seed, o.Caught, o.Planted, o.Missed, o.FalseAgencies)
		}
	}
	t.Logf("scale %s:\n%s", scale, auditeval.Table(outs))
}
