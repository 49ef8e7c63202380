package server_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestBatchOf100Claims verifies 100 claims in one call, as an admissions
// office would: each gets its verdict, in the order sent.
func TestBatchOf100Claims(t *testing.T) {
	e := newEnv(t)
	e.clock.Set(time.Date(2027, 3, 1, 2, 0, 0, 0, time.UTC))
	fixture.Stock(t, e.cs, "110", 2027, 100, 0)
	var claims []*pb.CertificateClaim
	var want []pb.Verdict
	for i := range 70 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("考生%02d", i), "", "2008-01-01", i)
		a, err := e.cs.Apply(t.Context(), fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d",
			Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
		if err != nil {
			t.Fatal(err)
		}
		if a, err = e.cs.Approve(t.Context(), fixture.Agency("110"), "", a.ID); err != nil {
			t.Fatal(err)
		}
		name, verdict := p.Name, pb.Verdict_VERDICT_VALID
		if i%7 == 0 { // someone claims another's certificate
			name, verdict = "冒名者", pb.Verdict_VERDICT_OTHER_HOLDER
		}
		claims = append(claims, &pb.CertificateClaim{Number: a.CertificateNumber, Name: name})
		want = append(want, verdict)
	}
	for i := range 20 {
		claims = append(claims, &pb.CertificateClaim{Number: fmt.Sprintf("110279%03d", i), Name: "无名"})
		want = append(want, pb.Verdict_VERDICT_NOT_FOUND)
	}
	for i := range 10 {
		claims = append(claims, &pb.CertificateClaim{Number: fmt.Sprintf("11027%d", i)})
		want = append(want, pb.Verdict_VERDICT_MALFORMED)
	}
	resp, err := e.certs.VerifyCertificates(e.as(""), &pb.VerifyCertificatesRequest{Claims: claims})
	if err != nil || len(resp.GetVerdicts()) != 100 {
		t.Fatalf("100 claims: %d verdicts, %v", len(resp.GetVerdicts()), err)
	}
	for i, v := range resp.GetVerdicts() {
		if v.GetVerdict() != want[i] || v.GetClaim().GetNumber() != claims[i].GetNumber() {
			t.Errorf("claim %d (%s): %v, want %v", i, claims[i].GetNumber(), v.GetVerdict(), want[i])
		}
		if want[i] == pb.Verdict_VERDICT_MALFORMED && (v.GetReason() != "DAN_NUMBER_LENGTH" || v.GetProblem() == "") {
			t.Errorf("claim %d: malformed without its reason: %v", i, v)
		}
	}
	// more than a batch holds is refused whole
	many := make([]*pb.CertificateClaim, certs.MaxBatch+1)
	for i := range many {
		many[i] = &pb.CertificateClaim{Number: "110270001"}
	}
	if _, err := e.certs.VerifyCertificates(e.as(""), &pb.VerifyCertificatesRequest{Claims: many}); reasonOf(err) != "BATCH_TOO_LARGE" {
		t.Fatalf("%d claims: %v, want BATCH_TOO_LARGE", len(many), err)
	}
}
