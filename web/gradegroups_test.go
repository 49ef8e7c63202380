package web_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/kit"
)

// TestGradeGroupStandings (issue 24): a finished dan-grade event's page shows
// its standings group by group — the group's rank and rule, its players
// in standings order, who qualified — and what became of each proposed
// application in words, linked to its notice or certificate, a minor's
// withheld, and never an internal application id.
func TestGradeGroupStandings(t *testing.T) {
	e := newPortalEnv(t)
	ctx := context.Background()
	bj := fixture.Agency("110")
	fixture.Stock(t, e.cs, "110", e.clock.Now().In(ledger.ChinaTime).Year(), 10, 10)
	ev, err := e.ts.CreateEvent(ctx, bj, "", tournaments.EventInput{Name: "分组段位赛", Start: e.ts.Today(), Level: "province",
		System: "round_robin", DanGrade: true, Groups: []tournaments.GroupInput{
			{Name: "四段组", TargetRank: "4d", MinWins: 5}, {Name: "初段组", TargetRank: "1d", MinWins: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	// entered in this order, the lower number wins: the four of 四段组
	// win 7, 6, 5, 4 games (three qualify), those of 初段组 3, 2, 1, 0
	// (three qualify)
	type entrant struct{ name, rank, birth, group string }
	field := []entrant{
		{"甲一", "3d", "1980-01-01", "四段组"}, {"甲二", "3d", "1981-01-01", "四段组"}, {"甲三", "3d", "1982-01-01", "四段组"}, {"甲四", "3d", "1983-01-01", "四段组"},
		{"乙一", "", "1990-01-01", "初段组"}, {"乙二", "", fixture.BirthDate(e.clock.Now(), 12), "初段组"}, {"乙三", "", "1991-01-01", "初段组"}, {"乙四", "", "1992-01-01", "初段组"},
	}
	ids := map[string]int64{}
	for i, f := range field {
		p := fixture.Player(t, e.reg, "110", f.name, f.rank, f.birth, 60+i)
		ids[f.name] = p.ID
		if _, err := e.ts.AddParticipant(ctx, bj, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Group: f.group}); err != nil {
			t.Fatal(err)
		}
	}
	for r := 1; r <= 7; r++ {
		ri, err := e.ts.PairNextRound(ctx, bj, "", ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range ri.Games {
			if _, err := e.ts.RecordResult(ctx, bj, "", ev.ID, tournaments.ResultInput{Round: r, Board: g.Board, Result: fixture.LowerWins(r, g.Black, g.White)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep, err := e.ts.Finish(ctx, bj, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	app := map[string]int64{}
	for _, pr := range rep.Proposals {
		app[pr.Name] = pr.ApplicationID
	}
	for _, n := range []string{"甲一", "甲二", "甲三", "乙一", "乙二", "乙三"} {
		if app[n] == 0 {
			t.Fatalf("no application filed for %s: %+v", n, rep.Proposals)
		}
	}
	onNotice, err := e.cs.Approve(ctx, bj, "", app["甲一"])
	if err != nil || onNotice.NoticeID == 0 {
		t.Fatalf("approve 甲一: %+v, %v", onNotice, err)
	}
	if _, err := e.cs.Reject(ctx, bj, "", app["甲二"], "材料不全"); err != nil {
		t.Fatal(err)
	}
	issued, err := e.cs.Approve(ctx, bj, "", app["乙一"])
	if err != nil || issued.CertificateNumber == "" {
		t.Fatalf("approve 乙一: %+v, %v", issued, err)
	}
	minor, err := e.cs.Approve(ctx, bj, "", app["乙二"]) // the minor's: issued, and not shown
	if err != nil || minor.CertificateNumber == "" {
		t.Fatalf("approve 乙二: %+v, %v", minor, err)
	}

	// 甲三's game against 乙四 was arranged: both results voided, he
	// falls to 4 wins and his application is withdrawn
	var round, board int
	for _, rd := range rep.Rounds {
		for _, g := range rd.Games {
			if (g.Black == 3 && g.White == 8) || (g.Black == 8 && g.White == 3) {
				round, board = rd.Round, g.Board
			}
		}
	}
	if _, err := e.ts.VoidResult(ctx, bj, "", ev.ID, tournaments.VoidInput{Round: round, Board: board, Side: tournaments.VoidBoth, Reason: "下假棋"}); err != nil {
		t.Fatalf("void round %d board %d: %v", round, board, err)
	}
	if rep, err = e.ts.EventReport(ctx, ev.ID); err != nil {
		t.Fatal(err)
	}
	notice := fmt.Sprintf("/notices/%d", onNotice.NoticeID)
	verify := "/verify?number=" + issued.CertificateNumber
	four, _ := registry.ParseRank("4d")
	one, _ := registry.ParseRank("1d")
	b := browser(t)
	for _, tt := range []struct {
		lang                                                                             kit.Lang
		param, onNotice, refused, filed, issued, withheld, withdrawn, qual, wins5, wins1 string
	}{
		{kit.Chinese, "zh-CN", "已批准，公示中", "未获批准", "已提交，待审批", "已发证", "未成年：不公开", "已撤回", "达标", "胜 5 局以上", "胜 1 局以上"},
		{kit.English, "en", "Approved, on public notice", "Refused", "Filed, awaiting approval", "Certificate issued", "Not shown (a minor)", "Withdrawn", "qualified for", "at least 5 wins", "at least 1 win"},
	} {
		run(t, b, "the event", chromedp.Navigate(fmt.Sprintf("%s/tournaments/%d?lang=%s", e.srv.URL, ev.ID, tt.param)),
			chromedp.WaitVisible(css(`[data-testid="grade-groups"]`)))
		shot(t, b, "gradegroups-"+tt.param)
		got, err := chromedp.Run(b, chromedp.Evaluate[gradeGroups24Page](`({
			groups: [...document.querySelectorAll('[data-testid="grade-group-name"]')].map(e => e.textContent.trim()),
			ranks: [...document.querySelectorAll('[data-testid="grade-group-rank"]')].map(e => e.textContent.trim()),
			rules: [...document.querySelectorAll('[data-testid="grade-group-rule"]')].map(e => e.textContent.replace(/\s+/g, " ").trim()),
			rows: [...document.querySelectorAll('[data-testid="grade-group"]')].map(t => [...t.querySelectorAll('[data-testid="grade-row"]')].map(r =>
				[r.querySelector('[data-testid="grade-name"]').textContent.trim(),
				 r.querySelector('[data-testid="grade-qualified"]').textContent.trim(),
				 [...r.querySelectorAll('[data-testid="outcome-status"]')].map(e => e.textContent.trim()).join(""),
				 [...r.querySelectorAll('[data-testid="outcome-link"]')].map(a => a.getAttribute("href")).join("")].join("|"))),
			props: [...document.querySelectorAll('[data-testid="proposal"]')].map(r => r.textContent.replace(/\s+/g, " ").trim() + "|" +
				[...r.querySelectorAll('a')].map(a => a.getAttribute("href")).join("")),
			main: document.querySelector("main").innerText,
			section: document.querySelector('[data-testid="grade-groups"]').innerText,
		})`))
		if err != nil {
			t.Fatal(err)
		}
		// the portal keeps the page's language in its links: compare without it
		noLang := regexp.MustCompile(`[?&]lang=[a-zA-Z-]+`)
		for i := range got.Rows {
			for j := range got.Rows[i] {
				got.Rows[i][j] = noLang.ReplaceAllString(got.Rows[i][j], "")
			}
		}
		for i := range got.Props {
			got.Props[i] = noLang.ReplaceAllString(got.Props[i], "")
		}
		if strings.Join(got.Groups, ",") != "四段组,初段组" {
			t.Errorf("%s: groups %q", tt.param, got.Groups)
		}
		if want := kit.RankName(tt.lang, four) + "," + kit.RankName(tt.lang, one); strings.Join(got.Ranks, ",") != want {
			t.Errorf("%s: target ranks %q, want %s", tt.param, got.Ranks, want)
		}
		for i, rule := range []struct {
			wins string
			rank registry.Rank
		}{{tt.wins5, four}, {tt.wins1, one}} {
			if want := rule.wins + " → " + kit.RankName(tt.lang, rule.rank); i >= len(got.Rules) || !strings.HasSuffix(got.Rules[i], want) {
				t.Errorf("%s: rules %q, want group %d's to end %q", tt.param, got.Rules, i+1, want)
			}
		}
		mark := func(r registry.Rank) string { return "✓ " + tt.qual + " " + kit.RankName(tt.lang, r) }
		line := map[string]string{
			"甲一": mark(four) + "|" + tt.onNotice + "|" + notice, "甲二": mark(four) + "|" + tt.refused + "|",
			"甲三": "|" + tt.withdrawn + "|", "甲四": "||",
			"乙一": mark(one) + "|" + tt.issued + "|" + verify, "乙二": mark(one) + "|" + tt.withheld + "|",
			"乙三": mark(one) + "|" + tt.filed + "|", "乙四": "||",
		}
		// each group's players in the order of the event's standings
		want := [][]string{nil, nil}
		for _, s := range rep.Standings {
			g := 0
			if strings.HasPrefix(s.Name, "乙") {
				g = 1
			}
			want[g] = append(want[g], s.Name+"|"+line[s.Name])
		}
		if fmt.Sprint(got.Rows) != fmt.Sprint(want) {
			t.Errorf("%s: group tables\n got %q\nwant %q", tt.param, got.Rows, want)
		}
		// the proposals' table says the same, the minor's withheld
		props := strings.Join(got.Props, "\n")
		for _, w := range []string{tt.onNotice + " · " + map[kit.Lang]string{kit.Chinese: "公示", kit.English: "public notice"}[tt.lang] + "|" + notice,
			tt.issued + " · " + issued.CertificateNumber + "|" + verify, tt.refused + "|", tt.filed + "|", "乙二" + tt.withheld + "|", "甲三" + tt.withdrawn + "|"} {
			if !strings.Contains(props, w) {
				t.Errorf("%s: the proposals lack %q:\n%s", tt.param, w, props)
			}
		}
		if m := regexp.MustCompile(`#\s*\d+`).FindString(got.Main); m != "" {
			t.Errorf("%s: an internal id %q on the page", tt.param, m)
		}
		if strings.Contains(got.Main, minor.CertificateNumber) {
			t.Errorf("%s: the minor's certificate %s on the page", tt.param, minor.CertificateNumber)
		}
		// one language: names are data, the rest the page's language
		rest := got.Sections
		for _, n := range append([]string{"四段组", "初段组"}, "甲一", "甲二", "甲三", "甲四", "乙一", "乙二", "乙三", "乙四") {
			rest = strings.ReplaceAll(rest, n, "")
		}
		if tt.lang == kit.Chinese && regexp.MustCompile(`[A-Za-z]`).MatchString(rest) {
			t.Errorf("zh: English in the group tables: %q", rest)
		}
		if tt.lang == kit.English && regexp.MustCompile(`\p{Han}`).MatchString(rest) {
			t.Errorf("en: Chinese in the group tables: %q", rest)
		}
		// on a 390 px phone the group tables scroll inside their box
		run(t, b, "a phone", chromedp.EmulateViewport(390, 844))
		over, err := chromedp.Run(b, chromedp.Evaluate[int](`(() => { const s = document.querySelector('[data-testid="grade-groups"]');
			return Math.ceil(Math.max(s.scrollWidth - s.clientWidth, s.getBoundingClientRect().right - window.innerWidth)) })()`))
		if err != nil || over > 0 {
			t.Errorf("%s: at 390 px the group tables reach %d px past the screen (%v)", tt.param, over, err)
		}
		run(t, b, "a desk", chromedp.EmulateViewport(1280, 900))
	}
}

// gradeGroups24Page is what TestGradeGroupStandings reads of the event's page.
type gradeGroups24Page struct {
	Groups   []string   `json:"groups"`
	Ranks    []string   `json:"ranks"`
	Rules    []string   `json:"rules"`
	Rows     [][]string `json:"rows"`
	Props    []string   `json:"props"`
	Main     string     `json:"main"`
	Sections string     `json:"section"`
}

// TestGradeGroupOutcomes: what the event's page reads of an issued
// application follows its certificate — a reissue's new number, none once
// revoked — and an unknown application is left out.
func TestGradeGroupOutcomes(t *testing.T) {
	e := newPortalEnv(t)
	ctx := context.Background()
	fixture.Stock(t, e.cs, "110", e.clock.Now().In(ledger.ChinaTime).Year(), 10, 10)
	c := e.issueOneDan(t, fixture.Player(t, e.reg, "110", "丙一", "", "1990-01-01", 70).ID)
	re, err := e.cs.Reissue(ctx, fixture.Staff, "", c.Number, "遗失补发")
	if err != nil || re.Number == c.Number {
		t.Fatalf("reissue %s: %+v, %v", c.Number, re, err)
	}
	outcome := func() certs.ApplicationOutcome {
		got, err := e.cs.ApplicationOutcomes(ctx, []int64{c.ApplicationID, 999999})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := got[999999]; ok || len(got) != 1 {
			t.Fatalf("outcomes %+v: want the one application only", got)
		}
		return got[c.ApplicationID]
	}
	for _, tt := range []struct {
		what    string
		act     func()
		number  string
		revoked bool
	}{
		{"reissued", func() {}, re.Number, false},
		{"revoked", func() {
			if _, err := e.cs.Revoke(ctx, fixture.Staff, "", re.Number, "冒名顶替"); err != nil {
				t.Fatal(err)
			}
		}, "", true},
	} {
		tt.act()
		o := outcome()
		if o.Status != certs.AppIssued || o.CertificateNumber != tt.number || o.Revoked != tt.revoked {
			t.Errorf("%s: %+v, want number %q revoked %v", tt.what, o, tt.number, tt.revoked)
		}
	}
}
