package server_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestEvidenceOverGRPC files tournament-basis applications through a real
// gRPC connection: references given as text are refused, an event the
// player did not play in is refused, a result below the event's published
// rule is refused, each with its coded reason, its parameters and its
// wording in both languages; the correct one is accepted and the
// application states the registry's record.
func TestEvidenceOverGRPC(t *testing.T) {
	e := newEnv(t)
	e.clock.Set(time.Date(2027, 3, 1, 2, 0, 0, 0, time.UTC))
	fixture.Stock(t, e.cs, "110", 2027, 10, 10)
	bj := e.as(e.bj)
	tc := pb.NewTournamentServiceClient(e.conn)
	winner := fixture.Player(t, e.reg, "110", "赢家", "1k", "1990-01-01", 1)
	loser := fixture.Player(t, e.reg, "110", "输家", "1k", "1990-01-01", 2)
	outsider := fixture.Player(t, e.reg, "110", "旁观", "1k", "1990-01-01", 3)

	// the organiser publishes its grading table with the event, over gRPC
	ev, err := tc.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "区县赛", StartDate: "2027-03-01", Level: "county", System: "round_robin",
		Grading: []*pb.GradingRule{{MinWins: 1, Rank: "1d"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := ev.GetTournament().GetId()
	if g := ev.GetTournament().GetGrading(); len(g) != 1 || g[0].GetRank() != "1d" || !ev.GetTournament().GetRulesBeforeStart() {
		t.Fatalf("published rules: %v", ev.GetTournament())
	}
	for _, p := range []int64{winner.ID, loser.ID} {
		if _, err := tc.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, PlayerId: p}); err != nil {
			t.Fatal(err)
		}
	}
	rd, err := tc.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
	if err != nil {
		t.Fatal(err)
	}
	g := rd.GetRound().GetGames()[0]
	result := "black"
	if g.GetWhite() == 1 {
		result = "white"
	}
	if _, err := tc.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: g.GetBoard(), Result: result}); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.FinishTournament(bj, &pb.FinishTournamentRequest{TournamentId: id}); err != nil {
		t.Fatal(err)
	}
	_, err = tc.SetGrading(bj, &pb.SetGradingRequest{Id: id, Grading: []*pb.GradingRule{{MaxPlacing: 2, Rank: "3d"}}})
	if st := status.Convert(err); st.Code() != codes.FailedPrecondition {
		t.Fatalf("rules changed after the start: %v", err)
	}

	tests := []struct {
		name   string
		req    *pb.SubmitApplicationRequest
		code   codes.Code
		reason *ledger.Reason
		meta   map[string]string
		zh     string
	}{
		{"references as text", &pb.SubmitApplicationRequest{PlayerId: winner.ID, TargetRank: "1d", Basis: pb.Basis_BASIS_TOURNAMENT,
			//lint:ignore SA1019 an old client still sends the text references: they are refused
			EventRef: "区县赛", RecordRef: "1胜0负"}, codes.InvalidArgument, certs.ReasonEvidenceEventRequired, map[string]string{"field": "event_id"}, "文字填写"},
		{"did not play", &pb.SubmitApplicationRequest{PlayerId: outsider.ID, TargetRank: "1d", Basis: pb.Basis_BASIS_TOURNAMENT, EventId: id},
			codes.FailedPrecondition, certs.ReasonEvidenceNotAParticipant, map[string]string{"event": "", "player": ""}, "不是赛事"},
		{"below the published rule", &pb.SubmitApplicationRequest{PlayerId: loser.ID, TargetRank: "1d", Basis: pb.Basis_BASIS_TOURNAMENT, EventId: id},
			codes.FailedPrecondition, certs.ReasonEvidenceBelowRule, map[string]string{"wins": "0", "games": "1", "placing": "2"}, "达不到"},
		{"earned", &pb.SubmitApplicationRequest{PlayerId: winner.ID, TargetRank: "1d", Basis: pb.Basis_BASIS_TOURNAMENT, EventId: id}, codes.OK, nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := e.certs.SubmitApplication(bj, tt.req)
			st := status.Convert(err)
			if st.Code() != tt.code {
				t.Fatalf("%v, want %s", err, tt.code)
			}
			if tt.code == codes.OK {
				a := resp.GetApplication()
				if a.GetEventId() != id || a.GetWins() != 1 || a.GetGames() != 1 || a.GetPlacing() != 1 || a.GetEarnedRank() != "1d" {
					t.Fatalf("the registry's record is not stated: %v", a)
				}
				return
			}
			var info *errdetails.ErrorInfo
			for _, d := range st.Details() {
				if d, ok := d.(*errdetails.ErrorInfo); ok {
					info = d
				}
			}
			if info == nil || info.GetReason() != tt.reason.Code() {
				t.Fatalf("ErrorInfo %v, want %s", info, tt.reason.Code())
			}
			for k, v := range tt.meta {
				if got, ok := info.GetMetadata()[k]; !ok || (v != "" && got != v) {
					t.Fatalf("metadata %s = %q, want %q", k, got, v)
				}
			}
			// the client words it from the code: both languages exist
			if st.Message() == "" || !containsAll(tt.reason.Template(ledger.Chinese), tt.zh) {
				t.Fatalf("wordings %q / %q", st.Message(), tt.reason.Template(ledger.Chinese))
			}
		})
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
