package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/web"
)

// tokens creates an agency token for Beijing and a staff token.
func (e *portalEnv) tokens(t *testing.T) (agency, staff string) {
	t.Helper()
	ctx := context.Background()
	system := ledger.Actor{Kind: ledger.SystemActor, Name: "test"}
	agency, _, err := e.reg.CreateToken(ctx, system, ledger.AgencyActor, "110", "")
	if err != nil {
		t.Fatal(err)
	}
	staff, _, err = e.reg.CreateToken(ctx, system, ledger.StaffActor, "", "li")
	if err != nil {
		t.Fatal(err)
	}
	return agency, staff
}

// stockThisYear grants Beijing stock for the clock's year in Beijing and,
// should a notice period run into it, the next.
func (e *portalEnv) stockThisYear(t *testing.T) {
	now := e.clock.Now()
	fixture.StockThrough(t, e.cs, "110", now, now.Add(30*24*time.Hour), 10, 10)
}

// run performs browser actions with a deadline.
func run(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	step, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(step, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	step, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	s, err := chromedp.Run(step, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("read %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func css(sel string) chromedp.CSS { return chromedp.CSS(sel) }

// TestFourDanThroughThePortal drives the whole 4-dan story in Chromium: the
// agency signs in, applies and approves; the public objects on the notice;
// once the period is over staff dismiss the objection, which issues the
// certificate; anyone verifies the number.
func TestFourDanThroughThePortal(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	agencyTok, staffTok := e.tokens(t)
	p := fixture.Player(t, e.reg, "110", "李四", "3d", "1985-06-01", 1)
	earned := fixture.Earned(t, e.ts, "4d", p.ID)
	ctx := browser(t)
	u := e.srv.URL
	// the first action starts the browser and binds it to ctx, not to a step's deadline
	if err := chromedp.Do(ctx, chromedp.Navigate(u+"/")); err != nil {
		t.Fatal(err)
	}

	login := func(tok string) {
		run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
			chromedp.SendKeys(css(`[data-testid="login-token"]`), tok),
			chromedp.Click(css(`[data-testid="login-submit"]`)),
			chromedp.WaitVisible(css(`[data-testid="apply-form"]`)))
	}
	login(agencyTok)
	run(t, ctx, "find the player by name",
		chromedp.SendKeys(css(`[data-testid="apply-search-name"]`), "李四"),
		chromedp.Click(css(`[data-testid="apply-search"]`)),
		chromedp.WaitVisible(css(`[data-testid="apply-pick-`+strconv.FormatInt(p.ID, 10)+`"]`)))
	run(t, ctx, "apply",
		chromedp.Click(css(`[data-testid="apply-pick-`+strconv.FormatInt(p.ID, 10)+`"]`)),
		chromedp.SendKeys(css(`[data-testid="apply-rank"]`), "4d"),
		chromedp.SendKeys(css(`[data-testid="apply-event"]`), strconv.FormatInt(earned, 10)),
		chromedp.Click(css(`[data-testid="apply-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="ok"]`); got != "申请已提交。" {
		t.Fatalf("after applying: %q", got)
	}
	run(t, ctx, "approve", chromedp.Click(css(`[data-testid="approve"]`)), chromedp.WaitVisible(css(`[data-testid="application-notice"]`)))
	if got := text(t, ctx, `[data-testid="ok"]`); got != "已批准，现进入公示。" {
		t.Fatalf("after approving: %q", got)
	}
	run(t, ctx, "sign out", chromedp.Click(css(`[data-testid="logout"]`)), chromedp.WaitVisible(css(`[data-testid="nav-login"]`)))

	// the public finds the notice and objects
	run(t, ctx, "open the notice", chromedp.Navigate(u+"/notices?state=current"),
		chromedp.Click(css(`[data-testid="notice-link"]`)), chromedp.WaitVisible(css(`[data-testid="objection-link"]`)),
		chromedp.Click(css(`[data-testid="objection-link"]`)), chromedp.WaitVisible(css(`[data-testid="objection-form"]`)))
	if got := text(t, ctx, `[data-testid="notice-rank"]`); got != "4段" {
		t.Fatalf("notice rank %q", got)
	}
	run(t, ctx, "object",
		chromedp.SendKeys(css(`[data-testid="objection-name"]`), "赵六"),
		chromedp.SendKeys(css(`[data-testid="objection-contact"]`), "zhao@example.cn"),
		chromedp.SendKeys(css(`[data-testid="objection-reason"]`), "第三轮由他人代下"),
		chromedp.Click(css(`[data-testid="objection-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="objection-lodged"]`)))
	if got := text(t, ctx, `[data-testid="notice-objections"]`); got != "1 (待处理 1)" {
		t.Fatalf("objections on the notice: %q", got)
	}

	// the period runs out (the clock moves past its end); staff dismiss the objection
	e.clock.Advance(7*24*time.Hour + time.Minute)
	login(staffTok)
	run(t, ctx, "dismiss",
		chromedp.SendKeys(css(`[data-testid="ruling"]`), "经核查比赛记录，异议不成立"),
		chromedp.Click(css(`[data-testid="dismiss"]`)),
		chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="ok"]`); got != "裁定已记录。" {
		t.Fatalf("after ruling: %q", got)
	}
	year := fmt.Sprintf("%02d", certs.Year(e.clock.Now()))
	want := "110" + year + "0001"

	// anyone verifies the number
	run(t, ctx, "verify", chromedp.Navigate(u+"/verify"),
		chromedp.SendKeys(css(`[data-testid="verify-number"]`), want),
		chromedp.Click(css(`[data-testid="verify-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="verify-result"]`)))
	if got := text(t, ctx, `[data-testid="verify-holder"]`); got != "李四" {
		t.Fatalf("holder %q", got)
	}
	if got := text(t, ctx, `[data-testid="verify-rank"]`); got != "4段" {
		t.Fatalf("rank %q", got)
	}
	if got := text(t, ctx, `.verdict-head`); got != "证书有效" {
		t.Fatalf("verdict %q", got)
	}
}

// client is a browser without JavaScript: it keeps cookies and posts forms.
func client(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func fetch(t *testing.T, c *http.Client, method, u string, form url.Values) (int, string, http.Header) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, u, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// csrfOf reads the form token out of a page.
func csrfOf(t *testing.T, page string) string {
	t.Helper()
	i := strings.Index(page, `name="csrf" value="`)
	if i < 0 {
		t.Fatal("page has no form token")
	}
	rest := page[i+len(`name="csrf" value="`):]
	return rest[:strings.IndexByte(rest, '"')]
}

func TestCertificatePagesWithoutJavaScript(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	ctx := context.Background()
	agency := fixture.Agency("110")
	p := fixture.Player(t, e.reg, "110", "钱七", "3d", "1980-02-02", 7)
	app, err := e.cs.Apply(ctx, agency, "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "5d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "5d", p.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if app, err = e.cs.Approve(ctx, agency, "", app.ID); err != nil {
		t.Fatal(err)
	}
	c := client(t)
	u := e.srv.URL
	noticeURL := u + "/notices/" + strconv.FormatInt(app.NoticeID, 10)

	code, page, _ := fetch(t, c, "GET", noticeURL, nil)
	if code != 200 || !strings.Contains(page, "钱七") || strings.Contains(page, p.IDNumber) {
		t.Fatalf("notice page %d", code)
	}
	// a post without the form token (a forged cross-site form) is refused and stores nothing
	code, page, _ = fetch(t, c, "POST", noticeURL+"/objections", url.Values{"name": {"x"}, "contact": {"y"}, "reason": {"z"}})
	if code != http.StatusForbidden || !strings.Contains(page, "表单已过期") {
		t.Fatalf("objection without token: %d", code)
	}
	// a form error keeps what was typed
	form := url.Values{"csrf": {csrfOf(t, page)}, "idem": {"k1"}, "name": {"孙八"}, "contact": {""}, "reason": {"成绩有误"}}
	code, page, _ = fetch(t, c, "POST", noticeURL+"/objections", form)
	if code != http.StatusBadRequest || !strings.Contains(page, "contact") || !strings.Contains(page, "成绩有误") {
		t.Fatalf("objection without contact: %d", code)
	}
	form.Set("contact", "139")
	code, _, hdr := fetch(t, c, "POST", noticeURL+"/objections", form)
	if code != http.StatusSeeOther || !strings.HasSuffix(hdr.Get("Location"), "?lodged=1") {
		t.Fatalf("objection: %d %v", code, hdr)
	}
	// the same form sent again (a double click) is one objection
	fetch(t, c, "POST", noticeURL+"/objections", form)
	if n, _ := e.cs.GetNotice(ctx, app.NoticeID); n.Objections != 1 {
		t.Fatalf("objections after a double submit: %d", n.Objections)
	}

	for _, tt := range []struct {
		path string
		code int
		want string
	}{
		{"/verify?number=12345", 400, "段位证书编号为 9 位数字"},
		{"/verify?number=110990001", 200, `data-status="unknown"`},
		{"/notices?rank=3d", 400, "只有业余4段至7段需要公示"},
		{"/verify?number=12345&lang=en", 400, "a dan number has 9 digits"}, // the language is remembered from here on
		{"/notices?state=current&lang=en", 200, "On notice"},
		{"/workspace", 303, ""},
	} {
		code, page, _ := fetch(t, c, "GET", u+tt.path, nil)
		if code != tt.code || !strings.Contains(page, tt.want) {
			t.Errorf("GET %s = %d, want %d with %q", tt.path, code, tt.code, tt.want)
		}
	}
	// a public visitor cannot reach the roster
	if code, _, hdr := fetch(t, c, "GET", u+"/workspace/roster.csv", nil); code != http.StatusSeeOther || hdr.Get("Location") != "/login" {
		t.Fatalf("roster without sign-in: %d", code)
	}
}

func TestRosterDownload(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	agencyTok, _ := e.tokens(t)
	ctx := context.Background()
	p := fixture.Player(t, e.reg, "110", "周九", "", "1990-03-03", 9)
	a, _ := e.cs.Apply(ctx, fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
	a, err := e.cs.Approve(ctx, fixture.Agency("110"), "", a.ID)
	if err != nil {
		t.Fatal(err)
	}
	c := client(t)
	_, page, _ := fetch(t, c, "GET", e.srv.URL+"/login", nil)
	code, _, _ := fetch(t, c, "POST", e.srv.URL+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {agencyTok}})
	if code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	code, body, hdr := fetch(t, c, "GET", e.srv.URL+"/workspace/roster.csv", nil)
	if code != 200 || !strings.HasPrefix(body, "\ufeff证书编号") || !strings.Contains(body, p.IDNumber) ||
		!strings.Contains(hdr.Get("Content-Disposition"), "roster-110.csv") {
		t.Fatalf("roster: %d %q %v", code, body, hdr)
	}
	if !strings.Contains(body, "发证单位 Issuer") || !strings.Contains(body, ",中国围棋协会,北京棋院,110,") {
		t.Fatalf("roster does not name the association as issuer and the agency as applicant: %q", body)
	}
	// the public verifies the number as typed with full-width digits; the
	// association is the issuer, the agency the applicant, 110 the numbering province
	number := strings.Map(func(r rune) rune { return r - '0' + '０' }, a.CertificateNumber)
	code, page, _ = fetch(t, client(t), "GET", e.srv.URL+"/verify?number="+url.QueryEscape(number+"。"), nil)
	for _, want := range []string{`data-status="valid"`, `data-testid="verify-issuer">中国围棋协会<`, `data-testid="verify-applicant">北京棋院<`,
		`data-testid="verify-numbering">北京市 (110)<`} {
		if code != 200 || !strings.Contains(page, want) {
			t.Errorf("verify %s: %d, page lacks %s", number, code, want)
		}
	}
}

// TestStatusMessagesExist checks the texts picked by a value at run time
// (statuses, bases, grades), which the static key scan cannot see.
func TestStatusMessagesExist(t *testing.T) {
	var keys []string
	for _, b := range certs.Bases() {
		keys = append(keys, "basis_"+string(b))
	}
	for _, s := range []certs.CertStatus{certs.CertValid, certs.CertRevoked, certs.CertReissued} {
		keys = append(keys, "cert_"+string(s), "verify_"+string(s))
	}
	for _, s := range []certs.NoticeStatus{certs.NoticeOpen, certs.NoticeIssued, certs.NoticeFailed} {
		keys = append(keys, "notice_"+string(s))
	}
	for _, s := range []certs.AppStatus{certs.AppApplied, certs.AppOnNotice, certs.AppIssued, certs.AppRejected, certs.AppFailed} {
		keys = append(keys, "app_"+string(s))
	}
	for _, s := range []certs.OrderStatus{certs.OrderRequested, certs.OrderGranted, certs.OrderRefused} {
		keys = append(keys, "order_"+string(s))
	}
	for _, s := range []certs.AppraiserStatus{certs.AppraiserRecommended, certs.AppraiserApproved, certs.AppraiserRefused, certs.AppraiserRevoked} {
		keys = append(keys, "appraiser_"+string(s))
	}
	for _, g := range []certs.AthleteGrade{certs.NoGrade, certs.SecondClass, certs.FirstClass} {
		keys = append(keys, "grade_"+string(g))
	}
	// every "ok" key a workspace action redirects with
	for _, ok := range []string{"applied", "issued", "on_notice", "rejected", "ordered", "order_granted", "order_refused",
		"recommended", "appraiser_set", "ruled", "revoked"} {
		keys = append(keys, "ok_"+ok)
	}
	for _, lang := range []web.Lang{web.Chinese, web.English} {
		m := web.Messages(lang)
		for _, k := range keys {
			if m[k] == "" {
				t.Errorf("%s: no text for %q", lang, k)
			}
		}
	}
}

// TestBatchVerificationOnThePortal pastes three claims, as an admissions
// office copies them from a sheet, and reads every row's verdict.
func TestBatchVerificationOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	ctx := context.Background()
	p := fixture.Player(t, e.reg, "110", "考生", "", "2008-03-03", 11)
	a, err := e.cs.Apply(ctx, fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if a, err = e.cs.Approve(ctx, fixture.Agency("110"), "", a.ID); err != nil {
		t.Fatal(err)
	}
	c := client(t)
	_, form, _ := fetch(t, c, "GET", e.srv.URL+"/verify/batch", nil)
	claims := "证书编号\t姓名\n" + a.CertificateNumber + "\t考生\n" + a.CertificateNumber + "\t别人\n12345\t某人\n"
	code, page, _ := fetch(t, c, "POST", e.srv.URL+"/verify/batch", url.Values{"csrf": {csrfOf(t, form)}, "claims": {claims}})
	if code != http.StatusOK || strings.Count(page, "<tr data-verdict=") != 3 {
		t.Fatalf("batch: %d, %d rows", code, strings.Count(page, "<tr data-verdict="))
	}
	for _, want := range []string{`data-verdict="valid"`, `data-verdict="other_holder"`, `data-verdict="malformed"`, "与持证人不符", "段位证书编号为 9 位数字"} {
		if !strings.Contains(page, want) {
			t.Errorf("batch page lacks %s", want)
		}
	}
}

// TestBatchVerificationSeparators: a valid claim pasted with a full-width
// comma, an ideographic comma, a tab, a space or an ideographic space,
// number first or name first, comes out valid, not someone else's; a
// wrong name is someone else's whatever the separator (issue 24).
func TestBatchVerificationSeparators(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	ctx := context.Background()
	p := fixture.Player(t, e.reg, "110", "李明轩", "", "2008-03-03", 11)
	a, err := e.cs.Apply(ctx, fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if a, err = e.cs.Approve(ctx, fixture.Agency("110"), "", a.ID); err != nil {
		t.Fatal(err)
	}
	n := a.CertificateNumber
	c := client(t)
	// one claim per post, so each line's verdict is its own
	for _, tc := range []struct{ claim, verdict string }{
		{"\ufeff" + n + "，李明轩\r\n", "valid"},
		{n + "、李明轩", "valid"},
		{n + "\t李明轩", "valid"},
		{n + " 李明轩", "valid"},
		{n + ",李明轩", "valid"},
		{n + "\u3000李明轩", "valid"},
		{n + "  ；  李明轩 ", "valid"},
		{"李明轩，" + n, "valid"},
		{"李明轩、" + n, "valid"},
		{"李明轩\t" + n, "valid"},
		{"李明轩 " + n, "valid"},
		{n + "，李明", "other_holder"},
		{"李明，" + n, "other_holder"},
		{n + " 王五", "other_holder"},
	} {
		_, form, _ := fetch(t, c, "GET", e.srv.URL+"/verify/batch", nil)
		code, page, _ := fetch(t, c, "POST", e.srv.URL+"/verify/batch", url.Values{"csrf": {csrfOf(t, form)}, "claims": {tc.claim}})
		if code != http.StatusOK || strings.Count(page, "<tr data-verdict=") != 1 || !strings.Contains(page, `data-verdict="`+tc.verdict+`"`) {
			t.Errorf("claim %q: %d, %d rows, want one %s", tc.claim, code, strings.Count(page, "<tr data-verdict="), tc.verdict)
		}
		if tc.verdict == "valid" && strings.Contains(page, "与持证人不符") {
			t.Errorf("claim %q: a valid claim is shown as someone else's", tc.claim)
		}
	}
}

// TestRosterSubmissionInChromium: a Beijing clerk submits the roster to the
// association; staff see the submission with its date in their workspace.
func TestRosterSubmissionInChromium(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	agencyTok, staffTok := e.tokens(t)
	p := fixture.Player(t, e.reg, "110", "名册", "", "1990-03-03", 9)
	a, err := e.cs.Apply(context.Background(), fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d",
		Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Approve(context.Background(), fixture.Agency("110"), "", a.ID); err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	u := e.srv.URL
	login := func(tok, ready string) {
		run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
			chromedp.SendKeys(css(`[data-testid="login-token"]`), tok),
			chromedp.Click(css(`[data-testid="login-submit"]`)),
			chromedp.WaitVisible(css(ready)))
	}
	login(agencyTok, `[data-testid="roster-submit"]`)
	if got := text(t, ctx, `[data-testid="no-submissions"]`); got != "本年度尚未提交名册。" {
		t.Fatalf("before submitting: %q", got)
	}
	run(t, ctx, "submit the roster", chromedp.Click(css(`[data-testid="roster-submit"]`)), chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="ok"]`); got != "名册已报协会备份。" {
		t.Fatalf("after submitting: %q", got)
	}
	run(t, ctx, "sign out", chromedp.Navigate(u+"/"))
	login(staffTok, `[data-testid="submissions"]`)
	want := chinaTimeOf(e.clock.Now())
	if got := text(t, ctx, `[data-testid="submission-110"] [data-testid="submitted-at"]`); got != want {
		t.Fatalf("staff see the submission at %q, want %q", got, want)
	}
}

func chinaTimeOf(t time.Time) string {
	return t.In(time.FixedZone("CST", 8*3600)).Format("2006-01-02 15:04")
}
