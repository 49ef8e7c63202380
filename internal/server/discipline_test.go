package server_test

import (
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestRefereeingOverGRPC: a forfeit's reason, a confirmed round the
// organiser can no longer change, a protest ruled, a void and a suspension
// that refuses the next entry, each through a real gRPC connection.
func TestRefereeingOverGRPC(t *testing.T) {
	e := newEnv(t)
	bj := e.as(e.bj)
	client := pb.NewTournamentServiceClient(e.conn)
	created, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "裁判赛", StartDate: "2026-12-05", Level: "city",
		System: "round_robin", ChiefReferee: "王裁判"})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetId()
	if created.GetTournament().GetChiefReferee() != "王裁判" || created.GetTournament().GetColours() != "draw" {
		t.Fatalf("created: %v", created.GetTournament())
	}
	var players []int64
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("裁%d", i+1), "1d", "1990-01-01", 80+i)
		players = append(players, p.ID)
		if _, err := client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, PlayerId: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	round, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: 1, Result: "black", ForfeitReason: "late"})
	code(t, "a forfeit reason on a played game", err, codes.InvalidArgument, "forfeit_reason")
	g, err := client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: 1, Result: "both_lose", ForfeitReason: "late"})
	if err != nil || g.GetGame().GetForfeitReason() != "late" {
		t.Fatalf("both late: %v %v", g, err)
	}
	if _, err := client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: 2, Result: "white"}); err != nil {
		t.Fatal(err)
	}
	_, err = client.RecordNigiri(bj, &pb.RecordNigiriRequest{TournamentId: id, Round: 1, Board: 1, Guess: "odd", Stones: 3})
	code(t, "nigiri in an event that draws colours", err, codes.FailedPrecondition, "")
	pr, err := client.LodgeProtest(bj, &pb.LodgeProtestRequest{TournamentId: id, Round: 1, Board: 2, Number: round.GetRound().GetGames()[1].GetBlack(), Reason: "对方悔棋"})
	if err != nil {
		t.Fatal(err)
	}
	ruled, err := client.RuleProtest(bj, &pb.RuleProtestRequest{TournamentId: id, ProtestId: pr.GetProtest().GetId(), Upheld: true, Ruling: "申诉成立，白方警告一次。"})
	if err != nil || ruled.GetProtest().GetStatus() != "upheld" {
		t.Fatalf("ruling: %v %v", ruled, err)
	}
	if _, err := client.ConfirmRound(bj, &pb.ConfirmRoundRequest{TournamentId: id, Round: 1}); err != nil {
		t.Fatal(err)
	}
	_, err = client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: 2, Result: "black"})
	code(t, "organiser changing a confirmed result", err, codes.FailedPrecondition, "")
	v, err := client.VoidResult(e.as(e.staff), &pb.VoidResultRequest{TournamentId: id, Round: 1, Board: 2, Side: "both", Reason: "下假棋"})
	if err != nil || v.GetGame().GetResult() != "both_lose" || v.GetGame().GetVoided() != "both" || v.GetGame().GetVoidedResult() != "white" {
		t.Fatalf("void: %v %v", v, err)
	}
	_, err = client.SuspendPlayer(bj, &pb.SuspendPlayerRequest{PlayerId: players[0], FromDate: "2027-01-01", ToDate: "2027-12-31", Reason: "下假棋"})
	code(t, "an agency suspending", err, codes.PermissionDenied, "")
	if _, err := client.SuspendPlayer(e.as(e.staff), &pb.SuspendPlayerRequest{PlayerId: players[0], FromDate: "2027-01-01", ToDate: "2027-12-31", Reason: "下假棋", TournamentId: id}); err != nil {
		t.Fatal(err)
	}
	next, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "春季赛", StartDate: "2027-03-01", Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: next.GetTournament().GetId(), PlayerId: players[0]})
	code(t, "a suspended player entering", err, codes.FailedPrecondition, "")
}
