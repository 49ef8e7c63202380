package server_test

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestImportProposalsOverGRPC: over gRPC an agency states a player's Latin
// name and EGD PIN; a file naming him by that PIN matches him, a namesake
// without agreeing facts comes back as a proposal with the facts side by
// side (identity masked), and the confirmed import commits; the h-file
// export writes him by his Latin name and PIN.
func TestImportProposalsOverGRPC(t *testing.T) {
	e := newEnv(t)
	bj := e.as(e.bj)
	tc := pb.NewTournamentServiceClient(e.conn)
	wang := fixture.Player(t, e.reg, "110", "王芳", "3d", "1995-01-01", 71)
	li := fixture.Player(t, e.reg, "110", "李娜", "1d", "1985-01-01", 72)
	got, err := e.client.SetPlayerLatinName(bj, &pb.SetPlayerLatinNameRequest{Id: wang.ID, LatinName: "Wong Fong"})
	if err != nil || got.GetPlayer().GetLatinName() != "Wong Fong" || !got.GetPlayer().GetLatinNameStated() {
		t.Fatalf("latin name: %v %v", got, err)
	}
	_, err = e.client.SetPlayerLatinName(bj, &pb.SetPlayerLatinNameRequest{Id: wang.ID, LatinName: "王芳"})
	code(t, "a Chinese Latin name", err, codes.InvalidArgument, "Latin")
	if set, err := e.client.SetPlayerExternalId(bj, &pb.SetPlayerExternalIdRequest{Id: wang.ID, Scheme: "egd", Value: "12345678"}); err != nil ||
		set.GetPlayer().GetExternalIds()["egd"] != "12345678" {
		t.Fatalf("EGD PIN: %v %v", set, err)
	}
	_, err = e.client.SetPlayerExternalId(bj, &pb.SetPlayerExternalIdRequest{Id: li.ID, Scheme: "egd", Value: "12345678"})
	code(t, "a PIN another player holds", err, codes.AlreadyExists, "12345678")
	if pub, err := e.client.GetPlayer(e.as(""), &pb.GetPlayerRequest{Id: li.ID}); err != nil || pub.GetPlayer().GetLatinName() != "Li Na" ||
		pub.GetPlayer().GetLatinNameStated() {
		t.Fatalf("default Latin name: %v %v", pub, err)
	}

	file := []byte("; CL[C]\n; EV[俱乐部赛]\n  1 Wong Fong  3D CN xxx  2+/w0 |12345678\n  2 李 娜  5K CN 上海  1-/b0\n")
	dry, err := tc.ImportTournament(bj, &pb.ImportTournamentRequest{Data: file, Level: "city"})
	if err != nil {
		t.Fatal(err)
	}
	a, b := dry.GetImportPlayers()[0], dry.GetImportPlayers()[1]
	if a.GetStatus() != "matched" || a.GetBasis() != "egd_pin" || a.GetPlayerId() != wang.ID || a.GetEgdPin() != "12345678" {
		t.Fatalf("by PIN: %v", a)
	}
	if b.GetStatus() != "proposed" || len(b.GetProposals()) != 1 {
		t.Fatalf("namesake: %v", b)
	}
	c := b.GetProposals()[0]
	if c.GetPlayerId() != li.ID || c.GetFacts()["province"] != "differs" || c.GetFacts()["rank"] != "differs" || c.GetFacts()["name"] != "agrees" ||
		c.GetBirthYear() != 1985 || c.GetIdentityNumber() == li.IDNumber || !strings.Contains(c.GetIdentityNumber(), "*") {
		t.Fatalf("proposal side by side: %v", c)
	}
	_, err = tc.ImportTournament(bj, &pb.ImportTournamentRequest{Data: file, Level: "city", Commit: true})
	code(t, "commit with a proposal", err, codes.FailedPrecondition, "1 players")
	done, err := tc.ImportTournament(bj, &pb.ImportTournamentRequest{Data: file, Level: "city", Commit: true, Matches: map[int32]int64{2: li.ID}})
	if err != nil {
		t.Fatal(err)
	}
	exp, err := tc.ExportTournament(bj, &pb.ExportTournamentRequest{TournamentId: done.GetTournament().GetId(), Format: "h9",
		BasicMinutes: 40, Overtime: "byoyomi", OvertimeSeconds: 30, LatinEventName: "Club Cup"})
	if err != nil {
		t.Fatal(err)
	}
	h := string(exp.GetData())
	if !strings.Contains(h, "; CL[B]") || !strings.Contains(h, "; EV[Club Cup]") || !strings.Contains(h, "Wong Fong") ||
		!strings.Contains(h, "|12345678") || !strings.Contains(h, "Li Na") {
		t.Fatalf("export:\n%s", h)
	}
	_, err = tc.ExportTournament(bj, &pb.ExportTournamentRequest{TournamentId: done.GetTournament().GetId(), Format: "h9", EgdClass: "E"})
	code(t, "class E", err, codes.InvalidArgument, "E")
}
