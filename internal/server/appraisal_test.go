package server_test

import (
	"context"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestAppraisalOverGRPC: an agency records an appraisal session and files
// an application on it over the API; refusals carry their code and field;
// a paper 4 dan whose register does not say its basis verifies with an
// athlete grade that is unknown.
func TestAppraisalOverGRPC(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t) // 2026-11-30 16:00 in Beijing
	bj := e.as(e.bj)
	ap := fixture.Appraiser(t, e.cs, "110", "聂老师")
	p := fixture.Player(t, e.reg, "110", "鉴定棋手", "1d", "1980-01-01", 4)
	games := []*pb.AppraisalGame{{Colour: "black", Result: "win", Sgf: fixture.AppraisalRecord("B+R")}, {Opponent: "陪练", Colour: "white", Result: "loss"}}
	for _, tt := range []struct {
		name          string
		req           *pb.RecordAppraisalRequest
		code          codes.Code
		reason, field string
	}{
		{"no record", &pb.RecordAppraisalRequest{AppraiserId: ap.ID, PlayerId: p.ID, HeldOn: "2026-11-29", Verdict: "2d",
			Games: []*pb.AppraisalGame{{Colour: "black", Result: "win"}}}, codes.InvalidArgument, "APPRAISAL_NO_RECORD", "sgf"},
		{"a date tomorrow", &pb.RecordAppraisalRequest{AppraiserId: ap.ID, PlayerId: p.ID, HeldOn: "2026-12-01", Verdict: "2d", Games: games},
			codes.InvalidArgument, "APPRAISAL_DATE", "held_on"},
		{"recorded", &pb.RecordAppraisalRequest{AppraiserId: ap.ID, PlayerId: p.ID, HeldOn: "2026-11-29", Verdict: "2d", Games: games}, codes.OK, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := e.certs.RecordAppraisal(bj, tt.req)
			st := status.Convert(err)
			if st.Code() != tt.code {
				t.Fatalf("%v, want %s", err, tt.code)
			}
			if tt.code == codes.OK {
				s := resp.GetSession()
				if s.GetId() == 0 || s.GetVerdict() != "2d" || s.GetAppraiserName() != "聂老师" || len(s.GetGames()) != 2 || s.GetGames()[0].GetMoves() != 40 ||
					s.GetStatus() != pb.AppraisalStatus_APPRAISAL_STATUS_RECORDED {
					t.Fatalf("session = %v", s)
				}
				return
			}
			var reason, field string
			for _, d := range st.Details() {
				switch d := d.(type) {
				case *errdetails.ErrorInfo:
					reason = d.GetReason()
				case *errdetails.BadRequest:
					field = d.GetFieldViolations()[0].GetField()
				}
			}
			if reason != tt.reason || field != tt.field {
				t.Fatalf("reason %s on %s, want %s on %s", reason, field, tt.reason, tt.field)
			}
		})
	}
	list, err := e.certs.ListAppraisals(bj, &pb.ListAppraisalsRequest{})
	if err != nil || len(list.GetSessions()) != 1 {
		t.Fatalf("list: %v, %v", list, err)
	}
	id := list.GetSessions()[0].GetId()
	if _, err := e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: p.ID, TargetRank: "2d", Basis: pb.Basis_BASIS_APPRAISAL,
		AppraiserId: ap.ID}); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("an application naming only its appraiser: %v", err)
	}
	app, err := e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: p.ID, TargetRank: "2d", Basis: pb.Basis_BASIS_APPRAISAL,
		AppraisalSessionId: id})
	if err != nil || app.GetApplication().GetAppraisalSessionId() != id || app.GetApplication().GetAppraiserId() != ap.ID {
		t.Fatalf("apply on the session: %v, %v", app, err)
	}
	got, err := e.certs.GetAppraisal(bj, &pb.GetAppraisalRequest{Id: id})
	if err != nil || got.GetSession().GetGames()[0].GetSgf() == "" {
		t.Fatalf("get: %v, %v", got, err)
	}
	if _, err := e.certs.WithdrawAppraisal(bj, &pb.WithdrawAppraisalRequest{Id: id}); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("withdraw without a reason: %v", err)
	}
	w, err := e.certs.WithdrawAppraisal(bj, &pb.WithdrawAppraisalRequest{Id: id, Reason: "鉴定人回避"})
	if err != nil || w.GetSession().GetStatus() != pb.AppraisalStatus_APPRAISAL_STATUS_WITHDRAWN {
		t.Fatalf("withdraw: %v, %v", w, err)
	}

	// a paper 4 dan of unknown basis
	holder := fixture.Player(t, e.reg, "110", "纸四段", "", "1970-01-01", 5)
	file := "证书编号,姓名,证件号码,段位,发证日期,授予依据\n110150001," + holder.Name + "," + holder.IDNumber + ",4段,2015-04-01,不详\n"
	if _, err := e.cs.ImportPaper(ctx, fixture.Staff, "", certs.PaperInput{Data: []byte(file)}); err != nil {
		t.Fatal(err)
	}
	v, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: "110150001"})
	if err != nil || v.GetCertificate().GetAthleteGrade() != pb.AthleteGrade_ATHLETE_GRADE_UNKNOWN ||
		v.GetCertificate().GetPaperBasis() != pb.Basis_BASIS_UNSPECIFIED || v.GetCertificate().GetBasis() != pb.Basis_BASIS_PAPER_RECORD {
		t.Fatalf("verify the paper 4 dan: %v, %v", v, err)
	}
}
