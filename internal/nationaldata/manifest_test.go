package nationaldata_test

import (
	"testing"

	"github.com/dankyu/dankyu/internal/nationaldata"
)

// TestManifestMatches: a saved data set is reused only for the options it
// was made with, defaults and order filled in as planning fills them.
func TestManifestMatches(t *testing.T) {
	made := nationaldata.Options{Years: []int{2025, 2026}, Seed: 3, Scale: nationaldata.Small,
		Anomalies: []nationaldata.Anomaly{{Kind: nationaldata.OverIssue, Agency: "310", Size: 3}, {Kind: nationaldata.Inactive}}}
	plan, err := nationaldata.Build(made)
	if err != nil {
		t.Fatal(err)
	}
	m := plan.Manifest
	anomalies := func(as ...nationaldata.Anomaly) []nationaldata.Anomaly { return as }
	over := nationaldata.Anomaly{Kind: nationaldata.OverIssue, Agency: "310", Size: 3}
	idle := nationaldata.Anomaly{Kind: nationaldata.Inactive}
	for _, tt := range []struct {
		name  string
		o     nationaldata.Options
		match bool
	}{
		{"as made", made, true},
		{"years in another order", nationaldata.Options{Years: []int{2026, 2025}, Seed: 3, Scale: nationaldata.Small, Anomalies: anomalies(idle, over)}, true},
		{"the agency left to the seed", nationaldata.Options{Years: []int{2025, 2026}, Seed: 3, Scale: nationaldata.Small,
			Anomalies: anomalies(nationaldata.Anomaly{Kind: nationaldata.OverIssue, Size: 3}, idle)}, true},
		{"another seed", nationaldata.Options{Years: []int{2025, 2026}, Seed: 4, Scale: nationaldata.Small, Anomalies: anomalies(over, idle)}, false},
		{"another anomaly", nationaldata.Options{Years: []int{2025, 2026}, Seed: 3, Scale: nationaldata.Small,
			Anomalies: anomalies(nationaldata.Anomaly{Kind: nationaldata.Forfeits}, idle)}, false},
		{"another size", nationaldata.Options{Years: []int{2025, 2026}, Seed: 3, Scale: nationaldata.Small,
			Anomalies: anomalies(nationaldata.Anomaly{Kind: nationaldata.OverIssue, Agency: "310", Size: 2}, idle)}, false},
		{"another agency", nationaldata.Options{Years: []int{2025, 2026}, Seed: 3, Scale: nationaldata.Small,
			Anomalies: anomalies(nationaldata.Anomaly{Kind: nationaldata.OverIssue, Agency: "320", Size: 3}, idle)}, false},
		{"one fewer", nationaldata.Options{Years: []int{2025, 2026}, Seed: 3, Scale: nationaldata.Small, Anomalies: anomalies(over)}, false},
	} {
		if err := m.Matches(tt.o); (err == nil) != tt.match {
			t.Errorf("%s: %v, want a match: %v", tt.name, err, tt.match)
		}
	}
}
