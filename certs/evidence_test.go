package certs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// TestEvidenceIsChecked files tournament, 6-dan and 7-dan applications on
// evidence that does and does not hold: text never satisfies a basis; the
// event must exist, be finished, count the player among its participants,
// and his result must meet the event's rules published before it started
// (tournament), a placing the national list names (6 dan), or be the
// championship with staff's recognition (7 dan). Each refusal is coded and
// worded in both languages.
func TestEvidenceIsChecked(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 50, 50)
	winner := fixture.Player(t, e.reg, "110", "胜者", "1k", "1990-01-01", 1)
	loser := fixture.Player(t, e.reg, "110", "负者", "1k", "1990-01-01", 2)
	outsider := fixture.Player(t, e.reg, "110", "局外", "1k", "1990-01-01", 3)
	second := fixture.Player(t, e.reg, "110", "亚军", "3d", "1990-01-01", 4)
	champ := fixture.Player(t, e.reg, "110", "冠军", "3d", "1990-01-01", 5)
	unrecognised := fixture.Player(t, e.reg, "110", "未认定", "3d", "1990-01-01", 6)

	// a city event whose table says: one win earns 2 dan, first place 3 dan
	city, err := e.ts.CreateEvent(ctx, fixture.Staff, "", tournaments.EventInput{Name: "市赛", Start: e.ts.Today(), Level: "city",
		System: "round_robin", Grading: []tournaments.GradingRuleInput{{MinWins: 1, Rank: "2d"}, {MaxPlacing: 1, Rank: "3d"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int64{winner.ID, loser.ID} {
		if _, err := e.ts.AddParticipant(ctx, fixture.Staff, "", city.ID, tournaments.ParticipantInput{PlayerID: p}); err != nil {
			t.Fatal(err)
		}
	}
	open, err := e.ts.CreateEvent(ctx, fixture.Staff, "", tournaments.EventInput{Name: "未完赛", Start: e.ts.Today(), Level: "city",
		System: "round_robin", Grading: []tournaments.GradingRuleInput{{MinWins: 1, Rank: "2d"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.AddParticipant(ctx, fixture.Staff, "", open.ID, tournaments.ParticipantInput{PlayerID: outsider.ID}); err != nil {
		t.Fatal(err)
	}
	ri, err := e.ts.PairNextRound(ctx, fixture.Staff, "", city.ID)
	if err != nil {
		t.Fatal(err)
	}
	g := ri.Games[0]
	res := "black"
	if g.White == 1 { // participant 1 (winner) wins
		res = "white"
	}
	if _, err := e.ts.RecordResult(ctx, fixture.Staff, "", city.ID, tournaments.ResultInput{Round: 1, Board: g.Board, Result: res}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.Finish(ctx, fixture.Staff, "", city.ID); err != nil {
		t.Fatal(err)
	}
	// a national championship: champ first, second second, on the list
	// (placings 1–2 earn 6 dan); champ is recognised, unrecognised wins another
	national := fixture.National(t, e.ts, e.cs, true, champ.ID, second.ID)
	other := fixture.National(t, e.ts, e.cs, false, unrecognised.ID)
	if _, err := e.cs.ListNationalEvent(ctx, staff, "", certs.NationalEventInput{EventID: other, MaxPlacing: 1, Championship: true}); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name  string
		actor ledger.Actor
		in    certs.ApplicationInput
		code  string // "" accepted
		en    string // a word of the English refusal
		zh    string // and of the Chinese one
	}{
		{"text is no evidence", beijing, certs.ApplicationInput{PlayerID: winner.ID, TargetRank: "1d", Basis: "tournament", Evidence: "市赛 1 胜"},
			"EVIDENCE_EVENT_REQUIRED", "no evidence", "不能作为申请依据"},
		{"unknown event", beijing, certs.ApplicationInput{PlayerID: winner.ID, TargetRank: "1d", Basis: "tournament", EventID: 99999},
			"EVIDENCE_NO_SUCH_EVENT", "no registry event 99999", "没有编号为 99999"},
		{"not finished", beijing, certs.ApplicationInput{PlayerID: outsider.ID, TargetRank: "1d", Basis: "tournament", EventID: open.ID},
			"EVIDENCE_NOT_FINISHED", "not finished", "尚未结束"},
		{"did not play", beijing, certs.ApplicationInput{PlayerID: outsider.ID, TargetRank: "1d", Basis: "tournament", EventID: city.ID},
			"EVIDENCE_NOT_A_PARTICIPANT", "not a registered participant", "不是赛事"},
		{"below the rule", beijing, certs.ApplicationInput{PlayerID: loser.ID, TargetRank: "1d", Basis: "tournament", EventID: city.ID},
			"EVIDENCE_BELOW_RULE", "0 wins of 1", "胜 0 局"},
		{"above what the rules earn", beijing, certs.ApplicationInput{PlayerID: winner.ID, TargetRank: "4d", Basis: "tournament", EventID: city.ID},
			"EVIDENCE_BELOW_RULE", "earn 3d, not 4d", "可获3段，达不到4段"},
		{"earned", beijing, certs.ApplicationInput{PlayerID: winner.ID, TargetRank: "3d", Basis: "tournament", EventID: city.ID}, "", "", ""},
		{"6 dan on an unlisted event", staff, certs.ApplicationInput{PlayerID: winner.ID, TargetRank: "6d", Basis: "national_result", EventID: city.ID},
			"EVIDENCE_NOT_NATIONAL", "not on the association's list", "不在协会认可"},
		{"6 dan by placing", staff, certs.ApplicationInput{PlayerID: second.ID, TargetRank: "6d", Basis: "national_result", EventID: national}, "", "", ""},
		{"7 dan not the champion", staff, certs.ApplicationInput{PlayerID: second.ID, TargetRank: "7d", Basis: "national_championship", EventID: national},
			"EVIDENCE_NOT_CHAMPION", "not the champion", "不是冠军"},
		{"7 dan unrecognised", staff, certs.ApplicationInput{PlayerID: unrecognised.ID, TargetRank: "7d", Basis: "national_championship", EventID: other},
			"EVIDENCE_RECOGNITION_REQUIRED", "special recognition", "特别认定"},
		{"7 dan recognised", staff, certs.ApplicationInput{PlayerID: champ.ID, TargetRank: "7d", Basis: "national_championship", EventID: national}, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := e.cs.Apply(ctx, tt.actor, "", tt.in)
			if tt.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if a.EventID != tt.in.EventID || a.Games == 0 || a.Placing == 0 || !strings.Contains(a.EventRef, "(tournament ") {
					t.Fatalf("the registry's record is not stated: %+v", a)
				}
				return
			}
			le, ok := ledger.AsError(err)
			if !ok || le.Reason.Code() != tt.code {
				t.Fatalf("err = %v, want %s", err, tt.code)
			}
			if en, zh := le.Message(ledger.English), le.Message(ledger.Chinese); !strings.Contains(en, tt.en) || !strings.Contains(zh, tt.zh) {
				t.Fatalf("wordings %q / %q, want %q / %q", en, zh, tt.en, tt.zh)
			}
		})
	}

	// the winner's 3-dan application is filed; a void of his win before
	// approval leaves the evidence short, and approval refuses it
	apps, err := e.cs.ListApplications(ctx, staff, certs.ApplicationQuery{Status: certs.AppApplied})
	if err != nil {
		t.Fatal(err)
	}
	var winnerApp certs.Application
	for _, a := range apps {
		if a.PlayerID == winner.ID {
			winnerApp = a
		}
	}
	if winnerApp.Wins != 1 || winnerApp.Placing != 1 || winnerApp.EarnedRank != 3 {
		t.Fatalf("stated record %+v, want 1 win, placing 1, 3d earned", winnerApp)
	}
	if c, err := e.cs.RecheckEvidence(ctx, e.pool, winnerApp.ID); err != nil || !c.Holds {
		t.Fatalf("recheck before the void = %+v, %v", c, err)
	}
	side := tournaments.VoidBlack
	if res == "white" {
		side = tournaments.VoidWhite
	}
	if _, err := e.ts.VoidResult(ctx, fixture.Staff, "", city.ID, tournaments.VoidInput{Round: 1, Board: g.Board, Side: side, Reason: "代打"}); err != nil {
		t.Fatal(err)
	}
	if c, err := e.cs.RecheckEvidence(ctx, e.pool, winnerApp.ID); err != nil || c.Holds || c.Err == nil {
		t.Fatalf("recheck after the void = %+v, %v; want it not to hold", c, err)
	}
	// the void withdrew the waiting application (its evidence re-checked)
	if a, err := e.cs.GetApplication(ctx, beijing, winnerApp.ID); err != nil || a.Status != certs.AppRejected {
		t.Fatalf("application after the void = %s, %v; want rejected", a.Status, err)
	}
	_, err = e.cs.Approve(ctx, beijing, "", winnerApp.ID)
	if le, ok := ledger.AsError(err); !ok || le.Reason != certs.ReasonNotWaiting {
		t.Fatalf("approve after the void: %v, want %s", err, certs.ReasonNotWaiting.Code())
	}
}

// TestGradingRulesPublishedBeforeStart: the organiser may replace the
// table until the start date; rules given at import earn nothing until
// staff accept them.
func TestGradingRulesPublishedBeforeStart(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	tomorrow := e.clock.Now().In(ledger.ChinaTime).AddDate(0, 0, 1).Format("2006-01-02")
	later, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "明日赛", Start: tomorrow, Level: "county", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.SetGrading(ctx, beijing, "", later.ID, []tournaments.GradingRuleInput{{MaxPlacing: 3, Rank: "1k"}}); err != nil {
		t.Fatalf("set before the start: %v", err)
	}
	today, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "今日赛", Start: e.ts.Today(), Level: "county", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.ts.SetGrading(ctx, beijing, "", today.ID, []tournaments.GradingRuleInput{{MaxPlacing: 3, Rank: "1k"}})
	if le, ok := ledger.AsError(err); !ok || le.Reason.Code() != "GRADING_FIXED" {
		t.Fatalf("set on the start day: %v, want GRADING_FIXED", err)
	}
	bad := []struct {
		name string
		in   []tournaments.GradingRuleInput
		code string
	}{
		{"both conditions", []tournaments.GradingRuleInput{{MaxPlacing: 1, MinWins: 2, Rank: "1d"}}, "GRADING_CONDITION"},
		{"no condition", []tournaments.GradingRuleInput{{Rank: "1d"}}, "GRADING_CONDITION"},
		{"no rank", []tournaments.GradingRuleInput{{MaxPlacing: 1}}, "GROUP_RANK"},
		{"unknown group", []tournaments.GradingRuleInput{{MinWins: 1, Group: "Z", Rank: "1d"}}, "GRADING_GROUP"},
		{"too many", make([]tournaments.GradingRuleInput, tournaments.MaxGradingRules+1), "GRADING_TOO_MANY"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.ts.SetGrading(ctx, beijing, "", later.ID, tt.in)
			if le, ok := ledger.AsError(err); !ok || le.Reason.Code() != tt.code {
				t.Fatalf("err = %v, want %s", err, tt.code)
			}
		})
	}
	ev, err := e.ts.GetEvent(ctx, later.ID)
	if err != nil || len(ev.Grading) != 1 || !ev.RulesPublishedBeforeStart() || !ev.RulesHold() {
		t.Fatalf("event %+v, %v: want its one rule, published before the start", ev.Grading, err)
	}
}
