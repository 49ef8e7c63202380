package web_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// reportEnv is the audit's portal where Beijing issued one 1-dan
// certificate in the audit year, the year is open, every finding of Beijing
// decided and Beijing passed with conditions: a dan cap and supervision for
// 30 days.
type reportEnv struct {
	*auditEnv
	until time.Time
}

func newReportEnv(t *testing.T) *reportEnv {
	t.Helper()
	e := newAuditEnv(t)
	ctx := context.Background()
	now := e.clock.Now()
	for y := now.In(ledger.ChinaTime).Year(); y <= now.Add(30*24*time.Hour).In(ledger.ChinaTime).Year(); y++ {
		fixture.Bootstrap(t, e.au, y, "110")
	}
	e.stockThisYear(t)
	e.issueOneDan(t, fixture.Player(t, e.reg, "110", "张三", "1k", "1990-01-01", 9).ID)
	e.openYear(t)
	a, err := e.au.Audit(ctx, fixture.Staff, "110", e.year)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range a.Findings {
		if _, err := e.au.DecideFinding(ctx, fixture.Staff, "", f.ID, true, "属实"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.au.ReplyToFinding(ctx, fixture.Agency("110"), "", a.Findings[0].ID, "改动经裁判长确认。"); err != nil {
		t.Fatal(err)
	}
	y, m, d := now.In(ledger.ChinaTime).AddDate(0, 0, 30).Date()
	until := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	dcap := 5
	if _, err := e.au.Rule(ctx, fixture.Staff, "", audit.RulingInput{AgencyPrefix: "110", Year: e.year, Outcome: audit.Conditional,
		DanCap: &dcap, SupervisionUntil: &until, Measures: "监管期内 4–5 段须经协会审批"}); err != nil {
		t.Fatal(err)
	}
	return &reportEnv{auditEnv: e, until: until}
}

func defName(key string) string {
	for _, d := range audit.Definitions() {
		if d.Key == key {
			return d.NameZH
		}
	}
	return ""
}

// TestAuditReportExports: an agency's report prints (A4 portrait), and
// exports as a PDF whose text holds the agency's name, a Chinese indicator
// name and the ruling, and as a CSV with a row per indicator, a row per
// finding and the ruling's; staff and the agency itself get it, another
// agency does not.
func TestAuditReportExports(t *testing.T) {
	needTools(t, "pdftotext")
	e := newReportEnv(t)
	agencyTok, staffTok := e.tokens(t)
	staff, agency := client(t), client(t)
	e.signIn(t, staff, staffTok)
	e.signIn(t, agency, agencyTok)
	sh, _, err := e.reg.CreateToken(context.Background(), ledger.Actor{Kind: ledger.SystemActor, Name: "test"}, ledger.AgencyActor, "310", "")
	if err != nil {
		t.Fatal(err)
	}
	shanghai := client(t)
	e.signIn(t, shanghai, sh)
	base := e.srv.URL + "/workspace/audit/110/" + strconv.Itoa(e.year) + "/report"
	a, err := e.au.Audit(context.Background(), fixture.Staff, "110", e.year)
	if err != nil {
		t.Fatal(err)
	}
	late := defName(audit.KeyLateResultChanges)
	until := e.until.Format(time.DateOnly)

	for _, who := range []struct {
		name string
		c    *http.Client
	}{{"staff", staff}, {"the agency", agency}} {
		t.Run(who.name, func(t *testing.T) {
			code, page, _ := fetch(t, who.c, "GET", base, nil)
			for _, want := range []string{`data-testid="audit-report"`, "/static/audit-report.css", "北京市围棋协会", late, "有条件通过", "监管期限 " + until,
				"改动经裁判长确认", `data-testid="chart-issued"`, `data-testid="chart-trend"`, `report.pdf?lang=zh-CN`} {
				if code != http.StatusOK || !strings.Contains(page, want) {
					t.Errorf("report page: %d, no %q", code, want)
				}
			}
			for _, tt := range []struct {
				lang string
				want []string
			}{
				{"zh-CN", []string{"北京市围棋协会", late, "有条件通过", "年审报告", "监管期限 " + until, "监管期内 4-5 段须经协会审批", "改动经裁判长确认"}},
				{"en", []string{"北京市围棋协会", "Pass with conditions", "Audit report", "results changed after the next round"}},
			} {
				code, body, h := fetch(t, who.c, "GET", base+".pdf?lang="+tt.lang, nil)
				if code != http.StatusOK || h.Get("Content-Type") != "application/pdf" {
					t.Fatalf("pdf %s: %d %s", tt.lang, code, h.Get("Content-Type"))
				}
				text := pdfToText(t, []byte(body))
				flat := strings.Join(strings.Fields(text), " ")
				for _, w := range tt.want {
					if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
						t.Errorf("pdf %s has no %q:\n%s", tt.lang, w, text)
					}
				}
			}
			code, body, h := fetch(t, who.c, "GET", base+".csv?lang=zh-CN", nil)
			if code != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/csv") {
				t.Fatalf("csv: %d %s", code, h.Get("Content-Type"))
			}
			recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix([]byte(body), []byte("\ufeff")))).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			count := map[string]int{}
			for _, r := range recs[1:] {
				count[r[0]]++
				if r[0] == "indicator" && r[3] == audit.KeyLateResultChanges && (r[5] != late || r[7] != "red" || r[8] != "8") {
					t.Errorf("late changes row: %q", r)
				}
				if r[0] == "ruling" && (r[6] != "有条件通过" || !strings.Contains(r[14], until)) {
					t.Errorf("ruling row: %q", r)
				}
			}
			if count["indicator"] != len(audit.Definitions()) || count["finding"] != len(a.Findings) || count["ruling"] != 1 || len(a.Findings) == 0 {
				t.Errorf("csv records %v, want %d indicators, %d findings, 1 ruling", count, len(audit.Definitions()), len(a.Findings))
			}
		})
	}
	for _, suffix := range []string{"", ".pdf", ".csv"} {
		if code, _, _ := fetch(t, shanghai, "GET", base+suffix, nil); code != http.StatusForbidden {
			t.Errorf("Shanghai reads Beijing's report%s: %d", suffix, code)
		}
	}
	if code, _, h := fetch(t, client(t), "GET", base+".pdf", nil); code != http.StatusSeeOther || h.Get("Location") != "/login" {
		t.Errorf("public: %d", code)
	}
	if code, _, _ := fetch(t, shanghai, "GET", e.srv.URL+"/workspace/audit/310/"+strconv.Itoa(e.year)+"/report.pdf", nil); code != http.StatusOK {
		t.Errorf("Shanghai's own report: %d", code)
	}
}

// pdfToText is pdftotext's reading of a PDF.
func pdfToText(t *testing.T, pdf []byte) string {
	t.Helper()
	in := filepath.Join(t.TempDir(), "r.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", in, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// superviseShanghai decides Shanghai's findings and passes it with
// supervision until 30 days on; it returns the period's last day.
func superviseShanghai(t *testing.T, e *auditEnv) time.Time {
	t.Helper()
	ctx := context.Background()
	a, err := e.au.Audit(ctx, fixture.Staff, "310", e.year)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range a.Findings {
		if _, err := e.au.DecideFinding(ctx, fixture.Staff, "", f.ID, false, "新机构"); err != nil {
			t.Fatal(err)
		}
	}
	y, m, d := e.clock.Now().In(ledger.ChinaTime).AddDate(0, 0, 30).Date()
	until := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if _, err := e.au.Rule(ctx, fixture.Staff, "", audit.RulingInput{AgencyPrefix: "310", Year: e.year, Outcome: audit.Conditional,
		SupervisionUntil: &until, Measures: "监管期内 4–5 段须经协会审批"}); err != nil {
		t.Fatal(err)
	}
	return until
}

// TestNationalTableSortedWithCharts: staff sort the year's table by any
// column from its header links (no script), and see the issuance by agency
// and rank and the trend as SVG drawn on the server; the bars count what
// the snapshot's certificates_issued counts.
func TestNationalTableSortedWithCharts(t *testing.T) {
	e := newReportEnv(t)
	_, staffTok := e.tokens(t)
	staff := client(t)
	e.signIn(t, staff, staffTok)
	y := strconv.Itoa(e.year)
	order := func(page string) []string {
		var out []string
		for _, part := range strings.Split(page, `data-testid="audit-row-`)[1:] {
			out = append(out, part[:3])
		}
		return out
	}
	tests := []struct {
		query string
		want  []string
		link  string // the header link of the sorted column
	}{
		{"", []string{"110", "310"}, `href="/workspace/audit?dir=desc&amp;sort=agency&amp;year=` + y + `"`},
		{"&sort=late_result_changes&dir=desc", []string{"110", "310"}, `href="/workspace/audit?dir=asc&amp;sort=late_result_changes&amp;year=` + y + `"`},
		{"&sort=late_result_changes&dir=asc", []string{"310", "110"}, `href="/workspace/audit?dir=desc&amp;sort=late_result_changes&amp;year=` + y + `"`},
		{"&sort=inactive_months&dir=desc", []string{"310", "110"}, ""},
		{"&sort=agency&dir=desc", []string{"310", "110"}, ""},
		{"&sort=ruling&dir=asc", []string{"310", "110"}, ""},    // none (Shanghai: "") before conditional
		{"&sort=nonsense&dir=desc", []string{"310", "110"}, ""}, // an unknown column: by agency
	}
	for _, tt := range tests {
		code, page, _ := fetch(t, staff, "GET", e.srv.URL+"/workspace/audit?year="+y+tt.query+"&lang=zh-CN", nil)
		if got := order(page); code != http.StatusOK || strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%q: %d, rows %v, want %v", tt.query, code, got, tt.want)
		}
		if tt.link != "" && !strings.Contains(page, tt.link) {
			t.Errorf("%q: no header link %s", tt.query, tt.link)
		}
		for _, w := range []string{`data-testid="chart-issued"`, `data-testid="chart-trend"`, "<script"} {
			if strings.Contains(page, w) == (w == "<script") {
				t.Errorf("%q: %q present = %v", tt.query, w, w == "<script")
			}
		}
	}
	// the table keeps its snapshot but reads the rulings afresh
	superviseShanghai(t, e.auditEnv)
	_, page, _ := fetch(t, staff, "GET", e.srv.URL+"/workspace/audit?year="+y+"&sort=ruling&dir=asc", nil)
	if got := order(page); strings.Join(got, ",") != "110,310" || strings.Count(page, "有条件通过") != 2 {
		t.Errorf("after Shanghai's ruling: rows %v", got)
	}
	iss, err := e.au.Issuance(context.Background(), fixture.Staff, e.year, 5)
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.au.Audit(context.Background(), fixture.Staff, "110", e.year)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, n := range iss.ByRank["110"] {
		sum += n
	}
	var issued int64
	for _, in := range a.Indicators {
		if in.Key == audit.KeyCertificatesIssued {
			issued = in.Count
		}
	}
	if !iss.Snapshot || iss.Position != a.Position || iss.ByRank["110"][1] != 1 || int64(sum) != issued || len(iss.Trend) != 5 ||
		iss.Trend[4].ByAgency["110"] != int(issued) || !iss.Trend[4].Snapshot || iss.Trend[0].Snapshot {
		t.Errorf("issuance %+v against certificates_issued %d at %d", iss, issued, a.Position)
	}
	// a certificate issued after the snapshot moves neither the bars nor the trend
	e.issueOneDan(t, fixture.Player(t, e.reg, "110", "李四", "1k", "1990-01-01", 10).ID)
	again, err := e.au.Issuance(context.Background(), fixture.Staff, e.year, 5)
	if err != nil || again.ByRank["110"][1] != 1 || again.Trend[4].ByAgency["110"] != int(issued) {
		t.Errorf("after a later certificate: %+v %v", again, err)
	}
	// the next year, not opened, reads the log's present: both certificates
	// of Beijing fall in this year's period, so next year has none, and this
	// year (opened) counts from its snapshot
	next, err := e.au.Issuance(context.Background(), fixture.Staff, e.year+1, 2)
	if err != nil || next.Snapshot || next.Trend[0].ByAgency["110"] != int(issued) || next.Trend[1].Total() != 0 {
		t.Errorf("next year: %+v %v", next, err)
	}
}

// TestSupervisionOnAgenciesPage: a conditional pass with supervision is
// shown on the public agencies page while the period lasts, by the
// injected clock, in the page's language.
func TestSupervisionOnAgenciesPage(t *testing.T) {
	e := newAuditEnv(t)
	e.openYear(t)
	until := superviseShanghai(t, e)
	day := until.Format(time.DateOnly)
	c := client(t)
	tests := []struct {
		name  string
		at    time.Time
		lang  string
		shown string
	}{
		{"now", e.clock.Now(), "zh-CN", "监管中，至 " + day},
		{"in English", e.clock.Now(), "en", "under supervision until " + day},
		{"on the last day", time.Date(until.Year(), until.Month(), until.Day(), 23, 0, 0, 0, ledger.ChinaTime), "zh-CN", "监管中，至 " + day},
		{"the day after", time.Date(until.Year(), until.Month(), until.Day()+1, 0, 30, 0, 0, ledger.ChinaTime), "zh-CN", ""},
	}
	for _, tt := range tests {
		e.clock.Set(tt.at)
		code, page, _ := fetch(t, c, "GET", e.srv.URL+"/agencies?lang="+tt.lang, nil)
		if code != http.StatusOK || strings.Contains(page, `data-testid="supervised-110"`) {
			t.Fatalf("%s: %d, or Beijing supervised", tt.name, code)
		}
		has := strings.Contains(page, `data-testid="supervised-310"`)
		if has != (tt.shown != "") || (has && !strings.Contains(page, tt.shown)) {
			t.Errorf("%s: supervision shown %v, want %q", tt.name, has, tt.shown)
		}
	}
}

// TestAuditReportPrintsInChromium: staff follow the report link from an
// agency's audit, and Chromium prints the report on A4 portrait by its print
// stylesheet, without the site's navigation.
func TestAuditReportPrintsInChromium(t *testing.T) {
	needTools(t, "pdftotext", "pdfinfo")
	e := newReportEnv(t)
	_, staffTok := e.tokens(t)
	ctx := browser(t)
	u := e.srv.URL
	run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
		chromedp.SendKeys(css(`[data-testid="login-token"]`), staffTok),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="apply-form"]`)))
	run(t, ctx, "open the report", chromedp.Navigate(u+"/workspace/audit/110/"+strconv.Itoa(e.year)+"?lang=zh-CN"),
		chromedp.Click(css(`[data-testid="audit-report-link"]`)), chromedp.WaitVisible(css(`[data-testid="audit-report"]`)))
	if got := text(t, ctx, `[data-testid="report-ruling"]`); !strings.HasPrefix(got, "有条件通过") {
		t.Fatalf("ruling on the report: %q", got)
	}
	pdf, err := chromedp.Run(ctx, chromedp.PrintToPDF(chromedp.PDFPreferCSSPageSize()))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "print.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := exec.Command("pdfinfo", in).Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(info), "x 841.") || !strings.Contains(string(info), "pts (A4)") {
		t.Errorf("printed page is not A4 portrait:\n%s", info)
	}
	printed := pdfToText(t, pdf)
	for _, w := range []string{"北京市围棋协会", defName(audit.KeyLateResultChanges), "有条件通过"} {
		if !strings.Contains(printed, w) {
			t.Errorf("printed report has no %q", w)
		}
	}
	if strings.Contains(printed, "退出") || strings.Contains(printed, "用浏览器打印本页") {
		t.Errorf("the print shows the navigation or the help:\n%s", printed)
	}
}
