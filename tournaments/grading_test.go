package tournaments

import (
	"testing"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

func TestParseGradingRules(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []GradingRuleInput
		err  string
	}{
		{"short forms", "p3 2d\nw5 1d A组\n\n", []GradingRuleInput{{MaxPlacing: 3, Rank: "2d"}, {MinWins: 5, Rank: "1d", Group: "A组"}}, ""},
		{"long forms", "placing 1 3d\nwins 4 1k", []GradingRuleInput{{MaxPlacing: 1, Rank: "3d"}, {MinWins: 4, Rank: "1k"}}, ""},
		{"Chinese", "名次 8 1d", []GradingRuleInput{{MaxPlacing: 8, Rank: "1d"}}, ""},
		{"no number", "p 2d", nil, "GRADING_LINE"},
		{"zero", "p0 2d", nil, "GRADING_LINE"},
		{"no rank", "p3", nil, "GRADING_LINE"},
		{"unknown word", "luck 3 2d", nil, "GRADING_LINE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseGradingRules(tt.text)
			if tt.err != "" {
				if err == nil || !containsCode(err, tt.err) {
					t.Fatalf("err = %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil || len(got) != len(tt.want) {
				t.Fatalf("= %+v, %v; want %+v", got, err, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("rule %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func containsCode(err error, code string) bool {
	le, ok := ledger.AsError(err)
	return ok && le.Reason.Code() == code
}

func TestEarned(t *testing.T) {
	rules := []GradingRule{{MinWins: 5, Group: "A", Rank: 1}, {MaxPlacing: 3, Rank: 2}, {MaxPlacing: 1, Rank: 3}}
	tests := []struct {
		placing, wins int
		want          registry.Rank
	}{
		{placing: 10, wins: 4, want: registry.NoRank},
		{placing: 10, wins: 5, want: 1},
		{placing: 3, wins: 0, want: 2},
		{placing: 1, wins: 7, want: 3},
		{placing: 0, wins: 0, want: registry.NoRank},
	}
	for _, tt := range tests {
		if got := Earned(rules, tt.placing, tt.wins); got != tt.want {
			t.Errorf("Earned(placing %d, wins %d) = %v, want %v", tt.placing, tt.wins, got, tt.want)
		}
	}
}

// FuzzParseGradingRules: any text parses to bounded rules or a coded
// refusal, and every rule parsed has one condition.
func FuzzParseGradingRules(f *testing.F) {
	for _, s := range []string{"p3 2d\nw5 1d A组", "placing 1 3d", "名次 8 1d", "w", "p-1 2d", "wins 99999999999999999999 1d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rules, err := ParseGradingRules(s)
		if err != nil {
			return
		}
		if len(rules) > MaxGradingRules {
			t.Fatalf("%d rules", len(rules))
		}
		for _, r := range rules {
			if (r.MaxPlacing > 0) == (r.MinWins > 0) || r.Rank == "" {
				t.Fatalf("rule %+v", r)
			}
		}
	})
}
