package api_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/api"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/ratelimit"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// heldAdjudication stands for a long adjudication: each call is under way
// until the test lets it go.
type heldAdjudication struct {
	pb.UnimplementedAdjudicationServiceServer
	entered chan struct{}
	release chan struct{}
}

func (h *heldAdjudication) Adjudicate(ctx context.Context, _ *pb.AdjudicateRequest) (*pb.AdjudicateResponse, error) {
	h.entered <- struct{}{}
	select {
	case <-h.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &pb.AdjudicateResponse{}, nil
}

// syncBuffer is a log the server's goroutines write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serve runs the API's interceptors, in the server's order, around svc on
// a loopback listener; 127.0.0.0/8 is a trusted proxy, so each call names
// its client in x-forwarded-for.
func serve(t *testing.T, limits api.Limits, svc pb.AdjudicationServiceServer, log *slog.Logger) pb.AdjudicationServiceClient {
	t.Helper()
	s := grpc.NewServer(grpc.ChainUnaryInterceptor(api.UnaryInterceptor(nil, log), api.RateLimitInterceptor(limits), api.InFlightInterceptor(limits)))
	pb.RegisterAdjudicationServiceServer(s, svc)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return pb.NewAdjudicationServiceClient(conn)
}

func from(ctx context.Context, client string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "x-forwarded-for", client)
}

func reasonOf(err error) string {
	for _, d := range status.Convert(err).Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info.GetReason()
		}
	}
	return ""
}

// TestInFlightPerClient: a client with as many calls under way as the gate
// allows is refused the next with RESOURCE_EXHAUSTED, TOO_MANY_IN_FLIGHT,
// while another client is served; once a call ends the client may call
// again.
func TestInFlightPerClient(t *testing.T) {
	proxies, _ := ratelimit.ParseProxies("127.0.0.0/8")
	clk := fixture.NewClock(time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC))
	gate := ratelimit.NewGate("grpc-in-flight", 2, clk.Now, nil)
	held := &heldAdjudication{entered: make(chan struct{}, 8), release: make(chan struct{})}
	client := serve(t, api.Limits{Proxies: proxies, InFlight: gate}, held, slog.New(slog.DiscardHandler))

	ctx := t.Context()
	done := make(chan error, 4)
	for range 2 {
		go func() {
			_, err := client.Adjudicate(from(ctx, "198.51.100.7"), &pb.AdjudicateRequest{})
			done <- err
		}()
		<-held.entered
	}
	_, err := client.Adjudicate(from(ctx, "198.51.100.7"), &pb.AdjudicateRequest{})
	if status.Code(err) != codes.ResourceExhausted || reasonOf(err) != "TOO_MANY_IN_FLIGHT" {
		t.Fatalf("a third call at once: %v, want RESOURCE_EXHAUSTED TOO_MANY_IN_FLIGHT", err)
	}
	if st := status.Convert(err); !strings.Contains(st.Message(), "2") {
		t.Errorf("the refusal does not say the bound: %q", st.Message())
	}
	go func() {
		_, err := client.Adjudicate(from(ctx, "198.51.100.8"), &pb.AdjudicateRequest{})
		done <- err
	}()
	<-held.entered // another client is not held back
	held.release <- struct{}{}
	if err := <-done; err != nil {
		t.Fatalf("a released call: %v", err)
	}
	go func() {
		_, err := client.Adjudicate(from(ctx, "198.51.100.7"), &pb.AdjudicateRequest{})
		done <- err
	}()
	<-held.entered // a place came free
	close(held.release)
	for range 3 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if gate.Refused() != 1 {
		t.Errorf("refused %d, want 1", gate.Refused())
	}
}

// TestRefusalsAreSummarised: a flood of calls over a client's rate limit
// leaves O(1) log lines, the limiter's one summary line per client and
// minute, not one line per refused call (49 000 lines in 10 s, issue 31).
func TestRefusalsAreSummarised(t *testing.T) {
	proxies, _ := ratelimit.ParseProxies("127.0.0.0/8")
	clk := fixture.NewClock(time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC))
	var buf syncBuffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	lim := ratelimit.New("adjudicate", ratelimit.Limit{N: 2, Per: time.Minute}, clk.Now, log)
	held := &heldAdjudication{entered: make(chan struct{}, 1000), release: make(chan struct{})}
	close(held.release)
	client := serve(t, api.Limits{Proxies: proxies, ByMethod: map[string]*ratelimit.Limiter{
		pb.AdjudicationService_Adjudicate_FullMethodName: lim}}, held, log)
	const calls = 500
	refused := 0
	for range calls {
		_, err := client.Adjudicate(from(t.Context(), "198.51.100.7"), &pb.AdjudicateRequest{})
		if reasonOf(err) == "RATE_LIMITED" {
			refused++
		}
	}
	if refused != calls-2 {
		t.Fatalf("refused %d of %d, want %d", refused, calls, calls-2)
	}
	clk.Advance(time.Minute)
	lim.Flush()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) > 3 {
		t.Fatalf("%d refusals logged as %d lines, want the 2 calls served and one summary:\n%s", refused, len(lines), strings.Join(lines[:5], "\n"))
	}
	if !strings.Contains(buf.String(), "refused=498") {
		t.Errorf("no summary of the refusals:\n%s", buf.String())
	}
}
