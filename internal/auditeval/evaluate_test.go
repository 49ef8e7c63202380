package auditeval_test

import (
	"context"
	"os"
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

// TestPlantedAnomaliesAreCaught: on a generated national year with the
// five anomalies planted, for each of ten seeds every anomaly is red on its
// indicator and at most two red marks fall anywhere else, over all
// agencies and indicators. The scale is small unless DANKYU_EVAL_SCALE says
// national (about a minute a seed; docs/audit.md's figures come from it).
func TestPlantedAnomaliesAreCaught(t *testing.T) {
	at := time.Date(auditYear, time.December, 1, 12, 0, 0, 0, ledger.ChinaTime)
	scale := nationaldata.Small
	if os.Getenv("DANKYU_EVAL_SCALE") == string(nationaldata.National) {
		scale = nationaldata.National
	}
	caught, planted, falseReds, marks := 0, 0, 0, 0
	for seed := uint64(1); seed <= 10; seed++ {
		plan, err := nationaldata.Build(nationaldata.Options{Years: []int{auditYear}, Seed: seed, Scale: scale,
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
		t.Logf("seed %d: recall %d/%d, %d false red of %d marks %v, missed %v", seed, o.Caught, o.Planted, len(o.FalseReds), o.Marks, o.FalseReds, o.Missed)
		if o.Planted != 5 || o.Caught != 5 || len(o.FalseReds) > 2 {
			t.Errorf("seed %d: caught %d of %d (missed %v), false red %v", seed, o.Caught, o.Planted, o.Missed, o.FalseReds)
		}
		caught, planted, falseReds, marks = caught+o.Caught, planted+o.Planted, falseReds+len(o.FalseReds), marks+o.Marks
	}
	t.Logf("ten seeds: recall %d/%d, %d false red marks of %d", caught, planted, falseReds, marks)
}
