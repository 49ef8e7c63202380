package server_test

import (
	"context"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/ratings/book"
)

// TestConductOverGRPC plays an event through every new outcome of issue
// 26 over a real gRPC connection: the supplementary rules set at creation
// and shown, a lateness within the limit and one beyond it refused, an
// adjournment whose sealed move on an occupied point counts as a pass, a
// loss on time, a replay, both late, a final no-result, a draw by rule and
// a late loss; a protest after the result refused; then the standings and
// the ratings read them (a loss on time rated, a replay once, nothing
// unplayed).
func TestConductOverGRPC(t *testing.T) {
	e := newEnv(t)
	bj := e.as(e.bj)
	client := pb.NewTournamentServiceClient(e.conn)
	created, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "补充规定赛", StartDate: "2026-12-01", Level: "city",
		System: "round_robin", ChiefReferee: "王裁判", Conduct: &pb.TournamentConduct{BasicMinutes: 120, TimeMethod: "byoyomi",
			ByoyomiPeriods: 3, ByoyomiSeconds: 60, ByoyomiKeptMinutes: 5, Lateness: "same_place", Sealing: "sealed_move",
			CycleOutcome: "draw", Document: "本次比赛采用2002年中国围棋竞赛规则。"}})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetId()
	// the rules may change before the start, not after it
	if _, err := client.SetTournamentConduct(bj, &pb.SetTournamentConductRequest{TournamentId: id, Conduct: &pb.TournamentConduct{
		BasicMinutes: 90, TimeMethod: "byoyomi", ByoyomiPeriods: 3, ByoyomiSeconds: 30, ByoyomiKeptMinutes: 1, Lateness: "same_place",
		Sealing: "sealed_move", CycleOutcome: "draw", Document: "本次比赛采用2002年中国围棋竞赛规则。"}}); err != nil {
		t.Fatal(err)
	}
	_, err = client.SetTournamentConduct(bj, &pb.SetTournamentConductRequest{TournamentId: id, Conduct: &pb.TournamentConduct{TimeMethod: "hourglass"}})
	code(t, "an unknown time method", err, codes.InvalidArgument, "hourglass")
	var players []int64
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("规则%d", i+1), "1d", "1990-01-01", 260+i)
		players = append(players, p.ID)
		if _, err := client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, PlayerId: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	_, err = client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
	code(t, "pairing before the start", err, codes.FailedPrecondition, "2026-12-01")
	e.clock.Advance(24 * 60 * 60 * 1e9) // 2026-12-01 in Beijing
	_, err = client.SetTournamentConduct(bj, &pb.SetTournamentConductRequest{TournamentId: id, Conduct: &pb.TournamentConduct{BasicMinutes: 60, TimeMethod: "sudden_death"}})
	code(t, "changing the rules on the first day", err, codes.FailedPrecondition, "")

	result := func(round, board int32, res string) {
		t.Helper()
		if _, err := client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: round, Board: board, Result: res}); err != nil {
			t.Fatalf("round %d board %d %s: %v", round, board, res, err)
		}
	}
	rounds := map[int32]*pb.TournamentRound{}
	pair := func(n int32) {
		t.Helper()
		r, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
		if err != nil {
			t.Fatalf("pair round %d: %v", n, err)
		}
		rounds[n] = r.GetRound()
	}
	pair(1)
	late, err := client.RecordTournamentLateness(bj, &pb.RecordTournamentLatenessRequest{TournamentId: id, Round: 1, Board: 1, Side: "white", Minutes: 10})
	if err != nil || late.GetLateness().GetDeductedMinutes() != 20 {
		t.Fatalf("10 minutes late: %v %v", late, err)
	}
	_, err = client.RecordTournamentLateness(bj, &pb.RecordTournamentLatenessRequest{TournamentId: id, Round: 1, Board: 2, Side: "black", Minutes: 16})
	code(t, "16 minutes late at the same place", err, codes.InvalidArgument, "15")
	adj, err := client.RecordTournamentAdjournment(bj, &pb.RecordTournamentAdjournmentRequest{TournamentId: id, Round: 1, Board: 1,
		SealedBy: "black", Point: "Q16", Record: "(;SZ[19];B[pd];W[dp])"})
	if err != nil || !adj.GetAdjournment().GetCountsAsPass() || adj.GetAdjournment().GetMoveNumber() != 3 {
		t.Fatalf("a sealed move on an occupied point: %v %v", adj, err)
	}
	// a protest while the game is on, then none once its result is in
	g1 := rounds[1].GetGames()[0]
	if _, err := client.LodgeProtest(bj, &pb.LodgeProtestRequest{TournamentId: id, Round: 1, Board: 1, Number: g1.GetBlack(), Reason: "对方超时未判"}); err != nil {
		t.Fatal(err)
	}
	result(1, 1, "white_time_loss")
	_, err = client.LodgeProtest(bj, &pb.LodgeProtestRequest{TournamentId: id, Round: 1, Board: 1, Number: g1.GetWhite(), Reason: "计时钟故障"})
	code(t, "a protest after the result", err, codes.FailedPrecondition, "")
	result(1, 2, "replayed")
	_, err = client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
	code(t, "pairing while a game is to be replayed", err, codes.FailedPrecondition, "")
	result(1, 2, "black")
	pair(2)
	result(2, 1, "both_late")
	result(2, 2, "no_result_final")
	pair(3) // a final no-result does not hold up the next round
	result(3, 1, "rule_draw")
	result(3, 2, "black_late")

	got, err := client.GetTournament(bj, &pb.GetTournamentRequest{Id: id})
	if err != nil {
		t.Fatal(err)
	}
	c := got.GetConduct()
	if c.GetBasicMinutes() != 90 || c.GetByoyomiKeptMinutes() != 1 || c.GetLatenessLimitMinutes() != 15 || c.GetCycleOutcome() != "draw" ||
		len(got.GetAdjournments()) != 1 || len(got.GetLatenesses()) != 1 {
		t.Fatalf("the event's rules and records: %v", got)
	}
	fin, err := client.FinishTournament(bj, &pb.FinishTournamentRequest{TournamentId: id})
	if err != nil {
		t.Fatal(err)
	}
	var wins, losses, draws int32
	for _, s := range fin.GetStandings() {
		wins += s.GetWins()
		losses += s.GetLosses()
		draws += s.GetDraws()
	}
	// time loss 1–1, replay 1–1, both late 0–2, final no-result nothing,
	// rule draw 2 draws, late 1–1
	if wins != 3 || losses != 5 || draws != 2 {
		t.Fatalf("standings: %d wins %d losses %d draws: %v", wins, losses, draws, fin.GetStandings())
	}
	_, err = client.LodgeProtest(bj, &pb.LodgeProtestRequest{TournamentId: id, Round: 3, Board: 1, Number: rounds[3].GetGames()[0].GetBlack(), Reason: "x"})
	code(t, "a protest after the event finished", err, codes.FailedPrecondition, "")

	// the ratings: only games on the board, once each
	rated := map[int32]int32{}
	for _, k := range []struct{ round, board int }{{1, 1}, {1, 2}, {3, 1}} {
		g := rounds[int32(k.round)].GetGames()[k.board-1]
		rated[g.GetBlack()]++
		rated[g.GetWhite()]++
	}
	if _, err := book.New(e.store).Recompute(context.Background(), fixture.Staff, "recompute"); err != nil {
		t.Fatal(err)
	}
	rs := pb.NewRatingServiceClient(e.conn)
	for i, pid := range players {
		r, err := rs.GetPlayerRating(e.as(""), &pb.GetPlayerRatingRequest{PlayerId: pid})
		if rated[int32(i+1)] == 0 {
			if err == nil && r.GetRating().GetGames() != 0 {
				t.Errorf("player %d: rated %d games, played none on the board", i+1, r.GetRating().GetGames())
			}
			continue
		}
		if err != nil || r.GetRating().GetGames() != rated[int32(i+1)] {
			t.Errorf("player %d: %v %v, want %d rated games", i+1, r, err, rated[int32(i+1)])
		}
	}
}
