package web_test

import (
	"context"
	"fmt"
	"html"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/eventratings"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// at390 sets the browser to a phone's 390 px wide screen.
func at390(t *testing.T, ctx context.Context) {
	t.Helper()
	run(t, ctx, "a 390 px screen", chromedp.EmulateViewport(390, 844))
}

// shot keeps a screenshot of the page for a person to look at, when
// DANKYU_SHOTS names a directory.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("DANKYU_SHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o600); err != nil {
		t.Fatal(err)
	}
}

// overflowJS is how far the page is wider than the screen, in CSS px.
const overflowJS = `document.documentElement.scrollWidth - window.innerWidth`

// TestPageRankChartPhone (issue 24): a player promoted to 1 and 2 dan
// on one day has a rank chart that ends at 2 dan; at 390 px the chart fits
// the screen and none of its labels touch another, in both languages.
func TestPageRankChartPhone(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	ctx := context.Background()
	e.issueOneDan(t, e.player.ID)
	bj := fixture.Agency("110")
	app, err := e.cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: e.player.ID, TargetRank: "2d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "2d", e.player.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Approve(ctx, bj, "", app.ID); err != nil {
		t.Fatal(err)
	}
	bctx := browser(t)
	at390(t, bctx)
	for _, lang := range []string{"zh-CN", "en"} {
		run(t, bctx, "the player page", chromedp.Navigate(fmt.Sprintf("%s/players/%d?lang=%s", e.srv.URL, e.player.ID, lang)),
			chromedp.WaitVisible(css(`[data-testid="rank-chart"]`)))
		shot(t, bctx, "rankchart-"+lang)
		// the line's last point against the 2 dan point
		end, err := chromedp.Run(bctx, chromedp.Evaluate[[]float64](`(() => {
			const pts = document.querySelector('[data-testid="rank-chart"] .rank-line').points;
			const two = document.querySelector('[data-testid="rank-chart"] .rank-point[data-rank="2d"]');
			return [pts.getItem(pts.numberOfItems-1).y, two.cy.baseVal.value];
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if end[0] != end[1] {
			t.Errorf("%s: the line ends at y=%v, the 2 dan point is at y=%v", lang, end[0], end[1])
		}
		width, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`document.querySelector('[data-testid="rank-chart"]').getBoundingClientRect().right`))
		if err != nil {
			t.Fatal(err)
		}
		if width > 390 {
			t.Errorf("%s: the chart reaches %v px on a 390 px screen", lang, width)
		}
		touching, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`(() => {
			const boxes = [...document.querySelectorAll('[data-testid="rank-chart"] text')].map(e => [e.textContent, e.getBoundingClientRect()]);
			const out = [];
			for (let i = 0; i < boxes.length; i++) for (let j = i+1; j < boxes.length; j++) {
				const [a, p] = boxes[i], [b, q] = boxes[j];
				if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) out.push(a + " / " + b);
			}
			return out;
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if len(touching) > 0 {
			t.Errorf("%s: chart labels overlap: %v", lang, touching)
		}
	}
}

// TestPageStatisticsPastYear (issue 24): a past year's statistics are
// as that year ended. The next year revokes one of its certificates,
// registers players and issues a certificate; the year's every table (the
// public ones and the staff's per agency, page and CSV, zh and en) reads as
// it did before.
func TestPageStatisticsPastYear(t *testing.T) {
	e := newPortalEnv(t)
	fixture.StatisticsData(t, e.reg, e.cs, e.ts, e.clock)
	year := fixture.StatisticsYear(e.clock)
	_, staffTok := e.tokens(t)
	staff := signedIn(t, e, staffTok)
	tables := []string{"years", "provinces", "ranks", "bases", "notices", "agencies"}
	read := func(y int) map[string]string {
		out := map[string]string{}
		for _, tb := range tables {
			for _, lang := range []string{"zh-CN", "en"} {
				code, rows := getCSV(t, staff, fmt.Sprintf("%s/statistics.csv?table=%s&year=%d&lang=%s", e.srv.URL, tb, y, lang))
				if code != http.StatusOK {
					t.Fatalf("%s.csv of %d: %d", tb, y, code)
				}
				out[tb+"/"+lang] = strings.Join(flatten(rows), "\n")
			}
		}
		return out
	}
	before := read(year)

	// the next year changes what the year counted
	ctx := context.Background()
	e.clock.Set(time.Date(year+1, 3, 1, 10, 0, 0, 0, ledger.ChinaTime))
	first := fmt.Sprintf("110%02d0001", year%100)
	if v, err := e.cs.Verify(ctx, first); err != nil || !v.Found || v.Certificate.Status != certs.CertValid {
		t.Fatalf("the year's first Beijing certificate %s: %+v %v", first, v, err)
	}
	if _, err := e.cs.Revoke(ctx, fixture.Staff, "", first, "弄虚作假"); err != nil {
		t.Fatal(err)
	}
	fixture.Player(t, e.reg, "110", "新一", "", "1990-01-01", 901)
	fixture.Player(t, e.reg, "310", "新二", "", "1990-01-01", 902)
	fixture.Stock(t, e.cs, "110", year+1, 5, 5)
	p := fixture.Player(t, e.reg, "110", "新三", "1k", "1990-01-01", 903)
	a, err := e.cs.Apply(ctx, fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Approve(ctx, fixture.Agency("110"), "", a.ID); err != nil {
		t.Fatal(err)
	}

	staff = signedIn(t, e, staffTok) // the session of a season ago has ended
	after := read(year)
	for _, k := range slices.Sorted(maps.Keys(before)) {
		if before[k] != after[k] {
			t.Errorf("%d's %s changed with the next year:\nbefore\n%s\nafter\n%s", year, k, before[k], after[k])
		}
	}
	// the changes are real: the new year counts them
	if now := read(year + 1); !strings.Contains(now["years/en"], strconv.Itoa(year+1)+",1") {
		t.Errorf("the new year's table lacks its certificate:\n%s", now["years/en"])
	}

	// the page, in both languages, in Chromium: the year's table of years
	// ends with the year
	bctx := browser(t)
	for _, lang := range []string{"zh-CN", "en"} {
		run(t, bctx, "the statistics of "+strconv.Itoa(year), chromedp.Navigate(fmt.Sprintf("%s/statistics?year=%d&lang=%s", e.srv.URL, year, lang)),
			chromedp.WaitVisible(css(`[data-testid="table-years"]`)))
		if got := text(t, bctx, `[data-testid="table-years"] tbody`); strings.Contains(got, strconv.Itoa(year+1)) {
			t.Errorf("%s: the statistics of %d list %d: %q", lang, year, year+1, got)
		}
	}
}

// TestPageRatingsHideMinors (issue 24): the public rating list leaves
// out the minors the public player search hides, nationally and by
// province, and numbers the players it shows without gaps; guests stay.
func TestPageRatingsHideMinors(t *testing.T) {
	var b *book.Book
	e := newPortalEnvWith(t, func(s *ledger.Store) web.Options { b = book.New(s); return web.Options{Ratings: b} })
	ts := tournaments.New(e.store, e.reg, proposals.Certs{Certs: e.cs}, tournaments.WithRater(eventratings.Book{Book: b}))
	entrants := []tournaments.ParticipantInput{{PlayerID: e.player.ID}}
	for i, who := range []struct{ name, rank, birth string }{
		{"成年甲", "2d", "1990-01-01"}, {"少年乙", "3d", "2014-05-05"}, {"成年丙", "1d", "1985-01-01"}, {"少年丁", "1k", "2016-02-02"},
	} {
		p := fixture.Player(t, e.reg, "110", who.name, who.rank, who.birth, i+1)
		entrants = append(entrants, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	entrants = append(entrants, tournaments.ParticipantInput{GuestName: "Ma Lin", GuestRank: "5d", GuestCountry: "SG"})
	fixture.RoundRobin(t, ts, "十月赛", "2026-10-03", entrants, fixture.LowerWins)

	bctx := browser(t)
	for _, lang := range []string{"zh-CN", "en"} {
		for _, q := range []string{"", "&province=11"} {
			run(t, bctx, "the rating list", chromedp.Navigate(e.srv.URL+"/ratings?lang="+lang+q),
				chromedp.WaitVisible(css(`[data-testid="ratings-table"]`)))
			got := text(t, bctx, `[data-testid="ratings-table"] tbody`)
			for _, minor := range []string{"少年乙", "少年丁"} {
				if strings.Contains(got, minor) {
					t.Errorf("%s %s: the list names the minor %s:\n%s", lang, q, minor, got)
				}
			}
			want := []string{"王小明", "成年甲", "成年丙"}
			if q == "" {
				want = append(want, "Ma Lin")
			}
			for _, adult := range want {
				if !strings.Contains(got, adult) {
					t.Errorf("%s %s: the list lacks %s:\n%s", lang, q, adult, got)
				}
			}
			places, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('[data-testid="ratings-table"] tbody tr td:first-child')].map(td => td.textContent.trim())`))
			if err != nil {
				t.Fatal(err)
			}
			for i, pl := range places {
				if pl != strconv.Itoa(i+1) {
					t.Errorf("%s %s: places %v, want 1…%d", lang, q, places, len(places))
					break
				}
			}
			if len(places) != len(want) {
				t.Errorf("%s %s: %d rows, want %d", lang, q, len(places), len(want))
			}
		}
	}
	// the search's rule it follows
	if _, page := get(t, e.srv.URL+"/players?name="+url.QueryEscape("少年乙")); strings.Contains(page, `href="/players/3"`) {
		t.Error("the public search lists the minor")
	}

	// each player's page gives his places in the two lists, as the lists
	// number him; a minor's gives none
	places := map[string][]string{} // player href → national, provincial place
	for _, q := range []string{"", "?province=11"} {
		run(t, bctx, "the list", chromedp.Navigate(e.srv.URL+"/ratings"+q), chromedp.WaitVisible(css(`[data-testid="ratings-table"]`)))
		rows, err := chromedp.Run(bctx, chromedp.Evaluate[[][]string](`[...document.querySelectorAll('[data-testid="ratings-table"] tbody tr')].filter(tr => tr.querySelector('a')).map(tr => [tr.querySelector('a').getAttribute('href'), tr.cells[0].textContent.trim()])`))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			places[r[0]] = append(places[r[0]], r[1])
		}
	}
	if len(places) != 3 {
		t.Fatalf("registered players listed: %v", places)
	}
	for href, pl := range places {
		_, page := get(t, e.srv.URL+href+"?lang=zh-CN")
		want := fmt.Sprintf("北京市第 %s 名", pl[1])
		if !strings.Contains(page, want) || !strings.Contains(page, fmt.Sprintf("全国第 %s 名", pl[0])) {
			t.Errorf("%s: the page lacks %s and 全国第 %s 名", href, want, pl[0])
		}
	}
	if _, page := get(t, e.srv.URL+"/players/3?lang=zh-CN"); !strings.Contains(page, "少年乙") || strings.Contains(page, "player-list-place") {
		t.Error("the minor's page gives a place in the rating list (or is not his)")
	}
}

// pdfWord is one word pdftotext -bbox finds, its box in points.
type pdfWord struct {
	page                   int
	xMin, yMin, xMax, yMax float64
	text                   string
}

var bboxWord = regexp.MustCompile(`<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)</word>`)

// pdfWords reads the words of a PDF with their boxes (pdftotext -bbox),
// and renders its first page to PNG (pdftoppm) into DANKYU_SHOTS, if set,
// for a person to look at.
func pdfWords(t *testing.T, pdf []byte, name string) []pdfWord {
	t.Helper()
	needTools(t, "pdftotext", "pdftoppm")
	dir := t.TempDir()
	in := filepath.Join(dir, "r.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-bbox", in, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext -bbox: %v", err)
	}
	var words []pdfWord
	page := 0
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "<page ") {
			page++
		}
		m := bboxWord.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		w := pdfWord{page: page, text: html.UnescapeString(m[5])}
		w.xMin, _ = strconv.ParseFloat(m[1], 64)
		w.yMin, _ = strconv.ParseFloat(m[2], 64)
		w.xMax, _ = strconv.ParseFloat(m[3], 64)
		w.yMax, _ = strconv.ParseFloat(m[4], 64)
		words = append(words, w)
	}
	png := filepath.Join(dir, "p")
	if err := exec.Command("pdftoppm", "-png", "-r", "110", "-f", "1", "-l", "1", in, png).Run(); err != nil {
		t.Fatalf("pdftoppm: %v", err)
	}
	if shots := os.Getenv("DANKYU_SHOTS"); shots != "" {
		matches, _ := filepath.Glob(png + "*.png")
		for _, m := range matches {
			b, _ := os.ReadFile(m)
			_ = os.WriteFile(filepath.Join(shots, name+".png"), b, 0o600)
		}
	}
	return words
}

// TestPageAuditReportPDFReadable (issue 24): the audit report's
// indicator table wraps long names onto lines instead of shrinking them:
// in both languages no word is under 6 pt, no two words' boxes overlap,
// and every indicator's English name reads whole in its column.
func TestPageAuditReportPDFReadable(t *testing.T) {
	e := newReportEnv(t)
	_, staffTok := e.tokens(t)
	staff := signedIn(t, e.portalEnv, staffTok)
	for _, lang := range []string{"zh-CN", "en"} {
		code, pdf, _ := fetch(t, staff, "GET", fmt.Sprintf("%s/workspace/audit/110/%d/report.pdf?lang=%s", e.srv.URL, e.year, lang), nil)
		if code != http.StatusOK {
			t.Fatalf("%s: report.pdf %d", lang, code)
		}
		words := pdfWords(t, []byte(pdf), "auditreport-"+lang)
		if len(words) < 50 {
			t.Fatalf("%s: %d words read from the PDF", lang, len(words))
		}
		for i, a := range words {
			// a word's box is about its font size tall: 6 pt at least
			if h := a.yMax - a.yMin; h < 6 {
				t.Errorf("%s: %q is %.1f pt tall", lang, a.text, h)
			}
			for _, b := range words[i+1:] {
				// boxes may touch; a quarter point of overlap is a glyph on another
				if a.page == b.page && a.xMin < b.xMax-0.25 && b.xMin < a.xMax-0.25 && a.yMin < b.yMax-0.25 && b.yMin < a.yMax-0.25 {
					t.Errorf("%s: page %d: %q and %q overlap", lang, a.page, a.text, b.text)
				}
			}
		}
		// figures read as figures: no float's tail of digits
		for _, w := range words {
			if regexp.MustCompile(`^[0-9]+\.[0-9]{5,}$`).MatchString(w.text) {
				t.Errorf("%s: the figure %q", lang, w.text)
			}
		}
		if lang != "en" {
			continue
		}
		// the indicator column (12 + 24 mm to 12 + 98 mm) read top to bottom
		var col []string
		for _, w := range words {
			if w.xMin >= 36*72/25.4-1 && w.xMax <= 110*72/25.4+1 {
				col = append(col, w.text)
			}
		}
		names := strings.Join(col, " ")
		for _, d := range audit.Definitions() {
			if d.Key == audit.KeyRankOutsideRating {
				continue
			}
			if !strings.Contains(names, strings.Join(strings.Fields(strings.NewReplacer("≥", ">=", "–", "-", "—", "-", "×", "x", "·", "|").Replace(d.NameEN)), " ")) {
				t.Errorf("the indicator %q is not whole in its column", d.NameEN)
			}
		}
	}
}

// TestPageAuditTableFits (issue 24): the national audit table names the
// agencies, scrolls inside its box (the page no wider than the screen) with
// the agency's name fixed at the left, and its ruling reads on one line,
// at 1 280 and 390 px in both languages.
func TestPageAuditTableFits(t *testing.T) {
	e := newReportEnv(t)
	_, staffTok := e.tokens(t)
	ctx := browser(t)
	signInAs(t, e.portalEnv, ctx, staffTok)
	for _, width := range []int64{1280, 390} {
		run(t, ctx, "the screen", chromedp.EmulateViewport(width, 900))
		for _, tt := range []struct{ lang, name, ruling string }{
			{"zh-CN", "北京市围棋协会", "有条件通过"},
			{"en", "北京市围棋协会", "Pass with conditions"},
		} {
			run(t, ctx, "the national table", chromedp.Navigate(fmt.Sprintf("%s/workspace/audit?year=%d&lang=%s", e.srv.URL, e.year, tt.lang)),
				chromedp.WaitVisible(css(`[data-testid="audit-table"]`)))
			shot(t, ctx, fmt.Sprintf("audittable-%d-%s", width, tt.lang))
			if got := text(t, ctx, `[data-testid="audit-agency-110"]`); !strings.Contains(got, tt.name) || !strings.Contains(got, "110") {
				t.Errorf("%d %s: the agency cell reads %q, want its name and prefix", width, tt.lang, got)
			}
			over, err := chromedp.Run(ctx, chromedp.Evaluate[float64](overflowJS))
			if err != nil {
				t.Fatal(err)
			}
			if over > 0 {
				wide, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > window.innerWidth && !e.closest('[data-testid="audit-box"]')).map(e => e.tagName + '.' + e.className + '#' + (e.dataset.testid||'')).slice(0, 8)`))
				t.Errorf("%d %s: the page is %v px wider than the screen: %v", width, tt.lang, over, wide)
			}
			// the ruling: its words on one line
			lines, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
				const td = document.querySelector('[data-testid="audit-ruling-110"]');
				const r = document.createRange(); r.selectNodeContents(td);
				const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
				return [td.textContent.trim(), String(tops.size)];
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(lines[0], tt.ruling) || lines[1] != "1" {
				t.Errorf("%d %s: the ruling %q on %s lines", width, tt.lang, lines[0], lines[1])
			}
			// scrolled to its far right, the box keeps the agency's name at its left
			pos, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
				const box = document.querySelector('[data-testid="audit-box"]');
				box.scrollLeft = box.scrollWidth;
				const cell = document.querySelector('[data-testid="audit-agency-110"]').getBoundingClientRect();
				const b = box.getBoundingClientRect();
				return [cell.left, b.left, box.scrollLeft, b.right];
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if pos[2] <= 0 || pos[0]-pos[1] > 2 || pos[0] < pos[1]-1 || pos[3] > float64(width) {
				t.Errorf("%d %s: scrolled %v px, the agency cell at %v, the box from %v to %v", width, tt.lang, pos[2], pos[0], pos[1], pos[3])
			}
		}
	}
}

// TestPageCrosstable (issue 24): the crosstable links each registered
// player's name to his page and each game to the opponent's line, marks a
// game decided by forfeit, and writes a bye in the page's language.
func TestPageCrosstable(t *testing.T) {
	e := newPortalEnv(t)
	entrants := []tournaments.ParticipantInput{{PlayerID: e.player.ID}}
	for i, name := range []string{"对手甲", "对手乙"} {
		p := fixture.Player(t, e.reg, "110", name, "1d", "1990-01-01", i+1)
		entrants = append(entrants, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	// three players: a bye each round; round 1's game goes by forfeit
	ev := fixture.RoundRobin(t, e.ts, "三人赛", "2026-10-03", entrants, func(round, black, white int) string {
		if round == 1 {
			return "black_forfeit"
		}
		return "black"
	})
	ctx := browser(t)
	for _, tt := range []struct{ lang, bye, forfeit string }{{"zh-CN", "轮空", "不战"}, {"en", "Bye", "f"}} {
		run(t, ctx, "the event", chromedp.Navigate(fmt.Sprintf("%s/tournaments/%d?lang=%s", e.srv.URL, ev, tt.lang)),
			chromedp.WaitVisible(css(`[data-testid="standing-row"]`)))
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[
			[...document.querySelectorAll('[data-testid="cross-bye"]')].map(e => e.textContent.trim()).join(","),
			[...document.querySelectorAll('[data-testid="cross-forfeit"]')].map(e => e.textContent.trim()).join(","),
			[...document.querySelectorAll('[data-testid="standing-player"]')].map(e => e.getAttribute("href")).join(","),
			[...document.querySelectorAll('[data-testid="cross-cell"] a')].filter(a => !document.querySelector(a.getAttribute("href"))).length + "",
			[...document.querySelectorAll('[data-testid="cross-cell"] a')].length + "",
			[...document.querySelectorAll('[data-testid="cross-cell"]')].map(e => e.textContent).join(" ")]`))
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != strings.TrimSuffix(strings.Repeat(tt.bye+",", 3), ",") {
			t.Errorf("%s: byes %q, want three %q", tt.lang, got[0], tt.bye)
		}
		if got[1] != tt.forfeit+","+tt.forfeit {
			t.Errorf("%s: forfeit marks %q, want %q on both sides of round 1's game", tt.lang, got[1], tt.forfeit)
		}
		if strings.Count(got[2], "/players/") != 3 || !strings.Contains(got[2], fmt.Sprintf("/players/%d", e.player.ID)) {
			t.Errorf("%s: player links %q", tt.lang, got[2])
		}
		if got[3] != "0" || got[4] != "6" {
			t.Errorf("%s: %s of %s game links lead nowhere", tt.lang, got[3], got[4])
		}
		if strings.Contains(got[5], "bye") {
			t.Errorf("%s: the raw word bye in the crosstable: %q", tt.lang, got[5])
		}
	}
}

// TestPagePlayerGames (issue 24): a player's public page lists his
// events newest first, each with his place, his rating's change, and his
// games round by round: the opponent (linked to his page; a guest named as
// one), colour and result in the page's language, a bye as a bye.
func TestPagePlayerGames(t *testing.T) {
	e := ratedPortal(t)
	ctx := browser(t)
	for _, tt := range []struct{ lang, won, lost, bye, black, guest string }{
		{"zh-CN", "胜", "负", "轮空", "执黑", "客座"},
		{"en", "Won", "Lost", "Bye", "Black", "guest"},
	} {
		run(t, ctx, "the player's page", chromedp.Navigate(fmt.Sprintf("%s/players/%d?lang=%s", e.srv.URL, e.player.ID, tt.lang)),
			chromedp.WaitVisible(css(`[data-testid="player-events"]`)))
		shot(t, ctx, "playergames-"+tt.lang)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[
			[...document.querySelectorAll('[data-testid="player-event"] a')].map(e => e.textContent.trim()).join(","),
			[...document.querySelectorAll('[data-testid="player-games"]')].map(t => t.querySelectorAll('tbody tr').length).join(","),
			[...document.querySelectorAll('[data-testid="player-game-opponent"]')].map(a => a.textContent.trim() + "=" + a.getAttribute("href")).join(","),
			[...document.querySelectorAll('[data-testid="player-game-result"]')].map(e => e.textContent.trim()).join(","),
			[...document.querySelectorAll('[data-testid="player-event-rating"]')].map(e => e.textContent.trim()).join(","),
			document.querySelector('[data-testid="player-events"]').textContent]`))
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != "十一月赛,十月赛" {
			t.Errorf("%s: events %q, want the November event first", tt.lang, got[0])
		}
		// five entrants play four games and sit out one round; four play three
		if got[1] != "5,3" {
			t.Errorf("%s: rows per event %q, want 5,3", tt.lang, got[1])
		}
		if strings.Count(got[2], "对手") != 6 || !strings.Contains(got[2], "=/players/") {
			t.Errorf("%s: opponents %q, want the three registered ones linked in each event", tt.lang, got[2])
		}
		for _, w := range []string{tt.won, tt.lost, tt.bye} {
			if !strings.Contains(got[3], w) {
				t.Errorf("%s: results %q lack %q", tt.lang, got[3], w)
			}
		}
		if !strings.Contains(got[5], "Ma Lin") || !strings.Contains(got[5], tt.guest) || !strings.Contains(got[5], tt.black) {
			t.Errorf("%s: the section lacks the guest Ma Lin (%s) or the colour %q", tt.lang, tt.guest, tt.black)
		}
		if !regexp.MustCompile(`^[+-][0-9]+\.[0-9]$`).MatchString(got[4]) {
			t.Errorf("%s: rating changes %q, want the November event's", tt.lang, got[4])
		}
	}
}

// TestPageChiefReferee (issue 24): the tournament's page names the
// chief referee the organiser appointed, in both languages.
func TestPageChiefReferee(t *testing.T) {
	e := newPortalEnv(t)
	ev, err := e.ts.CreateEvent(context.Background(), fixture.Agency("110"), "", tournaments.EventInput{Name: "裁判长赛", Start: "2026-10-03",
		Level: "city", System: "round_robin", ChiefReferee: "赵裁判"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	for _, tt := range []struct{ lang, label string }{{"zh-CN", "裁判长"}, {"en", "Chief referee"}} {
		run(t, ctx, "the event", chromedp.Navigate(fmt.Sprintf("%s/tournaments/%d?lang=%s", e.srv.URL, ev.ID, tt.lang)),
			chromedp.WaitVisible(css(`[data-testid="tournament-title"]`)))
		facts := text(t, ctx, `dl.facts`)
		if !strings.Contains(facts, tt.label) || !strings.Contains(facts, "赵裁判") {
			t.Errorf("%s: the facts %q lack %s 赵裁判", tt.lang, facts, tt.label)
		}
	}
}
