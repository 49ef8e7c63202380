package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/eventratings"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// ratedPortal is a portal with ratings where the env's player (3 dan
// declared) has played two finished events.
func ratedPortal(t *testing.T) *portalEnv {
	t.Helper()
	var b *book.Book
	e := newPortalEnvWith(t, func(s *ledger.Store) web.Options { b = book.New(s); return web.Options{Ratings: b} })
	ts := tournaments.New(e.store, e.reg, proposals.Certs{Certs: e.cs}, tournaments.WithRater(eventratings.Book{Book: b}))
	entrants := []tournaments.ParticipantInput{{PlayerID: e.player.ID}}
	for i, r := range []string{"2d", "1d", "3d"} {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("对手%d", i+1), r, "1990-01-01", i+1)
		entrants = append(entrants, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	entrants = append(entrants, tournaments.ParticipantInput{GuestName: "Ma Lin", GuestRank: "5d", GuestCountry: "SG"})
	fixture.RoundRobin(t, ts, "十月赛", "2026-10-03", entrants[:4], fixture.LowerWins)
	fixture.RoundRobin(t, ts, "十一月赛", "2026-11-07", entrants, func(r, b, w int) string { return fixture.LowerWins(r, w, b) })
	return e
}

// TestRatingChartInChromium opens the player's public page in headless
// Chromium, in both languages: beside his certificates, an SVG chart with
// one point per rated event, its 95 % band and grade lines, the certified
// rank as a line, and the table of the same history.
func TestRatingChartInChromium(t *testing.T) {
	e := ratedPortal(t)
	e.stockThisYear(t)
	a, err := e.cs.Apply(context.Background(), fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: e.player.ID, TargetRank: "1d",
		Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", e.player.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Approve(context.Background(), fixture.Agency("110"), "", a.ID); err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	u := e.srv.URL + "/players/" + strconv.FormatInt(e.player.ID, 10)
	for _, tt := range []struct{ lang, heading, title string }{
		{"zh-CN", "等级分变化", "王小明的等级分变化"},
		{"en", "Rating history", "Rating history of 王小明"},
	} {
		run(t, ctx, "open the player's page in "+tt.lang, chromedp.Navigate(u+"?lang="+tt.lang),
			chromedp.WaitVisible(css(`[data-testid="rating-chart"]`)))
		if got := text(t, ctx, `[data-testid="player-rating"] h2`); got != tt.heading {
			t.Errorf("%s: heading %q, want %q", tt.lang, got, tt.heading)
		}
		title, err := chromedp.Run(ctx, chromedp.TextContent(css(`[data-testid="rating-chart"] > title`)))
		if err != nil || !strings.HasPrefix(title, tt.title) {
			t.Errorf("%s: chart titled %q (%v), want %q…", tt.lang, title, err, tt.title)
		}
		points, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(`[data-testid="rating-chart"] circle.rating-point`), chromedp.AtLeast(0)))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(`[data-testid="rating-history"] tbody tr`), chromedp.AtLeast(0)))
		if err != nil {
			t.Fatal(err)
		}
		if len(points) != 2 || len(rows) != 2 {
			t.Errorf("%s: %d points, %d history rows; want 2 events", tt.lang, len(points), len(rows))
		}
		for _, sel := range []string{"polyline.rating-line", "polygon.rating-band", "polyline.certified-rank"} {
			pts, err := chromedp.Run(ctx, chromedp.AttributeValue(css(`[data-testid="rating-chart"] `+sel), "points"))
			if err != nil || len(strings.Fields(pts.Value)) < 2 {
				t.Errorf("%s: %s points %q, %v", tt.lang, sel, pts.Value, err)
			}
		}
		marks, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(`[data-testid="rating-chart"] rect.certificate`), chromedp.AtLeast(0)))
		if err != nil || len(marks) != 1 {
			t.Errorf("%s: %d certificate marks, want 1 (%v)", tt.lang, len(marks), err)
		}
		// the chart is drawn: Chromium lays it out at its size
		box, err := chromedp.Run(ctx, chromedp.Dimensions(css(`[data-testid="rating-chart"]`)))
		if err != nil || box.Width < 300 || box.Height < 100 {
			t.Errorf("%s: chart box %+v, %v", tt.lang, box, err)
		}
		if got := text(t, ctx, `[data-testid="rating-estimate"]`); got == "" {
			t.Errorf("%s: no rank estimate", tt.lang)
		}
	}
}

// TestRatingListsWithoutJavaScript reads the public rating lists by
// province and rank as plain HTTP.
func TestRatingListsWithoutJavaScript(t *testing.T) {
	e := ratedPortal(t)
	tests := []struct {
		path     string
		code     int
		contains []string
		absent   []string
	}{
		{"/ratings", 200, []string{"王小明", "对手3", "Ma Lin (SG)", "外来棋手", "北京市", "参数：经校准的默认值", "learn=0.5"}, nil},
		{"/ratings?province=11", 200, []string{"王小明", "对手1"}, []string{"Ma Lin"}},
		{"/ratings?province=31", 200, []string{"没有符合条件的棋手"}, []string{"王小明"}},
		{"/ratings?rank=30k", 200, []string{"没有符合条件的棋手"}, nil},
		{"/ratings?rank=99d", 400, []string{"form-error"}, nil},
		{"/ratings?province=xx", 400, []string{"form-error"}, nil},
		{"/ratings?lang=en", 200, []string{"Ratings", "Rank estimate", "Guest", "Parameters: the calibrated defaults"}, nil},
	}
	for _, tt := range tests {
		code, body := get(t, e.srv.URL+tt.path)
		if code != tt.code {
			t.Errorf("GET %s = %d, want %d", tt.path, code, tt.code)
		}
		if strings.Contains(body, "<script") {
			t.Errorf("GET %s serves a script", tt.path)
		}
		for _, s := range tt.contains {
			if !strings.Contains(body, s) {
				t.Errorf("GET %s lacks %q", tt.path, s)
			}
		}
		for _, s := range tt.absent {
			if strings.Contains(body, s) {
				t.Errorf("GET %s shows %q", tt.path, s)
			}
		}
	}
}

// TestRatingTuneOnThePortal: staff tune the rating parameters from the
// portal through a confirmation page; the book's refusal (too few games in
// this registry) comes back worded; an agency is refused the page.
func TestRatingTuneOnThePortal(t *testing.T) {
	e := ratedPortal(t)
	agencyTok, staffTok := e.tokens(t)
	u := e.srv.URL
	agency := client(t)
	e.signIn(t, agency, agencyTok)
	if code, _, _ := fetch(t, agency, "GET", u+"/ratings/tune", nil); code != http.StatusForbidden {
		t.Fatalf("an agency's tuning page: %d", code)
	}
	staff := client(t)
	e.signIn(t, staff, staffTok)
	code, page, _ := fetch(t, staff, "GET", u+"/ratings/tune", nil)
	if code != http.StatusOK || !strings.Contains(page, "参数：经校准的默认值") || !strings.Contains(page, `data-testid="rating-tune-form"`) {
		t.Fatalf("tuning page %d: %s", code, page)
	}
	_, confirm, _ := fetch(t, staff, "GET", u+"/ratings/tune/confirm?eval_frac=0.3&budget=5", nil)
	if !strings.Contains(confirm, "请确认：调校等级分参数并重算全部等级分") || !strings.Contains(confirm, `name="confirm" value="yes"`) {
		t.Fatalf("confirmation: %s", confirm)
	}
	code, body, _ := fetch(t, staff, "POST", u+"/ratings/tune", url.Values{"csrf": {csrfOf(t, confirm)}, "eval_frac": {"0.3"}, "budget": {"5"}, "confirm": {"yes"}})
	if code != http.StatusBadRequest || !strings.Contains(body, "只有 16 盘已评对局") {
		t.Fatalf("tuning 16 games: %d %s", code, body)
	}
}

// TestRatingGroupFlagsOnEventPages opens a dan-grade event's page in
// headless Chromium as its organiser and as staff, in both languages: an
// entrant of the 1-dan group rated far below it (15 kyu declared, beaten
// by everyone) is flagged with his figures; a 1 kyu entrant near the
// group's rank is not; the public sees no flag. Staff, and only staff,
// have the link to the tuning page in the navigation.
func TestRatingGroupFlagsOnEventPages(t *testing.T) {
	var b *book.Book
	e := newPortalEnvWith(t, func(s *ledger.Store) web.Options { b = book.New(s); return web.Options{Ratings: b} })
	ctx := context.Background()
	ts := tournaments.New(e.store, e.reg, proposals.Certs{Certs: e.cs}, tournaments.WithRater(eventratings.Book{Book: b}))
	var ps []tournaments.ParticipantInput
	for i, r := range []string{"1k", "2k", "12k", "15k"} {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("棋手%d", i+1), r, "1990-01-01", i+11)
		ps = append(ps, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	fixture.RoundRobin(t, ts, "一月赛", "2026-01-10", ps, fixture.LowerWins)
	fixture.RoundRobin(t, ts, "二月赛", "2026-02-14", ps, fixture.LowerWins)
	org := fixture.Agency("110")
	ev, err := ts.CreateEvent(ctx, org, "", tournaments.EventInput{Name: "定段赛", Start: "2026-03-14", Level: "province",
		System: "round_robin", DanGrade: true, ChiefReferee: "王裁判",
		Groups: []tournaments.GroupInput{{Name: "升段组", TargetRank: "1d", MinWins: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []tournaments.ParticipantInput{ps[0], ps[3]} {
		p.Group = "升段组"
		if _, err := ts.AddParticipant(ctx, org, "", ev.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	page := e.srv.URL + "/tournaments/" + strconv.FormatInt(ev.ID, 10)
	if _, body := get(t, page); strings.Contains(body, "rating-flag") || strings.Contains(body, "棋手4（") {
		t.Fatalf("the public sees the rating flags: %s", body)
	}
	agencyTok, staffTok := e.tokens(t)
	for _, who := range []struct {
		name, tok string
		staff     bool
	}{{"organiser", agencyTok, false}, {"staff", staffTok, true}} {
		bctx := browser(t)
		run(t, bctx, "sign in as "+who.name, chromedp.Navigate(e.srv.URL+"/login"),
			chromedp.SendKeys(css(`[data-testid="login-token"]`), who.tok),
			chromedp.Click(css(`[data-testid="login-submit"]`)),
			chromedp.WaitVisible(css(`[data-testid="logout"]`)))
		for _, tt := range []struct{ lang, heading, apart, text string }{
			{"zh-CN", "等级分与组别段位相差较大的选手", "低", "低于目标"},
			{"en", "Ratings far from the group's rank", "grades below", "grades below the target: review"},
		} {
			run(t, bctx, who.name+" opens the event in "+tt.lang, chromedp.Navigate(page+"?lang="+tt.lang),
				chromedp.WaitVisible(css(`[data-testid="rating-flags"]`)))
			if got := text(t, bctx, `[data-testid="rating-flags"] h2`); got != tt.heading {
				t.Errorf("%s %s: heading %q, want %q", who.name, tt.lang, got, tt.heading)
			}
			rows, err := chromedp.Run(bctx, chromedp.Nodes(chromedp.CSSAll(`[data-testid="rating-flag"]`), chromedp.AtLeast(0)))
			if err != nil || len(rows) != 1 {
				t.Fatalf("%s %s: %d flagged rows (%v), want 1", who.name, tt.lang, len(rows), err)
			}
			row := text(t, bctx, `[data-testid="rating-flag"]`)
			if !strings.Contains(row, "棋手4") || strings.Contains(row, "棋手1") || !strings.Contains(row, tt.apart) {
				t.Errorf("%s %s: flagged row %q", who.name, tt.lang, row)
			}
			if fig := text(t, bctx, `[data-testid="rating-flag-rating"]`); !strings.Contains(fig, "±") {
				t.Errorf("%s %s: figures %q", who.name, tt.lang, fig)
			}
			msg := text(t, bctx, `[data-testid="rating-flag-text"]`)
			if !strings.Contains(msg, tt.text) || !strings.Contains(msg, "棋手4") {
				t.Errorf("%s %s: flag text %q", who.name, tt.lang, msg)
			}
			if tt.lang == "en" && (strings.Contains(msg, "低于目标") || strings.Contains(msg, "请审核")) {
				t.Errorf("Chinese words on the English page: %q", msg)
			}
			links, err := chromedp.Run(bctx, chromedp.Nodes(chromedp.CSSAll(`[data-testid="nav-rating-tune"]`), chromedp.AtLeast(0)))
			if err != nil || (len(links) == 1) != who.staff {
				t.Errorf("%s %s: %d links to the tuning page (%v)", who.name, tt.lang, len(links), err)
			}
		}
	}
}
