package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// Over gRPC: an agency's change of a 17-year-old's birth date is held, an
// appraisal waits for staff's decision, the queue masks the numbers, only
// staff decide, and a rejection leaves the record as it was.
func TestIdentityChangeOverGRPC(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	born := fixture.BirthDate(e.clock.Now(), 17)
	p := fixture.Player(t, e.reg, "110", "少年", "2d", born, 7)
	ap, err := e.cs.RecommendAppraiser(ctx, fixture.Agency("110"), "", certs.AppraiserInput{Name: "聂老师", Qualification: "省冠军"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.SetAppraiserStatus(ctx, fixture.Staff, "", ap.ID, certs.AppraiserApproved); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(48 * time.Hour)
	session := fixture.Appraisal(t, e.cs, "110", ap.ID, p.ID, "3d", e.clock.Now())

	older := fixture.BirthDate(e.clock.Now(), 19)
	number := fixture.ResidentID("110", older, 8)
	in := &pb.PlayerInput{Name: p.Name, Gender: pb.Gender_GENDER_MALE, BirthDate: older, IdentityKind: pb.IdentityKind_IDENTITY_KIND_RESIDENT_ID,
		IdentityNumber: number, ProvinceCode: "11", Rank: "2d"}
	_, err = e.client.UpdatePlayer(e.as(e.bj), &pb.UpdatePlayerRequest{Id: p.ID, Player: in})
	if status.Code(err) != codes.InvalidArgument || reasonOf(err) != "IDENTITY_CHANGE_REASON_REQUIRED" {
		t.Fatalf("no reason: %v, want InvalidArgument IDENTITY_CHANGE_REASON_REQUIRED", err)
	}
	up, err := e.client.UpdatePlayer(e.as(e.bj), &pb.UpdatePlayerRequest{Id: p.ID, Player: in, ChangeReason: "登记时录入错误"})
	if err != nil {
		t.Fatal(err)
	}
	held := up.GetHeldIdentityChange()
	switch {
	case held.GetStatus() != pb.IdentityChangeStatus_IDENTITY_CHANGE_STATUS_PENDING || held.GetNewBirthDate() != older:
		t.Fatalf("held = %v, want the change pending", held)
	case up.GetPlayer().GetBirthDate() != born:
		t.Fatalf("the answer's birth date %s, want %s kept until staff decide", up.GetPlayer().GetBirthDate(), born)
	case strings.Contains(held.String(), number) || held.GetNewIdentityNumberMasked() == "":
		t.Fatalf("the held change shows %v; want the number masked", held)
	}
	_, err = e.certs.SubmitApplication(e.as(e.bj), &pb.SubmitApplicationRequest{PlayerId: p.ID, TargetRank: "3d",
		Basis: pb.Basis_BASIS_APPRAISAL, AppraisalSessionId: session.ID})
	if status.Code(err) != codes.FailedPrecondition || reasonOf(err) != "IDENTITY_CHANGE_WAITS" {
		t.Fatalf("appraisal while the change waits: %v, want FailedPrecondition IDENTITY_CHANGE_WAITS", err)
	}
	list, err := e.client.ListIdentityChanges(e.as(e.bj), &pb.ListIdentityChangesRequest{Status: pb.IdentityChangeStatus_IDENTITY_CHANGE_STATUS_PENDING})
	if err != nil || len(list.GetChanges()) != 1 || list.GetChanges()[0].GetId() != held.GetId() || strings.Contains(list.String(), number) {
		t.Fatalf("the agency's queue: %v, %v", list, err)
	}
	for _, tt := range []struct {
		name  string
		token string
		want  codes.Code
	}{
		{"public", "", codes.Unauthenticated},
		{"agency", e.bj, codes.PermissionDenied},
	} {
		if _, err := e.client.DecideIdentityChange(e.as(tt.token), &pb.DecideIdentityChangeRequest{Id: held.GetId(), Approve: true}); status.Code(err) != tt.want {
			t.Errorf("%s approving: %v, want %s", tt.name, err, tt.want)
		}
	}
	dec, err := e.client.DecideIdentityChange(e.as(e.staff), &pb.DecideIdentityChangeRequest{Id: held.GetId(), Reason: "与户籍信息不符"})
	if err != nil || dec.GetChange().GetStatus() != pb.IdentityChangeStatus_IDENTITY_CHANGE_STATUS_REJECTED || dec.GetChange().GetDecisionReason() != "与户籍信息不符" {
		t.Fatalf("reject: %v, %v", dec, err)
	}
	got, err := e.client.GetPlayer(e.as(e.bj), &pb.GetPlayerRequest{Id: p.ID})
	if err != nil || got.GetPlayer().GetBirthDate() != born || got.GetPlayer().GetIdentityNumber() != p.IDNumber {
		t.Fatalf("after the rejection: %v, %v", got, err)
	}
	_, err = e.certs.SubmitApplication(e.as(e.bj), &pb.SubmitApplicationRequest{PlayerId: p.ID, TargetRank: "3d",
		Basis: pb.Basis_BASIS_APPRAISAL, AppraisalSessionId: session.ID})
	if reasonOf(err) != "UNDER_APPRAISAL_AGE" {
		t.Fatalf("appraisal after the rejection: %v, want UNDER_APPRAISAL_AGE", err)
	}
}
