package server_test

import (
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestTeamFormatsOverGRPC runs the team formats of article 25 through a
// real gRPC connection: 定台换人制 with a substitute per team (lineups per
// round in the fixed order, the pairing seating them), 临场出人制 (any
// order) and 全队轮赛制 (every member against every member of the other
// team, one match over three rounds).
func TestTeamFormatsOverGRPC(t *testing.T) {
	e := newEnv(t)
	bj := e.as(e.bj)
	client := pb.NewTournamentServiceClient(e.conn)
	event := func(format string, reserves int32, boards int, withReserve bool) (int64, map[string]int32) {
		t.Helper()
		created, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: format, StartDate: "2026-11-30", Level: "city",
			System: "double_round_robin", Team: true, TeamFormat: format, Reserves: reserves})
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		id := created.GetTournament().GetId()
		numbers := map[string]int32{}
		for _, team := range []string{"X", "Y"} {
			n := boards
			if withReserve {
				n++
			}
			for b := 1; b <= n; b++ {
				name := fmt.Sprintf("%s%d", team, b)
				p, err := client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, GuestName: name, GuestRank: "1k", Team: team,
					Board: int32(b), Reserve: b > boards})
				if err != nil {
					t.Fatalf("%s: add %s: %v", format, name, err)
				}
				numbers[name] = p.GetParticipant().GetNumber()
			}
		}
		return id, numbers
	}
	lineup := func(id int64, team string, ns ...int32) error {
		_, err := client.SetLineup(bj, &pb.SetLineupRequest{TournamentId: id, Team: team, Numbers: ns})
		return err
	}
	seated := func(r *pb.PairNextRoundResponse) map[int32]int32 { // X's player → his opponent
		out := map[int32]int32{}
		for _, g := range r.GetRound().GetGames() {
			out[g.GetBlack()], out[g.GetWhite()] = g.GetWhite(), g.GetBlack()
		}
		return out
	}
	playAll := func(id int64, r *pb.PairNextRoundResponse) {
		t.Helper()
		for _, g := range r.GetRound().GetGames() {
			if _, err := client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: g.GetRound(), Board: g.GetBoard(), Result: "black"}); err != nil {
				t.Fatal(err)
			}
		}
	}

	t.Run("定台换人制", func(t *testing.T) {
		_, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", StartDate: "2026-11-30", Level: "city",
			System: "round_robin", Team: true, Reserves: 1})
		code(t, "substitutes in 分台定人制", err, codes.InvalidArgument, "reserves")
		id, n := event("fixed_order", 1, 2, true)
		_, err = client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, GuestName: "X4", GuestRank: "1k", Team: "X", Board: 4, Reserve: true})
		if reasonOf(err) != "RESERVES" {
			t.Fatalf("a second substitute: %v", err)
		}
		_, err = client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
		if reasonOf(err) != "LINEUP_MISSING" {
			t.Fatalf("pairing without lineups: %v", err)
		}
		if err := lineup(id, "X", n["X2"], n["X1"]); reasonOf(err) != "LINEUP_ORDER" {
			t.Fatalf("out of the fixed order: %v", err)
		}
		if err := lineup(id, "X", n["X1"], n["Y1"]); reasonOf(err) != "LINEUP_NOT_MEMBER" {
			t.Fatalf("another team's player: %v", err)
		}
		// the substitute X3 plays for X2, in his place after X1
		if err := lineup(id, "X", n["X1"], n["X3"]); err != nil {
			t.Fatal(err)
		}
		if err := lineup(id, "Y", n["Y1"], n["Y2"]); err != nil {
			t.Fatal(err)
		}
		r, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
		if err != nil {
			t.Fatal(err)
		}
		if s := seated(r); s[n["X1"]] != n["Y1"] || s[n["X3"]] != n["Y2"] || len(s) != 4 {
			t.Fatalf("round 1 seats %v", s)
		}
		playAll(id, r)
		_, err = client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
		if reasonOf(err) != "LINEUP_MISSING" {
			t.Fatalf("round 2 needs lineups of its own: %v", err)
		}
		if err := lineup(id, "X", n["X1"], n["X2"]); err != nil {
			t.Fatal(err)
		}
		if err := lineup(id, "Y", n["Y2"], n["Y3"]); err != nil {
			t.Fatal(err)
		}
		r, err = client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
		if err != nil {
			t.Fatal(err)
		}
		if s := seated(r); s[n["X1"]] != n["Y2"] || s[n["X2"]] != n["Y3"] {
			t.Fatalf("round 2 seats %v", s)
		}
	})

	t.Run("临场出人制", func(t *testing.T) {
		id, n := event("free_lineup", 0, 2, false)
		if err := lineup(id, "X", n["X2"], n["X1"]); err != nil {
			t.Fatalf("a coach's order: %v", err)
		}
		if err := lineup(id, "Y", n["Y1"], n["Y2"]); err != nil {
			t.Fatal(err)
		}
		r, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
		if err != nil {
			t.Fatal(err)
		}
		if s := seated(r); s[n["X2"]] != n["Y1"] || s[n["X1"]] != n["Y2"] {
			t.Fatalf("seats %v: X2 on board 1 against Y1", s)
		}
	})

	t.Run("全队轮赛制", func(t *testing.T) {
		created, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "轮赛", StartDate: "2026-11-30", Level: "city",
			System: "round_robin", Team: true, TeamFormat: "all_play"})
		if err != nil {
			t.Fatal(err)
		}
		id := created.GetTournament().GetId()
		for _, team := range []string{"X", "Y"} {
			for b := 1; b <= 3; b++ {
				if _, err := client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, GuestName: fmt.Sprint(team, b), GuestRank: "1k",
					Team: team, Board: int32(b)}); err != nil {
					t.Fatal(err)
				}
			}
		}
		rounds := playOut(t, bj, client, id, 10)
		if len(rounds) != 3 {
			t.Fatalf("%d rounds; a match of three boards is three rounds", len(rounds))
		}
		met := map[[2]int32]int{}
		for _, r := range rounds {
			for _, g := range r.GetGames() {
				met[[2]int32{min(g.GetBlack(), g.GetWhite()), max(g.GetBlack(), g.GetWhite())}]++
			}
		}
		for x := int32(1); x <= 3; x++ {
			for y := int32(4); y <= 6; y++ {
				if met[[2]int32{x, y}] != 1 {
					t.Fatalf("X%d and Y%d met %d times: %v", x, y-3, met[[2]int32{x, y}], met)
				}
			}
		}
		got, err := client.GetTournament(e.as(""), &pb.GetTournamentRequest{Id: id})
		if err != nil {
			t.Fatal(err)
		}
		ts := got.GetTeamStandings()
		// X (the lower numbers) won all nine games: one match, won
		if len(ts) != 2 || ts[0].GetTeam() != "X" || ts[0].GetMatchPoints() != 2 || ts[0].GetBoardPoints() != 18 || ts[1].GetMatchPoints() != 0 {
			t.Fatalf("team standings %v", ts)
		}
	})
}
