package main_test

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc"

	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// earnedOverGRPC runs, as the agency of ctx, a finished one-round county
// event starting today whose grading table, published at creation, earns
// rank to its winner: the player against a guest, the player winning. It
// returns the event's id, the evidence of the player's application.
func earnedOverGRPC(ctx context.Context, conn grpc.ClientConnInterface, player int64, rank string) (int64, error) {
	tc := pb.NewTournamentServiceClient(conn)
	today := time.Now().In(ledger.ChinaTime).Format(time.DateOnly)
	ev, err := tc.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: fmt.Sprintf("升%s赛", rank), StartDate: today, Level: "county",
		System: "round_robin", Grading: []*pb.GradingRule{{MaxPlacing: 1, Rank: rank}}})
	if err != nil {
		return 0, fmt.Errorf("create the event: %w", err)
	}
	id := ev.GetTournament().GetId()
	if _, err := tc.AddParticipant(ctx, &pb.AddParticipantRequest{TournamentId: id, PlayerId: player}); err != nil {
		return 0, fmt.Errorf("add player %d: %w", player, err)
	}
	if _, err := tc.AddParticipant(ctx, &pb.AddParticipantRequest{TournamentId: id, GuestName: "陪练", GuestRank: "1k"}); err != nil {
		return 0, fmt.Errorf("add the guest: %w", err)
	}
	rd, err := tc.PairNextRound(ctx, &pb.PairNextRoundRequest{TournamentId: id})
	if err != nil {
		return 0, fmt.Errorf("pair: %w", err)
	}
	g := rd.GetRound().GetGames()[0]
	result := "black"
	if g.GetWhite() == 1 {
		result = "white"
	}
	if _, err := tc.RecordResult(ctx, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: g.GetBoard(), Result: result}); err != nil {
		return 0, fmt.Errorf("result: %w", err)
	}
	if _, err := tc.FinishTournament(ctx, &pb.FinishTournamentRequest{TournamentId: id}); err != nil {
		return 0, fmt.Errorf("finish: %w", err)
	}
	return id, nil
}
