package server_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/dankyu/dankyu/internal/eventratings"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// TestArenaFiveASide plays a 5-a-side arena match (擂台赛) through a real
// gRPC connection: each team's order is its boards (given out of entry
// order), the winner stays on and meets the losing side's next player, the
// team whose five are all beaten loses, and finishing declares the winner
// with each player's run of wins.
func TestArenaFiveASide(t *testing.T) {
	e := newEnv(t)
	bj := e.as(e.bj)
	client := pb.NewTournamentServiceClient(e.conn)

	_, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", StartDate: "2026-11-30", Level: "city", System: "arena"})
	code(t, "an arena that is no team event", err, codes.InvalidArgument, "team")

	created, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "京沪擂台赛", StartDate: "2026-11-30", Level: "city",
		System: "arena", Team: true})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetId()
	// 北京 enters its players last to first (board 5 … 1), 上海 first to last
	order := map[string][]int32{}
	for i := range 10 {
		team, board := "北京", int32(5-i)
		if i >= 5 {
			team, board = "上海", int32(i-4)
		}
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("擂台%s%d", team, board), "1d", "1990-01-01", 500+i)
		added, err := client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, PlayerId: p.ID, Team: team, Board: board})
		if err != nil {
			t.Fatal(err)
		}
		order[team] = append(order[team], added.GetParticipant().GetNumber())
	}
	bjOrder := []int32{5, 4, 3, 2, 1}          // board k of 北京 is participant 6-k
	shOrder := []int32{6, 7, 8, 9, 10}         // board k of 上海 is participant 5+k
	team := map[int32]string{1: "北京", 6: "上海"} // by first participant of each
	for _, n := range bjOrder {
		team[n] = "北京"
	}
	for _, n := range shOrder {
		team[n] = "上海"
	}
	// The script: 北京1 wins two, loses to 上海3; 上海3 beats 北京2 and 北京3,
	// draws with 北京4 (both out); 北京5 meets 上海4 and beats him and 上海5.
	winners := []int32{bjOrder[0], bjOrder[0], shOrder[2], shOrder[2], shOrder[2], 0, bjOrder[4], bjOrder[4]}
	wantPairs := [][2]int32{{bjOrder[0], shOrder[0]}, {bjOrder[0], shOrder[1]}, {bjOrder[0], shOrder[2]}, {bjOrder[1], shOrder[2]},
		{bjOrder[2], shOrder[2]}, {bjOrder[3], shOrder[2]}, {bjOrder[4], shOrder[3]}, {bjOrder[4], shOrder[4]}}
	for i, w := range winners {
		r, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		games := r.GetRound().GetGames()
		if len(games) != 1 {
			t.Fatalf("round %d has %d games; an arena plays one at a time", i+1, len(games))
		}
		g := games[0]
		if got := [2]int32{min(g.GetBlack(), g.GetWhite()), max(g.GetBlack(), g.GetWhite())}; got != [2]int32{min(wantPairs[i][0], wantPairs[i][1]), max(wantPairs[i][0], wantPairs[i][1])} {
			t.Fatalf("game %d is %d–%d, want %v", i+1, g.GetBlack(), g.GetWhite(), wantPairs[i])
		}
		if i == 3 {
			_, err := client.FinishTournament(bj, &pb.FinishTournamentRequest{TournamentId: id})
			code(t, "finishing mid-match", err, codes.FailedPrecondition, "")
			if reasonOf(err) != "RESULT_MISSING" {
				t.Fatalf("finishing with a game open: %s", reasonOf(err))
			}
		}
		res := "draw"
		switch w {
		case g.GetBlack():
			res = "black"
		case g.GetWhite():
			res = "white"
		}
		if _, err := client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: g.GetRound(), Board: 1, Result: res}); err != nil {
			t.Fatal(err)
		}
		if i == 3 {
			_, err := client.FinishTournament(bj, &pb.FinishTournamentRequest{TournamentId: id})
			if reasonOf(err) != "ARENA_UNDECIDED" {
				t.Fatalf("finishing an undecided arena: %v", err)
			}
		}
	}
	_, err = client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
	code(t, "pairing after 上海's five are beaten", err, codes.FailedPrecondition, "北京")

	got, err := client.GetTournament(e.as(""), &pb.GetTournamentRequest{Id: id})
	if err != nil {
		t.Fatal(err)
	}
	a := got.GetArena()
	if !a.GetDecided() || a.GetWinner() != "北京" || a.GetLeft()[0] != 1 || a.GetLeft()[1] != 0 {
		t.Fatalf("arena %v", a)
	}
	wins := map[int32]int32{}
	for _, p := range a.GetPlayers() {
		wins[p.GetNumber()] = p.GetWins()
	}
	want := map[int32]int32{bjOrder[0]: 2, shOrder[2]: 3, bjOrder[4]: 2}
	for n := int32(1); n <= 10; n++ {
		if wins[n] != want[n] {
			t.Errorf("participant %d (%s): %d wins in a row, want %d", n, team[n], wins[n], want[n])
		}
	}
	ts := got.GetTeamStandings()
	if len(ts) != 2 || ts[0].GetTeam() != "北京" || ts[0].GetPlace() != 1 || ts[0].GetMatchPoints() != 2 || ts[1].GetPlace() != 2 ||
		ts[0].GetBoardPoints() != 2*4+1 || ts[1].GetBoardPoints() != 2*3+1 {
		t.Fatalf("team standings %v", ts)
	}
	fin, err := client.FinishTournament(bj, &pb.FinishTournamentRequest{TournamentId: id})
	if err != nil || fin.GetArena().GetWinner() != "北京" {
		t.Fatalf("finish: %v %v", fin.GetArena(), err)
	}
}

// TestTeamBoardsByRank: a team event whose boards go by rank orders each
// team at its first pairing by rank, then by the ratings book's current
// rating, then by number, and refuses every change of boards after it.
func TestTeamBoardsByRank(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	rb := book.New(e.store)
	ts := tournaments.New(e.store, e.reg, proposals.Certs{Certs: e.cs}, tournaments.WithRater(eventratings.Book{Book: rb}),
		tournaments.WithBoardRatings(eventratings.Book{Book: rb}))
	// three 1 dan players rated by a round robin: 甲 above 乙 above 丙
	var rated []int64
	var entrants []tournaments.ParticipantInput
	for i, name := range []string{"甲", "乙", "丙"} {
		p := fixture.Player(t, e.reg, "110", name+"一段", "1d", "1990-01-01", 520+i)
		rated = append(rated, p.ID)
		entrants = append(entrants, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	fixture.RoundRobin(t, ts, "等级分赛", "2026-11-07", entrants, fixture.LowerWins)
	unrated := fixture.Player(t, e.reg, "110", "丁一段", "1d", "1990-01-01", 523)
	strong := fixture.Player(t, e.reg, "110", "戊二段", "2d", "1990-01-01", 524)
	org := fixture.Agency("110")
	_, err := ts.CreateEvent(ctx, org, "", tournaments.EventInput{Name: "x", Start: "2026-11-30", Level: "city", System: "round_robin", Boards: "rank"})
	if reasonCode(err) != "BOARD_ORDER" {
		t.Fatalf("boards by rank in an individual event: %v", err)
	}
	ev, err := ts.CreateEvent(ctx, org, "", tournaments.EventInput{Name: "团体赛", Start: "2026-11-30", Level: "city", System: "round_robin",
		Team: true, Boards: "rank"})
	if err != nil {
		t.Fatal(err)
	}
	// team A entered weakest-looking first: 丁 (unrated), 丙, 乙, 甲, 戊 (2d)
	for _, id := range []int64{unrated.ID, rated[2], rated[1], rated[0], strong.ID} {
		if _, err := ts.AddParticipant(ctx, org, "", ev.ID, tournaments.ParticipantInput{PlayerID: id, Team: "A"}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		if _, err := ts.AddParticipant(ctx, org, "", ev.ID, tournaments.ParticipantInput{GuestName: fmt.Sprint("客", i), GuestRank: fmt.Sprintf("%dk", i+1), Team: "B"}); err != nil {
			t.Fatal(err)
		}
	}
	// 丁 was entered as a declared 1 dan; a 3 dan certificate issued before
	// the first round puts him on board 1: the certified rank goes first
	if err := ledger.Transact(ctx, e.store, func(tx *ledger.Tx) error {
		return registry.SetRank(ctx, tx, e.store.Now(), fixture.Staff, unrated.ID, unrated.PlayingRank(), 3, "test certificate")
	}); err != nil {
		t.Fatal(err)
	}
	_, err = ts.AddParticipant(ctx, org, "", ev.ID, tournaments.ParticipantInput{GuestName: "客x", GuestRank: "1k", Team: "B", Board: 1})
	if reasonCode(err) != "BOARD_BY_RANK" {
		t.Fatalf("a board given where boards go by rank: %v", err)
	}
	if _, err := ts.PairNextRound(ctx, org, "", ev.ID); err != nil {
		t.Fatal(err)
	}
	ps, err := ts.Participants(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	boards := map[string]int{}
	for _, p := range ps {
		boards[p.Name] = p.Board
	}
	want := map[string]int{"丁一段": 1, "戊二段": 2, "甲一段": 3, "乙一段": 4, "丙一段": 5, "客0": 1, "客1": 2, "客4": 5}
	for name, b := range want {
		if boards[name] != b {
			t.Errorf("%s on board %d, want %d (all: %v)", name, boards[name], b, boards)
		}
	}

	// over gRPC: every change after the first pairing is refused
	client := pb.NewTournamentServiceClient(e.conn)
	bj := e.as(e.bj)
	_, err = client.SetBoard(bj, &pb.SetBoardRequest{TournamentId: ev.ID, Number: 1, Board: 2})
	code(t, "a board changed after the first round", err, codes.FailedPrecondition, "")
	if reasonOf(err) != "BOARDS_FIXED" {
		t.Fatalf("set board: %v", err)
	}
	_, err = client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: ev.ID, GuestName: "迟到", GuestRank: "1k", Team: "B"})
	if reasonOf(err) != "FIELD_FIXED" && reasonOf(err) != "BOARDS_FIXED" {
		t.Fatalf("an entry after the first round: %v", err)
	}
	// boards given: the organiser may change them until the first round
	given, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "定台", StartDate: "2026-11-30", Level: "city",
		System: "swiss", Rounds: 3, Team: true})
	if err != nil || given.GetTournament().GetTeamBoards() != "given" {
		t.Fatalf("create: %v %v", given, err)
	}
	gid := given.GetTournament().GetId()
	for i := range 4 {
		if _, err := client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: gid, GuestName: fmt.Sprint("队员", i), GuestRank: "1k",
			Team: []string{"X", "Y"}[i/2], Board: int32(i%2 + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := client.SetBoard(bj, &pb.SetBoardRequest{TournamentId: gid, Number: 1, Board: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.SetBoard(bj, &pb.SetBoardRequest{TournamentId: gid, Number: 1, Board: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: gid}); err != nil {
		t.Fatal(err)
	}
	_, err = client.SetBoard(bj, &pb.SetBoardRequest{TournamentId: gid, Number: 1, Board: 2})
	if reasonOf(err) != "BOARDS_FIXED" {
		t.Fatalf("a given board changed after the first round: %v", err)
	}
	_, err = client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: gid, GuestName: "迟到", GuestRank: "1k", Team: "X", Board: 3})
	if reasonOf(err) != "BOARDS_FIXED" {
		t.Fatalf("a team Swiss entry after the first round: %v", err)
	}
}

// reasonCode is the code of a domain refusal, "" for anything else.
func reasonCode(err error) string {
	var le *ledger.Error
	if errors.As(err, &le) {
		return le.Reason.Code()
	}
	return ""
}
