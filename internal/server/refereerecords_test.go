package server_test

import (
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestRefereeRecordsSwissOverGRPC: over a real gRPC connection, a Swiss
// event keeps two players of one club apart in round 1 (the split would
// pair them), the referee puts warnings with their causes on record (the
// second loses the game), the committee reprimands a player and pays his
// prize one place lower, and a round is added after the last one.
func TestRefereeRecordsSwissOverGRPC(t *testing.T) {
	e := newEnv(t)
	bj := e.as(e.bj)
	client := pb.NewTournamentServiceClient(e.conn)
	reg := pb.NewRegistryServiceClient(e.conn)
	created, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "回避赛", StartDate: "2026-11-30", Level: "city",
		System: "swiss", Rounds: 1, ChiefReferee: "王裁判"})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetId()
	var players []int64
	for i, rank := range []string{"3d", "2d", "1d", "1k"} {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("避%d", i+1), rank, "1990-01-01", 90+i)
		players = append(players, p.ID)
		if _, err := client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, PlayerId: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	// the split pairs 1 (3d) with 3 (1d): put them in one club
	for _, p := range []int64{players[0], players[2]} {
		if _, err := reg.SetPlayerAffiliation(bj, &pb.SetPlayerAffiliationRequest{PlayerId: p, Kind: "club", Name: "青少年围棋俱乐部", FromDate: "2026-01-01"}); err != nil {
			t.Fatal(err)
		}
	}
	_, err = reg.SetPlayerAffiliation(bj, &pb.SetPlayerAffiliationRequest{PlayerId: players[1], Kind: "guild", Name: "x", FromDate: "2026-01-01"})
	code(t, "an unknown affiliation kind", err, codes.InvalidArgument, "kind")
	hist, err := reg.ListPlayerAffiliations(bj, &pb.ListPlayerAffiliationsRequest{PlayerId: players[0]})
	if err != nil || len(hist.GetAffiliations()) != 1 || hist.GetAffiliations()[0].GetName() != "青少年围棋俱乐部" {
		t.Fatalf("affiliations: %v %v", hist, err)
	}
	_, err = client.SetPairingConstraint(bj, &pb.SetPairingConstraintRequest{TournamentId: id, AvoidRounds: 2, Kinds: []string{"clan"}})
	code(t, "an unknown constraint kind", err, codes.InvalidArgument, "kinds")
	if _, err := client.SetPairingConstraint(bj, &pb.SetPairingConstraintRequest{TournamentId: id, AvoidRounds: 2, Kinds: []string{"club", "family"}}); err != nil {
		t.Fatal(err)
	}
	r1, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range r1.GetRound().GetGames() {
		if (g.GetBlack() == 1 && g.GetWhite() == 3) || (g.GetBlack() == 3 && g.GetWhite() == 1) {
			t.Fatalf("clubmates paired in round 1: %v", r1.GetRound().GetGames())
		}
	}
	if len(r1.GetTogether()) != 0 {
		t.Fatalf("reported together: %v", r1.GetTogether())
	}
	g1 := r1.GetRound().GetGames()[0]
	// warnings with causes: the second of one side loses the game
	_, err = client.RecordRefereeWarning(bj, &pb.RecordRefereeWarningRequest{TournamentId: id, Round: 1, Board: 1, Number: g1.GetBlack(), Cause: "sneezing"})
	code(t, "an unknown cause", err, codes.InvalidArgument, "cause")
	w1, err := client.RecordRefereeWarning(bj, &pb.RecordRefereeWarningRequest{TournamentId: id, Round: 1, Board: 1, Number: g1.GetBlack(), Cause: "take_back", Referee: "李裁判"})
	if err != nil || w1.GetGame().GetBlackWarnings() != 1 || w1.GetGame().GetResult() != "" {
		t.Fatalf("first warning: %v %v", w1, err)
	}
	w2, err := client.RecordRefereeWarning(bj, &pb.RecordRefereeWarningRequest{TournamentId: id, Round: 1, Board: 1, Number: g1.GetBlack(), Cause: "phone"})
	if err != nil || !w2.GetWarning().GetDecided() || w2.GetGame().GetResult() != "white" || w2.GetGame().GetBlackWarnings() != 2 {
		t.Fatalf("second warning: %v %v", w2, err)
	}
	_, err = client.RecordRefereeWarning(bj, &pb.RecordRefereeWarningRequest{TournamentId: id, Round: 1, Board: 1, Number: g1.GetBlack(), Cause: "smoking"})
	code(t, "a third warning", err, codes.FailedPrecondition, "")
	ws, err := client.ListRefereeWarnings(bj, &pb.ListRefereeWarningsRequest{TournamentId: id})
	if err != nil || len(ws.GetWarnings()) != 2 || ws.GetWarnings()[0].GetCause() != "take_back" || ws.GetWarnings()[0].GetReferee() != "李裁判" {
		t.Fatalf("warnings: %v %v", ws, err)
	}
	if _, err := client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: 2, Result: "black"}); err != nil {
		t.Fatal(err)
	}
	// sanctions short of a suspension
	for _, kind := range []string{"reprimand", "prize_one_place_lower"} {
		if _, err := client.SanctionParticipant(bj, &pb.SanctionParticipantRequest{TournamentId: id, Number: 2, Kind: kind, Reason: "无故不参加闭幕式"}); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
	}
	_, err = client.SanctionParticipant(bj, &pb.SanctionParticipantRequest{TournamentId: id, Number: 2, Kind: "fine", Reason: "x"})
	code(t, "an unknown sanction", err, codes.InvalidArgument, "kind")
	byPlayer, err := client.ListSanctions(bj, &pb.ListSanctionsRequest{PlayerId: players[1]})
	if err != nil || len(byPlayer.GetSanctions()) != 2 || byPlayer.GetSanctions()[1].GetKind() != "prize_one_place_lower" || byPlayer.GetSanctions()[0].GetTournamentName() != "回避赛" {
		t.Fatalf("player's sanctions: %v %v", byPlayer, err)
	}
	byEvent, err := client.ListSanctions(bj, &pb.ListSanctionsRequest{TournamentId: id})
	if err != nil || len(byEvent.GetSanctions()) != 2 {
		t.Fatalf("event's sanctions: %v %v", byEvent, err)
	}
	// a round added after the last
	_, err = client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
	code(t, "pairing past the rounds", err, codes.FailedPrecondition, "")
	set, err := client.SetSwissRounds(bj, &pb.SetSwissRoundsRequest{TournamentId: id, Rounds: 2})
	if err != nil || set.GetTournament().GetRounds() != 2 {
		t.Fatalf("rounds: %v %v", set, err)
	}
	r2, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
	if err != nil || r2.GetRound().GetRound() != 2 || len(r2.GetRound().GetGames()) != 2 {
		t.Fatalf("round 2: %v %v", r2, err)
	}
	together := false
	for _, g := range r2.GetRound().GetGames() {
		together = together || (g.GetBlack() == 1 && g.GetWhite() == 3) || (g.GetBlack() == 3 && g.GetWhite() == 1)
	}
	if together != (len(r2.GetTogether()) == 1) {
		t.Fatalf("round 2 pairs %v, reported together %v", r2.GetRound().GetGames(), r2.GetTogether())
	}
}
