// Package auditeval measures the annual audit on the national data set.
//
// The data set (internal/nationaldata, realistic: regional circuits,
// agencies of different habits, a naturally idle agency) carries the
// generator's five anomalies, and, planted after the load through the
// services as an agency would over the API, the abuses of issue 23
// (nationaldata.PlantAbuses). A planted agency is caught when it has a red
// mark in the family meant for it (any indicator of that family); a false
// mark is an agency neither planted nor expected (a naturally idle agency
// red in 长期不作为) with any red mark, or an expected one red in another
// family.
package auditeval

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/internal/nationaldata"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
)

// Target is one planted agency and how the audit saw it.
type Target struct {
	What   string // the anomaly or plant kind
	Agency string
	Family audit.Family
	// Indicators meant for it (the anomaly's one; a plant's, when known).
	Indicators []string
	Caught     bool     // red in Family
	OnMeant    bool     // one of Indicators red
	Red        []string // the agency's red marks, key (family)
	Note       string   // what was planted, as the services did it
	// Prevented: the services refused or held every attempt (nothing of
	// the abuse stands); neither planted nor missed.
	Prevented bool
}

// Outcome is one seed's evaluation.
type Outcome struct {
	Seed      uint64
	Targets   []Target
	Planted   int
	Caught    int
	Prevented int
	Missed    []string // what@agency not red in its family
	// FalseAgencies are the agencies with a red mark nothing was planted or
	// expected for, each as "agency: key, key".
	FalseAgencies []string
	// FalseReds are the agency:indicator red marks nothing was planted for,
	// on any agency (planted ones included), as issue 13 counted them.
	FalseReds []string
	Expected  []string // expected marks seen: agency: key
	Marks     int      // marks looked at: agencies × indicators
	Load      time.Duration
	PlantTime time.Duration
	AuditTime time.Duration
}

// evaluator is who opens the audits: the evaluation acts as a tool.
var evaluator = ledger.Actor{Kind: ledger.SystemActor, Name: "audit-evaluation"}

// staff recompute the ratings after the load, as after any import.
var staff = ledger.Actor{Kind: ledger.StaffActor, Name: "audit-evaluation"}

// Run loads plan into the empty database behind pool, plants the kinds
// through the services (none for a plan that is not realistic), rebuilds
// the ratings, opens the audits of its audit year as of at (a moment after
// the year's period) with the ratings book as the server wires it, and
// scores the marks.
func Run(ctx context.Context, pool *pgxpool.Pool, plan *nationaldata.Plan, at time.Time, kinds ...nationaldata.PlantKind) (Outcome, error) {
	t0 := time.Now()
	m, err := nationaldata.Load(ctx, pool, plan)
	if err != nil {
		return Outcome{}, fmt.Errorf("load seed %d: %w", plan.Options.Seed, err)
	}
	t1 := time.Now()
	if plan.Options.Realistic {
		if err := nationaldata.PlantAbuses(ctx, pool, plan, &m, kinds...); err != nil {
			return Outcome{}, fmt.Errorf("seed %d: %w", plan.Options.Seed, err)
		}
	}
	t2 := time.Now()
	store := ledger.New(pool, func() time.Time { return at }, nil)
	rb := book.New(store)
	if _, err := rb.Recompute(ctx, staff, ""); err != nil {
		return Outcome{}, fmt.Errorf("recompute ratings: %w", err)
	}
	au, err := audit.New(store, registry.New(store), audit.Config{Ratings: rb})
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
	o := Score(m, audits)
	o.Load, o.PlantTime, o.AuditTime = t1.Sub(t0), t2.Sub(t1), time.Since(t2)
	return o, nil
}

// Score compares the marks with the manifest.
func Score(m nationaldata.Manifest, audits []audit.Audit) Outcome {
	out := Outcome{Seed: m.Seed}
	for _, a := range m.Anomalies {
		out.Targets = append(out.Targets, Target{What: string(a.Anomaly), Agency: a.Agency, Family: a.Family, Indicators: []string{a.Indicator},
			Note: fmt.Sprintf("%s of size %g (as planted %.3g)", a.Anomaly, a.Size, a.Measured)})
	}
	for _, p := range m.Plants {
		out.Targets = append(out.Targets, Target{What: string(p.Kind), Agency: p.Agency, Family: p.Family, Indicators: p.Indicators, Note: p.Note,
			Prevented: p.Prevented})
	}
	meant := map[string]bool{} // agency:key planted for
	planted := map[string]bool{}
	for _, t := range out.Targets {
		planted[t.Agency] = true
		for _, k := range t.Indicators {
			meant[t.Agency+":"+k] = true
		}
	}
	expected := map[string]audit.Family{}
	for _, e := range m.Expected {
		expected[e.Agency] = e.Family
	}
	red := map[string][]audit.Indicator{}
	for _, a := range audits {
		for _, in := range a.Indicators {
			out.Marks++
			if in.Mark != audit.Red {
				continue
			}
			red[a.AgencyPrefix] = append(red[a.AgencyPrefix], in)
			if !meant[a.AgencyPrefix+":"+in.Key] {
				out.FalseReds = append(out.FalseReds, a.AgencyPrefix+":"+in.Key)
			}
		}
	}
	for i := range out.Targets {
		t := &out.Targets[i]
		for _, in := range red[t.Agency] {
			t.Red = append(t.Red, fmt.Sprintf("%s (%s)", in.Key, in.Family))
			if in.Family == t.Family {
				t.Caught = true
			}
			if slices.Contains(t.Indicators, in.Key) {
				t.OnMeant = true
			}
		}
		if t.Prevented {
			out.Prevented++
			continue
		}
		out.Planted++
		if t.Caught {
			out.Caught++
		} else {
			out.Missed = append(out.Missed, t.What+"@"+t.Agency)
		}
	}
	agencies := make([]string, 0, len(red))
	for a := range red {
		agencies = append(agencies, a)
	}
	sort.Strings(agencies)
	for _, a := range agencies {
		if planted[a] {
			continue
		}
		var keys []string
		for _, in := range red[a] {
			if f, ok := expected[a]; ok && in.Family == f {
				out.Expected = append(out.Expected, a+": "+in.Key)
				continue
			}
			keys = append(keys, in.Key)
		}
		if len(keys) > 0 {
			out.FalseAgencies = append(out.FalseAgencies, a+": "+strings.Join(keys, ", "))
		}
	}
	sort.Strings(out.FalseReds)
	return out
}

// Table writes the outcomes as the markdown table docs/audit.md states:
// per kind, the seeds on which its agency was red in its family (and on
// the indicator meant for it), and per seed the false agencies.
func Table(outs []Outcome) string {
	type tally struct{ n, family, meant, prevented int }
	kinds := map[string]*tally{}
	var order []string
	for _, o := range outs {
		for _, t := range o.Targets {
			if kinds[t.What] == nil {
				kinds[t.What] = &tally{}
				order = append(order, t.What)
			}
			k := kinds[t.What]
			if t.Prevented {
				k.prevented++
				continue
			}
			k.n++
			if t.Caught {
				k.family++
			}
			if t.OnMeant {
				k.meant++
			}
		}
	}
	var sb strings.Builder
	sb.WriteString("| planted | family | red in its family | red on the indicator meant | prevented by the services |\n| --- | --- | --- | --- | --- |\n")
	fam := map[string]audit.Family{}
	for _, o := range outs {
		for _, t := range o.Targets {
			fam[t.What] = t.Family
		}
	}
	for _, w := range order {
		k := kinds[w]
		zh, _ := audit.FamilyWords(fam[w])
		fmt.Fprintf(&sb, "| %s | %s | %d / %d | %d / %d | %d |\n", w, zh, k.family, k.n, k.meant, k.n, k.prevented)
	}
	sb.WriteString("\n| seed | caught | other agencies with a red mark | expected (idle) |\n| --- | --- | --- | --- |\n")
	for _, o := range outs {
		fmt.Fprintf(&sb, "| %d | %d / %d | %d: %s | %s |\n", o.Seed, o.Caught, o.Planted, len(o.FalseAgencies),
			strings.Join(o.FalseAgencies, "; "), strings.Join(o.Expected, "; "))
	}
	return sb.String()
}
