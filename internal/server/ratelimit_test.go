package server_test

import (
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/server"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestVerifyRateLimited: past the per-client limit, verification over gRPC
// is RESOURCE_EXHAUSTED with reason RATE_LIMITED; x-forwarded-for counts
// only from a trusted proxy; the bucket refills with the clock.
func TestVerifyRateLimited(t *testing.T) {
	tests := []struct {
		name    string
		proxies string
		// forwarded client of the calls past the limit, and whether they pass
		other string
		pass  bool
	}{
		{"untrusted x-forwarded-for is ignored", "", "198.51.100.8", false},
		{"a trusted proxy's x-forwarded-for names the client", "127.0.0.0/8", "198.51.100.8", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnvConfig(t, server.Config{RateVerify: "3/1m", TrustedProxies: tt.proxies})
			verify := func(client string) error {
				ctx := metadata.AppendToOutgoingContext(t.Context(), "x-forwarded-for", client)
				_, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: "110990001"})
				return err
			}
			for i := range 3 {
				if err := verify("198.51.100.7"); err != nil {
					t.Fatalf("call %d: %v", i+1, err)
				}
			}
			err := verify("198.51.100.7")
			if status.Code(err) != codes.ResourceExhausted || reasonOf(err) != "RATE_LIMITED" {
				t.Fatalf("past the limit: %v, want RESOURCE_EXHAUSTED RATE_LIMITED", err)
			}
			if err := verify(tt.other); (err == nil) != tt.pass {
				t.Fatalf("another forwarded client: %v, want pass=%v", err, tt.pass)
			}
			e.clock.Advance(time.Minute)
			if err := verify("198.51.100.7"); err != nil {
				t.Fatalf("a minute later: %v", err)
			}
		})
	}
}

// TestAdjudicateRateLimited: past the per-client limit, adjudication over
// gRPC is RESOURCE_EXHAUSTED with reason RATE_LIMITED, refused records
// counting too (they cost work to refuse), and another client still passes.
func TestAdjudicateRateLimited(t *testing.T) {
	e := newEnvConfig(t, server.Config{RateAdjudicate: "3/1m", TrustedProxies: "127.0.0.0/8"})
	client := pb.NewAdjudicationServiceClient(e.conn)
	adjudicate := func(from, sgf string) error {
		ctx := metadata.AppendToOutgoingContext(t.Context(), "x-forwarded-for", from)
		_, err := client.Adjudicate(ctx, &pb.AdjudicateRequest{Sgf: []byte(sgf)})
		return err
	}
	for i := range 3 {
		sgf := "(;SZ[9];B[ee];W[];B[])"
		if i == 2 {
			sgf = "(;SZ[9];B[ee]" // refused, but spent
		}
		if err := adjudicate("198.51.100.7", sgf); (err != nil) != (i == 2) {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	err := adjudicate("198.51.100.7", "(;SZ[9];B[ee];W[];B[])")
	if status.Code(err) != codes.ResourceExhausted || reasonOf(err) != "RATE_LIMITED" {
		t.Fatalf("past the limit: %v, want RESOURCE_EXHAUSTED RATE_LIMITED", err)
	}
	if err := adjudicate("198.51.100.8", "(;SZ[9];B[ee];W[];B[])"); err != nil {
		t.Fatalf("another client: %v", err)
	}
	e.clock.Advance(time.Minute)
	if err := adjudicate("198.51.100.7", "(;SZ[9];B[ee];W[];B[])"); err != nil {
		t.Fatalf("a minute later: %v", err)
	}
}

// TestBatchVerificationSpendsPerNumber: a batch of n numbers spends n of
// the client's verification budget (once a batch of 1 000 cost one), so
// the limit's (N+1)th number is refused however the numbers come, single
// or batched; a batch larger than the whole budget is OVER_QUOTA.
func TestBatchVerificationSpendsPerNumber(t *testing.T) {
	e := newEnvConfig(t, server.Config{RateVerify: "5/1m", TrustedProxies: "127.0.0.0/8"})
	claims := func(n int) []*pb.CertificateClaim {
		out := make([]*pb.CertificateClaim, n)
		for i := range out {
			out[i] = &pb.CertificateClaim{Number: "110990001"}
		}
		return out
	}
	batch := func(client string, n int) error {
		ctx := metadata.AppendToOutgoingContext(t.Context(), "x-forwarded-for", client)
		_, err := e.certs.VerifyCertificates(ctx, &pb.VerifyCertificatesRequest{Claims: claims(n)})
		return err
	}
	if err := batch("198.51.100.7", 3); err != nil {
		t.Fatalf("3 of 5: %v", err)
	}
	if err := batch("198.51.100.7", 2); err != nil {
		t.Fatalf("the 4th and 5th: %v", err)
	}
	ctx := metadata.AppendToOutgoingContext(t.Context(), "x-forwarded-for", "198.51.100.7")
	_, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: "110990001"})
	if status.Code(err) != codes.ResourceExhausted || reasonOf(err) != "RATE_LIMITED" {
		t.Fatalf("the 6th number: %v, want RESOURCE_EXHAUSTED RATE_LIMITED", err)
	}
	if err := batch("198.51.100.8", 6); status.Code(err) != codes.ResourceExhausted || reasonOf(err) != "OVER_QUOTA" {
		t.Fatalf("a batch of 6 against 5 per minute: %v, want RESOURCE_EXHAUSTED OVER_QUOTA", err)
	}
	if err := batch("198.51.100.8", 5); err != nil {
		t.Fatalf("a refused batch spent the budget: %v", err)
	}
}

// TestInFlightWired: --grpc-in-flight and --grpc-in-flight-signed-in
// become the gates around every call.
func TestInFlightWired(t *testing.T) {
	lim, err := (&server.Config{GRPCInFlight: 3, GRPCInFlightSignedIn: 12}).Limiters(time.Now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pub, signed := lim.API().InFlight.Max(), lim.API().InFlightSignedIn.Max(); pub != 3 || signed != 12 {
		t.Fatalf("gates of %d and %d calls, want 3 and 12", pub, signed)
	}
}
