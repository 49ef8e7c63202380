package tournaments_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/tournaments"
)

// refereeSwiss creates a 4-player Swiss of one round and pairs round 1.
func refereeSwiss(t *testing.T, e *env) (tournaments.Event, tournaments.RoundInfo) {
	t.Helper()
	ctx := context.Background()
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "裁判记录赛", Start: e.ts.Today(), Level: "province",
		System: "swiss", Rounds: 1, ChiefReferee: "王裁判"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("警%d", i+1), "1k", "1995-01-01", 60+i)
		if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	return ev, ri
}

// TestRefereeWarningsWithCauses: "对局者被判的警告，应记录在案，在一局棋里满二次
// 者，判该局为负" — each warning is kept with its cause, who gave it and
// when; the game's count is derived from them and the second loses.
func TestRefereeWarningsWithCauses(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ev, ri := refereeSwiss(t, e)
	g := ri.Games[0]
	tests := []struct {
		name    string
		rule    string
		in      tournaments.WarningInput
		code    string // refusal expected, "" for none
		count   int    // the warned side's count after it
		result  tournaments.Result
		decided bool
	}{
		{"unknown cause", "", tournaments.WarningInput{Round: 1, Board: g.Board, Number: g.Black, Cause: "yawning"}, "WARNING_CAUSE", 0, "", false},
		{"other needs words", "", tournaments.WarningInput{Round: 1, Board: g.Board, Number: g.Black, Cause: "other"}, "WARNING_NOTE", 0, "", false},
		{"not a player of the game", "", tournaments.WarningInput{Round: 1, Board: g.Board, Number: 99, Cause: "phone"}, "NO_SUCH_PARTICIPANT", 0, "", false},
		{"no such board", "", tournaments.WarningInput{Round: 1, Board: 9, Number: g.Black, Cause: "phone"}, "WARNING_NO_SUCH_GAME", 0, "", false},
		{"take-back", "悔棋无效，判棋子放回原处，并警告一次", tournaments.WarningInput{Round: 1, Board: g.Board, Number: g.Black, Cause: "take_back", Referee: "李裁判"}, "", 1, "", false},
		{"clock before the move, white", "着子之前或与着子同时按计时器的，判警告一次", tournaments.WarningInput{Round: 1, Board: g.Board, Number: g.White, Cause: "clock_before_move"}, "", 1, "", false},
		{"phone: second warning loses", "初违者判警告一次，再违者判负", tournaments.WarningInput{Round: 1, Board: g.Board, Number: g.Black, Cause: "phone"}, "", 2, tournaments.WhiteWins, true},
		{"no third warning", "", tournaments.WarningInput{Round: 1, Board: g.Board, Number: g.Black, Cause: "smoking"}, "WARNING_GAME_LOST", 0, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := e.ts.RecordWarning(ctx, beijing, "", ev.ID, tc.in)
			if tc.code != "" {
				if !isCode(err, tc.code) {
					t.Fatalf("want %s, got %v", tc.code, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			count := out.Game.BlackWarnings
			if tc.in.Number == g.White {
				count = out.Game.WhiteWarnings
			}
			if count != tc.count || out.Game.Result != tc.result || out.Warning.Decided != tc.decided {
				t.Fatalf("%s: count %d result %q decided %v, want %d %q %v", tc.rule, count, out.Game.Result, out.Warning.Decided, tc.count, tc.result, tc.decided)
			}
			if out.Warning.GivenBy != beijing.String() || !out.Warning.GivenAt.Equal(e.clock.Now()) || string(out.Warning.Cause) != tc.in.Cause {
				t.Fatalf("who/when/cause: %+v", out.Warning)
			}
		})
	}
	ws, err := e.ts.RefereeWarnings(ctx, ev.ID)
	if err != nil || len(ws) != 3 || ws[0].Referee != "李裁判" || !ws[2].Decided || ws[1].Decided {
		t.Fatalf("warnings on record: %+v %v", ws, err)
	}
	// a later report forgetting the warnings does not undo them
	if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: g.Board, Result: "black"}); err != nil {
		t.Fatal(err)
	}
	rs, err := e.ts.Rounds(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, gg := range rs[0].Games {
		if gg.Board == g.Board && (gg.Result != tournaments.WhiteWins || gg.BlackWarnings != 2 || gg.WhiteWarnings != 1) {
			t.Fatalf("after a report without warnings: %+v", gg)
		}
	}
}

// TestRefereeSanctions: "除通报批评之外，根据情节和社会影响的严重程度，允许作出降
// 一个名次发放奖金及停赛处罚" — the two sanctions short of a suspension are
// logged with their reason and listed for the player and the event.
func TestRefereeSanctions(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ev, _ := refereeSwiss(t, e)
	ps, err := e.ts.Participants(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   tournaments.SanctionInput
		code string
	}{
		{"通报批评", tournaments.SanctionInput{Number: 1, Kind: "reprimand", Reason: "无故不参加闭幕式"}, ""},
		{"降一个名次发放奖金", tournaments.SanctionInput{Number: 1, Kind: "prize_one_place_lower", Reason: "无故不参加开幕式，情节较重"}, ""},
		{"unknown kind", tournaments.SanctionInput{Number: 1, Kind: "fine", Reason: "x"}, "SANCTION_KIND"},
		{"no reason", tournaments.SanctionInput{Number: 1, Kind: "reprimand"}, "DISCIPLINE_REASON"},
		{"no such participant", tournaments.SanctionInput{Number: 40, Kind: "reprimand", Reason: "x"}, "NO_SUCH_PARTICIPANT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sn, err := e.ts.Sanction(ctx, beijing, "", ev.ID, tc.in)
			if tc.code != "" {
				if !isCode(err, tc.code) {
					t.Fatalf("want %s, got %v", tc.code, err)
				}
				return
			}
			if err != nil || string(sn.Kind) != tc.in.Kind || sn.PlayerID != ps[0].PlayerID || sn.DecidedBy != beijing.String() {
				t.Fatalf("%+v %v", sn, err)
			}
		})
	}
	if _, err := e.ts.Sanction(ctx, fixture.Agency("310"), "", ev.ID, tournaments.SanctionInput{Number: 1, Kind: "reprimand", Reason: "x"}); err == nil {
		t.Fatal("another province's agency sanctioned")
	}
	byPlayer, err1 := e.ts.PlayerSanctions(ctx, ps[0].PlayerID)
	byEvent, err2 := e.ts.EventSanctions(ctx, ev.ID)
	if err := errors.Join(err1, err2); err != nil || len(byPlayer) != 2 || len(byEvent) != 2 || byPlayer[0].Kind != tournaments.SanctionReprimand ||
		byEvent[1].Kind != tournaments.SanctionPrizeDemotion || byPlayer[0].EventName != "裁判记录赛" {
		t.Fatalf("lists: %+v %+v %v", byPlayer, byEvent, err)
	}
}

// TestSwissRoundsAdded: "由于它的轮次可以根据情况适当增减" — a Swiss paired to
// its last round takes another once the organiser adds it; never below
// the rounds paired, and not for other systems.
func TestSwissRoundsAdded(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ev, ri := refereeSwiss(t, e)
	e.playRound(t, ev.ID, ri, nil)
	if _, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID); !isCode(err, "ALL_ROUNDS_PAIRED") {
		t.Fatalf("before adding: %v", err)
	}
	for _, tc := range []struct {
		rounds int
		code   string
	}{{0, "SWISS_ADD_ROUNDS"}, {100, "SWISS_ADD_ROUNDS"}, {3, ""}, {2, ""}} {
		got, err := e.ts.SetSwissRounds(ctx, beijing, "", ev.ID, tc.rounds)
		if tc.code != "" {
			if !isCode(err, tc.code) {
				t.Fatalf("%d rounds: %v", tc.rounds, err)
			}
			continue
		}
		if err != nil || got.Rounds != tc.rounds {
			t.Fatalf("%d rounds: %+v %v", tc.rounds, got.Rounds, err)
		}
	}
	ri2, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil || ri2.Round != 2 {
		t.Fatalf("round 2: %+v %v", ri2, err)
	}
	e.playRound(t, ev.ID, ri2, nil)
	if _, err := e.ts.SetSwissRounds(ctx, beijing, "", ev.ID, 1); !isCode(err, "SWISS_ADD_ROUNDS") {
		t.Fatalf("below the paired: %v", err)
	}
	rr, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "循环", Start: e.ts.Today(), Level: "province", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.SetSwissRounds(ctx, beijing, "", rr.ID, 5); !isCode(err, "SWISS_ADD_ROUNDS") {
		t.Fatalf("round robin: %v", err)
	}
}
