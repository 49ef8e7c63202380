package auditeval_test

import (
	"slices"
	"testing"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/internal/auditeval"
	"github.com/dankyu/dankyu/internal/nationaldata"
)

// TestScoreByFamily: a planted agency is caught by any red mark of its
// family, not by another family's; the idle agency's inactivity red is
// expected, its red of another family false; a prevented plant is neither
// planted nor missed; any red on an agency nothing was planted on is false.
func TestScoreByFamily(t *testing.T) {
	m := nationaldata.Manifest{Seed: 3,
		Anomalies: []nationaldata.Planted{{Anomaly: nationaldata.OverIssue, Agency: "310", Indicator: audit.KeyDanIssuedPerPlayer, Family: audit.Overissue}},
		Expected:  []nationaldata.ExpectedMark{{Agency: "820", Family: audit.Inactivity}, {Agency: "810", Family: audit.Inactivity}},
		Plants: []nationaldata.Plant{
			{Kind: nationaldata.TurnedRecord, Agency: "320", Family: audit.Falsification, Indicators: []string{audit.KeyIdenticalMoves}},
			{Kind: nationaldata.TinyEvents, Agency: "330", Family: audit.Overissue, Indicators: []string{audit.KeyGradeSkips}},
			{Kind: nationaldata.IdentityAroundAppraisal, Agency: "340", Family: audit.Falsification, Prevented: true},
		}}
	red := func(key string, f audit.Family) audit.Indicator {
		return audit.Indicator{Key: key, Family: f, Mark: audit.Red}
	}
	green := func(key string, f audit.Family) audit.Indicator {
		return audit.Indicator{Key: key, Family: f, Mark: audit.Green}
	}
	audits := []audit.Audit{
		{AgencyPrefix: "310", Indicators: []audit.Indicator{red(audit.KeyCertifiedTwice, audit.Overissue), green(audit.KeyDanIssuedPerPlayer, audit.Overissue)}},
		{AgencyPrefix: "320", Indicators: []audit.Indicator{red(audit.KeyAppraisalShare, audit.Overissue)}},
		{AgencyPrefix: "330", Indicators: []audit.Indicator{red(audit.KeyRankOutsideRating, audit.Overissue)}},
		{AgencyPrefix: "340", Indicators: []audit.Indicator{green(audit.KeyIdentityEdits, audit.Falsification)}},
		{AgencyPrefix: "820", Indicators: []audit.Indicator{red(audit.KeyInactiveMonths, audit.Inactivity)}},
		{AgencyPrefix: "810", Indicators: []audit.Indicator{red(audit.KeyInactiveMonths, audit.Inactivity), red(audit.KeyUpheldObjections, audit.Falsification)}},
		{AgencyPrefix: "110", Indicators: []audit.Indicator{red(audit.KeyTradedWins, audit.Falsification), red(audit.KeyMutualForfeits, audit.Falsification)}},
		{AgencyPrefix: "120", Indicators: []audit.Indicator{green(audit.KeyTradedWins, audit.Falsification)}},
	}
	o := auditeval.Score(m, audits)
	if o.Planted != 3 || o.Caught != 2 || o.Prevented != 1 || !slices.Equal(o.Missed, []string{"turned_record@320"}) {
		t.Errorf("planted %d, caught %d, prevented %d, missed %v; want 3, 2 (310 by family, 330), 1, [turned_record@320]",
			o.Planted, o.Caught, o.Prevented, o.Missed)
	}
	if want := []string{"110: pairs_trading_wins, mutual_forfeit_pairs", "810: upheld_objections"}; !slices.Equal(o.FalseAgencies, want) {
		t.Errorf("false agencies %q, want %q", o.FalseAgencies, want)
	}
	if want := []string{"810: inactive_months", "820: inactive_months"}; !slices.Equal(o.Expected, want) {
		t.Errorf("expected %q, want %q", o.Expected, want)
	}
	for _, tg := range o.Targets {
		if tg.Agency == "310" && (!tg.Caught || tg.OnMeant) {
			t.Errorf("310: caught %v on the meant indicator %v; want caught by family only", tg.Caught, tg.OnMeant)
		}
	}
}
