package audit_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

var (
	staff   = fixture.Staff
	beijing = fixture.Agency("110")
)

type env struct {
	store *ledger.Store
	clock *fixture.Clock
	reg   *registry.Service
	cs    *certs.Service
	ts    *tournaments.Service
	au    *audit.Service
}

// newEnv starts on 10 March 2026 in Beijing (the agencies created in
// November 2025), inside audit year 2026 (the
// subject of these tests is dates), with the audit as the certificates' gate.
func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvWith(t, func(*ledger.Store) audit.Config { return audit.Config{} })
}

// newEnvWith is newEnv with the audit's settings of cfg.
func newEnvWith(t *testing.T, cfg func(*ledger.Store) audit.Config) *env {
	t.Helper()
	pool, _ := harness.NewDB(t)
	// the agencies exist before the year begins (a month before an agency
	// existed is not an inactive one)
	clock := fixture.NewClock(time.Date(2025, 11, 20, 2, 0, 0, 0, time.UTC))
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	fixture.Agencies(t, reg, "110", "310", "440")
	clock.Set(time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC))
	au, err := audit.New(store, reg, cfg(store))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithGrantGate(au), certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	return &env{store: store, clock: clock, reg: reg, cs: cs, ts: tournaments.New(store, reg, proposals.Certs{Certs: cs}), au: au}
}

func (e *env) at(t *testing.T, day string) {
	t.Helper()
	d, err := time.ParseInLocation(time.DateOnly, day, ledger.ChinaTime)
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Set(d.Add(10 * time.Hour))
}

// earned runs an event, organised by staff, whose published rules earn
// the players rank (fixture.Earned): their applications' evidence.
func (e *env) earned(t *testing.T, rank string, players ...registry.Player) int64 {
	t.Helper()
	var ids []int64
	for _, p := range players {
		ids = append(ids, p.ID)
	}
	return fixture.Earned(t, e.ts, rank, ids...)
}

func (e *env) certify(t *testing.T, actor ledger.Actor, in certs.ApplicationInput) certs.Application {
	t.Helper()
	ctx := context.Background()
	a, err := e.cs.Apply(ctx, actor, "", in)
	if err != nil {
		t.Fatalf("apply %+v: %v", in, err)
	}
	a, err = e.cs.Approve(ctx, actor, "", a.ID)
	if err != nil {
		t.Fatalf("approve %d: %v", a.ID, err)
	}
	return a
}

// scenario plants, in audit year 2026, four of the anomalies on Beijing
// (110): forfeit wins qualifying players then certified, late result changes,
// birth dates edited just before appraisals; Hunan (440) does nothing at all;
// Shanghai (310) is ordinary.
func (e *env) scenario(t *testing.T) (eventID int64) {
	t.Helper()
	ctx := context.Background()
	fixture.Bootstrap(t, e.au, 2026, "110", "310")
	fixture.Bootstrap(t, e.au, 2025, "310")
	fixture.Stock(t, e.cs, "310", 2025, 100, 100)
	fixture.Stock(t, e.cs, "110", 2026, 100, 100)
	fixture.Stock(t, e.cs, "310", 2026, 100, 100)

	// a dan-grade round robin of 8: boards 1 and 3 won by black unplayed
	e.at(t, "2026-04-01")
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "2026年北京市段位赛", Start: "2026-04-01", End: "2026-04-02",
		Level: "province", System: "round_robin", DanGrade: true, Groups: []tournaments.GroupInput{{Name: "A", TargetRank: "1d", MinWins: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	var players []registry.Player
	for i := range 8 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("段位%d", i), "1k", "1990-01-01", i)
		players = append(players, p)
		if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Group: "A"}); err != nil {
			t.Fatal(err)
		}
	}
	for r := 1; r <= 7; r++ {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
		if err != nil {
			t.Fatalf("pair round %d: %v", r, err)
		}
		for _, g := range ri.Games {
			// board 3's white came past the lateness limit: as unplayed a
			// win as board 1's forfeit, and counted with it
			res := map[int]string{1: "black_forfeit", 3: "white_late"}[g.Board]
			if g.Board%2 == 0 {
				res = "white"
			}
			if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: r, Board: g.Board, Result: res}); err != nil {
				t.Fatal(err)
			}
		}
		if r == 2 {
			// round 2 paired: round 1's board 1 changes hands eight times
			for i := range 8 {
				res := []string{"white", "black_forfeit"}[i%2]
				if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: res}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	// after the last round: a change 3 days after the event is not late, one
	// a month after it is
	for _, c := range []struct {
		day   string
		board int
	}{{"2026-04-05", 4}, {"2026-05-01", 2}} {
		e.at(t, c.day)
		if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 7, Board: c.board, Result: "black"}); err != nil {
			t.Fatal(err)
		}
	}
	// not finished: results may still change (the reproducibility test does)
	e.at(t, "2026-04-10")
	earned := e.earned(t, "1d", players...)
	for _, p := range players {
		e.certify(t, beijing, certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: earned})
	}

	// five 17-year-olds made 18 three days before their appraisal
	appr, err := e.cs.RecommendAppraiser(ctx, beijing, "", certs.AppraiserInput{Name: "鉴定员"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.SetAppraiserStatus(ctx, staff, "", appr.ID, certs.AppraiserApproved); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		e.at(t, "2026-06-01")
		birth := "2009-01-15"
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("少年%d", i), "1k", birth, 100+i)
		e.at(t, "2026-06-20")
		older := "2007-01-15"
		// the agency's edit is held for staff, who approve it (the second pair of eyes fails here)
		u, err := e.reg.UpdatePlayer(ctx, beijing, "", p.ID, registry.PlayerInput{Name: p.Name, Gender: p.Gender, BirthDate: older,
			IDKind: p.IDKind, IDNumber: fixture.ResidentID("110", older, 100+i), ProvinceCode: p.ProvinceCode, Rank: "1k", ChangeReason: "登记错误"})
		if err != nil || u.Held == nil {
			t.Fatalf("edit birth date: held %v, %v", u.Held, err)
		}
		if _, err := e.reg.DecideIdentityChange(ctx, staff, "", u.Held.ID, true, ""); err != nil {
			t.Fatal(err)
		}
		e.at(t, "2026-06-23")
		s := fixture.Appraisal(t, e.cs, "110", appr.ID, p.ID, "1d", e.clock.Now())
		e.certify(t, beijing, certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "appraisal", AppraisalSessionID: s.ID})
	}

	// Shanghai: a few players, a few certificates, every month something
	for m := 0; m < 12; m++ {
		day := time.Date(2025, 12+time.Month(m), 5, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
		e.at(t, day)
		p := fixture.Player(t, e.reg, "310", fmt.Sprintf("沪%d", m), "1k", "1995-01-01", m)
		if m%3 == 0 {
			e.certify(t, fixture.Agency("310"), certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: e.earned(t, "1d", p)})
		}
	}
	// every month also Beijing registers someone
	for m := 0; m < 12; m++ {
		e.at(t, time.Date(2025, 12+time.Month(m), 8, 0, 0, 0, 0, time.UTC).Format(time.DateOnly))
		fixture.Player(t, e.reg, "110", fmt.Sprintf("京%d", m), "5k", "1985-01-01", 200+m)
	}
	return ev.ID
}

func indicator(t *testing.T, a audit.Audit, key string) audit.Indicator {
	t.Helper()
	for _, in := range a.Indicators {
		if in.Key == key {
			return in
		}
	}
	t.Fatalf("%s: no indicator %s", a.AgencyPrefix, key)
	return audit.Indicator{}
}

func TestOpenYearMarksThePlantedAnomalies(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.scenario(t)
	e.at(t, "2026-11-20")
	if _, err := e.au.OpenYear(ctx, staff, "", 2026); !isReason(err, "AUDIT_YEAR_RUNNING") || !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("opening a running year: %v", err)
	}
	e.at(t, "2026-12-01")
	if _, err := e.au.OpenYear(ctx, beijing, "", 2026); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("an agency opening the audits: %v", err)
	}
	op, err := e.au.OpenYear(ctx, staff, "open-2026", 2026)
	if err != nil {
		t.Fatal(err)
	}
	if op.Agencies != 3 || op.Position == 0 {
		t.Fatalf("opened %+v", op)
	}
	if again, err := e.au.OpenYear(ctx, staff, "open-2026", 2026); err != nil || again != op {
		t.Fatalf("retried with its key: %+v %v", again, err)
	}
	if _, err := e.au.OpenYear(ctx, staff, "", 2026); !errors.Is(err, ledger.ErrConflict) {
		t.Fatalf("opened twice: %v", err)
	}
	get := func(agency string) audit.Audit {
		a, err := e.au.Audit(ctx, staff, agency, 2026)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Indicators) != len(audit.Definitions()) {
			t.Fatalf("%s: %d indicators, want %d", agency, len(a.Indicators), len(audit.Definitions()))
		}
		return a
	}
	bj, sh, hn := get("110"), get("310"), get("440")
	for _, tt := range []struct {
		a     audit.Audit
		key   string
		value float64
		mark  audit.Mark
	}{
		{hn, audit.KeyInactiveMonths, 12, audit.Red},
		{sh, audit.KeyInactiveMonths, 0, audit.Green},
		{bj, audit.KeyInactiveMonths, 0, audit.Green},
		{bj, audit.KeyIdentityEdits, 5, audit.Red},
		{sh, audit.KeyIdentityEdits, 0, audit.Green},
		{bj, audit.KeyLateResultChanges, 9, audit.Red}, // 8 after round 2 was paired, 1 a month after the event
		{sh, audit.KeyLateResultChanges, 0, audit.Green},
		{bj, audit.KeyForfeitQualifying, 14.0 / 28, audit.Red}, // boards 1 and 3 of 4 in each of 7 rounds (round 1 board 1 ends a forfeit)
		{sh, audit.KeyForfeitQualifying, 0, audit.Green},
		{bj, audit.KeyDanGradeEventsHeld, 1, audit.Green},
		{hn, audit.KeyEventsHeld, 0, audit.Amber},
		{hn, audit.KeyOrdersPlaced, 0, audit.Amber},
		{sh, audit.KeyRosterSubmitted, 0, audit.Amber},
		{sh, audit.KeyCertificatesIssued, 4, audit.Green},
		{bj, audit.KeyCertificatesIssued, 13, audit.Green},
	} {
		in := indicator(t, tt.a, tt.key)
		if diff := in.Value - tt.value; diff > 1e-9 || diff < -1e-9 || in.Mark != tt.mark {
			t.Errorf("%s %s = %v %s, want %v %s", tt.a.AgencyPrefix, tt.key, in.Value, in.Mark, tt.value, tt.mark)
		}
	}
	// a share's base is there even when nothing is counted
	if in := indicator(t, sh, audit.KeyHighDanShare); in.Base != 4 || in.Count != 0 {
		t.Errorf("Shanghai's 4–5 dan share: %d of %d, want 0 of 4", in.Count, in.Base)
	}
	// every red mark opened one finding, in its family
	reds := 0
	for _, a := range []audit.Audit{bj, sh, hn} {
		open := map[string]audit.Family{}
		for _, f := range a.Findings {
			open[f.Indicator] = f.Category
		}
		for _, in := range a.Indicators {
			if in.Mark == audit.Red {
				reds++
				if open[in.Key] != in.Family {
					t.Errorf("%s %s red without a finding in %s", a.AgencyPrefix, in.Key, in.Family)
				}
			}
		}
	}
	if reds != op.Red {
		t.Errorf("%d red marks, %d findings opened", reds, op.Red)
	}
	// the drill-down lists what is counted, with the log's rows
	items, err := e.au.IndicatorItems(ctx, beijing, "110", 2026, audit.KeyLateResultChanges)
	if err != nil || len(items) != 9 {
		t.Fatalf("late changes: %d items, %v", len(items), err)
	}
	for i, it := range items {
		want := "/1/1"
		if i == 8 {
			want = "/7/2"
		}
		if it.Kind != "game" || it.EventID == 0 || !strings.HasSuffix(it.Ref, want) || !strings.HasPrefix(it.Link, "/tournaments/") {
			t.Errorf("item %d %+v, want a game ending %s", i, it, want)
		}
	}
	months, err := e.au.IndicatorItems(ctx, staff, "440", 2026, audit.KeyInactiveMonths)
	if err != nil || len(months) != 12 || months[0].Ref != "2025-12" || months[11].Ref != "2026-11" {
		t.Fatalf("inactive months: %+v %v", months, err)
	}
	if _, err := e.au.IndicatorItems(ctx, fixture.Agency("310"), "110", 2026, audit.KeyLateResultChanges); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("another agency's drill-down: %v", err)
	}
	if _, err := e.au.IndicatorItems(ctx, staff, "110", 2026, "nope"); !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("unknown indicator: %v", err)
	}
	list, err := e.au.ListAudits(ctx, fixture.Agency("310"), 2026)
	if err != nil || len(list) != 1 || list[0].AgencyPrefix != "310" {
		t.Fatalf("an agency lists %d audits: %v", len(list), err)
	}
}

// TestSnapshotReproducible changes, after opening, everything an indicator
// rests on (a certificate issued, one revoked, a birth date edited, a result
// changed, a player registered), all dated inside the audit year: the
// present differs from the snapshot, and recomputing from the snapshot's
// position gives its numbers back.
func TestSnapshotReproducible(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev := e.scenario(t)
	e.at(t, "2026-12-01")
	if _, err := e.au.OpenYear(ctx, staff, "", 2026); err != nil {
		t.Fatal(err)
	}
	// back inside the year: rows logged after the opening, dated in the
	// year (as the clock allows a test), must not move the snapshot
	e.at(t, "2026-11-25")
	p := fixture.Player(t, e.reg, "310", "后来", "1k", "1990-05-05", 900)
	e.certify(t, fixture.Agency("310"), certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: e.earned(t, "1d", p)})
	if _, err := e.cs.Revoke(ctx, staff, "", "110260001", "补查发现比赛记录不实"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.RecordResult(ctx, beijing, "", ev, tournaments.ResultInput{Round: 1, Board: 1, Result: "white"}); err != nil {
		t.Fatal(err)
	}
	edited := "1991-05-05"
	u, err := e.reg.UpdatePlayer(ctx, fixture.Agency("310"), "", p.ID, registry.PlayerInput{Name: p.Name, Gender: p.Gender, BirthDate: edited,
		IDKind: p.IDKind, IDNumber: fixture.ResidentID("310", edited, 900), ProvinceCode: p.ProvinceCode, Rank: "1k", ChangeReason: "更正"})
	if err != nil || u.Held == nil {
		t.Fatalf("edit birth date: held %v, %v", u.Held, err)
	}
	if _, err := e.reg.DecideIdentityChange(ctx, staff, "", u.Held.ID, true, ""); err != nil {
		t.Fatal(err)
	}
	now, err := e.au.ScorecardsNow(ctx, 2026, []string{"110", "310", "440"})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := e.au.Audit(ctx, staff, "110", 2026)
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for i, in := range now["110"] {
		if in.Value != stored.Indicators[i].Value {
			changed++
		}
	}
	if changed < 2 {
		t.Fatalf("the present differs from the snapshot in %d indicators of 110; the test proves nothing", changed)
	}
	v, err := e.au.VerifyYear(ctx, staff, 2026)
	if err != nil {
		t.Fatal(err)
	}
	if v.Indicators != 3*len(audit.Definitions()) || len(v.Differences) != 0 {
		t.Fatalf("verified %d indicators, differences %+v", v.Indicators, v.Differences)
	}
}

func TestFindingsRulingsAndTheGate(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.scenario(t)
	e.at(t, "2026-12-01")
	if _, err := e.au.OpenYear(ctx, staff, "", 2026); err != nil {
		t.Fatal(err)
	}
	e.at(t, "2026-12-02")
	for _, a := range []string{"110", "310", "440"} {
		if _, err := e.cs.PlaceOrder(ctx, fixture.Agency(a), "", certs.OrderInput{DanCount: 20, KyuCount: 20}); err != nil {
			t.Fatal(err)
		}
	}
	grant := func(agency string, dan int) error {
		_, err := e.cs.DecideOrder(ctx, staff, "", certs.OrderDecision{AgencyPrefix: agency, Year: 2027, Grant: true, DanCount: dan})
		return err
	}
	err := grant("110", 0)
	var le *ledger.Error
	if !errors.Is(err, ledger.ErrPrecondition) || !errors.As(err, &le) || le.Reason != audit.ReasonNotPassed ||
		!strings.Contains(le.Message(ledger.English), "agency 110 has not passed its 2026 audit") ||
		!strings.Contains(le.Message(ledger.Chinese), "代理机构 110 尚未通过 2026 年度年审") {
		t.Fatalf("grant before a ruling: %v", err)
	}

	bj, _ := e.au.Audit(ctx, staff, "110", 2026)
	if len(bj.Findings) == 0 {
		t.Fatal("no findings for Beijing")
	}
	if _, err := e.au.Rule(ctx, staff, "", audit.RulingInput{AgencyPrefix: "110", Year: 2026, Outcome: audit.Pass}); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("pass with findings open: %v", err)
	}
	f := bj.Findings[0]
	if _, err := e.au.ReplyToFinding(ctx, fixture.Agency("310"), "", f.ID, "不是我们的"); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("another agency replying: %v", err)
	}
	if _, err := e.au.DecideFinding(ctx, beijing, "", f.ID, false, ""); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("the agency dismissing its own finding: %v", err)
	}
	r, err := e.au.ReplyToFinding(ctx, beijing, "", f.ID, "成绩改动经裁判长签字确认，附记录。")
	if err != nil || r.Reply == "" || r.RepliedBy != "agency:110" {
		t.Fatalf("reply: %+v %v", r, err)
	}
	own, err := e.au.AddFinding(ctx, staff, "", audit.FindingInput{AgencyPrefix: "110", Year: 2026, Category: audit.Procedure,
		Severity: audit.SeverityMedium, Evidence: "名册提交晚于规定日期"})
	if err != nil {
		t.Fatal(err)
	}
	for i, fd := range append(bj.Findings, own) {
		if _, err := e.au.DecideFinding(ctx, staff, "", fd.ID, i%2 == 0, "核查"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.au.DecideFinding(ctx, staff, "", own.ID, true, ""); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("deciding twice: %v", err)
	}

	if _, err := e.au.Rule(ctx, staff, "", audit.RulingInput{AgencyPrefix: "110", Year: 2026, Outcome: audit.Fail}); err != nil {
		t.Fatal(err)
	}
	if err := grant("110", 0); !errors.Is(err, ledger.ErrPrecondition) || !strings.Contains(err.Error(), "has not passed its 2026 audit") {
		t.Fatalf("grant after a fail: %v", err)
	}
	if _, err := e.au.Rule(ctx, staff, "", audit.RulingInput{AgencyPrefix: "110", Year: 2026, Outcome: audit.Conditional}); !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("conditions missing: %v", err)
	}
	dcap := 10
	until := time.Date(2027, 11, 30, 0, 0, 0, 0, time.UTC)
	conditional := audit.RulingInput{AgencyPrefix: "110", Year: 2026, Outcome: audit.Conditional, DanCap: &dcap,
		SupervisionUntil: &until, Measures: "监管期内 4–5 段须经协会审批"}
	if _, err := e.au.Rule(ctx, staff, "", conditional); !isReason(err, "AUDIT_ALREADY_RULED") {
		t.Fatalf("a second ruling without an appeal: %v", err)
	}
	// Beijing appeals; staff change the fail into a conditional pass
	if _, err := e.au.Appeal(ctx, beijing, "", audit.AppealInput{AgencyPrefix: "110", Year: 2026, Reason: "改动均有裁判长签字"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.au.DecideAppeal(ctx, staff, "", audit.AppealDecision{AgencyPrefix: "110", Year: 2026, Note: "部分采纳", Ruling: conditional}); err != nil {
		t.Fatal(err)
	}
	if err := grant("110", 0); !errors.As(err, &le) || le.Reason != audit.ReasonAboveCap {
		t.Fatalf("grant of 20 above a cap of 10: %v", err)
	}
	if err := grant("110", 10); err != nil {
		t.Fatalf("grant at the cap: %v", err)
	}
	if sup, err := e.au.Supervision(ctx, "110", e.clock.Now()); err != nil || sup == nil || !sup.SupervisionUntil.Equal(until) {
		t.Fatalf("supervision: %+v %v", sup, err)
	}

	// Shanghai has no red marks left open: a plain pass lets its stock through
	sh, _ := e.au.Audit(ctx, staff, "310", 2026)
	for _, fd := range sh.Findings {
		if _, err := e.au.DecideFinding(ctx, staff, "", fd.ID, false, "正常波动"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.au.Rule(ctx, staff, "", audit.RulingInput{AgencyPrefix: "310", Year: 2026, Outcome: audit.Pass}); err != nil {
		t.Fatal(err)
	}
	if err := grant("310", 0); err != nil {
		t.Fatalf("grant after a pass: %v", err)
	}
	// Hunan: no ruling, but staff's logged first-year decision
	if err := grant("440", 0); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("Hunan without a ruling: %v", err)
	}
	fixture.Bootstrap(t, e.au, 2027, "440")
	if _, err := e.au.Bootstrap(ctx, staff, "", audit.BootstrapInput{AgencyPrefix: "440", StockYear: 2027, Note: "again"}); !errors.Is(err, ledger.ErrConflict) {
		t.Fatalf("a second first-year decision: %v", err)
	}
	if err := grant("440", 0); err != nil {
		t.Fatalf("grant after the first-year decision: %v", err)
	}
}
