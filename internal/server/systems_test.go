package server_test

import (
	"context"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// playOut pairs and plays an event over gRPC until pairing refuses (the
// event is decided or all its rounds are paired), the lower participant
// number winning every game; it returns the rounds played.
func playOut(t *testing.T, ctx context.Context, client pb.TournamentServiceClient, id int64, limit int) []*pb.TournamentRound {
	t.Helper()
	var rounds []*pb.TournamentRound
	for len(rounds) < limit {
		r, err := client.PairNextRound(ctx, &pb.PairNextRoundRequest{TournamentId: id})
		if status.Code(err) == codes.FailedPrecondition {
			return rounds
		}
		if err != nil {
			t.Fatalf("round %d: %v", len(rounds)+1, err)
		}
		for _, g := range r.GetRound().GetGames() {
			res := "black"
			if g.GetWhite() < g.GetBlack() {
				res = "white"
			}
			if _, err := client.RecordResult(ctx, &pb.RecordResultRequest{TournamentId: id, Round: g.GetRound(), Board: g.GetBoard(), Result: res}); err != nil {
				t.Fatal(err)
			}
		}
		rounds = append(rounds, r.GetRound())
	}
	t.Fatalf("still pairing after %d rounds", limit)
	return nil
}

// TestEverySystemOfArticle26 runs, through a real gRPC connection, an
// 8-player triple elimination, a triple round robin of 4, a 24-player Swiss
// with elimination after 3 losses and a best-of-5 final.
func TestEverySystemOfArticle26(t *testing.T) {
	e := newEnv(t)
	bj := e.as(e.bj)
	client := pb.NewTournamentServiceClient(e.conn)
	seq := 0
	event := func(req *pb.CreateTournamentRequest, players int) int64 {
		t.Helper()
		req.StartDate, req.Level = "2026-11-30", "city"
		created, err := client.CreateTournament(bj, req)
		if err != nil {
			t.Fatalf("%s: %v", req.GetSystem(), err)
		}
		id := created.GetTournament().GetId()
		for i := range players {
			// ranks descend with the number, so seeds follow numbers
			p := fixture.Player(t, e.reg, "110", fmt.Sprintf("%s%02d", req.GetName(), i+1), fmt.Sprintf("%dk", i+1), "1990-01-01", 200+seq)
			seq++
			if _, err := client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, PlayerId: p.ID}); err != nil {
				t.Fatal(err)
			}
		}
		return id
	}
	losses := func(rounds []*pb.TournamentRound) map[int32]int {
		out := map[int32]int{}
		for _, r := range rounds {
			for _, g := range r.GetGames() {
				out[max(g.GetBlack(), g.GetWhite())]++ // the higher number lost
			}
		}
		return out
	}

	t.Run("triple elimination of 8", func(t *testing.T) {
		_, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", StartDate: "2026-11-30", Level: "city", System: "multi_elimination", Lives: 2})
		code(t, "two lives is double elimination", err, codes.InvalidArgument, "lives")
		id := event(&pb.CreateTournamentRequest{Name: "三败", System: "multi_elimination", Lives: 3}, 8)
		rounds := playOut(t, bj, client, id, 40)
		l := losses(rounds)
		for n := int32(2); n <= 8; n++ {
			if l[n] != 3 {
				t.Fatalf("participant %d lost %d games; everyone but the winner is out after 3: %v", n, l[n], l)
			}
		}
		if l[1] != 0 {
			t.Fatalf("the winner lost %d", l[1])
		}
	})

	t.Run("triple round robin of 4", func(t *testing.T) {
		id := event(&pb.CreateTournamentRequest{Name: "三循环", System: "multi_round_robin", Cycles: 3}, 4)
		rounds := playOut(t, bj, client, id, 20)
		if len(rounds) != 9 {
			t.Fatalf("%d rounds, want 3 cycles of 3", len(rounds))
		}
		met := map[[2]int32]int{}
		black := map[[2]int32]int{}
		for _, r := range rounds {
			for _, g := range r.GetGames() {
				k := [2]int32{min(g.GetBlack(), g.GetWhite()), max(g.GetBlack(), g.GetWhite())}
				met[k]++
				if g.GetBlack() == k[0] {
					black[k]++
				}
			}
		}
		for k, n := range met {
			if n != 3 || black[k] < 1 || black[k] > 2 {
				t.Fatalf("pair %v met %d times, the first black %d times", k, n, black[k])
			}
		}
		if len(met) != 6 {
			t.Fatalf("%d pairs met, want 6", len(met))
		}
	})

	t.Run("Swiss with elimination after 3 losses", func(t *testing.T) {
		id := event(&pb.CreateTournamentRequest{Name: "积分淘汰", System: "swiss_elimination", Lives: 3, Rounds: 9}, 24)
		rounds := playOut(t, bj, client, id, 20)
		seen := map[int32]int{}
		for _, r := range rounds {
			for _, g := range r.GetGames() {
				for _, n := range []int32{g.GetBlack(), g.GetWhite()} {
					if seen[n] >= 3 {
						t.Fatalf("round %d pairs participant %d after his third loss", r.GetRound(), n)
					}
				}
				seen[max(g.GetBlack(), g.GetWhite())]++
			}
		}
		if len(rounds) < 3 {
			t.Fatalf("only %d rounds", len(rounds))
		}
	})

	t.Run("best-of-5 final", func(t *testing.T) {
		_, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", StartDate: "2026-11-30", Level: "city", System: "match", BestOf: 4})
		code(t, "an even series", err, codes.InvalidArgument, "best_of")
		id := event(&pb.CreateTournamentRequest{Name: "决赛", System: "match", BestOf: 5}, 2)
		rounds := playOut(t, bj, client, id, 10)
		if len(rounds) != 3 {
			t.Fatalf("the series went %d games; 3 straight wins decide a best of 5", len(rounds))
		}
		if rounds[0].GetGames()[0].GetBlack() == rounds[1].GetGames()[0].GetBlack() {
			t.Fatalf("colours do not alternate: %v", rounds)
		}
		fin, err := client.FinishTournament(bj, &pb.FinishTournamentRequest{TournamentId: id})
		if err != nil || fin.GetStandings()[0].GetNumber() != 1 || fin.GetStandings()[0].GetWins() != 3 {
			t.Fatalf("finish: %v %v", fin, err)
		}
	})
}
