// Package auditeval measures the annual audit on the national data set: a
// planted anomaly is caught when the indicator meant for it is red on its
// agency (recall), and every other red mark, on any agency and indicator,
// is a false alarm (issue 13's precision figure).
package auditeval

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/internal/nationaldata"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Outcome is one seed's evaluation.
type Outcome struct {
	Seed    uint64
	Planted int
	Caught  int
	Missed  []string // agency:indicator of anomalies not red
	// FalseReds are the agency:indicator red marks nothing was planted for,
	// with the anomaly when one was planted on that agency (a side effect).
	FalseReds []string
	Marks     int // marks looked at: agencies × indicators
}

// evaluator is who opens the audits: the evaluation acts as a tool.
var evaluator = ledger.Actor{Kind: ledger.SystemActor, Name: "audit-evaluation"}

// Run loads plan into the empty database behind pool, opens the audits of
// its audit year as of at (a moment after the year's period) and scores
// the marks against what the plan planted.
func Run(ctx context.Context, pool *pgxpool.Pool, plan *nationaldata.Plan, at time.Time) (Outcome, error) {
	m, err := nationaldata.Load(ctx, pool, plan)
	if err != nil {
		return Outcome{}, fmt.Errorf("load seed %d: %w", plan.Options.Seed, err)
	}
	store := ledger.New(pool, func() time.Time { return at }, nil)
	au, err := audit.New(store, registry.New(store), audit.Config{})
	if err != nil {
		return Outcome{}, err
	}
	if _, err := au.OpenYear(ctx, evaluator, "", m.AuditYear); err != nil {
		return Outcome{}, fmt.Errorf("open the %d audits: %w", m.AuditYear, err)
	}
	audits, err := au.ListAudits(ctx, evaluator, m.AuditYear)
	if err != nil {
		return Outcome{}, err
	}
	return score(m, audits), nil
}

// score compares the marks with the manifest.
func score(m nationaldata.Manifest, audits []audit.Audit) Outcome {
	out := Outcome{Seed: m.Seed, Planted: len(m.Anomalies)}
	planted := map[string]bool{}
	kinds := map[string]string{} // agency → the anomaly planted on it
	for _, a := range m.Anomalies {
		planted[a.Agency+":"+a.Indicator] = true
		kinds[a.Agency] = string(a.Anomaly)
	}
	red := map[string]bool{}
	for _, a := range audits {
		for _, in := range a.Indicators {
			out.Marks++
			if in.Mark != audit.Red {
				continue
			}
			k := a.AgencyPrefix + ":" + in.Key
			red[k] = true
			if !planted[k] {
				if kind, ok := kinds[a.AgencyPrefix]; ok {
					k += " (the " + kind + " agency)"
				}
				out.FalseReds = append(out.FalseReds, k)
			}
		}
	}
	for k := range planted {
		if red[k] {
			out.Caught++
		} else {
			out.Missed = append(out.Missed, k)
		}
	}
	sort.Strings(out.Missed)
	sort.Strings(out.FalseReds)
	return out
}
