package server_test

import (
	"fmt"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// refusedField is the field of a refusal's BadRequest ("" without one).
func refusedField(err error) string {
	for _, d := range status.Convert(err).Details() {
		if bad, ok := d.(*errdetails.BadRequest); ok && len(bad.GetFieldViolations()) == 1 {
			return bad.GetFieldViolations()[0].GetField()
		}
	}
	return ""
}

// TestRoundResultsOverGRPC records a round's boards in one call through a
// real gRPC connection: refused as a whole (nothing recorded) when one
// board cannot be, recorded at once with one key, the retry answered
// without recording again, and decided by the policy as RecordResult is.
func TestRoundResultsOverGRPC(t *testing.T) {
	e := newEnv(t)
	bj := e.as(e.bj)
	client := pb.NewTournamentServiceClient(e.conn)
	created, err := client.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "北京市循环赛", StartDate: "2026-11-30", Level: "city",
		System: "round_robin", Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetId()
	for i := range 6 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("整轮%d", i+1), "1d", "1990-01-01", 70+i)
		if _, err := client.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, PlayerId: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	round, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
	if err != nil {
		t.Fatal(err)
	}
	games := round.GetRound().GetGames()
	if len(games) != 3 {
		t.Fatalf("round 1 of six: %v", games)
	}
	resultEvents := func() int {
		t.Helper()
		evs, err := ledger.EventsFor(t.Context(), e.store.DB(), "tournament", fmt.Sprint(id))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, ev := range evs {
			if ev.Action == "tournament.result" {
				n++
			}
		}
		return n
	}
	disagrees := "(;GM[1]SZ[19]RE[W+R];B[pd])"
	results := []*pb.BoardResult{{Board: 1, Result: "black", Sgf: disagrees}, {Board: 2, Result: "white"}, {Board: 3, Result: "black"}}
	req := &pb.RecordRoundResultsRequest{TournamentId: id, Round: 1, Results: results}
	keyed := e.as(e.bj, "idempotency-key", "round-1")

	// refusals: nothing recorded
	for _, tt := range []struct {
		what   string
		ctx    bool // as another agency
		req    *pb.RecordRoundResultsRequest
		code   codes.Code
		reason string
		field  string
	}{
		{"another agency", true, req, codes.PermissionDenied, "OTHER_PROVINCE", ""},
		{"a bad result on the third board", false, &pb.RecordRoundResultsRequest{TournamentId: id, Round: 1,
			Results: []*pb.BoardResult{results[0], results[1], {Board: 3, Result: "B+R"}}}, codes.InvalidArgument, "RESULT", "results[2].result"},
		{"more boards than the round", false, &pb.RecordRoundResultsRequest{TournamentId: id, Round: 1,
			Results: append(results[:3:3], &pb.BoardResult{Board: 4, Result: "black"})}, codes.InvalidArgument, "TOO_MANY_BOARDS", ""},
		{"a board twice", false, &pb.RecordRoundResultsRequest{TournamentId: id, Round: 1,
			Results: []*pb.BoardResult{results[0], results[0]}}, codes.InvalidArgument, "BOARD_TWICE", ""},
		{"a board of no game, after two good ones", false, &pb.RecordRoundResultsRequest{TournamentId: id, Round: 1,
			Results: []*pb.BoardResult{results[0], results[1], {Board: 9, Result: "black"}}}, codes.NotFound, "NOT_FOUND", ""},
	} {
		ctx := keyed
		if tt.ctx {
			token, _, err := e.reg.CreateToken(t.Context(), ledger.Actor{Kind: ledger.SystemActor, Name: "test"}, ledger.AgencyActor, "310", "")
			if err != nil {
				t.Fatal(err)
			}
			ctx = e.as(token, "idempotency-key", "round-1")
		}
		_, err := client.RecordRoundResults(ctx, tt.req)
		if reason, field := reasonOf(err), refusedField(err); status.Code(err) != tt.code || reason != tt.reason || field != tt.field {
			t.Errorf("%s: %v (%s, field %q); want %s %s %q", tt.what, err, reason, field, tt.code, tt.reason, tt.field)
		}
	}
	if n := resultEvents(); n != 0 {
		t.Fatalf("%d results recorded by refused calls", n)
	}

	// recorded, each board with its event; the disagreeing record flagged
	// with its code
	resp, err := client.RecordRoundResults(keyed, req)
	if err != nil {
		t.Fatal(err)
	}
	gs := resp.GetGames()
	if len(gs) != 3 || gs[0].GetBoard() != 1 || gs[1].GetResult() != "white" || gs[2].GetResult() != "black" {
		t.Fatalf("games %v", gs)
	}
	if g := gs[0]; !g.GetFlagged() || g.GetFlagCode() != "FLAG_RECORD_DISAGREES" || g.GetFlagParams()["adjudicated"] != "W+R" ||
		g.GetFlagParams()["reported"] != "black" || g.GetFlagReason() == "" || !g.GetHasRecord() {
		t.Fatalf("board 1: %v", g)
	}
	if n := resultEvents(); n != 3 {
		t.Fatalf("%d result events, want 3", n)
	}
	// the retry answers the same and records nothing
	again, err := client.RecordRoundResults(keyed, req)
	if err != nil || fmt.Sprint(again.GetGames()) != fmt.Sprint(gs) {
		t.Fatalf("retry: %v %v", again, err)
	}
	if n := resultEvents(); n != 3 {
		t.Fatalf("%d result events after the retry", n)
	}
	got, err := client.GetTournament(bj, &pb.GetTournamentRequest{Id: id})
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got.GetRounds()[0].GetGames() {
		if g.GetResult() != results[i].GetResult() {
			t.Fatalf("board %d stored %q", g.GetBoard(), g.GetResult())
		}
	}
	if _, err := client.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id}); err != nil {
		t.Fatalf("round 2 after the round's results: %v", err)
	}
}
