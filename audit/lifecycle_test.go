package audit_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// TestNewAgencyNotInactiveBeforeItExisted: the months of the year before an
// agency was created (and the month it was created in) are not inactive
// months, nor is the year of its creation an inactive year.
func TestNewAgencyNotInactiveBeforeItExisted(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.at(t, "2026-09-15")
	fixture.Agencies(t, e.reg, "320", "330")
	// Jiangsu, created in September, registers a player every month since
	for i, day := range []string{"2026-09-20", "2026-10-05", "2026-11-05"} {
		e.at(t, day)
		fixture.Player(t, e.reg, "320", fmt.Sprintf("苏%d", i), "1k", "1990-01-01", 700+i)
	}
	// Shanghai is active every month of the year; Zhejiang (created in
	// September) and Hunan (a year old) do nothing
	for m := 0; m < 12; m++ {
		e.at(t, time.Date(2025, 12+time.Month(m), 5, 0, 0, 0, 0, time.UTC).Format(time.DateOnly))
		fixture.Player(t, e.reg, "310", fmt.Sprintf("沪%d", m), "1k", "1995-01-01", m)
	}
	e.at(t, "2026-12-01")
	if _, err := e.au.OpenYear(ctx, staff, "", 2026); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name          string
		agency        string
		months        float64
		monthsMark    audit.Mark
		years         float64
		yearsMark     audit.Mark
		firstInactive string
	}{
		{"created in September, active since", "320", 0, audit.Green, 0, audit.Green, ""},
		{"created in September, idle since", "330", 2, audit.Green, 0, audit.Green, "2026-10"},
		{"active all year", "310", 0, audit.Green, 0, audit.Green, ""},
		{"existed all year, idle", "440", 12, audit.Red, 1, audit.Amber, "2025-12"},
	} {
		a, err := e.au.Audit(ctx, staff, tt.agency, 2026)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		m, y := indicator(t, a, audit.KeyInactiveMonths), indicator(t, a, audit.KeyInactiveYears)
		if m.Value != tt.months || m.Mark != tt.monthsMark || y.Value != tt.years || y.Mark != tt.yearsMark {
			t.Errorf("%s: inactive months %v %s, years %v %s; want %v %s, %v %s", tt.name, m.Value, m.Mark, y.Value, y.Mark,
				tt.months, tt.monthsMark, tt.years, tt.yearsMark)
		}
		items, err := e.au.IndicatorItems(ctx, staff, tt.agency, 2026, audit.KeyInactiveMonths)
		if err != nil || float64(len(items)) != tt.months || (len(items) > 0 && items[0].Ref != tt.firstInactive) {
			t.Errorf("%s: inactive months listed %+v %v, want %v from %s", tt.name, items, err, tt.months, tt.firstInactive)
		}
	}
}

// TestRunningYearOnlyPreviewed: before the year's end OpenYear is refused
// and a preview, labelled, opens no findings and no ruling can use it;
// after the end the year opens for real and the preview is gone.
func TestRunningYearOnlyPreviewed(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.at(t, "2026-06-15")
	fixture.Player(t, e.reg, "310", "沪", "1k", "1995-01-01", 1)
	if _, err := e.au.OpenYear(ctx, staff, "", 2026); !isReason(err, "AUDIT_YEAR_RUNNING") {
		t.Fatalf("opening a running year: %v", err)
	}
	if _, err := e.au.PreviewYear(ctx, beijing, "", 2026); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("an agency previewing: %v", err)
	}
	pv, err := e.au.PreviewYear(ctx, staff, "preview-1", 2026)
	if err != nil || pv.Agencies != 3 {
		t.Fatalf("preview: %+v %v", pv, err)
	}
	hn, err := e.au.Audit(ctx, staff, "440", 2026)
	if err != nil || !hn.Preview || len(hn.Findings) != 0 || hn.Ruling != nil {
		t.Fatalf("Hunan's preview: preview %v, %d findings, %v", hn.Preview, len(hn.Findings), err)
	}
	// December to June: the months to come are not counted
	if in := indicator(t, hn, audit.KeyInactiveMonths); in.Value != 7 || in.Mark != audit.Amber {
		t.Errorf("Hunan's inactive months to date: %v %s, want 7 amber", in.Value, in.Mark)
	}
	list, err := e.au.ListAudits(ctx, staff, 2026)
	if err != nil || len(list) != 3 || !list[0].Preview {
		t.Fatalf("the year's list: %d, preview %v, %v", len(list), len(list) > 0 && list[0].Preview, err)
	}
	five := 5
	for _, tt := range []struct {
		name string
		do   func() error
	}{
		{"rule", func() error {
			_, err := e.au.Rule(ctx, staff, "", audit.RulingInput{AgencyPrefix: "440", Year: 2026, Outcome: audit.Conditional, DanCap: &five})
			return err
		}},
		{"add a finding", func() error {
			_, err := e.au.AddFinding(ctx, staff, "", audit.FindingInput{AgencyPrefix: "440", Year: 2026, Category: audit.Procedure,
				Severity: audit.SeverityLow, Evidence: "x"})
			return err
		}},
		{"publish", func() error {
			_, err := e.au.PublishYear(ctx, staff, "", audit.PublishInput{Year: 2026})
			return err
		}},
	} {
		if err := tt.do(); !isReason(err, "AUDIT_PREVIEW_ONLY") {
			t.Errorf("%s on a preview: %v", tt.name, err)
		}
	}
	// a later preview replaces the earlier
	e.at(t, "2026-08-15")
	pv2, err := e.au.PreviewYear(ctx, staff, "preview-2", 2026)
	if err != nil || pv2.Position <= pv.Position {
		t.Fatalf("second preview: %+v %v", pv2, err)
	}
	if hn, _ := e.au.Audit(ctx, staff, "440", 2026); indicator(t, hn, audit.KeyInactiveMonths).Value != 9 {
		t.Errorf("the second preview's months: %v, want 9", indicator(t, hn, audit.KeyInactiveMonths).Value)
	}
	e.at(t, "2026-12-01")
	if _, err := e.au.PreviewYear(ctx, staff, "", 2026); !isReason(err, "AUDIT_YEAR_ENDED") {
		t.Fatalf("previewing an ended year: %v", err)
	}
	op, err := e.au.OpenYear(ctx, staff, "", 2026)
	if err != nil {
		t.Fatal(err)
	}
	hn, err = e.au.Audit(ctx, staff, "440", 2026)
	if err != nil || hn.Preview || hn.Position != op.Position || len(hn.Findings) == 0 {
		t.Fatalf("after opening: preview %v, position %d (opened at %d), %d findings, %v", hn.Preview, hn.Position, op.Position, len(hn.Findings), err)
	}
	if in := indicator(t, hn, audit.KeyInactiveMonths); in.Value != 12 || in.Mark != audit.Red {
		t.Errorf("Hunan's inactive months: %v %s, want 12 red", in.Value, in.Mark)
	}
}

// TestRulingAppealAndPublication: a ruling is given once; the agency may
// appeal within the reply period, not after; staff decide (never making it
// stricter); a ruling is final after its period or its appeal's decision;
// the year is published once every ruling is final (or early, with a
// note), and read by anyone.
func TestRulingAppealAndPublication(t *testing.T) {
	ctx := context.Background()
	e := newEnvWith(t, func(*ledger.Store) audit.Config { return audit.Config{ReplyDays: 20} })
	e.at(t, "2026-12-01")
	if _, err := e.au.OpenYear(ctx, staff, "", 2026); err != nil {
		t.Fatal(err)
	}
	// every finding (the idle marks) decided, so that any outcome may be given
	for _, a := range []string{"110", "310", "440"} {
		au, err := e.au.Audit(ctx, staff, a, 2026)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range au.Findings {
			if _, err := e.au.DecideFinding(ctx, staff, "", f.ID, true, "核实"); err != nil {
				t.Fatal(err)
			}
		}
	}
	e.at(t, "2026-12-02")
	two, four := 2, 4
	until := time.Date(2027, 6, 30, 0, 0, 0, 0, time.UTC)
	later := time.Date(2027, 11, 30, 0, 0, 0, 0, time.UTC)
	capped := audit.RulingInput{AgencyPrefix: "110", Year: 2026, Outcome: audit.Conditional, DanCap: &four, SupervisionUntil: &until}
	for _, in := range []audit.RulingInput{capped,
		{AgencyPrefix: "310", Year: 2026, Outcome: audit.Pass},
		{AgencyPrefix: "440", Year: 2026, Outcome: audit.Fail}} {
		if _, err := e.au.Rule(ctx, staff, "rule-"+in.AgencyPrefix, in); err != nil {
			t.Fatal(err)
		}
	}
	// the same key gives the same ruling back; another ruling is refused
	if r, err := e.au.Rule(ctx, staff, "rule-440", audit.RulingInput{AgencyPrefix: "440", Year: 2026, Outcome: audit.Fail}); err != nil || r.Outcome != audit.Fail {
		t.Fatalf("retried ruling: %+v %v", r, err)
	}
	if _, err := e.au.Rule(ctx, staff, "", audit.RulingInput{AgencyPrefix: "440", Year: 2026, Outcome: audit.Pass}); !isReason(err, "AUDIT_ALREADY_RULED") ||
		!errors.Is(err, ledger.ErrConflict) {
		t.Fatalf("replacing a ruling without an appeal: %v", err)
	}
	if _, err := e.au.PublishYear(ctx, staff, "", audit.PublishInput{Year: 2026}); !isReason(err, "AUDIT_RULINGS_NOT_FINAL") {
		t.Fatalf("publishing in the reply period: %v", err)
	}
	appeal := func(actor ledger.Actor, agency, reason string) error {
		_, err := e.au.Appeal(ctx, actor, "", audit.AppealInput{AgencyPrefix: agency, Year: 2026, Reason: reason})
		return err
	}
	e.at(t, "2026-12-10")
	for _, tt := range []struct {
		name   string
		actor  ledger.Actor
		agency string
		reason string
		want   string // the refusal's code; "" accepted
	}{
		{"another agency's ruling", fixture.Agency("310"), "110", "不服", "PERMISSION_DENIED"},
		{"no reason", beijing, "110", "  ", "REQUIRED"},
		{"a reason too long", beijing, "110", strings.Repeat("理", 2001), "TOO_LONG"},
		{"within the period", beijing, "110", "监管期限过长，请求缩短", ""},
		{"twice", beijing, "110", "再次申请", "AUDIT_APPEAL_EXISTS"},
		{"Hunan within the period", fixture.Agency("440"), "440", "本年度工作已恢复", ""},
	} {
		err := appeal(tt.actor, tt.agency, tt.reason)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want == "PERMISSION_DENIED" && !errors.Is(err, ledger.ErrPermissionDenied):
			t.Errorf("%s: %v, want denied", tt.name, err)
		case tt.want != "" && tt.want != "PERMISSION_DENIED" && !isReason(err, tt.want):
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want)
		}
	}
	// after the period (20 days from 2 December): Shanghai's pass is final, an appeal refused
	e.at(t, "2026-12-23")
	if err := appeal(fixture.Agency("310"), "310", "请求复核"); !isReason(err, "AUDIT_APPEAL_PERIOD_OVER") {
		t.Fatalf("an appeal after the period: %v", err)
	}
	sh, _ := e.au.Audit(ctx, staff, "310", 2026)
	bj, _ := e.au.Audit(ctx, staff, "110", 2026)
	if !sh.Ruling.Final(e.clock.Now()) || bj.Ruling.Final(e.clock.Now()) || bj.Ruling.Appeal == nil || bj.Ruling.Appeal.Status != audit.AppealPending {
		t.Fatalf("finality: Shanghai %v, Beijing (appealed) %v %+v", sh.Ruling.Final(e.clock.Now()), bj.Ruling.Final(e.clock.Now()), bj.Ruling.Appeal)
	}
	decide := func(actor ledger.Actor, d audit.AppealDecision) (audit.Ruling, error) {
		return e.au.DecideAppeal(ctx, actor, "", d)
	}
	for _, tt := range []struct {
		name string
		d    audit.AppealDecision
		want string
	}{
		{"a lower cap", audit.AppealDecision{AgencyPrefix: "110", Year: 2026, Note: "x", Ruling: audit.RulingInput{Outcome: audit.Conditional, DanCap: &two, SupervisionUntil: &until}}, "AUDIT_APPEAL_WORSE"},
		{"a longer supervision", audit.AppealDecision{AgencyPrefix: "110", Year: 2026, Note: "x", Ruling: audit.RulingInput{Outcome: audit.Conditional, DanCap: &four, SupervisionUntil: &later}}, "AUDIT_APPEAL_WORSE"},
		{"a fail", audit.AppealDecision{AgencyPrefix: "110", Year: 2026, Note: "x", Ruling: audit.RulingInput{Outcome: audit.Fail}}, "AUDIT_APPEAL_WORSE"},
		{"no reasons", audit.AppealDecision{AgencyPrefix: "110", Year: 2026, Uphold: true}, "REQUIRED"},
		{"no appeal", audit.AppealDecision{AgencyPrefix: "310", Year: 2026, Uphold: true, Note: "x"}, "AUDIT_NO_APPEAL"},
	} {
		if _, err := decide(staff, tt.d); !isReason(err, tt.want) {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want)
		}
	}
	if _, err := decide(beijing, audit.AppealDecision{AgencyPrefix: "110", Year: 2026, Uphold: true, Note: "x"}); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("the agency deciding its own appeal: %v", err)
	}
	shorter := time.Date(2027, 3, 31, 0, 0, 0, 0, time.UTC)
	r, err := decide(staff, audit.AppealDecision{AgencyPrefix: "110", Year: 2026, Note: "监管期缩短至 2027-03-31",
		Ruling: audit.RulingInput{Outcome: audit.Conditional, DanCap: &four, SupervisionUntil: &shorter}})
	if err != nil || r.Appeal.Status != audit.AppealChanged || !r.SupervisionUntil.Equal(shorter) || !r.Final(e.clock.Now()) {
		t.Fatalf("changed on appeal: %+v %v", r, err)
	}
	if _, err := decide(staff, audit.AppealDecision{AgencyPrefix: "110", Year: 2026, Uphold: true, Note: "x"}); !isReason(err, "AUDIT_APPEAL_DECIDED") {
		t.Fatalf("deciding twice: %v", err)
	}
	// Hunan's appeal is still pending: the year is published only early, with a note
	if _, err := e.au.PublishYear(ctx, staff, "", audit.PublishInput{Year: 2026}); !isReason(err, "AUDIT_RULINGS_NOT_FINAL") {
		t.Fatalf("publishing with an appeal pending: %v", err)
	}
	if _, err := e.au.PublishYear(ctx, staff, "", audit.PublishInput{Year: 2026, Early: true}); !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("early without a note: %v", err)
	}
	if _, err := e.au.Publication(ctx, 0); !isReason(err, "AUDIT_NOT_PUBLISHED") {
		t.Fatalf("nothing published yet: %v", err)
	}
	if r, err := decide(staff, audit.AppealDecision{AgencyPrefix: "440", Year: 2026, Uphold: true, Note: "全年无任何业务"}); err != nil || r.Outcome != audit.Fail ||
		r.Appeal.Status != audit.AppealUpheld {
		t.Fatalf("upheld: %+v %v", r, err)
	}
	if _, err := e.au.PublishYear(ctx, beijing, "", audit.PublishInput{Year: 2026}); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("an agency publishing: %v", err)
	}
	p, err := e.au.PublishYear(ctx, staff, "publish-2026", audit.PublishInput{Year: 2026, Note: "2026 年度年审通报"})
	if err != nil || p.Early || len(p.Rulings) != 3 {
		t.Fatalf("published: %+v %v", p, err)
	}
	if _, err := e.au.PublishYear(ctx, staff, "", audit.PublishInput{Year: 2026}); !isReason(err, "AUDIT_ALREADY_PUBLISHED") {
		t.Fatalf("published twice: %v", err)
	}
	got, err := e.au.Publication(ctx, 0)
	if err != nil || got.Year != 2026 {
		t.Fatalf("the latest publication: %+v %v", got, err)
	}
	want := map[string]audit.Outcome{"110": audit.Conditional, "310": audit.Pass, "440": audit.Fail}
	for _, r := range got.Rulings {
		if want[r.AgencyPrefix] != r.Outcome {
			t.Errorf("published %s: %s, want %s", r.AgencyPrefix, r.Outcome, want[r.AgencyPrefix])
		}
	}
	// every act is in the log with its typed payload
	for _, action := range []string{"audit.appealed", "audit.appeal_decided", "audit.year_published"} {
		var n int
		if err := e.store.DB().QueryRow(ctx, `SELECT count(*) FROM events WHERE action = $1`, action).Scan(&n); err != nil || n == 0 {
			t.Errorf("%s logged %d times: %v", action, n, err)
		}
	}
}
