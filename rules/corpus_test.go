package rules

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// manifestEntry is one record of testdata/corpus/manifest.json (copied from
// the project's shared rules corpus; see its README for the conventions).
type manifestEntry struct {
	File               string   `json:"file"`
	Komi               float64  `json:"komi"`
	Rules              string   `json:"rules"`
	Handicap           int      `json:"handicap"`
	Compensation       *float64 `json:"handicap_compensation_points"`
	Dead               []string `json:"dead_stones"`
	Winner             *string  `json:"expected_winner"`
	Margin             *float64 `json:"expected_margin_points"`
	Illegal            *int     `json:"expected_illegal_move"`
	IllegalSituational *int     `json:"expected_illegal_move_situational"`
	End                string   `json:"end"`
	Category           string   `json:"category"`
}

func loadManifest(t testing.TB) []manifestEntry {
	t.Helper()
	b, err := os.ReadFile("testdata/corpus/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m []manifestEntry
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// checkEntry adjudicates one record as `dankyu adjudicate --json --dead …`
// would and reports what disagrees with the known outcome.
func checkEntry(t testing.TB, e manifestEntry, ko KoRule) string {
	data, err := os.ReadFile(filepath.Join("testdata/corpus", e.File))
	if err != nil {
		t.Fatal(err)
	}
	// The sources' outcomes come from the programs that played, which know
	// the board's rules but not the 2002 referee's warnings.
	// Where the manifest names no dead stones, every stone is alive (CGOS
	// makes the players capture dead stones): the count needs no settling.
	rs, err := AdjudicateSGF(data, e.File, Options{Dead: e.Dead, Ko: &ko, BoardOnly: true, AllAlive: len(e.Dead) == 0})
	if err != nil {
		return "error: " + err.Error()
	}
	r := rs[0]
	want := e.Illegal
	if ko == SituationalSuperko {
		want = e.IllegalSituational
	}
	switch {
	case e.Illegal != nil:
		if want == nil {
			return "" // no situational expectation recorded
		}
		if len(r.IllegalMoves) == 0 || r.IllegalMoves[0].Move != *want {
			return "first illegal move: got " + jsonOf(r.IllegalMoves) + ", want " + jsonOf(*want)
		}
		return ""
	case len(r.IllegalMoves) > 0:
		return "unexpected illegal moves " + jsonOf(r.IllegalMoves)
	case e.End == "resign":
		if r.End != EndResignation || r.Winner != *e.Winner {
			return "resignation: got " + r.End + " " + r.Winner + ", want " + *e.Winner
		}
		return ""
	}
	if r.Winner != *e.Winner || math.Abs(r.MarginPoints-*e.Margin) > 1e-9 {
		return "got " + r.Winner + " " + jsonOf(r.MarginPoints) + ", want " + *e.Winner + " " + jsonOf(*e.Margin) + " (" + r.Result + ")"
	}
	if e.Compensation != nil && r.Compensation != *e.Compensation {
		return "compensation " + jsonOf(r.Compensation) + ", want " + jsonOf(*e.Compensation)
	}
	return ""
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestCorpusAgreesWithKnownOutcomes replays the 372 real records: winner and
// margin of counted games, winner of resignations, first illegal move.
func TestCorpusAgreesWithKnownOutcomes(t *testing.T) {
	m := loadManifest(t)
	if len(m) != 372 {
		t.Fatalf("manifest has %d records, want 372", len(m))
	}
	bad := 0
	for _, e := range m {
		if msg := checkEntry(t, e, PositionalSuperko); msg != "" {
			bad++
			t.Errorf("%s (%s): %s", e.File, e.Category, msg)
		}
	}
	t.Logf("%d of %d records agree", len(m)-bad, len(m))
}

// TestCorpusSituationalSuperko checks the first illegal move under situational superko.
func TestCorpusSituationalSuperko(t *testing.T) {
	for _, e := range loadManifest(t) {
		if e.Illegal == nil {
			continue
		}
		if msg := checkEntry(t, e, SituationalSuperko); msg != "" {
			t.Errorf("%s: %s", e.File, msg)
		}
	}
}
