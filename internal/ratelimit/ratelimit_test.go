package ratelimit_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/ratelimit"
	"github.com/dankyu/dankyu/ledger"
)

// TestRefusalsLoggedOncePerClientAndMinute: a flood of refusals is one
// summary line per client when its minute ends, not one per request.
func TestRefusalsLoggedOncePerClientAndMinute(t *testing.T) {
	clk := fixture.NewClock(time.Date(2026, 12, 1, 8, 0, 10, 0, time.UTC))
	var buf bytes.Buffer
	l := ratelimit.New("verify", ratelimit.Limit{N: 3, Per: time.Minute}, clk.Now, slog.New(slog.NewTextHandler(&buf, nil)))
	allowed := map[string]int{}
	for range 200 {
		for _, c := range []string{"192.0.2.1", "192.0.2.2"} {
			if l.Allow(c) == nil {
				allowed[c]++
			}
		}
	}
	if allowed["192.0.2.1"] != 3 || allowed["192.0.2.2"] != 3 {
		t.Fatalf("allowed %v, want 3 each", allowed)
	}
	if buf.Len() != 0 {
		t.Fatalf("logged before the minute ended: %s", buf.String())
	}
	clk.Advance(time.Minute)
	l.Flush()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one summary line per client, got %d:\n%s", len(lines), buf.String())
	}
	for _, ln := range lines {
		if !strings.Contains(ln, "refused=197") || !strings.Contains(ln, "limit=verify") {
			t.Errorf("summary %q lacks the count", ln)
		}
	}
	buf.Reset()
	clk.Advance(time.Minute)
	l.Flush()
	if buf.Len() != 0 {
		t.Fatalf("a quiet minute logged: %s", buf.String())
	}
}

func TestClientAddress(t *testing.T) {
	proxies, err := ratelimit.ParseProxies("10.0.0.0/8, 2001:db8::1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		remote string
		xff    []string
		want   string
	}{
		{"192.0.2.1:5000", []string{"198.51.100.7"}, "192.0.2.1"},                      // untrusted peer: its own address
		{"10.1.2.3:5000", []string{"198.51.100.7"}, "198.51.100.7"},                    // trusted proxy
		{"10.1.2.3:5000", []string{"6.6.6.6, 198.51.100.7, 10.0.0.9"}, "198.51.100.7"}, // right-most untrusted hop
		{"[2001:db8::1]:443", []string{"203.0.113.5"}, "203.0.113.5"},
		{"10.1.2.3:5000", []string{"junk"}, "10.1.2.3"},
	}
	for _, tt := range tests {
		if got := proxies.Client(tt.remote, tt.xff); got != tt.want {
			t.Errorf("Client(%s, %v) = %s, want %s", tt.remote, tt.xff, got, tt.want)
		}
	}
	if k := ratelimit.Key("2001:db8:1:2:aaaa::1"); k != "2001:db8:1:2::/64" {
		t.Errorf("Key of an IPv6 address = %s, want its /64", k)
	}
}

// TestAllowBucketsTheAddress: Allow takes an address and spends its
// bucket's tokens, an IPv6 /64 being one bucket (the portal passes
// addresses, the gRPC server keys).
func TestAllowBucketsTheAddress(t *testing.T) {
	clk := fixture.NewClock(time.Date(2026, 12, 1, 8, 0, 10, 0, time.UTC))
	l := ratelimit.New("verify", ratelimit.Limit{N: 2, Per: time.Minute}, clk.Now, nil)
	for i, c := range []string{"2001:db8::1", "2001:db8::2", ratelimit.Key("2001:db8::3")} {
		if err := l.Allow(c); (err == nil) != (i < 2) {
			t.Errorf("call %d from %s: %v", i+1, c, err)
		}
	}
	if err := l.Allow("2001:db8:0:1::1"); err != nil {
		t.Errorf("the next /64 shares the bucket: %v", err)
	}
}

// TestRefusalSaysTheLimitInWords: the refusal reads "5 per hour", never
// Go's "5/1h0m0s" (issue 24), in each language.
func TestRefusalSaysTheLimitInWords(t *testing.T) {
	tests := []struct {
		limit  ratelimit.Limit
		zh, en string
	}{
		{ratelimit.Limit{N: 5, Per: time.Hour}, "每小时 5 次", "5 per hour"},
		{ratelimit.Limit{N: 60, Per: time.Minute}, "每分钟 60 次", "60 per minute"},
		{ratelimit.Limit{N: 2, Per: time.Second}, "每秒 2 次", "2 per second"},
		{ratelimit.Limit{N: 100, Per: 24 * time.Hour}, "每天 100 次", "100 per day"},
		{ratelimit.Limit{N: 30, Per: 10 * time.Minute}, "每 10 分钟 30 次", "30 per 10 minutes"},
		{ratelimit.Limit{N: 5, Per: 90 * time.Minute}, "每 90 分钟 5 次", "5 per 90 minutes"},
		{ratelimit.Limit{N: 3, Per: 90 * time.Second}, "每 90 秒 3 次", "3 per 90 seconds"},
		{ratelimit.Limit{N: 1, Per: 48 * time.Hour}, "每 2 天 1 次", "1 per 2 days"},
		{ratelimit.Limit{N: 4, Per: 1500 * time.Millisecond}, "每 1500 毫秒 4 次", "4 per 1500 milliseconds"},
	}
	for _, tt := range tests {
		clk := fixture.NewClock(time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC))
		l := ratelimit.New("verify", tt.limit, clk.Now, nil)
		var err error
		for range tt.limit.N + 1 {
			err = l.Allow("192.0.2.1")
		}
		e, ok := ledger.AsError(err)
		if !ok || e.Reason != ratelimit.ReasonRateLimited {
			t.Fatalf("%v: over the limit got %v", tt.limit, err)
		}
		if zh := e.Message(ledger.Chinese); !strings.Contains(zh, "（"+tt.zh+"）") {
			t.Errorf("%v: Chinese %q, want %q", tt.limit, zh, tt.zh)
		}
		if en := e.Message(ledger.English); !strings.Contains(en, "("+tt.en+")") {
			t.Errorf("%v: English %q, want %q", tt.limit, en, tt.en)
		}
	}
}

// TestBatchSpendsOnePerNumber: a batch of n numbers costs n tokens, all or
// none, so the limit's (N+1)th number is refused however the numbers are
// grouped; a batch larger than the whole budget is OVER_QUOTA.
func TestBatchSpendsOnePerNumber(t *testing.T) {
	clk := fixture.NewClock(time.Date(2026, 12, 1, 8, 0, 10, 0, time.UTC))
	l := ratelimit.New("verify", ratelimit.Limit{N: 10, Per: time.Minute}, clk.Now, nil)
	if err := l.AllowN("192.0.2.1", 7); err != nil {
		t.Fatalf("7 of 10: %v", err)
	}
	if err := l.AllowN("192.0.2.1", 4); !isReason(err, ratelimit.ReasonRateLimited) {
		t.Fatalf("4 more with 3 left: %v, want RATE_LIMITED", err)
	}
	if err := l.AllowN("192.0.2.1", 3); err != nil {
		t.Fatalf("the 3 left (a refused batch spends nothing): %v", err)
	}
	if err := l.Allow("192.0.2.1"); !isReason(err, ratelimit.ReasonRateLimited) {
		t.Fatalf("the 11th number: %v, want RATE_LIMITED", err)
	}
	err := l.AllowN("192.0.2.2", 11)
	if e, ok := ledger.AsError(err); !ok || e.Reason != ratelimit.ReasonOverQuota || e.Param("count") != "11" || e.Param("max") != "10" {
		t.Fatalf("a batch of 11 against 10 per minute: %v, want OVER_QUOTA", err)
	}
	if err := l.AllowN("192.0.2.2", 10); err != nil {
		t.Fatalf("a batch of the whole budget: %v", err)
	}
	if got := l.Refused(); got != 3 {
		t.Errorf("refused %d requests, want 3", got)
	}
}

// TestGateBoundsCallsAtOnce: a client has at most max calls under way;
// the next is TOO_MANY_IN_FLIGHT until one ends, other clients are not
// held, and the refusals are one summary line per client and minute.
func TestGateBoundsCallsAtOnce(t *testing.T) {
	clk := fixture.NewClock(time.Date(2026, 12, 1, 8, 0, 10, 0, time.UTC))
	var buf bytes.Buffer
	g := ratelimit.NewGate("grpc", 2, clk.Now, slog.New(slog.NewTextHandler(&buf, nil)))
	a, err := g.Enter("192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.Enter("192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	for range 500 {
		if _, err := g.Enter("192.0.2.1"); !isReason(err, ratelimit.ReasonTooManyInFlight) {
			t.Fatalf("a third call at once: %v", err)
		}
	}
	if _, err := g.Enter("192.0.2.2"); err != nil {
		t.Fatalf("another client: %v", err)
	}
	a()
	a() // ending twice frees one place only
	if _, err := g.Enter("192.0.2.1"); err != nil {
		t.Fatalf("after one ended: %v", err)
	}
	if _, err := g.Enter("192.0.2.1"); !isReason(err, ratelimit.ReasonTooManyInFlight) {
		t.Fatalf("ending twice freed two places: %v", err)
	}
	b()
	clk.Advance(time.Minute)
	g.Flush()
	if n := strings.Count(buf.String(), "\n"); n != 1 || !strings.Contains(buf.String(), "refused=501") {
		t.Fatalf("501 refusals logged as %d lines:\n%s", n, buf.String())
	}
}

func isReason(err error, r *ledger.Reason) bool {
	e, ok := ledger.AsError(err)
	return ok && e.Reason == r
}
