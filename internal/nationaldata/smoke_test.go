package nationaldata_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/nationaldata"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

func TestSmoke(t *testing.T) {
	t0 := time.Now()
	opts := nationaldata.Options{Years: []int{2026}, Seed: 7, Scale: nationaldata.Small, Anomalies: []nationaldata.Anomaly{
		{Kind: nationaldata.OverIssue, Agency: "310"}, {Kind: nationaldata.Forfeits, Agency: "320"}, {Kind: nationaldata.Inactive, Agency: "330"},
		{Kind: nationaldata.BirthDates, Agency: "340"}, {Kind: nationaldata.LateResults, Agency: "350"}}}
	p, err := nationaldata.Build(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("plan %v", time.Since(t0))
	pool, _ := harness.NewDB(t)
	m, err := nationaldata.Load(context.Background(), pool, p)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("load %v", time.Since(t0))
	b, _ := json.Marshal(m)
	t.Logf("%s", b)
	n, err := ledger.VerifyLog(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.VerifyCheckpoint(context.Background(), pool, tlog.Tree{}); err != nil {
		t.Fatal(err)
	}
	t.Logf("verified %d", n)
}
