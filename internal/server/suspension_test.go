package server_test

import (
	"context"
	"os"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/registry"
)

// TestSuspendedAgencyChangesNothing builds what a Beijing agency works on
// while active (a player, an application, a certificate, a running
// tournament), suspends the agency, and tries every change it could make
// before over gRPC: each is PERMISSION_DENIED with the reason
// AGENCY_SUSPENDED in ErrorInfo, and nothing changed.
func TestSuspendedAgencyChangesNothing(t *testing.T) {
	e := newEnv(t)
	bj := e.as(e.bj)
	e.clock.Set(time.Date(2026, 12, 10, 2, 0, 0, 0, time.UTC)) // the December ordering window
	fixture.Stock(t, e.cs, "110", 2026, 10, 10)
	player := fixture.Player(t, e.reg, "110", "停牌", "1d", "1990-01-01", 1)
	other := fixture.Player(t, e.reg, "110", "另一", "1d", "1990-01-01", 2)
	earned := fixture.Earned(t, e.ts, "3d", player.ID, other.ID)
	app, err := e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: player.ID, TargetRank: "2d",
		Basis: pb.Basis_BASIS_TOURNAMENT, EventId: earned})
	if err != nil {
		t.Fatal(err)
	}
	issued, err := e.certs.ApproveApplication(bj, &pb.ApproveApplicationRequest{Id: app.GetApplication().GetId()})
	if err != nil {
		t.Fatal(err)
	}
	pending, err := e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: other.ID, TargetRank: "2d",
		Basis: pb.Basis_BASIS_TOURNAMENT, EventId: earned})
	if err != nil {
		t.Fatal(err)
	}
	tc := pb.NewTournamentServiceClient(e.conn)
	ev, err := tc.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "停牌前的比赛", StartDate: "2026-12-10", Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	id := ev.GetTournament().GetId()
	for _, p := range []registry.Player{player, other} {
		if _, err := tc.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, PlayerId: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tc.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id}); err != nil {
		t.Fatal(err)
	}
	h9, err := os.ReadFile("../../tournaments/testdata/TestPartEtLic.h9")
	if err != nil {
		t.Fatal(err)
	}

	if _, err := e.client.SetAgencyStatus(e.as(e.staff), &pb.SetAgencyStatusRequest{Prefix: "110",
		Status: pb.AgencyStatus_AGENCY_STATUS_SUSPENDED, Reason: "年审未通过"}); err != nil {
		t.Fatal(err)
	}
	before := eventCount(t, e)
	input := wang()
	for _, tt := range []struct {
		what string
		call func() error
	}{
		{"register a player", func() error {
			_, err := e.client.RegisterPlayer(bj, &pb.RegisterPlayerRequest{Player: input})
			return err
		}},
		{"change a player", func() error {
			_, err := e.client.UpdatePlayer(bj, &pb.UpdatePlayerRequest{Id: other.ID, Player: &pb.PlayerInput{Name: "改名",
				Gender: pb.Gender_GENDER_MALE, BirthDate: "1990-01-01", IdentityKind: pb.IdentityKind_IDENTITY_KIND_RESIDENT_ID,
				IdentityNumber: other.IDNumber, ProvinceCode: "11", Rank: "1d"}})
			return err
		}},
		{"apply", func() error {
			_, err := e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: player.ID, TargetRank: "3d",
				Basis: pb.Basis_BASIS_TOURNAMENT, EventId: earned})
			return err
		}},
		{"approve", func() error {
			_, err := e.certs.ApproveApplication(bj, &pb.ApproveApplicationRequest{Id: pending.GetApplication().GetId()})
			return err
		}},
		{"reject", func() error {
			_, err := e.certs.RejectApplication(bj, &pb.RejectApplicationRequest{Id: pending.GetApplication().GetId(), Reason: "x"})
			return err
		}},
		{"order stock", func() error {
			_, err := e.certs.PlaceOrder(bj, &pb.PlaceOrderRequest{DanCount: 1})
			return err
		}},
		{"recommend an appraiser", func() error {
			_, err := e.certs.RecommendAppraiser(bj, &pb.RecommendAppraiserRequest{Name: "某老师"})
			return err
		}},
		{"reissue", func() error {
			_, err := e.certs.ReissueCertificate(bj, &pb.ReissueCertificateRequest{Number: issued.GetApplication().GetCertificateNumber(), Reason: "遗失"})
			return err
		}},
		{"export the roster with identities", func() error {
			_, err := e.certs.ExportRoster(bj, &pb.ExportRosterRequest{})
			return err
		}},
		{"create a tournament", func() error {
			_, err := tc.CreateTournament(bj, &pb.CreateTournamentRequest{Name: "x", StartDate: "2026-12-20", Level: "city", System: "swiss", Rounds: 3})
			return err
		}},
		{"add a participant", func() error {
			_, err := tc.AddParticipant(bj, &pb.AddParticipantRequest{TournamentId: id, GuestName: "客人", GuestRank: "1k"})
			return err
		}},
		{"record a result", func() error {
			_, err := tc.RecordResult(bj, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: 1, Result: "black"})
			return err
		}},
		{"pair a round", func() error {
			_, err := tc.PairNextRound(bj, &pb.PairNextRoundRequest{TournamentId: id})
			return err
		}},
		{"withdraw a participant", func() error {
			_, err := tc.WithdrawParticipant(bj, &pb.WithdrawParticipantRequest{TournamentId: id, Number: 1})
			return err
		}},
		{"finish the tournament", func() error {
			_, err := tc.FinishTournament(bj, &pb.FinishTournamentRequest{TournamentId: id})
			return err
		}},
		{"import a tournament", func() error {
			_, err := tc.ImportTournament(bj, &pb.ImportTournamentRequest{Data: h9, Level: "city", Commit: true,
				Guests: []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22}})
			return err
		}},
	} {
		err := tt.call()
		if status.Code(err) != codes.PermissionDenied || reasonOf(err) != "AGENCY_SUSPENDED" {
			t.Errorf("suspended agency: %s: %v, want PERMISSION_DENIED (AGENCY_SUSPENDED)", tt.what, err)
		}
	}
	if after := eventCount(t, e); after != before {
		t.Fatalf("the event log grew from %d to %d rows while the agency was suspended", before, after)
	}
	// reading its own records still works
	if _, err := e.certs.GetQuota(bj, &pb.GetQuotaRequest{Year: 2026}); err != nil {
		t.Fatalf("suspended agency reading its quota: %v", err)
	}
}

func eventCount(t *testing.T, e *env) int {
	t.Helper()
	var n int
	if err := e.store.DB().QueryRow(context.Background(), `SELECT count(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// reasonOf is the ErrorInfo reason of a gRPC error, or "".
func reasonOf(err error) string {
	for _, d := range status.Convert(err).Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info.GetReason()
		}
	}
	return ""
}
