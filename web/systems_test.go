package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/tournaments"
)

// TestEverySystemThroughThePortal runs, in Chromium, each system of
// article 26 that the arena test does not: the organiser creates the event
// on the portal's form with its size, pairs every round and enters every
// result there (the lower participant number wins), until pairing says the
// event is decided.
func TestEverySystemThroughThePortal(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	ctx := browser(t)
	u := e.srv.URL
	bg := context.Background()
	run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
		chromedp.SendKeys(css(`[data-testid="login-token"]`), agencyTok),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="tournament-form"]`)))
	seq := 0
	for _, tt := range []struct {
		name, system, sizeField, size, rounds string
		players, wantRounds                   int
	}{
		{"三败淘汰", "multi_elimination", "t-lives", "3", "", 8, 0},
		{"三循环", "multi_round_robin", "t-cycles", "3", "", 4, 9},
		{"积分编排加淘汰", "swiss_elimination", "t-lives", "3", "9", 24, 0},
		{"五局三胜决赛", "match", "t-best-of", "5", "", 2, 3},
	} {
		t.Run(tt.system, func(t *testing.T) {
			run(t, ctx, "create", chromedp.Navigate(u+"/workspace"),
				chromedp.WaitVisible(css(`[data-testid="tournament-form"]`)),
				chromedp.SendKeys(css(`[data-testid="t-name"]`), tt.name),
				chromedp.SetValue(css(`[data-testid="t-start"]`), "2026-11-28"),
				chromedp.SetValue(css(`[data-testid="t-level"]`), "city"),
				chromedp.SetValue(css(`[data-testid="t-system"]`), tt.system),
				chromedp.SetValue(css(`[data-testid="t-rounds"]`), tt.rounds),
				chromedp.SetValue(css(`[data-testid="`+tt.sizeField+`"]`), tt.size),
				chromedp.Click(css(`[data-testid="t-create"]`)),
				chromedp.WaitVisible(css(`[data-testid="participant-form"]`)))
			loc, err := chromedp.Run(ctx, chromedp.Location())
			if err != nil {
				t.Fatal(err)
			}
			var id int64
			if _, err := fmt.Sscanf(loc[len(u):], "/tournaments/%d", &id); err != nil {
				t.Fatalf("after creating: at %s", loc)
			}
			ev, err := e.ts.GetEvent(bg, id)
			if err != nil || string(ev.System) != tt.system || ev.Lives+ev.Cycles+ev.BestOf == 0 {
				t.Fatalf("created %+v %v", ev, err)
			}
			for i := range tt.players { // seeded by number: ranks fall with it
				p := fixture.Player(t, e.reg, "110", fmt.Sprintf("%s%02d", tt.name, i+1), fmt.Sprintf("%dk", i+1), "1990-01-01", 400+seq)
				seq++
				if _, err := e.ts.AddParticipant(bg, fixture.Agency("110"), "", id, tournaments.ParticipantInput{PlayerID: p.ID}); err != nil {
					t.Fatal(err)
				}
			}
			run(t, ctx, "reload", chromedp.Navigate(fmt.Sprintf("%s/tournaments/%d", u, id)), chromedp.WaitVisible(css(`[data-testid="pair"]`)))
			for round := 1; ; round++ {
				run(t, ctx, fmt.Sprintf("pair round %d", round), chromedp.Click(css(`[data-testid="pair"]`)))
				rep, refused := pairedOrRefused(t, ctx, e, id, round)
				if refused != "" { // decided, or all rounds paired
					if round == 1 {
						t.Fatalf("round 1 refused: %q", refused)
					}
					break
				}
				if round > 40 {
					t.Fatal("still pairing after 40 rounds")
				}
				var actions []chromedp.Action[chromedp.Void]
				for _, g := range rep.Rounds[round-1].Games {
					res := "black"
					if g.White < g.Black {
						res = "white"
					}
					actions = append(actions, chromedp.SetValue(css(fmt.Sprintf(`[data-testid="result-%d-%d"]`, round, g.Board)), res))
				}
				actions = append(actions, chromedp.Click(css(fmt.Sprintf(`[data-testid="results-submit-%d"]`, round))))
				run(t, ctx, fmt.Sprintf("results of round %d", round), actions...)
				waitText(t, ctx, `[data-testid="ok"]`, "成绩已保存。")
			}
			rep, _ := e.ts.EventReport(bg, id)
			losses := map[int]int{}
			for _, rd := range rep.Rounds {
				for _, g := range rd.Games {
					losses[max(g.Black, g.White)]++
				}
			}
			switch tt.system {
			case "multi_elimination":
				for n := 2; n <= tt.players; n++ {
					if losses[n] != 3 {
						t.Fatalf("participant %d lost %d, want out after 3: %v", n, losses[n], losses)
					}
				}
			case "swiss_elimination":
				for n, l := range losses {
					if l > 3 {
						t.Fatalf("participant %d played on after his third loss (%d)", n, l)
					}
				}
			default:
				if len(rep.Rounds) != tt.wantRounds {
					t.Fatalf("%d rounds, want %d", len(rep.Rounds), tt.wantRounds)
				}
			}
			if rep.Standings[0].Entrant != 1 {
				t.Fatalf("winner %+v", rep.Standings[0])
			}
		})
	}
}

// pairedOrRefused waits, after the pair button, until the round is paired
// or the page shows the refusal, and returns the report or the refusal.
func pairedOrRefused(t *testing.T, ctx context.Context, e *portalEnv, id int64, round int) (tournaments.Report, string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		rep, err := e.ts.EventReport(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Rounds) >= round {
			waitText(t, ctx, `[data-testid="ok"]`, "本轮已编排。")
			return rep, ""
		}
		step, cancel := context.WithTimeout(ctx, time.Second)
		nodes, err := chromedp.Run(step, chromedp.Nodes(chromedp.CSSAll(`[data-testid="form-error"]`), chromedp.AtLeast(0)))
		cancel()
		if err == nil && len(nodes) > 0 {
			// the page may be replaced between finding the node and reading
			// it: read again on the next turn rather than fail
			step, cancel := context.WithTimeout(ctx, time.Second)
			refused, err := chromedp.Run(step, chromedp.Text(chromedp.CSS(`[data-testid="form-error"]`)))
			cancel()
			if err == nil && strings.TrimSpace(refused) != "" {
				return rep, refused
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("round %d neither paired nor refused", round)
	return tournaments.Report{}, ""
}
