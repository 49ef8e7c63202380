package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestMinorHolderOverGRPC: over gRPC (and so over /api), as on /verify, a
// minor holder's name and player id answer only a claimant who names him,
// by number and in a batch; an adult's answer a bare number.
func TestMinorHolderOverGRPC(t *testing.T) {
	e := newEnv(t)
	bj, staff := e.as(e.bj), e.as(e.staff)
	e.clock.Set(time.Date(2026, 11, 30, 16, 0, 0, 0, time.UTC))
	if _, err := e.certs.PlaceOrder(bj, &pb.PlaceOrderRequest{DanCount: 5, KyuCount: 5}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.certs.DecideOrder(staff, &pb.DecideOrderRequest{AgencyPrefix: "110", Year: 2027, Grant: true}); err != nil {
		t.Fatal(err)
	}
	e.clock.Set(time.Date(2027, 4, 1, 2, 0, 0, 0, time.UTC))
	issue := func(name, birth string) string {
		t.Helper()
		pl := fixture.Player(t, e.reg, "110", name, "", birth, 1)
		app, err := e.certs.SubmitApplication(bj, &pb.SubmitApplicationRequest{PlayerId: pl.ID, TargetRank: "1d", Basis: pb.Basis_BASIS_TOURNAMENT,
			EventId: fixture.Earned(t, e.ts, "1d", pl.ID)})
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.certs.ApproveApplication(bj, &pb.ApproveApplicationRequest{Id: app.GetApplication().GetId()})
		if err != nil || got.GetApplication().GetCertificateNumber() == "" {
			t.Fatalf("issue %s: %v %v", name, got, err)
		}
		return got.GetApplication().GetCertificateNumber()
	}
	minor := issue("林小棋", fixture.BirthDate(e.clock.Now(), 12))
	adult := issue("林大棋", "1990-05-05")

	for _, tt := range []struct {
		what, number, name, holder string
	}{
		{"a minor's bare number", minor, "", ""},
		{"a minor, another name", minor, "林大棋", ""},
		{"a minor, his name given", minor, " 林小棋 ", "林小棋"},
		{"an adult's bare number", adult, "", "林大棋"},
	} {
		v, err := e.certs.VerifyCertificate(context.Background(), &pb.VerifyCertificateRequest{Number: tt.number, Name: tt.name})
		c := v.GetCertificate()
		if err != nil || v.GetVerdict() != pb.Verdict_VERDICT_VALID || c.GetPlayerName() != tt.holder ||
			c.GetHolderWithheld() != (tt.holder == "") || (tt.holder == "") != (c.GetPlayerId() == 0) {
			t.Errorf("%s: %v %v; want holder %q", tt.what, v, err, tt.holder)
		}
		b, err := e.certs.VerifyCertificates(context.Background(), &pb.VerifyCertificatesRequest{
			Claims: []*pb.CertificateClaim{{Number: tt.number, Name: tt.name}}})
		if err != nil || len(b.GetVerdicts()) != 1 {
			t.Fatalf("%s in a batch: %v %v", tt.what, b, err)
		}
		bc := b.GetVerdicts()[0].GetCertificate()
		if bc.GetPlayerName() != tt.holder || bc.GetHolderWithheld() != (tt.holder == "") {
			t.Errorf("%s in a batch: %v; want holder %q", tt.what, b.GetVerdicts()[0], tt.holder)
		}
	}
}
