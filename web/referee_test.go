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

// refereeEnv is a portal with Beijing's four-player event decided by
// nigiri, round 1 played (both boards black wins) and round 2 paired, and
// a browser signed in as tok (the agency's, unless staff is asked for).
type refereeEnv struct {
	*portalEnv
	event  int64
	page   string // the referee page's address
	ctx    context.Context
	agency string
	staff  string
}

func newRefereeEnv(t *testing.T, team bool) *refereeEnv {
	t.Helper()
	e := &refereeEnv{portalEnv: newPortalEnv(t)}
	bg := context.Background()
	beijing := fixture.Agency("110")
	day := e.clock.Now().In(ledger.ChinaTime).Format("2006-01-02")
	in := tournaments.EventInput{Name: "北京市裁判赛", Start: day, End: day, Level: "city", System: "round_robin", Colours: "nigiri"}
	if team {
		in = tournaments.EventInput{Name: "北京市团体赛", Start: day, End: day, Level: "city", System: "round_robin", Team: true, TeamFormat: "free_lineup"}
	}
	ev, err := e.ts.CreateEvent(bg, beijing, "", in)
	if err != nil {
		t.Fatal(err)
	}
	e.event = ev.ID
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", "棋手"+[]string{"甲", "乙", "丙", "丁"}[i], "1k", "1990-01-01", 300+i)
		pin := tournaments.ParticipantInput{PlayerID: p.ID}
		if team {
			pin.Team, pin.Board = []string{"东队", "西队"}[i/2], i%2+1
		}
		if _, err := e.ts.AddParticipant(bg, beijing, "", ev.ID, pin); err != nil {
			t.Fatal(err)
		}
	}
	if !team {
		ri, err := e.ts.PairNextRound(bg, beijing, "", ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range ri.Games {
			if _, err := e.ts.RecordResult(bg, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: g.Board, Result: "black"}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.ts.PairNextRound(bg, beijing, "", ev.ID); err != nil {
			t.Fatal(err)
		}
	}
	e.agency, e.staff = e.tokens(t)
	e.page = e.srv.URL + "/tournaments/" + strconv.FormatInt(ev.ID, 10) + "/referee"
	e.ctx = browser(t)
	return e
}

// signIn signs the browser in with tok and opens the referee page from
// the tournament's page.
func (e *refereeEnv) signIn(t *testing.T, tok string) {
	t.Helper()
	run(t, e.ctx, "sign in", chromedp.Navigate(e.srv.URL+"/login"),
		chromedp.SendKeys(css(`[data-testid="login-token"]`), tok),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="nav-workspace"]`)),
		chromedp.Navigate(e.srv.URL+"/tournaments/"+strconv.FormatInt(e.event, 10)),
		chromedp.Click(css(`[data-testid="referee-link"]`)),
		chromedp.WaitVisible(css(`[data-testid="referee-title"]`)))
}

// act submits a form of the referee page, checks the confirmation page
// shows want (the fields as a person reads them), confirms, and checks
// the message.
func (e *refereeEnv) act(t *testing.T, form string, fill []chromedp.Action[chromedp.Void], want []string, ok string) {
	t.Helper()
	steps := append([]chromedp.Action[chromedp.Void]{chromedp.Navigate(e.page), chromedp.WaitVisible(css(`[data-testid="` + form + `-form"]`))}, fill...)
	steps = append(steps, chromedp.Click(css(`[data-testid="`+form+`-submit"]`)), chromedp.WaitVisible(css(`[data-testid="confirm-heading"]`)))
	run(t, e.ctx, form, steps...)
	page := text(t, e.ctx, `main`)
	for _, w := range want {
		if !strings.Contains(page, w) {
			t.Errorf("%s: the confirmation page lacks %q:\n%s", form, w, page)
		}
	}
	run(t, e.ctx, "confirm "+form, chromedp.Click(css(`[data-testid="confirm-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="ok"], [data-testid="form-error"], [role="alert"]`)))
	if got := text(t, e.ctx, `[role="status"], [role="alert"]`); got != ok {
		t.Fatalf("%s: %q, want %q", form, got, ok)
	}
}

func (e *refereeEnv) report(t *testing.T) tournaments.Report {
	t.Helper()
	r, err := e.ts.EventReport(context.Background(), e.event)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestConfirmRoundOnThePortal: the organiser confirms round 1 on the
// referee page; its games are confirmed.
func TestConfirmRoundOnThePortal(t *testing.T) {
	e := newRefereeEnv(t, false)
	e.signIn(t, e.agency)
	e.act(t, "confirm-round", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="confirm-round-round"]`), "1")},
		[]string{"北京市裁判赛", "1"}, "本轮成绩已确认。")
	for _, g := range e.report(t).Rounds[0].Games {
		if !g.Confirmed {
			t.Errorf("board %d not confirmed", g.Board)
		}
	}
	// round 2 is not played: refused, said so
	run(t, e.ctx, "confirm round 2", chromedp.Navigate(e.page), chromedp.SetValue(css(`[data-testid="confirm-round-round"]`), "2"),
		chromedp.Click(css(`[data-testid="confirm-round-submit"]`)), chromedp.WaitVisible(css(`[data-testid="confirm-submit"]`)),
		chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[data-testid="form-error"]`)))
}

// TestVoidResultOnThePortal: the organiser voids board 2 of round 1 for
// both sides; a refused form (board "二") comes back as typed with the
// refusal beside the board.
func TestVoidResultOnThePortal(t *testing.T) {
	e := newRefereeEnv(t, false)
	e.signIn(t, e.agency)
	run(t, e.ctx, "a refused void", chromedp.Navigate(e.page),
		chromedp.SendKeys(css(`[data-testid="void-board"]`), "二"),
		chromedp.SendKeys(css(`[data-testid="void-reason"]`), "赛后查实假棋"),
		chromedp.Click(css(`[data-testid="void-submit"]`)), chromedp.WaitVisible(css(`[data-testid="confirm-submit"]`)),
		chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[data-testid="field-error-board"]`)))
	reason, err := chromedp.Run(e.ctx, chromedp.Value(css(`[data-testid="void-reason"]`)))
	if err != nil || reason != "赛后查实假棋" {
		t.Fatalf("the refused form's reason: %q, %v", reason, err)
	}
	e.act(t, "void", []chromedp.Action[chromedp.Void]{chromedp.SendKeys(css(`[data-testid="void-board"]`), "2"),
		chromedp.SetValue(css(`[data-testid="void-side"]`), "both"), chromedp.SendKeys(css(`[data-testid="void-reason"]`), "赛后查实假棋")},
		[]string{"双方成绩", "赛后查实假棋"}, "成绩已取消。")
	if g := e.report(t).Rounds[0].Games[1]; g.Voided != "both" || g.VoidReason != "赛后查实假棋" {
		t.Fatalf("board 2 after the void: %+v", g)
	}
}

// TestProtestAndRulingOnThePortal: a protest is lodged for a player
// picked by name, then dismissed with a ruling.
// (Round 2: a protest is made while the game is on, before its result.)
func TestProtestAndRulingOnThePortal(t *testing.T) {
	e := newRefereeEnv(t, false)
	e.signIn(t, e.agency)
	g := e.report(t).Rounds[1].Games[0]
	name := []string{"棋手甲", "棋手乙", "棋手丙", "棋手丁"}[g.White-1]
	e.act(t, "protest", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="protest-round"]`), "2"),
		chromedp.SendKeys(css(`[data-testid="protest-board"]`), "1"), chromedp.SetValue(css(`[data-testid="protest-number"]`), strconv.Itoa(g.White)),
		chromedp.SendKeys(css(`[data-testid="protest-reason"]`), "对方读秒超时")},
		[]string{name, "对方读秒超时"}, "申诉已记录。")
	run(t, e.ctx, "rule", chromedp.Navigate(e.page), chromedp.SendKeys(css(`[data-testid="ruling-text"]`), "录像显示未超时"),
		chromedp.Click(css(`[data-testid="ruling-dismiss"]`)), chromedp.WaitVisible(css(`[data-testid="confirm-heading"]`)))
	if page := text(t, e.ctx, `main`); !strings.Contains(page, "驳回申诉") || !strings.Contains(page, "录像显示未超时") {
		t.Fatalf("the ruling's confirmation: %s", page)
	}
	run(t, e.ctx, "confirm the ruling", chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[data-testid="protest-status"]`)))
	if got := text(t, e.ctx, `[data-testid="protest-status"]`); got != "申诉驳回: 录像显示未超时" {
		t.Fatalf("the protest after the ruling: %q", got)
	}
}

// TestNigiriOnThePortal: the nigiri of round 2's first board is recorded.
func TestNigiriOnThePortal(t *testing.T) {
	e := newRefereeEnv(t, false)
	e.signIn(t, e.agency)
	e.act(t, "nigiri", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="nigiri-round"]`), "2"),
		chromedp.SendKeys(css(`[data-testid="nigiri-board"]`), "1"), chromedp.SetValue(css(`[data-testid="nigiri-guess"]`), "odd"),
		chromedp.SendKeys(css(`[data-testid="nigiri-stones"]`), "３")}, // full-width, as an input method types it
		[]string{"单", "３"}, "猜先已记录。")
	if g := e.report(t).Rounds[1].Games[0]; !g.Nigiri || g.NigiriGuess != "odd" {
		t.Fatalf("round 2 board 1 after the nigiri: %+v", g)
	}
}

// TestSuspendPlayerOnThePortal: staff suspend a participant picked by name.
func TestSuspendPlayerOnThePortal(t *testing.T) {
	e := newRefereeEnv(t, false)
	e.signIn(t, e.staff)
	day := e.clock.Now().In(ledger.ChinaTime)
	from, to := day.Format("2006-01-02"), day.AddDate(1, 0, 0).Format("2006-01-02")
	e.act(t, "suspend", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="suspend-number"]`), "3"),
		chromedp.SetValue(css(`[data-testid="suspend-from"]`), from), chromedp.SetValue(css(`[data-testid="suspend-to"]`), to),
		chromedp.SendKeys(css(`[data-testid="suspend-reason"]`), "消极比赛")},
		[]string{"棋手丙", "消极比赛", from}, "停赛处罚已记录。")
}

// TestLineupAndBoardOnThePortal: in a team event the organiser moves a
// member to board 3, then names the east team's lineup by ticking names.
func TestLineupAndBoardOnThePortal(t *testing.T) {
	e := newRefereeEnv(t, true)
	e.signIn(t, e.agency)
	e.act(t, "board", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="board-number"]`), "2"),
		chromedp.SendKeys(css(`[data-testid="board-board"]`), "3")}, []string{"棋手乙", "3"}, "台次已调整。")
	if pt := e.report(t).Participants[1]; pt.Board != 3 {
		t.Fatalf("participant 2's board: %d", pt.Board)
	}
	e.act(t, "lineup", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="lineup-team"]`), "东队"),
		chromedp.Click(css(`[data-testid="lineup-2"]`)), chromedp.Click(css(`[data-testid="lineup-1"]`))},
		[]string{"东队", "棋手甲", "棋手乙"}, "出场名单已记录。")
}
