package server_test

import (
	"fmt"
	"testing"

	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestPlayoffOverGRPC: a round robin of three whose ties go to a playoff
// ends in a cycle (1 beats 2, 2 beats 3, 3 beats 1), all equal on every
// criterion; the organiser pairs playoff rounds after the last round, the
// lower number winning each, until the playoff points separate them. The
// playoff games leave the regular scores alone.
func TestPlayoffOverGRPC(t *testing.T) {
	e := newEnv(t)
	bj := e.as(e.bj)
	client := pb.NewTournamentServiceClient(e.conn)
	created, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "加赛", StartDate: "2026-11-30", Level: "city",
		System: "round_robin", Ties: "playoff"})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetId()
	for i := range 3 {
		if _, err := client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, GuestName: fmt.Sprint("加赛", i+1), GuestRank: "1d"}); err != nil {
			t.Fatal(err)
		}
	}
	play := func(r *pb.TournamentRound, winner func(b, w int32) int32) {
		t.Helper()
		for _, g := range r.GetGames() {
			res := "black"
			if winner(g.GetBlack(), g.GetWhite()) == g.GetWhite() {
				res = "white"
			}
			if _, err := client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: g.GetRound(), Board: g.GetBoard(), Result: res}); err != nil {
				t.Fatal(err)
			}
		}
	}
	cycle := func(b, w int32) int32 { // 1 beats 2, 2 beats 3, 3 beats 1
		if (b%3)+1 == w {
			return b
		}
		return w
	}
	lower := func(b, w int32) int32 { return min(b, w) }
	for round := 1; round <= 3; round++ {
		r, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
		if err != nil {
			t.Fatal(err)
		}
		if round == 2 {
			if _, err := client.PairPlayoff(bj, &pb.PairPlayoffRequest{TournamentId: id}); reasonOf(err) != "RESULT_MISSING" && reasonOf(err) != "PLAYOFF_EARLY" {
				t.Fatalf("a playoff before the last round: %v", err)
			}
		}
		play(r.GetRound(), cycle)
	}
	got, _ := client.GetTournament(e.as(""), &pb.GetTournamentRequest{Id: id})
	for _, s := range got.GetStandings() {
		if !s.GetTied() || s.GetPlace() != 1 {
			t.Fatalf("after the cycle everyone shares first place: %v", got.GetStandings())
		}
	}
	playoffs := 0
	for {
		r, err := client.PairPlayoff(bj, &pb.PairPlayoffRequest{TournamentId: id})
		if reasonOf(err) == "NO_TIES" {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !r.GetRound().GetPlayoff() || len(r.GetRound().GetGames()) != 1 {
			t.Fatalf("playoff round %v", r.GetRound())
		}
		playoffs++
		if playoffs == 1 {
			if _, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id}); reasonOf(err) != "PLAYOFF_STARTED" {
				t.Fatalf("a regular round after the playoff began: %v", err)
			}
		}
		play(r.GetRound(), lower)
		if playoffs > 6 {
			t.Fatal("the playoff never separated them")
		}
	}
	fin, err := client.FinishTournament(bj, &pb.FinishTournamentRequest{TournamentId: id})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range fin.GetStandings() {
		if s.GetPlace() != int32(i+1) || s.GetNumber() != int32(i+1) || s.GetTied() || s.GetWins() != 1 || s.GetPoints() != 2 {
			t.Fatalf("after %d playoff rounds, standings %v", playoffs, fin.GetStandings())
		}
	}
	if fin.GetStandings()[0].GetPlayoffPoints() <= fin.GetStandings()[1].GetPlayoffPoints() {
		t.Fatalf("playoff points %v", fin.GetStandings())
	}
}
