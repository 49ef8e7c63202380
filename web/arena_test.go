package web_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// TestArenaThroughThePortal: an agency creates a 5-a-side arena match (擂台赛)
// in Chromium, enters two teams with their order, pairs and enters one game
// at a time until one side's five are beaten, reads each player's run of
// wins and finishes the event, which names the winning team.
func TestArenaThroughThePortal(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	ctx := browser(t)
	u := e.srv.URL
	bg := context.Background()

	run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
		chromedp.SendKeys(css(`[data-testid="login-token"]`), agencyTok),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="tournament-form"]`)))
	run(t, ctx, "create the arena",
		chromedp.SendKeys(css(`[data-testid="t-name"]`), "京津擂台赛"),
		chromedp.SetValue(css(`[data-testid="t-start"]`), "2026-11-28"),
		chromedp.SetValue(css(`[data-testid="t-level"]`), "city"),
		chromedp.SetValue(css(`[data-testid="t-system"]`), "arena"),
		chromedp.SetValue(css(`[data-testid="t-rounds"]`), "1"),
		chromedp.Click(css(`[data-testid="t-team"]`)),
		chromedp.Click(css(`[data-testid="t-create"]`)),
		chromedp.WaitVisible(css(`[data-testid="participant-form"]`)))
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	var eventID int64
	if _, err := fmt.Sscanf(loc[len(u):], "/tournaments/%d", &eventID); err != nil {
		t.Fatalf("after creating: at %s", loc)
	}
	// participants 1–5 are 北京 in order, 6–10 天津
	for i := range 10 {
		team, board := "北京", i+1
		if i >= 5 {
			team, board = "天津", i-4
		}
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("擂主%s%d", team, board), "1d", "1995-01-01", 300+i)
		pick := `[data-testid="p-pick-` + strconv.FormatInt(p.ID, 10) + `"]`
		run(t, ctx, "add a player found by name",
			chromedp.SendKeys(css(`[data-testid="p-find"]`), p.Name),
			chromedp.Click(css(`[data-testid="p-find-submit"]`)),
			chromedp.WaitVisible(css(pick)),
			chromedp.Click(css(pick)),
			chromedp.SendKeys(css(`[data-testid="p-team"]`), team),
			chromedp.SendKeys(css(`[data-testid="p-board"]`), strconv.Itoa(board)),
			chromedp.Click(css(`[data-testid="p-add"]`)),
			chromedp.WaitVisible(css(fmt.Sprintf(`[data-testid="participants"] tbody tr:nth-child(%d)`, i+1))))
	}
	// 天津's third player (8) wins every game he plays; everyone else loses to him
	// and the lower number wins otherwise: 1 beats 6 and 7, 8 beats 1–5.
	for round := 1; ; round++ {
		run(t, ctx, fmt.Sprintf("pair game %d", round), chromedp.Click(css(`[data-testid="pair"]`)))
		waitText(t, ctx, `[data-testid="ok"]`, "本轮已编排。")
		rep, err := e.ts.EventReport(bg, eventID)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Rounds) != round || len(rep.Rounds[round-1].Games) != 1 {
			t.Fatalf("after pairing game %d: %d rounds", round, len(rep.Rounds))
		}
		g := rep.Rounds[round-1].Games[0]
		res := "black"
		if g.White == 8 || (g.Black != 8 && g.White < g.Black) {
			res = "white"
		}
		run(t, ctx, fmt.Sprintf("result of game %d", round),
			chromedp.SetValue(css(fmt.Sprintf(`[data-testid="result-%d-1"]`, round)), res),
			chromedp.Click(css(fmt.Sprintf(`[data-testid="results-submit-%d"]`, round))))
		waitText(t, ctx, `[data-testid="ok"]`, "成绩已保存。")
		if round > 12 {
			t.Fatal("the arena never ended")
		}
		if rep, _ = e.ts.EventReport(bg, eventID); rep.Arena != nil && rep.Arena.Decided {
			if round != 7 {
				t.Fatalf("decided after %d games, want 7 (1 beats 6 and 7, 8 beats all five)", round)
			}
			break
		}
	}
	run(t, ctx, "reload", chromedp.Navigate(fmt.Sprintf("%s/tournaments/%d", u, eventID)), chromedp.WaitVisible(css(`[data-testid="arena"]`)))
	if got := text(t, ctx, `[data-testid="arena-winner"]`); got != "天津" {
		t.Fatalf("arena winner %q", got)
	}
	if got := text(t, ctx, `[data-testid="arena-player-8"] [data-testid="arena-wins"]`); got != "5" {
		t.Fatalf("天津3's wins in a row %q", got)
	}
	if got := text(t, ctx, `[data-testid="arena-player-1"] [data-testid="arena-wins"]`); got != "2" {
		t.Fatalf("北京1's wins in a row %q", got)
	}
	run(t, ctx, "finish, after the confirmation page", chromedp.Click(css(`[data-testid="finish"]`)),
		chromedp.WaitVisible(css(`[data-testid="confirm-submit"]`)), chromedp.Click(css(`[data-testid="confirm-submit"]`)))
	waitText(t, ctx, `[data-testid="ok"]`, "比赛已结束。")
	if got := text(t, ctx, `[data-testid="arena-result"]`); !strings.Contains(got, "获胜队") || !strings.Contains(got, "天津") {
		t.Fatalf("the finished page says %q", got)
	}
}

// TestTeamFormatMessagesExist: every system and team format the forms
// offer is worded in both languages.
func TestTeamFormatMessagesExist(t *testing.T) {
	for _, l := range []web.Lang{web.Chinese, web.English} {
		m := web.Messages(l)
		var keys []string
		for _, s := range tournaments.Systems() {
			keys = append(keys, "system_"+string(s))
		}
		for _, f := range tournaments.TeamFormats() {
			keys = append(keys, "team_format_"+string(f))
		}
		for _, k := range append(keys, "team_boards_given", "team_boards_rank", "reserves", "reserve", "arena_wins") {
			if m[k] == "" {
				t.Errorf("%v: no %s", l, k)
			}
		}
	}
}

// TestPlayoffThroughThePortal: after a round robin of three ends in a
// cycle, the organiser's page offers a playoff; he pairs playoff rounds
// and enters their results in Chromium until the standings separate the
// three, and the offer is gone.
func TestPlayoffThroughThePortal(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	ctx := browser(t)
	u := e.srv.URL
	bg := context.Background()
	org := fixture.Agency("110")
	ev, err := e.ts.CreateEvent(bg, org, "", tournaments.EventInput{Name: "加赛赛", Start: "2026-11-28", Level: "city", System: "round_robin", Ties: "playoff"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := e.ts.AddParticipant(bg, org, "", ev.ID, tournaments.ParticipantInput{GuestName: fmt.Sprint("选手", i+1), GuestRank: "1d"}); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 { // 1 beats 2, 2 beats 3, 3 beats 1
		r, err := e.ts.PairNextRound(bg, org, "", ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range r.Games {
			res := "white"
			if g.Black%3+1 == g.White {
				res = "black"
			}
			if _, err := e.ts.RecordResult(bg, org, "", ev.ID, tournaments.ResultInput{Round: g.Round, Board: g.Board, Result: res}); err != nil {
				t.Fatal(err)
			}
		}
	}
	page := fmt.Sprintf("%s/tournaments/%d", u, ev.ID)
	run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
		chromedp.SendKeys(css(`[data-testid="login-token"]`), agencyTok),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="tournament-form"]`)),
		chromedp.Navigate(page), chromedp.WaitVisible(css(`[data-testid="playoff"]`)))
	for round := 4; ; round++ {
		run(t, ctx, "pair a playoff round", chromedp.Click(css(`[data-testid="playoff"]`)))
		waitText(t, ctx, `[data-testid="ok"]`, "加赛已编排。")
		rep, err := e.ts.EventReport(bg, ev.ID)
		if err != nil || len(rep.Rounds) != round || !rep.Rounds[round-1].Playoff {
			t.Fatalf("after pairing a playoff: %d rounds, %v", len(rep.Rounds), err)
		}
		g := rep.Rounds[round-1].Games[0]
		res := "black"
		if g.White < g.Black {
			res = "white"
		}
		run(t, ctx, "playoff result",
			chromedp.SetValue(css(fmt.Sprintf(`[data-testid="result-%d-1"]`, round)), res),
			chromedp.Click(css(fmt.Sprintf(`[data-testid="results-submit-%d"]`, round))))
		waitText(t, ctx, `[data-testid="ok"]`, "成绩已保存。")
		nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(`[data-testid="playoff"]`), chromedp.AtLeast(0)))
		if err != nil {
			t.Fatal(err)
		}
		if len(nodes) == 0 {
			break
		}
		if round > 8 {
			t.Fatal("the playoff is still offered")
		}
	}
	if got := text(t, ctx, `[data-testid="standing-name"]`); got != "选手1" {
		t.Fatalf("after the playoff the leader is %q", got)
	}
}
