package certs_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/xuri/excelize/v2"

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
	pool  *pgxpool.Pool
	reg   *registry.Service
	cs    *certs.Service
	ts    *tournaments.Service
	clock *fixture.Clock
	start time.Time
}

// newEnv starts at the harness's "today" (DANKYU_TEST_NOW or the real time):
// the tests that use it hold on any day of the year.
func newEnv(t testing.TB, cfg certs.Config, opts ...certs.Option) *env {
	t.Helper()
	return newEnvAt(t, cfg, fixture.Today(t), opts...)
}

// newEnvAt starts at a given moment, for the tests whose subject is a date.
func newEnvAt(t testing.TB, cfg certs.Config, at time.Time, opts ...certs.Option) *env {
	t.Helper()
	pool, _ := harness.NewDB(t)
	clock := fixture.NewClock(at)
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	fixture.Agencies(t, reg, "110", "310", "440")
	cs, err := certs.New(store, reg, cfg, append([]certs.Option{certs.WithEventEvidence(proposals.Evidence{Standings: tournaments.NewStandingsCache()})}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	return &env{pool: pool, reg: reg, cs: cs, ts: ts, clock: clock, start: at}
}

// stock grants an agency stock for the year of the start and, should a
// notice period run into it, the next.
func (e *env) stock(t testing.TB, agency string, dan, kyu int) {
	t.Helper()
	fixture.StockThrough(t, e.cs, agency, e.start, e.start.Add(30*24*time.Hour), dan, kyu)
}

// number is the dan certificate number with the given serial in the series
// of prefix for the year (in Beijing) of the clock.
func (e *env) number(prefix string, serial int) string {
	return fmt.Sprintf("%s%02d%04d", prefix, certs.Year(e.clock.Now()), serial)
}

// kyuNumber is number's kyu counterpart (K, prefix, year, five digits).
func (e *env) kyuNumber(prefix string, serial int) string {
	return fmt.Sprintf("K%s%02d%05d", prefix, certs.Year(e.clock.Now()), serial)
}

// year is the clock's year in Beijing.
func (e *env) year() int { return e.clock.Now().In(ledger.ChinaTime).Year() }

func (e *env) apply(t testing.TB, actor ledger.Actor, p registry.Player, rank string) certs.Application {
	t.Helper()
	a, err := e.cs.Apply(context.Background(), actor, "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: rank,
		Basis: "tournament", EventID: fixture.Earned(t, e.ts, rank, p.ID)})
	if err != nil {
		t.Fatalf("apply %s for %s: %v", rank, p.Name, err)
	}
	return a
}

// endNotice lets a notice's period run out: the clock moves to a minute
// past its end (never backwards).
func (e *env) endNotice(t testing.TB, id int64) {
	t.Helper()
	n, err := e.cs.GetNotice(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if end := n.EndsAt.Add(time.Minute); end.After(e.clock.Now()) {
		e.clock.Set(end)
	}
}

func TestFourDanThroughNoticeToVerification(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 10)
	p := fixture.Player(t, e.reg, "110", "王五", "3d", "1990-05-01", 1)

	app := e.apply(t, beijing, p, "4d")
	if app.Status != certs.AppApplied {
		t.Fatalf("status after apply = %s", app.Status)
	}
	app, err := e.cs.Approve(ctx, beijing, "approve-1", app.ID)
	if err != nil {
		t.Fatal(err)
	}
	if app.Status != certs.AppOnNotice || app.NoticeID == 0 || app.CertificateNumber != "" {
		t.Fatalf("approved 4d: %+v, want on notice without a number", app)
	}
	n, err := e.cs.GetNotice(ctx, app.NoticeID)
	if err != nil {
		t.Fatal(err)
	}
	if n.PlayerName != "王五" || n.Rank != 4 || n.AgencyName != "北京市围棋协会" || n.EndsAt.Sub(n.PublishedAt) != 7*24*time.Hour {
		t.Fatalf("notice = %+v", n)
	}
	// nothing is issued while the period runs
	if issued, err := e.cs.Sweep(ctx); err != nil || len(issued) != 0 {
		t.Fatalf("sweep during the period issued %v, %v", issued, err)
	}
	o, err := e.cs.LodgeObjection(ctx, "k1", certs.ObjectionInput{NoticeID: n.ID, Name: "赵六", Contact: "zhao@example.cn",
		Reason: "他在第三轮弃权", Address: "203.0.113.9"})
	if err != nil {
		t.Fatal(err)
	}
	e.endNotice(t, n.ID)
	if issued, err := e.cs.Sweep(ctx); err != nil || len(issued) != 0 {
		t.Fatalf("sweep with an open objection issued %v, %v", issued, err)
	}
	if _, err := e.cs.RuleObjection(ctx, beijing, "", o.ID, false, "查无此事"); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("agency ruling: %v, want permission denied", err)
	}
	if _, err := e.cs.RuleObjection(ctx, staff, "", o.ID, false, "比赛记录显示第三轮正常对局"); err != nil {
		t.Fatal(err)
	}
	// the period had ended, so dismissing the last objection issues at once
	app, err = e.cs.GetApplication(ctx, beijing, app.ID)
	if err != nil {
		t.Fatal(err)
	}
	number := e.number("110", 1)
	if app.Status != certs.AppIssued || app.CertificateNumber != number {
		t.Fatalf("after dismissal: %s %q, want issued %s", app.Status, app.CertificateNumber, number)
	}
	v, err := e.cs.Verify(ctx, number[:3]+" "+number[3:5]+" "+number[5:])
	if err != nil {
		t.Fatal(err)
	}
	c := v.Certificate
	issueDate := certs.IssueDate(e.clock.Now()).Format(time.DateOnly)
	if !v.Found || c.Status != certs.CertValid || c.PlayerName != "王五" || c.Rank != 4 || c.AthleteGrade != certs.SecondClass ||
		c.IssuingPrefix != "110" || c.IssueDate.Format(time.DateOnly) != issueDate {
		t.Fatalf("verification = %+v, want valid, issued %s", v, issueDate)
	}
	if got, _ := e.reg.GetPlayer(ctx, p.ID); got.Rank != 4 {
		t.Fatalf("player rank = %s, want 4d", got.Rank)
	}
	// the whole story is in the event log, and the chain holds
	var actions []string
	for _, typ := range []struct{ t, id string }{{"application", "1"}, {"notice", "1"}, {"certificate", number}, {"player", "1"}} {
		evs, err := ledger.EventsFor(ctx, e.pool, typ.t, typ.id)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			actions = append(actions, ev.Actor+" "+ev.Action)
		}
	}
	want := []string{"agency:110 application.submitted", "agency:110 application.approved", "agency:110 notice.published",
		"public objection.lodged", "staff:li notice.completed", "staff:li objection.dismissed", "staff:li certificate.issued",
		"staff:li player.registered", "staff:li player.rank_changed"}
	if strings.Join(actions, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(actions, "\n"), strings.Join(want, "\n"))
	}
	if _, err := ledger.VerifyLog(ctx, e.pool); err != nil {
		t.Fatal(err)
	}
}

func TestUpheldObjectionConsumesNoNumber(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 10)
	a := fixture.Player(t, e.reg, "110", "甲", "3d", "1990-01-01", 1)
	b := fixture.Player(t, e.reg, "110", "乙", "3d", "1990-01-01", 2)
	appA, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, a, "5d").ID)
	if err != nil {
		t.Fatal(err)
	}
	o1, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: appA.NoticeID, Name: "丙", Contact: "138", Reason: "代打", Address: "a"})
	if err != nil {
		t.Fatal(err)
	}
	// another objector's other objection (the same one would be folded into o1 and ruled with it)
	o2, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: appA.NoticeID, Name: "丁", Contact: "139", Reason: "年龄不符", Address: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.RuleObjection(ctx, staff, "", o1.ID, true, "查实代打"); err != nil {
		t.Fatal(err)
	}
	appA, _ = e.cs.GetApplication(ctx, staff, appA.ID)
	n, _ := e.cs.GetNotice(ctx, appA.NoticeID)
	if appA.Status != certs.AppFailed || n.Status != certs.NoticeFailed || appA.CertificateNumber != "" {
		t.Fatalf("after upheld objection: application %s, notice %s, number %q", appA.Status, n.Status, appA.CertificateNumber)
	}
	obs, _ := e.cs.ListObjections(ctx, staff, n.ID, false)
	if len(obs) != 2 || obs[1].ID != o2.ID || obs[1].Status != certs.ObjectionClosed {
		t.Fatalf("the other objection = %+v, want closed", obs)
	}
	if _, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: n.ID, Name: "戊", Contact: "1", Reason: "x", Address: "c"}); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("objection to a failed notice: %v, want failed precondition", err)
	}
	// the next 5d takes serial 0001: the failed one consumed nothing
	appB, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, b, "5d").ID)
	if err != nil {
		t.Fatal(err)
	}
	e.endNotice(t, appB.NoticeID)
	issued, err := e.cs.Sweep(ctx)
	if want := e.number("110", 1); err != nil || len(issued) != 1 || issued[0].Number != want {
		t.Fatalf("sweep = %+v, %v; want %s", issued, err, want)
	}
	if got, _ := e.reg.GetPlayer(ctx, a.ID); got.Rank != registry.NoRank || got.DeclaredRank != 3 {
		t.Fatalf("failed player: certified %q, declared %s; want no certified rank, declared 3d unchanged", got.Rank, got.DeclaredRank)
	}
}

func TestLowRanksIssueOnApproval(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 10)
	p := fixture.Player(t, e.reg, "110", "小明", "", "2015-03-01", 1)
	steps := []struct {
		rank, number string
	}{{"10k", e.kyuNumber("110", 1)}, {"3k", ""}, {"1k", e.kyuNumber("110", 2)}, {"1d", e.number("110", 1)}, {"3d", e.number("110", 2)}}
	for _, s := range steps {
		a, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, s.rank).ID)
		if err != nil {
			t.Fatalf("%s: %v", s.rank, err)
		}
		if a.Status != certs.AppIssued || a.CertificateNumber != s.number {
			t.Fatalf("%s: %s %q, want issued %q", s.rank, a.Status, a.CertificateNumber, s.number)
		}
	}
	cs, _ := e.cs.PlayerCertificates(ctx, p.ID)
	if len(cs) != 5 || cs[0].Rank != 3 || cs[3].Number != "" || cs[3].Rank != -3 {
		t.Fatalf("certificates = %+v", cs)
	}
	q, _ := e.cs.QuotaOf(ctx, beijing, "110", e.year())
	if q.DanUsed != 2 || q.KyuUsed != 2 {
		t.Fatalf("quota = %+v, want 2 dan and 2 kyu used (3k is not printed)", q)
	}
	// the certified rank follows certificates only: an edit changes the declared rank, never above 3 dan
	in := registry.PlayerInput{Name: p.Name, Gender: p.Gender, BirthDate: "2015-03-01", IDKind: p.IDKind, IDNumber: p.IDNumber, ProvinceCode: "11", Rank: "5d"}
	if _, err := e.reg.UpdatePlayer(ctx, beijing, "", p.ID, in); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("declaring 5d: %v, want failed precondition", err)
	}
	in.Rank = "1k"
	if got, err := e.reg.UpdatePlayer(ctx, beijing, "", p.ID, in); err != nil || got.Rank != 3 || got.DeclaredRank != -1 {
		t.Fatalf("declaring 1k: certified %s, declared %s, %v; want certified 3d kept", got.Rank, got.DeclaredRank, err)
	}
}

func TestWhoMayApplyAndApprove(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 10)
	p := fixture.Player(t, e.reg, "110", "冠军", "3d", "1990-01-01", 1)
	young := fixture.Player(t, e.reg, "110", "少年", "2d", fixture.BirthDate(e.start, 16), 2)
	shanghai := fixture.Agency("310")

	if _, err := e.cs.Apply(ctx, shanghai, "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)}); err == nil {
		t.Fatal("Shanghai applied for a Beijing player")
	}
	if _, err := e.cs.Apply(ctx, ledger.Actor{}, "", certs.ApplicationInput{PlayerID: p.ID}); !errors.Is(err, ledger.ErrUnauthenticated) {
		t.Fatalf("public apply: %v", err)
	}
	six := certs.ApplicationInput{PlayerID: p.ID, TargetRank: "6d", Basis: "national_result", EventID: fixture.National(t, e.ts, e.cs, false, p.ID)}
	if _, err := e.cs.Apply(ctx, beijing, "", six); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("agency applying for 6d: %v, want permission denied", err)
	}
	app, err := e.cs.Apply(ctx, staff, "", six)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Approve(ctx, beijing, "", app.ID); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("agency approving 6d: %v, want permission denied", err)
	}
	if _, err := e.cs.Apply(ctx, staff, "", six); !errors.Is(err, ledger.ErrAlreadyExists) {
		t.Fatalf("second open application: %v, want already exists", err)
	}
	app, err = e.cs.Approve(ctx, staff, "", app.ID)
	if err != nil {
		t.Fatal(err)
	}
	e.endNotice(t, app.NoticeID)
	issued, err := e.cs.Sweep(ctx)
	if err != nil || len(issued) != 1 {
		t.Fatalf("sweep: %v %v", issued, err)
	}
	if c, want := issued[0], e.number("000", 1); c.Number != want || c.IssuingPrefix != "000" || c.AthleteGrade != certs.FirstClass {
		t.Fatalf("6d certificate = %+v, want %s of the association, first class", c, want)
	}

	// appraisal: the appraiser must be approved, the player 18
	ap, err := e.cs.RecommendAppraiser(ctx, beijing, "", certs.AppraiserInput{Name: "聂老师", Qualification: "省冠军"})
	if err != nil {
		t.Fatal(err)
	}
	adult := fixture.Player(t, e.reg, "110", "成人", "2d", "1980-01-01", 3)
	sessionOf := func(p registry.Player) certs.AppraisalInput {
		return certs.AppraisalInput{AppraiserID: ap.ID, PlayerID: p.ID, HeldOn: e.clock.Now().In(ledger.ChinaTime).Format(time.DateOnly),
			Verdict: "3d", Games: fixture.AppraisalGames()}
	}
	if _, err := e.cs.RecordAppraisal(ctx, beijing, "", sessionOf(adult)); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("an appraisal by an unapproved appraiser: %v, want failed precondition", err)
	}
	if _, err := e.cs.SetAppraiserStatus(ctx, beijing, "", ap.ID, certs.AppraiserApproved); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("agency approving its appraiser: %v", err)
	}
	if _, err := e.cs.SetAppraiserStatus(ctx, staff, "", ap.ID, certs.AppraiserApproved); err != nil {
		t.Fatal(err)
	}
	youngSession, err := e.cs.RecordAppraisal(ctx, beijing, "", sessionOf(young))
	if err != nil {
		t.Fatal(err)
	}
	var fe *ledger.Error
	if _, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: young.ID, TargetRank: "3d", Basis: "appraisal",
		AppraisalSessionID: youngSession.ID}); !errors.As(err, &fe) || !strings.Contains(err.Error(), "at least 18") {
		t.Fatalf("appraisal of a 16-year-old: %v", err)
	}
	adultSession, err := e.cs.RecordAppraisal(ctx, beijing, "", sessionOf(adult))
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: adult.ID, TargetRank: "3d", Basis: "appraisal", AppraisalSessionID: adultSession.ID})
	if err != nil {
		t.Fatal(err)
	}
	a, err = e.cs.Approve(ctx, beijing, "", a.ID)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := e.cs.Verify(ctx, a.CertificateNumber)
	if v.Certificate.Basis != certs.Appraisal || v.Certificate.AthleteGrade != certs.NoGrade {
		t.Fatalf("appraised certificate = %+v, want no athlete grade", v.Certificate)
	}
}

func TestOrderWindowAndQuota(t *testing.T) {
	ctx := context.Background()
	e := newEnvAt(t, certs.Config{}, time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)) // 16:00 in Beijing
	order := certs.OrderInput{DanCount: 2, KyuCount: 5}
	_, err := e.cs.PlaceOrder(ctx, beijing, "", order)
	if !errors.Is(err, ledger.ErrPrecondition) || !strings.Contains(err.Error(), "2026-12-01") {
		t.Fatalf("order on 30 November: %v, want failed precondition naming 2026-12-01", err)
	}
	e.clock.Set(time.Date(2026, 11, 30, 16, 0, 0, 0, time.UTC)) // 1 December, 00:00 in Beijing
	o, err := e.cs.PlaceOrder(ctx, beijing, "o1", order)
	if err != nil {
		t.Fatalf("order on 1 December: %v", err)
	}
	if o.Year != 2027 || o.Status != certs.OrderRequested {
		t.Fatalf("order = %+v, want 2027 requested", o)
	}
	order.DanCount = 3
	if o, err = e.cs.PlaceOrder(ctx, beijing, "o2", order); err != nil || o.DanCount != 3 {
		t.Fatalf("amend: %+v %v", o, err)
	}
	if _, err := e.cs.DecideOrder(ctx, beijing, "", certs.OrderDecision{AgencyPrefix: "110", Year: 2027, Grant: true}); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("agency granting: %v", err)
	}
	if o, err = e.cs.DecideOrder(ctx, staff, "", certs.OrderDecision{AgencyPrefix: "110", Year: 2027, Grant: true, DanCount: 2, Note: "年审通过"}); err != nil || o.DanCount != 2 || o.KyuCount != 5 {
		t.Fatalf("grant: %+v %v", o, err)
	}
	if _, err := e.cs.PlaceOrder(ctx, beijing, "o3", order); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("order after grant: %v", err)
	}

	// in 2027 the agency issues two dan certificates, not three
	e.clock.Set(time.Date(2027, 3, 1, 2, 0, 0, 0, time.UTC))
	var last error
	for i := range 3 {
		p := fixture.Player(t, e.reg, "110", "棋手", "", "1995-01-01", 10+i)
		_, last = e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "1d").ID)
		if i < 2 && last != nil {
			t.Fatal(last)
		}
	}
	if !errors.Is(last, ledger.ErrPrecondition) || !strings.Contains(last.Error(), "used all 2 dan") {
		t.Fatalf("third certificate: %v, want stock used up", last)
	}
	// Shanghai has no granted stock at all
	sp := fixture.Player(t, e.reg, "310", "沪", "", "1995-01-01", 1)
	if _, err := e.cs.Approve(ctx, fixture.Agency("310"), "", e.apply(t, fixture.Agency("310"), sp, "1d").ID); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("no stock: %v", err)
	}
}

// gateFunc is a GrantGate made of a function, standing in for the audit.
type gateFunc func(agency string, year int) error

func (f gateFunc) MayGrant(_ context.Context, _ *ledger.Tx, agency string, year, _, _ int) error {
	return f(agency, year)
}

func TestGrantGate(t *testing.T) {
	e := newEnv(t, certs.Config{}, certs.WithGrantGate(gateFunc(func(agency string, year int) error {
		return errors.New("audit of " + agency + " not passed")
	})))
	ctx := context.Background()
	if _, err := e.cs.PlaceOrder(ctx, staff, "", certs.OrderInput{AgencyPrefix: "110", Year: 2027, DanCount: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.DecideOrder(ctx, staff, "", certs.OrderDecision{AgencyPrefix: "110", Year: 2027, Grant: true}); err == nil || !strings.Contains(err.Error(), "audit of 110") {
		t.Fatalf("grant through a closed gate: %v", err)
	}
}

func TestYearBoundaryInBeijing(t *testing.T) {
	ctx := context.Background()
	e := newEnvAt(t, certs.Config{}, time.Date(2026, 12, 31, 8, 0, 0, 0, time.UTC))
	fixture.Stock(t, e.cs, "110", 2026, 10, 0)
	fixture.Stock(t, e.cs, "110", 2027, 10, 0)
	p := fixture.Player(t, e.reg, "110", "跨年", "", "1990-01-01", 1)
	e.clock.Set(time.Date(2026, 12, 31, 15, 59, 0, 0, time.UTC))
	a, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "1d").ID)
	if err != nil || a.CertificateNumber != "110260001" {
		t.Fatalf("at 23:59 on 31 December: %q %v", a.CertificateNumber, err)
	}
	e.clock.Set(time.Date(2026, 12, 31, 16, 30, 0, 0, time.UTC))
	a, err = e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "2d").ID)
	if err != nil || a.CertificateNumber != "110270001" {
		t.Fatalf("at 16:30 UTC on 31 December: %q %v, want year 27", a.CertificateNumber, err)
	}
	v, _ := e.cs.Verify(ctx, a.CertificateNumber)
	if v.Certificate.IssueDate.Format(time.DateOnly) != "2027-01-01" {
		t.Fatalf("issue date = %s", v.Certificate.IssueDate)
	}
}

func TestSeriesExhausted(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	p := fixture.Player(t, e.reg, "110", "满", "3d", "1990-01-01", 1)
	q := fixture.Player(t, e.reg, "110", "溢", "3d", "1990-01-01", 2)
	var notices []int64
	for _, in := range []certs.ApplicationInput{
		{PlayerID: p.ID, TargetRank: "6d", Basis: "national_result", EventID: fixture.National(t, e.ts, e.cs, false, p.ID)},
		{PlayerID: q.ID, TargetRank: "7d", Basis: "national_championship", EventID: fixture.National(t, e.ts, e.cs, true, q.ID)},
	} {
		app, err := e.cs.Apply(ctx, staff, "", in)
		if err != nil {
			t.Fatal(err)
		}
		if app, err = e.cs.Approve(ctx, staff, "", app.ID); err != nil {
			t.Fatal(err)
		}
		notices = append(notices, app.NoticeID)
	}
	e.endNotice(t, notices[1])
	// the series of the year both issue in has 9,998 numbers used
	if _, err := e.pool.Exec(ctx, `INSERT INTO certificate_series VALUES ('000', $1, 'dan', 9998)`, certs.Year(e.clock.Now())); err != nil {
		t.Fatal(err)
	}
	issued, err := e.cs.Sweep(ctx)
	if want := e.number("000", 9999); len(issued) != 1 || issued[0].Number != want {
		t.Fatalf("9,999th: %+v, want %s", issued, want)
	}
	if !errors.Is(err, ledger.ErrExhausted) || !strings.Contains(err.Error(), "is full") {
		t.Fatalf("10,000th: %v, want resource exhausted", err)
	}
	var last int
	_ = e.pool.QueryRow(ctx, `SELECT last_serial FROM certificate_series WHERE prefix = '000'`).Scan(&last)
	if last != 9999 {
		t.Fatalf("series counter = %d after the refused issue, want 9999", last)
	}
}

func TestRevokeReissueAndVerify(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 0)
	p := fixture.Player(t, e.reg, "110", "复", "1d", "1990-01-01", 1)
	// the series restarts at 0001 should the hour cross New Year in Beijing
	serials := map[int]int{}
	next := func() string {
		yy := certs.Year(e.clock.Now())
		serials[yy]++
		return fmt.Sprintf("110%02d%04d", yy, serials[yy])
	}
	want2 := next()
	a2, _ := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "2d").ID)
	e.clock.Advance(time.Hour)
	want3 := next()
	a3, _ := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "3d").ID)
	if a2.CertificateNumber != want2 || a3.CertificateNumber != want3 {
		t.Fatalf("numbers %q %q, want %s %s", a2.CertificateNumber, a3.CertificateNumber, want2, want3)
	}
	// reissuing the 2d keeps the player at 3d: newest means first granted
	wantRe := next()
	re, err := e.cs.Reissue(ctx, beijing, "", want2, "遗失")
	if err != nil || re.Number != wantRe || re.Replaces != want2 {
		t.Fatalf("reissue: %+v %v, want %s replacing %s", re, err, wantRe, want2)
	}
	if got, _ := e.reg.GetPlayer(ctx, p.ID); got.Rank != 3 {
		t.Fatalf("rank after reissue = %s", got.Rank)
	}
	if _, err := e.cs.Revoke(ctx, beijing, "", want3, "x"); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("agency revoking: %v", err)
	}
	if _, err := e.cs.Revoke(ctx, staff, "", want3, ""); err == nil {
		t.Fatal("revoked without a reason")
	}
	if _, err := e.cs.Revoke(ctx, staff, "", want3, "成绩作假"); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.reg.GetPlayer(ctx, p.ID); got.Rank != 2 {
		t.Fatalf("rank after revoking 3d = %s, want 2d", got.Rank)
	}
	if _, err := e.cs.Revoke(ctx, staff, "", wantRe, "成绩作假"); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.reg.GetPlayer(ctx, p.ID); got.Rank != registry.NoRank || got.DeclaredRank != 1 {
		t.Fatalf("with no valid certificate: certified %q, declared %s; want none certified, the declared 1d kept", got.Rank, got.DeclaredRank)
	}
	for _, tt := range []struct {
		number string
		found  bool
		status certs.CertStatus
		extra  string
	}{
		{want2, true, certs.CertReissued, wantRe},
		{want3, true, certs.CertRevoked, "成绩作假"},
		{e.number("110", 99), false, "", ""},
	} {
		v, err := e.cs.Verify(ctx, tt.number)
		if err != nil || v.Found != tt.found || v.Certificate.Status != tt.status ||
			!strings.Contains(v.Certificate.ReplacedBy+v.Certificate.StatusReason, tt.extra) {
			t.Errorf("Verify(%s) = %+v, %v", tt.number, v, err)
		}
	}
	var fe *ledger.Error
	if _, err := e.cs.Verify(ctx, "12345"); !errors.As(err, &fe) {
		t.Fatalf("malformed number: %v, want a field error", err)
	}
}

func TestObjectionLimitsAndIdempotency(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{ObjectionsPerAddress: 2, ObjectionsPerNetwork: 3})
	e.stock(t, "110", 10, 0)
	p := fixture.Player(t, e.reg, "110", "公", "3d", "1990-01-01", 1)
	app, _ := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "4d").ID)
	n := 0
	obj := func(key, addr string) (certs.Objection, error) {
		n++ // distinct objections: identical ones are folded
		return e.cs.LodgeObjection(ctx, key, certs.ObjectionInput{NoticeID: app.NoticeID, Name: "某", Contact: "c", Reason: fmt.Sprint("r", n), Address: addr})
	}
	first, err := obj("same", "1.1.1.1")
	if err != nil {
		t.Fatal(err)
	}
	n-- // the retry sends the same request
	again, err := obj("same", "1.1.1.1")
	if err != nil || again.ID != first.ID {
		t.Fatalf("retry with the same key: %+v %v, want objection %d", again, err, first.ID)
	}
	if _, err := obj("same", "2.2.2.2"); err != nil {
		t.Fatalf("same key from another address is another objection: %v", err)
	}
	if _, err := obj("", "1.1.1.1"); err != nil {
		t.Fatal(err)
	}
	if _, err := obj("", "1.1.1.1"); !errors.Is(err, ledger.ErrExhausted) {
		t.Fatalf("third from one address: %v, want resource exhausted", err)
	}
	if _, err := obj("", "1.1.1.9"); err != nil {
		t.Fatalf("another address of the network: %v", err)
	}
	if _, err := obj("", "1.1.1.10"); !errors.Is(err, ledger.ErrExhausted) {
		t.Fatalf("fourth from one /24: %v, want resource exhausted", err)
	}
	if _, err := obj("", "3.3.3.3"); err != nil {
		t.Fatalf("another network is heard whatever the notice's total: %v", err)
	}
	if _, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: app.NoticeID, Name: "", Contact: "c", Reason: "r"}); err == nil {
		t.Fatal("objection without a name accepted")
	}
	e.clock.Set(e.start.Add(8 * 24 * time.Hour))
	if _, err := obj("", "4.4.4.4"); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("objection after the period: %v, want failed precondition", err)
	}
}

func TestRosterCSV(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 10)
	p := fixture.Player(t, e.reg, "110", "名册", "", "1990-01-01", 1)
	var numbers []string
	for _, r := range []string{"1k", "1d", "2d"} {
		a, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, r).ID)
		if err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, a.CertificateNumber)
	}
	if _, err := e.cs.Revoke(ctx, staff, "", numbers[2], "误发"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := e.cs.WriteRoster(ctx, beijing, "", &buf)
	if err != nil || n != 1 {
		t.Fatalf("roster rows = %d, %v; want the one valid dan certificate", n, err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte("\xef\xbb\xbf")) {
		t.Fatal("roster has no UTF-8 BOM")
	}
	recs, err := csv.NewReader(bytes.NewReader(buf.Bytes()[3:])).ReadAll()
	if err != nil || len(recs) != 2 {
		t.Fatalf("csv: %v %v", recs, err)
	}
	if row := recs[1]; row[0] != numbers[1] || row[1] != "名册" || row[5] != p.IDNumber || row[6] != "1段" {
		t.Fatalf("row = %q", row)
	}
	if _, err := e.cs.WriteRoster(ctx, beijing, "310", &buf); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("another province's roster: %v", err)
	}
}

// TestRosterCSVWritesNoFormulas: a name an agency typed that a spreadsheet
// would run as a formula is written as text.
func TestRosterCSVWritesNoFormulas(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 10)
	for i, name := range []string{`=HYPERLINK("http://evil.example","点击")`, "+1", "-1", "@SUM(A1)"} {
		p := fixture.Player(t, e.reg, "110", name, "", "1990-01-01", 1+i)
		if _, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "1d").ID); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := e.cs.WriteRoster(ctx, beijing, "", &buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(buf.Bytes()[3:])).ReadAll()
	if err != nil || len(recs) != 5 {
		t.Fatalf("csv: %v %v", recs, err)
	}
	for _, rec := range recs[1:] {
		for _, cell := range rec {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q would be read as a formula", cell)
			}
		}
		if !strings.HasPrefix(rec[1], "'") {
			t.Errorf("name %q is not quoted for spreadsheets", rec[1])
		}
	}
}

// TestSweepersInParallel stands in for several server processes sweeping at
// once: every due notice is issued exactly once.
func TestSweepersInParallel(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 100, 0)
	const notices = 30
	var last int64
	for i := range notices {
		p := fixture.Player(t, e.reg, "110", "并行", "3d", "1990-01-01", i)
		app, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "4d").ID)
		if err != nil {
			t.Fatal(err)
		}
		last = app.NoticeID
	}
	e.endNotice(t, last)
	results := make(chan []certs.Certificate, 4)
	for range 4 {
		go func() {
			issued, err := e.cs.Sweep(ctx)
			if err != nil {
				t.Error(err)
			}
			results <- issued
		}()
	}
	seen := map[string]bool{}
	for range 4 {
		for _, c := range <-results {
			if seen[c.Number] {
				t.Fatalf("%s issued twice", c.Number)
			}
			seen[c.Number] = true
		}
	}
	if len(seen) != notices {
		t.Fatalf("%d certificates issued, want %d", len(seen), notices)
	}
	page, _ := e.cs.ListNotices(ctx, certs.NoticeQuery{State: "current"})
	if len(page.Notices) != 0 {
		t.Fatalf("%d notices still open", len(page.Notices))
	}
}

// TestRosterSubmissionsAndWorkbook: an agency reports its roster twice; the
// second report says what changed; staff see both with their dates; the
// workbook keeps identity numbers as text.
func TestRosterSubmissionsAndWorkbook(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 10, 0)
	p := fixture.Player(t, e.reg, "110", "名册甲", "", "1990-01-01", 1)
	q := fixture.Player(t, e.reg, "110", "名册乙", "", "1991-02-02", 2)
	first, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, p, "1d").ID)
	if err != nil {
		t.Fatal(err)
	}
	sub1, err := e.cs.SubmitRoster(ctx, beijing, "s1", "")
	if err != nil || sub1.Rows != 1 || !sub1.First || len(sub1.Added) != 1 || sub1.Added[0] != first.CertificateNumber {
		t.Fatalf("first submission: %+v, %v", sub1, err)
	}
	if again, err := e.cs.SubmitRoster(ctx, beijing, "s1", ""); err != nil || again.ID != sub1.ID {
		t.Fatalf("retried submission: %+v, %v; want the same one", again, err)
	}
	e.clock.Advance(time.Hour)
	second, err := e.cs.Approve(ctx, beijing, "", e.apply(t, beijing, q, "1d").ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Revoke(ctx, staff, "", first.CertificateNumber, "误发"); err != nil {
		t.Fatal(err)
	}
	sub2, err := e.cs.SubmitRoster(ctx, beijing, "s2", "")
	if err != nil || sub2.First || sub2.Rows != 1 || len(sub2.Added) != 1 || sub2.Added[0] != second.CertificateNumber ||
		len(sub2.Removed) != 1 || sub2.Removed[0] != first.CertificateNumber {
		t.Fatalf("second submission: %+v, %v", sub2, err)
	}
	if _, err := e.cs.SubmitRoster(ctx, fixture.Agency("310"), "", "110"); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("Shanghai submitting Beijing's roster: %v", err)
	}
	// the hour between them may cross New Year in Beijing: each is listed under its own year
	subs, err := e.cs.RosterSubmissions(ctx, staff, sub2.Year)
	if sub1.Year != sub2.Year {
		earlier, err2 := e.cs.RosterSubmissions(ctx, staff, sub1.Year)
		subs, err = append(subs, earlier...), errors.Join(err, err2)
	}
	if err != nil || len(subs) != 2 || subs[0].ID != sub2.ID || !subs[0].SubmittedAt.Equal(e.clock.Now()) || len(subs[0].Removed) != 1 ||
		subs[1].ID != sub1.ID || !subs[1].First {
		t.Fatalf("staff's list: %+v, %v", subs, err)
	}
	head, err := ledger.TreeHead(ctx, e.pool)
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range []certs.RosterSubmission{sub1, sub2} {
		evs, _ := ledger.EventsFor(ctx, e.pool, "roster", fmt.Sprintf("110/%d", sub.Year))
		if len(evs) == 0 || strings.Contains(string(evs[0].Payload), p.IDNumber) {
			t.Fatalf("roster events: %+v (each submission logged; identity numbers stay out of the log)", evs)
		}
		// the checkpoint it was made at: the log just before its own event, a prefix of today's tree
		var logged *ledger.Event
		for i := range evs {
			if strings.Contains(string(evs[i].Payload), fmt.Sprintf(`"submission":%d`, sub.ID)) {
				logged = &evs[i]
			}
		}
		if logged == nil || sub.LogSize != logged.ID-1 || len(sub.LogHash) != len(tlog.Hash{}) {
			t.Fatalf("submission %d at tree size %d (hash %x), its event %+v", sub.ID, sub.LogSize, sub.LogHash, logged)
		}
		proof, err := ledger.ProveConsistency(ctx, e.pool, sub.LogSize, head.N)
		if err != nil {
			t.Fatal(err)
		}
		if err := tlog.CheckTree(proof, head.N, head.Hash, sub.LogSize, tlog.Hash(sub.LogHash)); err != nil {
			t.Fatalf("submission %d's tree hash is not a prefix of the log: %v", sub.ID, err)
		}
	}
	if listed := subs[0]; listed.LogSize != sub2.LogSize || !bytes.Equal(listed.LogHash, sub2.LogHash) {
		t.Fatalf("listed submission's tree: %d %x, want %d %x", listed.LogSize, listed.LogHash, sub2.LogSize, sub2.LogHash)
	}

	var buf bytes.Buffer
	if n, err := e.cs.WriteRosterXLSX(ctx, beijing, "", &buf); err != nil || n != 1 {
		t.Fatalf("workbook: %d rows, %v", n, err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows("名册")
	if err != nil || len(rows) != 2 {
		t.Fatalf("workbook rows: %v, %v", rows, err)
	}
	if rows[1][5] != q.IDNumber || rows[1][2] != "男" || rows[1][4] != "居民身份证" || rows[1][8] != "中国围棋协会" {
		t.Fatalf("workbook row: %q", rows[1])
	}
	if typ, err := f.GetCellType("名册", "F2"); err != nil || (typ != excelize.CellTypeSharedString && typ != excelize.CellTypeInlineString) {
		t.Fatalf("identity number cell type: %v, %v; want a text cell", typ, err)
	}
}
