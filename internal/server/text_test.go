package server_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestBadTextIsInvalidArgument: free text with NUL or control characters,
// or longer than its field allows, is refused as INVALID_ARGUMENT with a
// reason and the field, on every service; never Internal, never stored.
func TestBadTextIsInvalidArgument(t *testing.T) {
	e := newEnv(t)
	staff, bj := e.as(e.staff), e.as(e.bj)
	tc := pb.NewTournamentServiceClient(e.conn)
	created, err := tc.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "文字", StartDate: "2026-11-30", Level: "city", System: "swiss", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	event := created.GetTournament().GetId()
	const nul = "王\x00明"
	mb := strings.Repeat("长", 1<<20/3)
	player := func(name string) *pb.PlayerInput { p := wang(); p.Name = name; return p }
	nan := math.NaN()
	inf := math.Inf(1)
	tests := []struct {
		name        string
		call        func() error
		field, code string
	}{
		{"player name with NUL", func() error {
			_, err := e.client.RegisterPlayer(bj, &pb.RegisterPlayerRequest{Player: player(nul)})
			return err
		}, "name", "INVALID_TEXT"},
		{"player name with a control character", func() error {
			_, err := e.client.RegisterPlayer(bj, &pb.RegisterPlayerRequest{Player: player("王\x1b[31m明")})
			return err
		}, "name", "INVALID_TEXT"},
		{"agency contact with NUL", func() error {
			_, err := e.client.CreateAgency(staff, &pb.CreateAgencyRequest{Prefix: "440", Name: "广东", Contact: "a\x00b"})
			return err
		}, "contact", "INVALID_TEXT"},
		{"suspension reason of 1 MB", func() error {
			_, err := e.client.SetAgencyStatus(staff, &pb.SetAgencyStatusRequest{Prefix: "310", Status: pb.AgencyStatus_AGENCY_STATUS_SUSPENDED, Reason: mb})
			return err
		}, "reason", "TOO_LONG"},
		{"player search with NUL", func() error {
			_, err := e.client.SearchPlayers(bj, &pb.SearchPlayersRequest{Name: nul})
			return err
		}, "name", "INVALID_TEXT"},
		{"venue of 1 MB", func() error {
			_, err := tc.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", Venue: mb, StartDate: "2026-11-30", Level: "city", System: "round_robin"})
			return err
		}, "venue", "TOO_LONG"},
		{"venue with NUL", func() error {
			_, err := tc.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", Venue: "a\x00", StartDate: "2026-11-30", Level: "city", System: "round_robin"})
			return err
		}, "venue", "INVALID_TEXT"},
		{"tournament name with NUL", func() error {
			_, err := tc.CreateTournament(bj, &pb.CreateTournamentRequest{Name: nul, StartDate: "2026-11-30", Level: "city", System: "round_robin"})
			return err
		}, "name", "INVALID_TEXT"},
		{"level of 1 MB, echoed", func() error {
			_, err := tc.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", StartDate: "2026-11-30", Level: mb, System: "round_robin"})
			return err
		}, "level", "EVENT_LEVEL"},
		{"nationality with NUL, echoed", func() error {
			p := wang()
			p.Nationality = "C\x00" + mb
			_, err := e.client.RegisterPlayer(bj, &pb.RegisterPlayerRequest{Player: p})
			return err
		}, "nationality", "NATIONALITY"},
		{"NaN komi", func() error {
			_, err := tc.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", StartDate: "2026-11-30", Level: "city", System: "round_robin", Komi: &nan})
			return err
		}, "komi", "OUT_OF_RANGE"},
		{"infinite komi", func() error {
			_, err := tc.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", StartDate: "2026-11-30", Level: "city", System: "round_robin", Komi: &inf})
			return err
		}, "komi", "OUT_OF_RANGE"},
		{"guest name with NUL", func() error {
			_, err := tc.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: event, GuestName: nul, GuestRank: "1k"})
			return err
		}, "guest_name", "INVALID_TEXT"},
		{"guest name of 1 MB", func() error {
			_, err := tc.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: event, GuestName: mb, GuestRank: "1k"})
			return err
		}, "guest_name", "TOO_LONG"},
		{"team with NUL", func() error {
			_, err := tc.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: event, GuestName: "客", GuestRank: "1k", Team: "\x00"})
			return err
		}, "team", "INVALID_TEXT"},
		{"appraiser qualification with NUL", func() error {
			_, err := e.certs.RecommendAppraiser(bj, &pb.RecommendAppraiserRequest{Name: "鉴定", Qualification: "冠军\x00"})
			return err
		}, "qualification", "INVALID_TEXT"},
		{"order note with NUL", func() error {
			_, err := e.certs.DecideOrder(staff, &pb.DecideOrderRequest{AgencyPrefix: "110", Year: 2027, Grant: true, Note: "\x00"})
			return err
		}, "note", "INVALID_TEXT"},
		{"rejection reason of 1 MB", func() error {
			_, err := e.certs.RejectApplication(bj, &pb.RejectApplicationRequest{Id: 1, Reason: mb})
			return err
		}, "reason", "TOO_LONG"},
		{"revocation reason of 1 MB", func() error {
			_, err := e.certs.RevokeCertificate(staff, &pb.RevokeCertificateRequest{Number: "110260001", Reason: mb})
			return err
		}, "reason", "TOO_LONG"},
		{"revocation reason with NUL", func() error {
			_, err := e.certs.RevokeCertificate(staff, &pb.RevokeCertificateRequest{Number: "110260001", Reason: "误\x00发"})
			return err
		}, "reason", "INVALID_TEXT"},
		{"objection reason with NUL", func() error {
			_, err := e.notices.LodgeObjection(context.Background(), &pb.LodgeObjectionRequest{NoticeId: 1, Name: "某", Contact: "1", Reason: "\x00"})
			return err
		}, "reason", "INVALID_TEXT"},
		{"ruling of 1 MB", func() error {
			_, err := e.notices.RuleObjection(staff, &pb.RuleObjectionRequest{Id: 1, Ruling: mb})
			return err
		}, "ruling", "TOO_LONG"},
		{"evidence with NUL", func() error {
			_, err := e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: 1, TargetRank: "1d", Basis: pb.Basis_BASIS_TOURNAMENT,
				EventId: 1, Evidence: "\x00"})
			return err
		}, "evidence", "INVALID_TEXT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			st := status.Convert(err)
			if st.Code() != codes.InvalidArgument {
				t.Fatalf("%v, want InvalidArgument", err)
			}
			var reason, field string
			for _, d := range st.Details() {
				switch d := d.(type) {
				case *errdetails.ErrorInfo:
					reason = d.GetReason()
				case *errdetails.BadRequest:
					for _, v := range d.GetFieldViolations() {
						field = v.GetField()
					}
				}
			}
			if reason != tt.code || field != tt.field {
				t.Errorf("reason %s on field %q, want %s on %q: %v", reason, field, tt.code, tt.field, err)
			}
			if n := proto.Size(st.Proto()); n > 8192 {
				t.Errorf("the refusal is %d bytes", n)
			}
		})
	}
}
