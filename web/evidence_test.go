package web_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/tournaments"
)

// TestEvidenceOnThePortal applies through the workspace's form in
// Chromium, in both languages: a reference typed as text, an event the
// player did not play in and a result below the event's published rule
// are refused beside the event field with their coded reason worded in the
// page's language; the correct event is accepted and the application shows
// the registry's record. The event's page shows its grading rules and, for
// the notice's link, the player's games.
func TestEvidenceOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	agencyTok, _ := e.tokens(t)
	ctx0 := context.Background()
	winner := fixture.Player(t, e.reg, "110", "甲胜", "1k", "1990-01-01", 11)
	loser := fixture.Player(t, e.reg, "110", "乙负", "1k", "1990-01-01", 12)
	outsider := fixture.Player(t, e.reg, "110", "丙外", "1k", "1990-01-01", 13)
	ev, err := e.ts.CreateEvent(ctx0, fixture.Agency("110"), "", tournaments.EventInput{Name: "区县升段赛", Start: e.ts.Today(), Level: "county",
		System: "round_robin", Grading: []tournaments.GradingRuleInput{{MinWins: 1, Rank: "1d"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int64{winner.ID, loser.ID} {
		if _, err := e.ts.AddParticipant(ctx0, fixture.Agency("110"), "", ev.ID, tournaments.ParticipantInput{PlayerID: p}); err != nil {
			t.Fatal(err)
		}
	}
	ri, err := e.ts.PairNextRound(ctx0, fixture.Agency("110"), "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	g := ri.Games[0]
	res := "black"
	if g.White == 1 { // participant 1, the winner, wins
		res = "white"
	}
	if _, err := e.ts.RecordResult(ctx0, fixture.Agency("110"), "", ev.ID, tournaments.ResultInput{Round: 1, Board: g.Board, Result: res}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.Finish(ctx0, fixture.Agency("110"), "", ev.ID); err != nil {
		t.Fatal(err)
	}
	event := strconv.FormatInt(ev.ID, 10)

	ctx := browser(t)
	u := e.srv.URL
	if err := chromedp.Do(ctx, chromedp.Navigate(u+"/")); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
		chromedp.SendKeys(css(`[data-testid="login-token"]`), agencyTok),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="apply-form"]`)))

	tests := []struct {
		name, lang string
		player     int64
		event      string
		evidence   string
		want       string // in the event field's refusal; "" accepted
	}{
		{"text is no evidence", "zh-CN", winner.ID, "", "区县升段赛 1胜", "文字填写的赛事和成绩不能作为申请依据"},
		{"text is no evidence", "en", winner.ID, "", "county event, 1 win", "given as text is no evidence"},
		{"did not play", "zh-CN", outsider.ID, event, "", "不是赛事 " + event},
		{"did not play", "en", outsider.ID, event, "", "is not a registered participant of event " + event},
		{"below the published rule", "zh-CN", loser.ID, event, "", "按赛前公布的规则可获无，达不到1段"},
		{"below the published rule", "en", loser.ID, event, "", "the published rules earn none, not 1d (needs wins ≥ 1 → 1d)"},
		{"earned", "en", winner.ID, event, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.lang, func(t *testing.T) {
			run(t, ctx, "open the form", chromedp.Navigate(u+"/workspace/apply?lang="+tt.lang+"&player="+strconv.FormatInt(tt.player, 10)),
				chromedp.WaitVisible(css(`[data-testid="apply-submit"]`)))
			actions := []chromedp.Action[chromedp.Void]{chromedp.SendKeys(css(`[data-testid="apply-rank"]`), "1d")}
			if tt.event != "" {
				actions = append(actions, chromedp.SendKeys(css(`[data-testid="apply-event"]`), tt.event))
			}
			if tt.evidence != "" {
				actions = append(actions, chromedp.SendKeys(css(`textarea[name="evidence"]`), tt.evidence))
			}
			wait := `[data-testid="field-error-event_id"]`
			if tt.want == "" {
				wait = `[data-testid="ok"]`
			}
			actions = append(actions, chromedp.Click(css(`[data-testid="apply-submit"]`)), chromedp.WaitVisible(css(wait)))
			run(t, ctx, "apply", actions...)
			if tt.want == "" {
				if got := text(t, ctx, `[data-testid="application-record"]`); !strings.Contains(got, "placing 1, 1 wins of 1") {
					t.Fatalf("the registry's record on the application: %q", got)
				}
				return
			}
			if got := text(t, ctx, wait); !strings.Contains(got, tt.want) {
				t.Fatalf("refusal %q, want %q", got, tt.want)
			}
		})
	}

	// the event's page shows its rules, published before the start, and the player's games
	run(t, ctx, "the event's page", chromedp.Navigate(u+"/tournaments/"+event+"?lang=zh-CN&player="+strconv.FormatInt(winner.ID, 10)),
		chromedp.WaitVisible(css(`[data-testid="player-games"]`)))
	if got := text(t, ctx, `[data-testid="grading-rules"]`); !strings.Contains(got, "胜 1 局以上 → 1段") {
		t.Errorf("rules %q", got)
	}
	if got := text(t, ctx, `[data-testid="grading-published"]`); !strings.Contains(got, "赛前公布") {
		t.Errorf("published %q", got)
	}
	if got := text(t, ctx, `[data-testid="player-game"]`); !strings.Contains(got, "甲胜") {
		t.Errorf("the player's game %q", got)
	}
}

// TestNationalListPage: staff put a finished event on the national list
// from their workspace; an unknown event is refused beside its field in the
// page's language; the list shows the event.
func TestNationalListPage(t *testing.T) {
	e := newPortalEnv(t)
	_, staffTok := e.tokens(t)
	c := client(t)
	e.signIn(t, c, staffTok)
	u := e.srv.URL
	ev := fixture.Earned(t, e.ts, "1d", e.player.ID)
	_, page, _ := fetch(t, c, "GET", u+"/workspace/national?lang=zh-CN", nil)
	for _, tt := range []struct {
		lang, event string
		code        int
		want        string
	}{
		{"zh-CN", "99999", 404, "登记系统中没有编号为 99999 的赛事"},
		{"en", "99999", 404, "there is no registry event 99999"},
		{"zh-CN", strconv.FormatInt(ev, 10), 303, ""},
	} {
		form := url.Values{"csrf": {csrfOf(t, page)}, "idem": {"n-" + tt.lang + tt.event}, "event_id": {tt.event}, "max_placing": {"8"}, "championship": {"1"}}
		code, body, _ := fetch(t, c, "POST", u+"/workspace/national?lang="+tt.lang, form)
		if code != tt.code || !strings.Contains(body, tt.want) {
			t.Errorf("%s %s: %d, want %d with %q", tt.lang, tt.event, code, tt.code, tt.want)
		}
	}
	_, list, _ := fetch(t, c, "GET", u+"/workspace/national", nil)
	if !strings.Contains(list, `data-testid="national-`+strconv.FormatInt(ev, 10)+`"`) {
		t.Errorf("the listed event is not on the page")
	}
}
