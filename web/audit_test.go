package web_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// auditEnv is a portal with the audit as its grant gate, over Beijing (110),
// whose dan-grade event had a result changed eight times after the next
// round was paired, and Shanghai (310), which did nothing.
type auditEnv struct {
	*portalEnv
	au         *audit.Service
	year       int // the audit year of the clock's day
	tournament int64
}

// auditYearOf is the audit year of t's day (December belongs to the next).
func auditYearOf(t time.Time) int {
	bj := t.In(ledger.ChinaTime)
	if bj.Month() == 12 {
		return bj.Year() + 1
	}
	return bj.Year()
}

// openYear opens the audit year of the clock's day as staff would, once it
// has ended, and sets the clock back to the day (the tests' rulings,
// stock and certificates are today's).
func (e *auditEnv) openYear(t *testing.T) {
	t.Helper()
	defer e.atYearEnd()()
	if _, err := e.au.OpenYear(context.Background(), fixture.Staff, "", e.year); err != nil {
		t.Fatal(err)
	}
}

// atYearEnd sets the clock to the hour after the audit year's end and
// returns what sets it back.
func (e *auditEnv) atYearEnd() func() {
	today := e.clock.Now()
	e.clock.Set(audit.Config{}.Period(e.year).End.Add(time.Hour))
	return func() { e.clock.Set(today) }
}

func newAuditEnv(t *testing.T) *auditEnv {
	t.Helper()
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clock := fixture.TodayClock(t)
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	// the agencies exist before the audit year of the clock's day begins
	today := clock.Now()
	clock.Set(audit.Config{}.Period(auditYearOf(today)).Start.Add(-24 * time.Hour))
	fixture.Agencies(t, reg, "110", "310")
	clock.Set(today)
	au, err := audit.New(store, reg, audit.Config{})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithGrantGate(au), certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	h, err := web.New(ctx, store, reg, cs, ts, slog.New(slog.DiscardHandler), web.Options{Audit: au})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	e := &auditEnv{portalEnv: &portalEnv{srv: srv, reg: reg, cs: cs, ts: ts, clock: clock, store: store}, au: au}
	bj := clock.Now().In(ledger.ChinaTime)
	e.year = auditYearOf(clock.Now())
	beijing := fixture.Agency("110")
	day := bj.Format("2006-01-02")
	ev, err := ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "北京市段位赛", Start: day, End: day, Level: "province",
		System: "round_robin", DanGrade: true, Groups: []tournaments.GroupInput{{Name: "A", TargetRank: "1d", MinWins: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	e.tournament = ev.ID
	for i := range 4 {
		p := fixture.Player(t, reg, "110", fmt.Sprintf("选手%d", i), "1k", "1990-01-01", i)
		if _, err := ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Group: "A"}); err != nil {
			t.Fatal(err)
		}
	}
	for r := 1; r <= 2; r++ {
		ri, err := ts.PairNextRound(ctx, beijing, "", ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range ri.Games {
			if _, err := ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: r, Board: g.Board, Result: "black"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 8 {
		res := []string{"white", "black"}[i%2]
		if _, err := ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: res}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cs.PlaceOrder(ctx, fixture.Staff, "", certs.OrderInput{AgencyPrefix: "110", Year: e.year + 1, DanCount: 20, KyuCount: 20}); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestAuditInChromium: staff open the year's audits and see the national
// table, open Beijing's audit, follow its red late-changes indicator to the
// games it counts; the agency answers the finding; staff read the reply,
// confirm the findings and rule: a fail refuses the next year's grant; the
// agency appeals, staff change it into a pass, which lets it through.
func TestAuditInChromium(t *testing.T) {
	e := newAuditEnv(t)
	agencyTok, staffTok := e.tokens(t)
	ctx := browser(t)
	u := e.srv.URL
	if err := chromedp.Do(ctx, chromedp.Navigate(u+"/")); err != nil {
		t.Fatal(err)
	}
	login := func(tok string) {
		run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
			chromedp.SendKeys(css(`[data-testid="login-token"]`), tok),
			chromedp.Click(css(`[data-testid="login-submit"]`)),
			chromedp.WaitVisible(css(`[data-testid="apply-form"]`)))
	}
	year := strconv.Itoa(e.year)
	login(staffTok)
	// the running year: only a preview, labelled; it opens once it has ended
	run(t, ctx, "preview the year", chromedp.Navigate(u+"/workspace/audit?year="+year),
		chromedp.Click(css(`[data-testid="audit-preview"]`)), chromedp.WaitVisible(css(`[data-testid="audit-preview-banner"]`)))
	if got := text(t, ctx, `[data-testid="ok"]`); got != "预览已生成。" {
		t.Fatalf("after the preview: %q", got)
	}
	e.openYear(t)
	run(t, ctx, "the opened year", chromedp.Navigate(u+"/workspace/audit?year="+year), chromedp.WaitVisible(css(`[data-testid="audit-table"]`)))
	if got := text(t, ctx, `[data-testid="cell-110-late_result_changes"]`); got != "8 · 红" {
		t.Fatalf("Beijing's late changes in the national table: %q", got)
	}
	if got := text(t, ctx, `[data-testid="cell-310-inactive_months"]`); got != "12 · 红" {
		t.Fatalf("Shanghai's inactive months: %q", got)
	}
	run(t, ctx, "open Beijing", chromedp.Click(css(`[data-testid="audit-link-110"]`)), chromedp.WaitVisible(css(`[data-testid="indicators"]`)))
	run(t, ctx, "drill down", chromedp.Click(css(`[data-testid="drill-late_result_changes"]`)), chromedp.WaitVisible(css(`[data-testid="items"]`)))
	items, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(`[data-testid="item"]`)))
	if err != nil || len(items) != 8 {
		t.Fatalf("%d games listed, %v", len(items), err)
	}
	run(t, ctx, "follow a game", chromedp.Click(css(`[data-testid="item-link"]`)), chromedp.WaitVisible(css(`[data-testid="tournament-title"]`)))
	if got := text(t, ctx, `[data-testid="tournament-title"]`); !strings.Contains(got, "北京市段位赛") {
		t.Fatalf("the game's event page: %q", got)
	}
	run(t, ctx, "sign out", chromedp.Navigate(u+"/workspace"), chromedp.Click(css(`[data-testid="logout"]`)), chromedp.WaitVisible(css(`[data-testid="nav-login"]`)))

	// the agency answers its finding
	login(agencyTok)
	page := u + "/workspace/audit/110/" + year
	run(t, ctx, "reply", chromedp.Navigate(page),
		chromedp.SendKeys(css(`[data-testid="finding-reply-text"]`), "改动经裁判长确认，记录附后。"),
		chromedp.Click(css(`[data-testid="finding-reply-submit"]`)), chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	run(t, ctx, "sign out", chromedp.Click(css(`[data-testid="logout"]`)), chromedp.WaitVisible(css(`[data-testid="nav-login"]`)))

	login(staffTok)
	run(t, ctx, "open Beijing's audit", chromedp.Navigate(page), chromedp.WaitVisible(css(`[data-testid="finding-reply"]`)))
	if got := text(t, ctx, `[data-testid="finding-reply"]`); !strings.Contains(got, "改动经裁判长确认") {
		t.Fatalf("staff read the reply: %q", got)
	}
	// each decision from a fresh page, so that the message waited for is the new one
	for range 10 {
		run(t, ctx, "reload", chromedp.Navigate(page), chromedp.WaitVisible(css(`[data-testid="indicators"]`)))
		html, err := chromedp.Run(ctx, chromedp.OuterHTML(css(`main`)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(html, `data-testid="finding-confirm"`) {
			break
		}
		run(t, ctx, "confirm", chromedp.Click(css(`[data-testid="finding-confirm"]`)), chromedp.WaitVisible(css(`[data-testid="ok"], [data-testid="form-error"]`)))
		if got := text(t, ctx, `main`); !strings.Contains(got, "问题已确认。") {
			t.Fatalf("after confirming: %s", got)
		}
	}
	grant := func() {
		run(t, ctx, "grant", chromedp.Navigate(u+"/workspace"), chromedp.Click(css(`[data-testid="grant"]`)),
			chromedp.WaitVisible(css(`[data-testid="form-error"], [data-testid="ok"]`)))
	}
	run(t, ctx, "rule fail", chromedp.Navigate(page), chromedp.SetValue(css(`[data-testid="rule-outcome"]`), "fail"),
		chromedp.Click(css(`[data-testid="rule-submit"]`)), chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="ruling"]`); !strings.HasPrefix(got, "不通过") {
		t.Fatalf("ruling: %q", got)
	}
	grant()
	if got := text(t, ctx, `[data-testid="form-error"]`); !strings.Contains(got, "代理机构 110 尚未通过 "+year+" 年度年审") {
		t.Fatalf("grant after a fail: %q", got)
	}
	// one ruling: Beijing appeals (复议) on its audit page, staff change the fail into a pass
	run(t, ctx, "sign out", chromedp.Navigate(u+"/workspace"), chromedp.Click(css(`[data-testid="logout"]`)), chromedp.WaitVisible(css(`[data-testid="nav-login"]`)))
	login(agencyTok)
	run(t, ctx, "appeal", chromedp.Navigate(page), chromedp.SendKeys(css(`[data-testid="appeal-reason"]`), "改动均经裁判长签字确认。"),
		chromedp.Click(css(`[data-testid="appeal-submit"]`)), chromedp.WaitVisible(css(`[data-testid="appeal-status"]`)))
	if got := text(t, ctx, `[data-testid="appeal-status"]`); got != "复议待决定" {
		t.Fatalf("after appealing: %q", got)
	}
	run(t, ctx, "sign out", chromedp.Click(css(`[data-testid="logout"]`)), chromedp.WaitVisible(css(`[data-testid="nav-login"]`)))
	login(staffTok)
	run(t, ctx, "decide the appeal", chromedp.Navigate(page), chromedp.Click(css(`[data-testid="appeal-change"]`)),
		chromedp.SetValue(css(`[data-testid="rule-outcome"]`), "pass"),
		chromedp.SendKeys(css(`[data-testid="appeal-decision-note"]`), "签字记录属实"),
		chromedp.Click(css(`[data-testid="appeal-decide"]`)), chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="ruling"]`); !strings.HasPrefix(got, "通过") {
		t.Fatalf("ruling after the appeal: %q", got)
	}
	grant()
	if got := text(t, ctx, `[data-testid="order-status"]`); got != "已批准" {
		t.Fatalf("order after a pass: %q", got)
	}
}

// TestAuditPagesRefuse: the public is sent to sign in, another agency is refused
// Beijing's audit, a malformed path is not found.
func TestAuditPagesRefuse(t *testing.T) {
	e := newAuditEnv(t)
	e.openYear(t)
	system := ledger.Actor{Kind: ledger.SystemActor, Name: "test"}
	sh, _, err := e.reg.CreateToken(context.Background(), system, ledger.AgencyActor, "310", "")
	if err != nil {
		t.Fatal(err)
	}
	anon := client(t)
	if code, _, h := fetch(t, anon, "GET", e.srv.URL+"/workspace/audit", nil); code != http.StatusSeeOther || h.Get("Location") != "/login" {
		t.Fatalf("public: %d %s", code, h.Get("Location"))
	}
	c := client(t)
	e.signIn(t, c, sh)
	year := strconv.Itoa(e.year)
	for _, tt := range []struct {
		path string
		code int
		want string
	}{
		{"/workspace/audit/110/" + year, http.StatusForbidden, "310"},
		{"/workspace/audit/110/" + year + "/late_result_changes", http.StatusForbidden, "310"},
		{"/workspace/audit/310/" + year, http.StatusOK, "inactive_months"},
		{"/workspace/audit/x1/" + year, http.StatusNotFound, ""},
		{"/workspace/audit/310/" + year + "/nope", http.StatusBadRequest, "nope"},
		{"/workspace/audit?year=" + year, http.StatusOK, "audit-row-310"},
		// a year out of range is the user's error, not the server's
		{"/workspace/audit?year=40000", http.StatusBadRequest, ""},
		{"/workspace/audit/310/40000", http.StatusBadRequest, ""},
		{"/workspace/audit/310/99999999999/report", http.StatusBadRequest, ""},
		{"/workspace/audit.csv?year=40000", http.StatusBadRequest, ""},
	} {
		code, body, _ := fetch(t, c, "GET", e.srv.URL+tt.path, nil)
		if code != tt.code || !strings.Contains(body, tt.want) {
			t.Errorf("GET %s = %d, want %d with %q", tt.path, code, tt.code, tt.want)
		}
		if tt.path == "/workspace/audit?year="+year && strings.Contains(body, "audit-row-110") {
			t.Errorf("Shanghai sees Beijing's row")
		}
	}
	// the agency's own scorecard as CSV: one row per indicator, nobody else's
	code, body, h := fetch(t, c, "GET", e.srv.URL+"/workspace/audit.csv?year="+year, nil)
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if code != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/csv") || len(lines) != 1+len(audit.Definitions()) ||
		strings.Contains(body, "\n110,") || !strings.Contains(body, "310,"+year+",") || !strings.Contains(body, ",inactive_months,") {
		t.Errorf("csv: %d %s\n%s", code, h.Get("Content-Type"), body)
	}
	_, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace/audit/310/"+year, nil)
	code, body, _ = fetch(t, c, "POST", e.srv.URL+"/workspace/audit/310/"+year+"/ruling", url.Values{"csrf": {csrfOf(t, page)}, "outcome": {"pass"}})
	if code != http.StatusForbidden || !strings.Contains(body, "form-error") {
		t.Errorf("an agency ruling on itself: %d", code)
	}
}

// TestAuditAndRatingPagesInOneLanguage extends the both-languages test to
// the audit's pages (staff and agency) and the public rating lists.
func TestAuditAndRatingPagesInOneLanguage(t *testing.T) {
	e := newAuditEnv(t)
	agencyTok, staffTok := e.tokens(t)
	e.openYear(t)
	superviseShanghai(t, e)
	agency, staff := client(t), client(t)
	e.signIn(t, agency, agencyTok)
	e.signIn(t, staff, staffTok)
	y := strconv.Itoa(e.year)
	visits := []struct {
		who  string
		c    *http.Client
		path string
	}{
		{"staff", staff, "/workspace/audit?year=" + y},
		{"staff", staff, "/workspace/audit/110/" + y},
		{"staff", staff, "/workspace/audit/110/" + y + "/late_result_changes"},
		{"agency", agency, "/workspace/audit?year=" + y},
		{"agency", agency, "/workspace/audit/110/" + y},
		{"staff", staff, "/workspace/audit?year=" + y + "&sort=late_result_changes&dir=desc"},
		{"staff", staff, "/workspace/audit/110/" + y + "/report"},
		{"staff", staff, "/workspace/audit/310/" + y + "/report"},
		{"agency", agency, "/workspace/audit/110/" + y + "/report"},
		{"public", client(t), "/agencies"},
		{"public", client(t), "/ratings"},
	}
	for _, lang := range []string{"zh-CN", "en"} {
		for _, v := range visits {
			sep := "?"
			if strings.Contains(v.path, "?") {
				sep = "&"
			}
			code, page, _ := fetch(t, v.c, "GET", e.srv.URL+v.path+sep+"lang="+lang, nil)
			if code >= 400 || !strings.Contains(page, `<html lang="`+lang+`"`) {
				t.Errorf("%s %s %s: %d, not a page in %s", lang, v.who, v.path, code, lang)
				continue
			}
			for _, s := range otherLanguage(interfaceText(t, page, lang), lang) {
				t.Errorf("%s page %s (%s) shows %q", lang, v.path, v.who, s)
			}
		}
	}
}
