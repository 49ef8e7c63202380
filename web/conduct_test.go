package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// TestConductOnThePortal: an event's supplementary rules (byo-yomi, the
// same-place lateness limit, sealed moves) are shown on its page; the
// referee records a lateness and an adjournment whose sealed point is
// occupied on the referee page, and a lateness beyond the limit comes back
// refused beside its field; a loss on time and a final no-result are shown
// in Chinese and in English.
func TestConductOnThePortal(t *testing.T) {
	e := &refereeEnv{portalEnv: newPortalEnv(t)}
	bg := context.Background()
	beijing := fixture.Agency("110")
	day := e.clock.Now().In(ledger.ChinaTime).Format("2006-01-02")
	ev, err := e.ts.CreateEvent(bg, beijing, "", tournaments.EventInput{Name: "补充规定赛", Start: day, Level: "city", System: "round_robin",
		Conduct: &tournaments.ConductInput{BasicMinutes: 120, Method: "byoyomi", ByoyomiPeriods: 3, ByoyomiSeconds: 60, ByoyomiKeptMinutes: 5,
			Lateness: "same_place", Sealing: "sealed_move", Cycle: "draw", Document: "本次比赛采用2002年中国围棋竞赛规则。"}})
	if err != nil {
		t.Fatal(err)
	}
	e.event = ev.ID
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", "棋手"+[]string{"甲", "乙", "丙", "丁"}[i], "1k", "1990-01-01", 320+i)
		if _, err := e.ts.AddParticipant(bg, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.ts.PairNextRound(bg, beijing, "", ev.ID); err != nil {
		t.Fatal(err)
	}
	e.agency, e.staff = e.tokens(t)
	e.page = e.srv.URL + "/tournaments/" + strconv.FormatInt(ev.ID, 10) + "/referee"
	e.ctx = browser(t)
	e.signIn(t, e.agency)

	e.act(t, "lateness", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="lateness-round"]`), "1"),
		chromedp.SendKeys(css(`[data-testid="lateness-board"]`), "1"), chromedp.SetValue(css(`[data-testid="cond-side"]`), "white"),
		chromedp.SendKeys(css(`[data-testid="lateness-minutes"]`), "10")},
		[]string{"补充规定赛", "10"}, "迟到已记录。")
	e.act(t, "adjourn", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="adjourn-round"]`), "1"),
		chromedp.SendKeys(css(`[data-testid="adjourn-board"]`), "2"), chromedp.SetValue(css(`[data-testid="cond-sealed_by"]`), "black"),
		chromedp.SendKeys(css(`[data-testid="adjourn-point"]`), "dp"), chromedp.SetValue(css(`[data-testid="adjourn-record"]`), "(;SZ[19];B[pd];W[dp])")},
		[]string{"补充规定赛", "dp", "黑方"}, "封棋已记录。")
	// beyond the 15 minutes: refused beside the minutes, the typed value kept
	run(t, e.ctx, "a lateness beyond the limit", chromedp.Navigate(e.page), chromedp.WaitVisible(css(`[data-testid="lateness-form"]`)),
		chromedp.SetValue(css(`[data-testid="lateness-round"]`), "1"), chromedp.SendKeys(css(`[data-testid="lateness-board"]`), "1"),
		chromedp.SendKeys(css(`[data-testid="lateness-minutes"]`), "16"),
		chromedp.Click(css(`[data-testid="lateness-submit"]`)), chromedp.WaitVisible(css(`[data-testid="confirm-submit"]`)),
		chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[data-testid="form-error"]`)))
	minutes, err := chromedp.Run(e.ctx, chromedp.Value(css(`[data-testid="lateness-minutes"]`)))
	if err != nil {
		t.Fatal(err)
	}
	if page := text(t, e.ctx, `main`); minutes != "16" || !strings.Contains(page, "超过本次比赛的 15 分钟时限") {
		t.Fatalf("the refused lateness: %q\n%s", minutes, page)
	}
	rep := e.report(t)
	if len(rep.Latenesses) != 1 || rep.Latenesses[0].DeductedMinutes != 20 || len(rep.Adjournments) != 1 || !rep.Adjournments[0].CountsAsPass {
		t.Fatalf("recorded: %+v %+v", rep.Latenesses, rep.Adjournments)
	}
	for board, res := range map[int]string{1: "white_time_loss", 2: "no_result_final"} {
		if _, err := e.ts.RecordResult(bg, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: board, Result: res}); err != nil {
			t.Fatal(err)
		}
	}
	event := e.srv.URL + "/tournaments/" + strconv.FormatInt(ev.ID, 10)
	for _, c := range []struct {
		lang string
		want []string
		not  string
	}{
		{"zh", []string{"竞赛补充规定", "读秒", "保留 5 分钟开始读秒", "15 分钟（赛场与住地同在一处）", "采用封棋制度", "和棋",
			"该点已有棋子：判弃权一次", "加倍扣除", "黑胜（白方超时判负）", "无胜负（终局）"}, "byo-yomi"},
		{"en", []string{"Supplementary rules", "byo-yomi", "counting starts with 5 min", "15 minutes (venue and lodging at one place)",
			"sealed move", "occupied point: counts as a pass", "Deducted (double)", "Black wins (White lost on time)", "No result (final)"}, "读秒"},
	} {
		run(t, e.ctx, "the event page in "+c.lang, chromedp.Navigate(event+"?lang="+c.lang), chromedp.WaitVisible(css(`[data-testid="conduct"]`)))
		page := text(t, e.ctx, `main`)
		for _, w := range c.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s: the event page lacks %q", c.lang, w)
			}
		}
		if strings.Contains(page, c.not) {
			t.Errorf("%s: the event page has %q", c.lang, c.not)
		}
	}
}
