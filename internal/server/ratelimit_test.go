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
