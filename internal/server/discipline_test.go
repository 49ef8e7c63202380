package server_test

import (
	"fmt"
	"strings"
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
	created, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "裁判赛", StartDate: "2026-11-30", Level: "city",
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
	pr, err := client.LodgeProtest(bj, &pb.LodgeProtestRequest{TournamentId: id, Round: 1, Board: 2, Number: round.GetRound().GetGames()[1].GetBlack(), Reason: "对方悔棋"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: 2, Result: "white"}); err != nil {
		t.Fatal(err)
	}
	_, err = client.RecordNigiri(bj, &pb.RecordNigiriRequest{TournamentId: id, Round: 1, Board: 1, Guess: "odd", Stones: 3})
	code(t, "nigiri in an event that draws colours", err, codes.FailedPrecondition, "")
	ruled, err := client.RuleProtest(bj, &pb.RuleProtestRequest{TournamentId: id, ProtestId: pr.GetProtest().GetId(), Upheld: true, Ruling: "申诉成立，白方警告一次。"})
	if err != nil || ruled.GetProtest().GetStatus() != "upheld" {
		t.Fatalf("ruling: %v %v", ruled, err)
	}
	if _, err := client.ConfirmRound(bj, &pb.ConfirmRoundRequest{TournamentId: id, Round: 1}); err != nil {
		t.Fatal(err)
	}
	_, err = client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: 2, Result: "black"})
	code(t, "organiser changing a confirmed result", err, codes.FailedPrecondition, "")
	// a confirmed result is the association's to void (issue 31)
	_, err = client.VoidResult(bj, &pb.VoidResultRequest{TournamentId: id, Round: 1, Board: 2, Side: "both", Reason: "改判"})
	code(t, "the organiser voiding a confirmed result", err, codes.PermissionDenied, "")
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

// TestCertificatesForReviewOverGRPC: a 1 dan issued on a dan-grade event
// whose deciding game is then voided is listed for staff to review (an
// agency is refused the list); keeping it needs a note, clears the flag,
// and a second keep is FAILED_PRECONDITION.
func TestCertificatesForReviewOverGRPC(t *testing.T) {
	e := newEnv(t)
	fixture.Stock(t, e.cs, "110", 2026, 10, 0)
	number := fixture.FlaggedCertificate(t, e.reg, e.cs, e.ts, "2026-11-30", "复核", 60)
	client := pb.NewCertificateServiceClient(e.conn)
	_, err := client.ListCertificatesForReview(e.as(e.bj), &pb.ListCertificatesForReviewRequest{})
	code(t, "an agency listing the flagged", err, codes.PermissionDenied, "")
	list, err := client.ListCertificatesForReview(e.as(e.staff), &pb.ListCertificatesForReviewRequest{})
	if err != nil || len(list.GetCertificates()) != 1 {
		t.Fatalf("flagged: %v %v", list, err)
	}
	if c := list.GetCertificates()[0]; c.GetNumber() != number || c.GetPlayerName() != "复核1" || c.GetRank() != "1d" || !strings.Contains(c.GetReason(), "下假棋") {
		t.Fatalf("flagged certificate: %v", c)
	}
	// the reason also as a code with its parameters, for a client's own words
	if c := list.GetCertificates()[0]; c.GetReasonCode() != "REVIEW_BASIS_VOIDED" || len(c.GetReasonParams()) == 0 {
		t.Fatalf("flag's code: %q %v", c.GetReasonCode(), c.GetReasonParams())
	}
	_, err = client.KeepCertificate(e.as(e.staff), &pb.KeepCertificateRequest{Number: number})
	code(t, "keeping without a note", err, codes.InvalidArgument, "kept")
	kept, err := client.KeepCertificate(e.as(e.staff), &pb.KeepCertificateRequest{Number: number, Note: "另有成绩"})
	if err != nil || kept.GetCertificate().GetNumber() != number {
		t.Fatalf("keep: %v %v", kept, err)
	}
	if list, err := client.ListCertificatesForReview(e.as(e.staff), &pb.ListCertificatesForReviewRequest{}); err != nil || len(list.GetCertificates()) != 0 {
		t.Fatalf("flagged after the keep: %v %v", list, err)
	}
	_, err = client.KeepCertificate(e.as(e.staff), &pb.KeepCertificateRequest{Number: number, Note: "再次"})
	code(t, "keeping what is not flagged", err, codes.FailedPrecondition, "")
}
