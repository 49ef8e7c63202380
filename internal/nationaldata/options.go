// Package nationaldata plans and loads a realistic national data set: a
// year (or several) of activity of all 34 provincial agencies — players
// with valid identity numbers, dan-grade events with full results and a
// sample of SGF records, applications by every basis, notices with
// objections, orders and stock, roster submissions — from a seed, with the
// five anomalies of the annual audit planted on request (issue 13).
//
// Planning is pure and deterministic (Build: the same options give the same
// plan, byte for byte, see Plan.Digest); loading (Load) writes the plan with
// COPY through the owning packages' bulk functions, and its events through
// ledger.BulkAppend, chained and in the Merkle tree as the services would.
package nationaldata

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/registry"
)

// Scale is the size of the data set.
type Scale string

const (
	// Small is for tests: 34 agencies, a few thousand players.
	Small Scale = "small"
	// National is the size of the audit benchmark: ≥ 300 000 players,
	// ≥ 50 000 certificates, ≥ 3 000 events, ≥ 500 000 games.
	National Scale = "national"
)

// Kind names one of the five anomalies of the audit contract.
type Kind string

const (
	OverIssue   Kind = "overissue"
	Forfeits    Kind = "forfeits"
	Inactive    Kind = "inactive"
	BirthDates  Kind = "birthdates"
	LateResults Kind = "lateresults"
)

// Kinds lists the anomalies with the indicator that must catch each and
// its default size.
func Kinds() []KindInfo {
	return []KindInfo{
		{OverIssue, "dan_issued_per_player", 3.0, "dan certificates per registered player, as a multiple of the national rate"},
		{Forfeits, "forfeit_qualifying_share", 0.4, "share of the certified players' qualifying wins that were forfeits"},
		{Inactive, "inactive_months", 12, "months of the audit year without any act (always 12)"},
		{BirthDates, "identity_edits_before_appraisal", 15, "players whose birth date is edited within 30 days before their appraisal application"},
		{LateResults, "late_result_changes", 20, "results changed after the next round was paired or more than 7 days after the event"},
	}
}

// KindInfo describes an anomaly.
type KindInfo struct {
	Kind        Kind
	Indicator   string
	DefaultSize float64
	Size        string
}

func kindInfo(k Kind) (KindInfo, bool) {
	i := slices.IndexFunc(Kinds(), func(x KindInfo) bool { return x.Kind == k })
	if i < 0 {
		return KindInfo{}, false
	}
	return Kinds()[i], true
}

// Anomaly is one planted anomaly: its kind, the agency (empty: chosen from
// the seed) and its size (0: the default).
type Anomaly struct {
	Kind   Kind
	Agency string
	Size   float64
}

// ParseAnomaly reads the flag form KIND[=AGENCY][:SIZE], e.g.
// overissue=310:3.0, forfeits=:0.4, inactive=330, birthdates, lateresults=350:20.
func ParseAnomaly(s string) (Anomaly, error) {
	s = strings.TrimSpace(s)
	kind, rest, _ := strings.Cut(s, "=")
	info, ok := kindInfo(Kind(strings.ToLower(kind)))
	if !ok {
		return Anomaly{}, fmt.Errorf("anomaly %q: want one of overissue, forfeits, inactive, birthdates, lateresults", kind)
	}
	a := Anomaly{Kind: info.Kind}
	agency, size, hasSize := strings.Cut(rest, ":")
	a.Agency = strings.TrimSpace(agency)
	if a.Agency != "" {
		if p, ok := registry.ProvinceByPrefix(a.Agency); !ok || p.Prefix == registry.AssociationPrefix {
			return Anomaly{}, fmt.Errorf("anomaly %s: %q is not a province prefix (e.g. 310)", kind, a.Agency)
		}
	}
	if hasSize {
		v, err := strconv.ParseFloat(strings.TrimSpace(size), 64)
		if err != nil || v <= 0 {
			return Anomaly{}, fmt.Errorf("anomaly %s: size %q is not a positive number", kind, size)
		}
		a.Size = v
	}
	switch {
	case a.Kind == Forfeits && a.Size > 1:
		return Anomaly{}, fmt.Errorf("anomaly forfeits: size %g is a share, at most 1", a.Size)
	case (a.Kind == BirthDates || a.Kind == LateResults) && a.Size != float64(int(a.Size)):
		return Anomaly{}, fmt.Errorf("anomaly %s: size %g is a count", kind, a.Size)
	}
	return a, nil
}

func (a Anomaly) String() string {
	return fmt.Sprintf("%s=%s:%g", a.Kind, a.Agency, a.Size)
}

// Options say what to plan.
type Options struct {
	Years     []int // audit years, each 1 Dec of the year before to 30 Nov (Beijing)
	Seed      uint64
	Scale     Scale
	Anomalies []Anomaly // planted in the last year
	// Realistic adds what the audit's checks meet in real data: regional
	// circuits (the same players entering several open events of their
	// province a year), agencies of different habits (appraisal used much
	// or little, many small or few large dan-grade events, more or fewer
	// circuit events), one small agency genuinely idle in the last year
	// (recorded in the manifest as an expected mark, not an anomaly), and
	// stock ordered with room for what is planted through the services
	// after the load (PlantAbuses).
	Realistic bool
}

func (o Options) check() (Options, error) {
	if len(o.Years) == 0 {
		return o, fmt.Errorf("no audit year")
	}
	o.Years = slices.Clone(o.Years)
	slices.Sort(o.Years)
	o.Years = slices.Compact(o.Years)
	for i, y := range o.Years {
		if y < 2007 || y > 2098 {
			return o, fmt.Errorf("year %d is out of range", y)
		}
		if i > 0 && y != o.Years[i-1]+1 {
			return o, fmt.Errorf("years must follow each other (got %v)", o.Years)
		}
	}
	if o.Scale == "" {
		o.Scale = Small
	}
	if o.Scale != Small && o.Scale != National {
		return o, fmt.Errorf("scale %q: want small or national", o.Scale)
	}
	seen := map[Kind]bool{}
	taken := map[string]bool{}
	o.Anomalies = slices.Clone(o.Anomalies)
	for i, a := range o.Anomalies {
		if seen[a.Kind] {
			return o, fmt.Errorf("anomaly %s given twice", a.Kind)
		}
		seen[a.Kind] = true
		if a.Agency != "" {
			if taken[a.Agency] {
				return o, fmt.Errorf("agency %s carries two anomalies", a.Agency)
			}
			taken[a.Agency] = true
		}
		if a.Size == 0 {
			info, _ := kindInfo(a.Kind)
			o.Anomalies[i].Size = info.DefaultSize
		}
		if a.Kind == Inactive {
			o.Anomalies[i].Size = 12
		}
	}
	return o, nil
}
