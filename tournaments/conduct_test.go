package tournaments_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// conductEvent is a four-player round robin starting on start, with
// round 1 paired when start is today.
func conductEvent(t *testing.T, e *env, start string, conduct *tournaments.ConductInput) (tournaments.Event, tournaments.RoundInfo) {
	t.Helper()
	ctx := context.Background()
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "补充规定赛", Start: start, Level: "city", System: "round_robin",
		Conduct: conduct})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("规%d-%d", ev.ID, i+1), "1d", "1990-01-01", 300+int(ev.ID)*4+i)
		if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if start != e.ts.Today() {
		return ev, tournaments.RoundInfo{}
	}
	ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	return ev, ri
}

func tomorrow(e *env) string {
	return e.clock.Now().In(ledger.ChinaTime).AddDate(0, 0, 1).Format(time.DateOnly)
}

// TestConductTimeControlRule: "不同的赛事均应事先规定一局棋的每方基本时限";
// "在采用读秒的比赛中，应事先规定在时限内保留几分钟开始读秒"; "包干用时制是规定
// 基本时限之内必须结束比赛的计时办法"; 定时限步制 "用完基本时限后，限在规定
// 时间之内着完规定的步数" — set with the event, editable until it starts.
func TestConductTimeControlRule(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, _ := conductEvent(t, e, tomorrow(e), nil)
	for _, c := range []struct {
		name string
		in   tournaments.ConductInput
		code string // "" accepted
	}{
		{"byo-yomi, five minutes kept", tournaments.ConductInput{BasicMinutes: 120, Method: "byoyomi", ByoyomiPeriods: 3, ByoyomiSeconds: 60, ByoyomiKeptMinutes: 5}, ""},
		{"byo-yomi without periods", tournaments.ConductInput{BasicMinutes: 120, Method: "byoyomi", ByoyomiSeconds: 60}, "OUT_OF_RANGE"},
		{"kept beyond the basic time", tournaments.ConductInput{BasicMinutes: 10, Method: "byoyomi", ByoyomiPeriods: 1, ByoyomiSeconds: 30, ByoyomiKeptMinutes: 11}, "CONDUCT_KEPT_MINUTES"},
		{"sudden death", tournaments.ConductInput{BasicMinutes: 90, Method: "sudden_death", Lateness: "same_place"}, ""},
		{"sudden death without time", tournaments.ConductInput{Method: "sudden_death"}, "OUT_OF_RANGE"},
		{"15 moves in 10 minutes", tournaments.ConductInput{BasicMinutes: 60, Method: "moves_per_period", PeriodMoves: 15, PeriodMinutes: 10}, ""},
		{"moves per period without moves", tournaments.ConductInput{BasicMinutes: 60, Method: "moves_per_period", PeriodMinutes: 10}, "OUT_OF_RANGE"},
		{"no method", tournaments.ConductInput{BasicMinutes: 60}, "CONDUCT_TIME_METHOD"},
		{"a lateness limit of its own", tournaments.ConductInput{BasicMinutes: 60, Method: "sudden_death", Lateness: "30m"}, "CONDUCT_LATENESS"},
		{"sealing unknown", tournaments.ConductInput{BasicMinutes: 60, Method: "sudden_death", Sealing: "maybe"}, "CONDUCT_SEALING"},
		{"cycle unknown", tournaments.ConductInput{BasicMinutes: 60, Method: "sudden_death", Cycle: "coin"}, "CONDUCT_CYCLE"},
	} {
		got, err := e.ts.SetConduct(ctx, beijing, "", ev.ID, c.in)
		if c.code != "" {
			if !isCode(err, c.code) {
				t.Errorf("%s: %v, want %s", c.name, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		stored, ok, err := e.ts.GetConduct(ctx, ev.ID)
		if err != nil || !ok || stored.Method != got.Method || stored.BasicMinutes != c.in.BasicMinutes ||
			stored.ByoyomiKeptMinutes != c.in.ByoyomiKeptMinutes || stored.PeriodMoves != c.in.PeriodMoves {
			t.Errorf("%s: stored %+v %v", c.name, stored, err)
		}
	}
	// once the event has started the rules are fixed
	e.clock.Advance(24 * time.Hour)
	if _, err := e.ts.SetConduct(ctx, beijing, "", ev.ID, tournaments.ConductInput{BasicMinutes: 60, Method: "sudden_death"}); !isCode(err, "CONDUCT_EVENT_STARTED") {
		t.Fatalf("changing the rules after the start: %v", err)
	}
}

// TestConductLatenessRule: "赛场和住地分离的，比赛开始时，棋手迟到不得超过1小时
// （含），超过这一时限判负。未超过这一时限的，在其规定时限内加倍扣除。";
// "赛场和住地基本上同在一处的，比赛开始时棋手迟到不得超过15分钟".
func TestConductLatenessRule(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	for _, c := range []struct {
		venue    string
		minutes  int
		deducted int    // 0: refused
		code     string // the refusal
	}{
		{"away", 60, 120, ""},
		{"away", 61, 0, "LATE_BEYOND_LIMIT"},
		{"away", 20, 40, ""},
		{"same_place", 15, 30, ""},
		{"same_place", 16, 0, "LATE_BEYOND_LIMIT"},
		{"same_place", 0, 0, "OUT_OF_RANGE"},
	} {
		ev, ri := conductEvent(t, e, e.ts.Today(), &tournaments.ConductInput{BasicMinutes: 60, Method: "sudden_death", Lateness: c.venue})
		g := ri.Games[0]
		l, err := e.ts.RecordLateness(ctx, beijing, "", ev.ID, tournaments.LatenessInput{Round: 1, Board: g.Board, Side: "black", Minutes: c.minutes})
		if c.code != "" {
			if !isCode(err, c.code) {
				t.Errorf("%s, %d min: %v, want %s", c.venue, c.minutes, err, c.code)
			}
			continue
		}
		if err != nil || l.DeductedMinutes != c.deducted {
			t.Errorf("%s, %d min: %+v %v, want %d deducted", c.venue, c.minutes, l, err, c.deducted)
		}
		rep, err := e.ts.EventReport(ctx, ev.ID)
		if err != nil || len(rep.Latenesses) != 1 || rep.Latenesses[0].DeductedMinutes != c.deducted {
			t.Errorf("%s, %d min: report %+v %v", c.venue, c.minutes, rep.Latenesses, err)
		}
	}
}

// TestConductResultsRule reads each new result as the rules state it:
// "对局者用时（包括读秒）超过时限，一律判负" (a rated loss); "一方迟到超过赛场
// 规定时间，判其弃权作负"; "双方迟到超过赛场规定时间，则判双方弃权作负"; 重赛
// (the replay decides, once); the supplementary rules' "无胜负、和棋".
func TestConductResultsRule(t *testing.T) {
	for _, c := range []struct {
		r              tournaments.Result
		black, white   int
		winner         byte
		rated          tournaments.Result
		decided, bothL bool
	}{
		{tournaments.BlackTimeLoss, 0, 2, 'w', tournaments.WhiteWins, true, false},
		{tournaments.WhiteTimeLoss, 2, 0, 'b', tournaments.BlackWins, true, false},
		{tournaments.BlackLate, 0, 2, 'w', tournaments.NoResult, true, false},
		{tournaments.WhiteLate, 2, 0, 'b', tournaments.NoResult, true, false},
		{tournaments.BothLate, 0, 0, 0, tournaments.NoResult, true, true},
		{tournaments.Replayed, 0, 0, 0, tournaments.NoResult, false, false},
		{tournaments.FinalNoResult, 0, 0, 0, tournaments.NoResult, true, false},
		{tournaments.RuleDraw, 1, 1, 0, tournaments.Draw, true, false},
	} {
		b, w := c.r.Points()
		if b != c.black || w != c.white || c.r.Winner() != c.winner || c.r.Rated() != c.rated || c.r.Decided() != c.decided || c.r.BothLost() != c.bothL {
			t.Errorf("%s: points %d–%d winner %q rated %q decided %v both lost %v", c.r, b, w, c.r.Winner(), c.r.Rated(), c.r.Decided(), c.r.BothLost())
		}
		if parsed, err := tournaments.ParseResult(string(c.r)); err != nil || parsed != c.r {
			t.Errorf("%s: parsed %q %v", c.r, parsed, err)
		}
		if c.r.Swapped().Swapped() != c.r {
			t.Errorf("%s: swapped twice is %s", c.r, c.r.Swapped().Swapped())
		}
	}
}

// TestConductOutcomesAreRead plays a round robin through the new results
// and reads them back: standings (both late is a loss for both, a final
// no-result neither), pairing (a replay pending blocks the next round, a
// final no-result does not) and the games ratings read (a loss on time is
// a rated loss, a draw by rule a draw, the replayed game once, nothing
// unplayed).
func TestConductOutcomesAreRead(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, ri := conductEvent(t, e, e.ts.Today(), &tournaments.ConductInput{BasicMinutes: 60, Method: "sudden_death", Cycle: "draw"})
	rec := func(round, board int, res string) {
		t.Helper()
		if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: round, Board: board, Result: res}); err != nil {
			t.Fatalf("round %d board %d %s: %v", round, board, res, err)
		}
	}
	rec(1, 1, "white_time_loss")
	rec(1, 2, "replayed")
	if _, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID); !isCode(err, "RESULT_MISSING") {
		t.Fatalf("pairing while a game is to be replayed: %v", err)
	}
	rec(1, 2, "black") // the replay's result: the game counts once
	ri2, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec(2, 1, "both_late")
	rec(2, 2, "no_result_final")
	if _, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID); err != nil {
		t.Fatalf("a final no-result blocks the next round: %v", err)
	}
	rec(3, 1, "rule_draw")
	rec(3, 2, "black_late")
	rep, err := e.ts.Finish(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	_ = ri
	_ = ri2
	var wins, losses, draws, played int
	for _, s := range rep.Standings {
		wins += s.Wins
		losses += s.Losses
		draws += s.Draws
		played += s.Played
	}
	// six games: time loss (1 win 1 loss), replay (1–1), both late (0–2),
	// no result (nothing), rule draw (2 draws), late (1–1)
	if wins != 3 || losses != 5 || draws != 2 || played != 10 {
		t.Fatalf("standings: %d wins, %d losses, %d draws, %d played: %+v", wins, losses, draws, played, rep.Standings)
	}
	games, err := tournaments.FinishedRatingGames(ctx, e.pool, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]tournaments.Result{}
	for _, g := range games {
		got[fmt.Sprintf("%d/%d", g.Round, g.Board)] = g.Result
	}
	want := map[string]tournaments.Result{"1/1": tournaments.BlackWins, "1/2": tournaments.BlackWins, "3/1": tournaments.Draw}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rated games %v, want %v", got, want)
	}
}

// TestConductSealedMoveRule: "续弈时，封局方必须按封棋的点下子。如封棋之点已有
// 棋子时，判弃权一次，轮对方下子。" — the rules engine rules on the point.
func TestConductSealedMoveRule(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, ri := conductEvent(t, e, e.ts.Today(), &tournaments.ConductInput{BasicMinutes: 180, Method: "byoyomi", ByoyomiPeriods: 3,
		ByoyomiSeconds: 60, ByoyomiKeptMinutes: 5, Sealing: "sealed_move"})
	board := ri.Games[0].Board
	for _, c := range []struct {
		name, record, by, point string
		move                    int
		pass                    bool
		code                    string
	}{
		{"an empty point", "(;SZ[19];B[pd];W[dp])", "black", "Q3", 3, false, ""},
		{"an occupied point counts as a pass", "(;SZ[19];B[pd];W[dp])", "black", "dp", 3, true, ""},
		{"no record: the first move", "", "black", "D4", 1, false, ""},
		{"off the board", "", "white", "Z99", 0, false, "ADJOURN_POINT"},
		{"neither side", "", "red", "D4", 0, false, "ADJOURN_SIDE"},
		{"an unreadable record", "(;SZ[19];B[pd", "white", "D4", 0, false, "ADJOURN_RECORD"},
	} {
		a, err := e.ts.RecordAdjournment(ctx, beijing, "", ev.ID, tournaments.AdjournmentInput{Round: 1, Board: board, SealedBy: c.by, Point: c.point, Record: c.record})
		if c.code != "" {
			if !isCode(err, c.code) {
				t.Errorf("%s: %v, want %s", c.name, err, c.code)
			}
			continue
		}
		if err != nil || a.MoveNumber != c.move || a.CountsAsPass != c.pass || a.SealedBy != c.by || !a.SealedAt.Equal(e.clock.Now()) {
			t.Errorf("%s: %+v %v, want move %d pass %v", c.name, a, err, c.move, c.pass)
		}
	}
	list, err := e.ts.Adjournments(ctx, ev.ID)
	if err != nil || len(list) != 3 || list[2].Seq != 3 {
		t.Fatalf("adjournments: %+v %v", list, err)
	}
	// an event without sealing refuses one
	other, ri2 := conductEvent(t, e, e.ts.Today(), &tournaments.ConductInput{BasicMinutes: 60, Method: "sudden_death"})
	if _, err := e.ts.RecordAdjournment(ctx, beijing, "", other.ID, tournaments.AdjournmentInput{Round: 1, Board: ri2.Games[0].Board, SealedBy: "black", Point: "D4"}); !isCode(err, "ADJOURN_NOT_ALLOWED") {
		t.Fatalf("sealing where the rules do not provide it: %v", err)
	}
}

// TestConductProtestDeadlineRule: "对于一局棋中对手违规行为的具体申诉，须在对局
// 进行当时立即提出，逾期失效。"
func TestConductProtestDeadlineRule(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, ri := conductEvent(t, e, e.ts.Today(), nil)
	g1, g2 := ri.Games[0], ri.Games[1]
	protest := func(g tournaments.GameRow) error {
		_, err := e.ts.LodgeProtest(ctx, beijing, "", ev.ID, tournaments.ProtestInput{Round: 1, Board: g.Board, Number: g.Black, Reason: "对方悔棋"})
		return err
	}
	for _, c := range []struct {
		name  string
		setup func()
		game  tournaments.GameRow
		code  string
	}{
		{"during the game", func() {}, g1, ""},
		{"after the result", func() {
			if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: g1.Board, Result: "black"}); err != nil {
				t.Fatal(err)
			}
		}, g1, "PROTEST_AFTER_RESULT"},
		{"a game to be replayed is on again", func() {
			if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: g2.Board, Result: "replayed"}); err != nil {
				t.Fatal(err)
			}
		}, g2, ""},
		{"after the event finished", func() {
			for r := 1; r <= 3; r++ {
				if r > 1 {
					ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
					if err != nil {
						t.Fatal(err)
					}
					e.playRound(t, ev.ID, ri, nil)
					continue
				}
				if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: g2.Board, Result: "white"}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := e.ts.Finish(ctx, beijing, "", ev.ID); err != nil {
				t.Fatal(err)
			}
		}, g2, "PROTEST_AFTER_FINISH"},
	} {
		c.setup()
		err := protest(c.game)
		if (c.code == "" && err != nil) || (c.code != "" && !isCode(err, c.code)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.code)
		}
	}
}

// TestConductDatesRule: an event is not paired, scored or finished before
// its first day (Beijing date of the one clock).
func TestConductDatesRule(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, _ := conductEvent(t, e, tomorrow(e), nil)
	for _, c := range []struct {
		name string
		act  func() error
	}{
		{"pair", func() error { _, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID); return err }},
		{"finish", func() error { _, err := e.ts.Finish(ctx, beijing, "", ev.ID); return err }},
	} {
		if err := c.act(); !isCode(err, "EVENT_NOT_STARTED") {
			t.Errorf("%s before the start: %v", c.name, err)
		}
	}
	e.clock.Advance(24 * time.Hour)
	ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatalf("pairing on the first day: %v", err)
	}
	if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: ri.Games[0].Board, Result: "black"}); err != nil {
		t.Fatalf("scoring on the first day: %v", err)
	}
}
