package server_test

import (
	"fmt"
	"os"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/tournaments"
)

// TestTournamentOverGRPC runs a small round robin through a real gRPC
// connection, exports it as an h-file and reads that back.
func TestTournamentOverGRPC(t *testing.T) {
	e := newEnv(t)
	bj := e.as(e.bj)
	client := pb.NewTournamentServiceClient(e.conn)
	_, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", StartDate: "2026-11-30", Level: "national", System: "round_robin"})
	code(t, "agency creating a national event", err, codes.PermissionDenied, "staff")
	_, err = client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", StartDate: "5 Dec", Level: "city", System: "round_robin"})
	code(t, "bad date", err, codes.InvalidArgument, "start")
	created, err := client.CreateTournament(e.as(e.bj, "idempotency-key", "t-1"), &pb.CreateTournamentRequest{Name: "北京市循环赛",
		StartDate: "2026-11-30", Level: "city", System: "round_robin", Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetId()
	for i := range 5 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("循环%d", i+1), "1d", "1990-01-01", 50+i)
		if _, err := client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, PlayerId: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	_, err = client.AddParticipant(e.as(e.staff), &pb.AddParticipantRequest{TournamentId: id})
	code(t, "participant without player or name", err, codes.InvalidArgument, "guest_name")
	for r := 1; r <= 5; r++ {
		round, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if round.GetRound().GetBye() == 0 || len(round.GetRound().GetGames()) != 2 {
			t.Fatalf("round %d of five players: %v", r, round)
		}
		for _, g := range round.GetRound().GetGames() {
			res := "black"
			if g.GetWhite() < g.GetBlack() {
				res = "white"
			}
			if _, err := client.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: g.GetRound(), Board: g.GetBoard(), Result: res}); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, err = client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
	code(t, "a sixth round", err, codes.FailedPrecondition, "all paired")
	got, err := client.GetTournament(bj, &pb.GetTournamentRequest{Id: id})
	if err != nil {
		t.Fatal(err)
	}
	st := got.GetStandings()
	if len(st) != 5 || st[0].GetName() != "循环1" || st[0].GetPoints() != 8 || st[4].GetPoints() != 0 {
		t.Fatalf("standings %v", st)
	}
	exp, err := client.ExportTournament(bj, &pb.ExportTournamentRequest{TournamentId: id, Format: "h9"})
	if err != nil {
		t.Fatal(err)
	}
	back, err := tournaments.ParseH9(exp.GetData())
	if err != nil {
		t.Fatalf("our h-file does not read back: %v\n%s", err, exp.GetData())
	}
	sum, _ := back.Summarize()
	if sum.Players != 5 || sum.Games != 10 || sum.Rounds != 5 || sum.Standings[0].Name != "Xun Huan1" || sum.Standings[0].Points != 8 {
		t.Fatalf("h-file read back: %+v", sum)
	}
	if _, err := client.ExportTournament(bj, &pb.ExportTournamentRequest{TournamentId: id, Format: "pdf"}); err == nil {
		t.Fatal("unknown export format accepted")
	}

	// import over gRPC: a dry run lists the players to match
	data, err := os.ReadFile("../../tournaments/testdata/TournoiChinois.xml")
	if err != nil {
		t.Fatal(err)
	}
	dry, err := client.ImportTournament(bj, &pb.ImportTournamentRequest{Data: data, Level: "city"})
	if err != nil || dry.GetTournament() != nil || dry.GetGames() != 12 {
		t.Fatalf("dry run: %v %v", dry, err)
	}
	var guests []int32
	for _, p := range dry.GetImportPlayers() {
		if p.GetStatus() != "unmatched" {
			t.Fatalf("%s matched in an empty registry: %v", p.GetName(), p)
		}
		guests = append(guests, p.GetIndex())
	}
	_, err = client.ImportTournament(bj, &pb.ImportTournamentRequest{Data: data, Level: "city", Commit: true})
	code(t, "commit with unmatched players", err, codes.FailedPrecondition, "not matched")
	done, err := client.ImportTournament(bj, &pb.ImportTournamentRequest{Data: data, Level: "city", Commit: true, Guests: guests})
	if err != nil || done.GetTournament().GetId() == 0 {
		t.Fatalf("import: %v %v", done, err)
	}
	_, err = client.ImportTournament(bj, &pb.ImportTournamentRequest{Data: []byte("<Tournament><Players>\n<Player name=\"x\" rank=\"99X\"/>"), Level: "city"})
	code(t, "malformed file", err, codes.InvalidArgument, "line 2")
}
