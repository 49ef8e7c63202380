package web_test

import (
	"encoding/csv"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/internal/fixture"
)

// TestStatisticsChartsInChromium renders the public statistics in both
// languages: every chart is an <svg> with its text alternative and one bar
// per row of the table beside it.
func TestStatisticsChartsInChromium(t *testing.T) {
	e := newPortalEnv(t)
	fixture.StatisticsData(t, e.reg, e.cs, e.ts, e.clock)
	year := strconv.Itoa(fixture.StatisticsYear(e.clock))
	ctx := browser(t)
	for _, tt := range []struct {
		lang, title, ranksChart, basisLabel string
	}{
		{"zh-CN", "统计", year + " 年各段级位证书数", "鉴定"},
		{"en", "Statistics", "Certificates by rank, " + year, "Appraisal"},
	} {
		run(t, ctx, "open the statistics in "+tt.lang, chromedp.Navigate(e.srv.URL+"/statistics?lang="+tt.lang),
			chromedp.WaitVisible(css(`[data-testid="chart-ranks"]`)))
		if got := text(t, ctx, `[data-testid="title"]`); got != tt.title {
			t.Errorf("%s: title %q, want %q", tt.lang, got, tt.title)
		}
		// bars per chart: the years, the three provinces with players, five ranks, every basis
		for chart, want := range map[string]int{"years": 1, "provinces": 3, "ranks": 5, "bases": 4} {
			bars, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(`[data-testid="chart-`+chart+`"] rect.bar`), chromedp.AtLeast(0)))
			if err != nil {
				t.Fatal(err)
			}
			rows, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(`[data-testid="table-`+chart+`"] tbody tr`), chromedp.AtLeast(0)))
			if err != nil {
				t.Fatal(err)
			}
			if len(bars) != want || len(rows) != want {
				t.Errorf("%s: chart %s has %d bars and %d table rows, want %d", tt.lang, chart, len(bars), len(rows), want)
			}
		}
		label, err := chromedp.Run(ctx, chromedp.AttributeValue(css(`[data-testid="chart-ranks"]`), "aria-label"))
		if err != nil {
			t.Fatal(err)
		}
		title, err := chromedp.Run(ctx, chromedp.TextContent(css(`[data-testid="chart-ranks"] > title`)))
		if err != nil {
			t.Fatal(err)
		}
		if label.Value != tt.ranksChart || title != tt.ranksChart {
			t.Errorf("%s: rank chart labelled %q, titled %q, want %q", tt.lang, label.Value, title, tt.ranksChart)
		}
		if got := text(t, ctx, `[data-testid="table-bases"]`); !strings.Contains(got, tt.basisLabel) {
			t.Errorf("%s: basis table %q lacks %q", tt.lang, got, tt.basisLabel)
		}
		// the public sees no per-agency table
		if n, _ := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(`[data-testid="stats-agencies"]`), chromedp.AtLeast(0))); len(n) != 0 {
			t.Errorf("%s: the public sees the per-agency table", tt.lang)
		}
	}
}

func getCSV(t *testing.T, c *http.Client, u string) (int, [][]string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Errorf("GET %s: content type %q", u, ct)
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(b), "\ufeff"))).ReadAll()
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	return resp.StatusCode, rows
}

// TestStatisticsCSVAndStaffPage downloads each table and checks that the
// per-agency details are staff's.
func TestStatisticsCSVAndStaffPage(t *testing.T) {
	e := newPortalEnv(t)
	fixture.StatisticsData(t, e.reg, e.cs, e.ts, e.clock)
	year := strconv.Itoa(fixture.StatisticsYear(e.clock))
	_, staffTok := e.tokens(t)
	public := http.DefaultClient

	tests := []struct {
		table, lang string
		want        [][]string
	}{
		{"provinces", "zh-CN", [][]string{{"前缀", "省份", "证书数", "段位持证人", "登记棋手", "每万名登记棋手中的持证人"},
			{"110", "北京市", "4", "3", "6", "5000.0"}, {"310", "上海市", "2", "1", "2", "5000.0"}, {"440", "广东省", "0", "0", "1", "0.0"}}},
		{"ranks", "en", [][]string{{"Rank", "Certificates"}, {"10 kyu", "1"}, {"1 dan", "2"}, {"2 dan", "1"}, {"4 dan", "1"}, {"6 dan", "1"}}},
		{"years", "en", [][]string{{"Year", "Certificates"}, {year, "6"}}},
		{"bases", "zh-CN", [][]string{{"依据", "证书数"}, {"比赛成绩", "4"}, {"鉴定", "1"}, {"全国性比赛成绩", "1"}, {"全国业余围棋锦标赛冠军", "0"}}},
	}
	for _, tt := range tests {
		code, rows := getCSV(t, public, e.srv.URL+"/statistics.csv?table="+tt.table+"&year="+year+"&lang="+tt.lang)
		if code != http.StatusOK || strings.Join(flatten(rows), "|") != strings.Join(flatten(tt.want), "|") {
			t.Errorf("%s.csv (%s) = %d %q, want %q", tt.table, tt.lang, code, rows, tt.want)
		}
	}
	_, notices := getCSV(t, public, e.srv.URL+"/statistics.csv?table=notices&lang=en&year="+year)
	counts := map[string]string{}
	for _, r := range notices[1:] {
		counts[r[0]] = r[1]
	}
	if counts["Notices published"] != "3" || counts["Upheld"] != "1" || counts["Dismissed"] != "1" || counts["Objections"] != "2" {
		t.Errorf("notices.csv = %q", notices)
	}
	if code, _ := getCSV(t, public, e.srv.URL+"/statistics.csv?table=agencies"); code != http.StatusUnauthorized {
		t.Errorf("agencies.csv for the public = %d, want 401", code)
	}
	if code, _ := getCSV(t, public, e.srv.URL+"/statistics.csv?table=nope"); code != http.StatusNotFound {
		t.Errorf("an unknown table = %d, want 404", code)
	}
	if code, _ := get(t, e.srv.URL+"/statistics?year=abc"); code != http.StatusBadRequest {
		t.Errorf("year abc = %d, want 400", code)
	}
	if resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(e.srv.URL + "/workspace/statistics"); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Errorf("staff statistics for the public: %v %v, want a redirect to sign in", resp, err)
	}

	// staff sign in and see, and download, the per-agency table
	jar, _ := cookiejar.New(nil)
	staff := &http.Client{Jar: jar}
	resp, err := staff.Get(e.srv.URL + "/login")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	csrf := between(string(body), `name="csrf" value="`, `"`)
	resp, err = staff.PostForm(e.srv.URL+"/login", url.Values{"token": {staffTok}, "csrf": {csrf}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	resp, err = staff.Get(e.srv.URL + "/workspace/statistics?lang=en&year=" + year)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `data-testid="table-agencies"`) || !strings.Contains(string(body), "Detailed statistics") {
		t.Fatalf("staff statistics = %d:\n%s", resp.StatusCode, body)
	}
	_, agencies := getCSV(t, staff, e.srv.URL+"/statistics.csv?table=agencies&lang=en&year="+year)
	want := [][]string{
		{"Prefix", "Province", "Certificates", "Tournament result", "Appraisal", "National tournament result", "National amateur champion",
			"Revoked", "Public notices", "Objections", "Upheld", "Dismissed"},
		{"110", "Beijing", "4", "3", "1", "0", "0", "1", "2", "2", "1", "1"},
		{"310", "Shanghai", "2", "1", "0", "1", "0", "0", "1", "0", "0", "0"},
	}
	if strings.Join(flatten(agencies), "|") != strings.Join(flatten(want), "|") {
		t.Errorf("agencies.csv = %q, want %q", agencies, want)
	}
}

func flatten(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join(r, ","))
	}
	return out
}

func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i+len(from):]
	if j := strings.Index(s, to); j >= 0 {
		return s[:j]
	}
	return s
}
