package audit_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/tournaments"
)

// TestReplayIsTheTables: the audit's replay of the event log leaves every
// game as the tournament tables hold it (colours, result, playoff) after
// colours drawn by nigiri, a result voided, a playoff, and team members
// withdrawn, one with his game of the current round forfeited and one
// whose later games are forfeits from their pairing.
func TestReplayIsTheTables(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.at(t, "2026-04-01")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	seq := 0
	player := func() int64 {
		seq++
		return fixture.Player(t, e.reg, "110", fmt.Sprintf("复盘%d", seq), "1k", "1990-01-01", 600+seq).ID
	}
	result := func(id int64, g tournaments.GameRow, res string) {
		t.Helper()
		_, err := e.ts.RecordResult(ctx, beijing, "", id, tournaments.ResultInput{Round: g.Round, Board: g.Board, Result: res})
		must(err)
	}

	// nigiri and a void: a round robin of four drawing colours at the board
	rr, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "复盘猜先赛", Start: "2026-04-01", End: "2026-04-02",
		Level: "city", System: "round_robin", Colours: "nigiri", DanGrade: true,
		Groups: []tournaments.GroupInput{{Name: "A", TargetRank: "1d", MinWins: 1}}})
	must(err)
	for range 4 {
		_, err := e.ts.AddParticipant(ctx, beijing, "", rr.ID, tournaments.ParticipantInput{PlayerID: player(), Group: "A"})
		must(err)
	}
	ri, err := e.ts.PairNextRound(ctx, beijing, "", rr.ID)
	must(err)
	g, err := e.ts.RecordNigiri(ctx, beijing, "", rr.ID, tournaments.NigiriInput{Round: 1, Board: 1, Guess: "odd", Stones: 7})
	must(err)
	if g.Black == ri.Games[0].Black {
		t.Fatalf("the nigiri kept the colours: %+v, paired %+v", g, ri.Games[0])
	}
	for _, g := range ri.Games {
		result(rr.ID, g, "black")
	}
	_, err = e.ts.VoidResult(ctx, staff, "", rr.ID, tournaments.VoidInput{Round: 1, Board: 2, Side: tournaments.VoidBoth, Reason: "下假棋"})
	must(err)

	// a playoff: three players, each beating one of the others
	po, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "复盘加赛", Start: "2026-04-01", End: "2026-04-02",
		Level: "city", System: "round_robin", Ties: "playoff"})
	must(err)
	for range 3 {
		_, err := e.ts.AddParticipant(ctx, beijing, "", po.ID, tournaments.ParticipantInput{PlayerID: player()})
		must(err)
	}
	beats := map[[2]int]bool{{1, 2}: true, {2, 3}: true, {3, 1}: true}
	for range 3 {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", po.ID)
		must(err)
		for _, g := range ri.Games {
			res := "white"
			if beats[[2]int{g.Black, g.White}] {
				res = "black"
			}
			result(po.ID, g, res)
		}
	}
	playoff, err := e.ts.PairPlayoff(ctx, beijing, "", po.ID)
	must(err)
	if len(playoff.Games) == 0 {
		t.Fatal("no playoff game")
	}

	// a team round robin: a member leaves with his game of round 2 unplayed
	// (forfeited), and round 3 pairs him as a forfeit
	tm, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "复盘团体赛", Start: "2026-04-01", End: "2026-04-03",
		Level: "city", System: "round_robin", Team: true})
	must(err)
	for _, team := range []string{"甲", "乙", "丙", "丁"} {
		for board := 1; board <= 2; board++ {
			_, err := e.ts.AddParticipant(ctx, beijing, "", tm.ID, tournaments.ParticipantInput{PlayerID: player(), Team: team, Board: board})
			must(err)
		}
	}
	for round := 1; round <= 3; round++ {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", tm.ID)
		must(err)
		if round == 2 {
			_, err := e.ts.Withdraw(ctx, beijing, "", tm.ID, 2)
			must(err)
		}
		for _, g := range ri.Games {
			if g.Result == "" && (round != 2 || (g.Black != 2 && g.White != 2)) {
				result(tm.ID, g, "black")
			}
		}
	}

	replayed, err := e.au.ReplayedGames(ctx, 2026)
	must(err)
	rows, err := e.store.DB().Query(ctx, `SELECT g.tournament_id, g.round, g.board, g.black, g.white, g.result, r.playoff
		FROM tournament_games g JOIN tournament_rounds r USING (tournament_id, round)`)
	must(err)
	n := 0
	var voided, forfeits int
	for rows.Next() {
		var id int64
		var k [2]int
		var want audit.ReplayedGame
		must(rows.Scan(&id, &k[0], &k[1], &want.Black, &want.White, &want.Result, &want.Playoff))
		n++
		if got, ok := replayed[id][k]; !ok || got != want {
			t.Errorf("tournament %d round %d board %d: replayed %+v, the table holds %+v", id, k[0], k[1], got, want)
		}
		delete(replayed[id], k)
		if id == rr.ID && want.Result == string(tournaments.BothLose) {
			voided++
		}
		if id == tm.ID && (want.Black == 2 || want.White == 2) && want.Result != "black" {
			forfeits++
		}
	}
	must(rows.Err())
	for id, games := range replayed {
		for k, g := range games {
			t.Errorf("tournament %d round %d board %d: replayed %+v, not in the tables", id, k[0], k[1], g)
		}
	}
	if n != 18 || voided != 1 || forfeits != 2 {
		t.Fatalf("%d games, %d voided, %d forfeits of the member who left", n, voided, forfeits)
	}
}
