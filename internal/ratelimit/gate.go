package ratelimit

import (
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// ReasonTooManyInFlight is the refusal of a call while its client already
// has as many under way as it may: RESOURCE_EXHAUSTED over gRPC.
var ReasonTooManyInFlight = ledger.NewReason(ledger.Exhausted, "TOO_MANY_IN_FLIGHT",
	"同时进行的请求过多（每个客户端最多 {max} 个），请等已发出的请求完成后再试。",
	"too many calls at once (at most {max} per client); wait for those under way to finish.")

// Gate bounds how many calls one client has under way at once, so that
// one client cannot hold every core however cheap each of its calls is
// made. A rate limit bounds calls per minute; this bounds them at once.
type Gate struct {
	name string
	max  int
	now  func() time.Time
	log  *slog.Logger

	mu       sync.Mutex
	inflight map[string]int
	refused  summary
}

// NewGate returns a gate letting each client have max calls under way;
// max 0 or less lets everything through.
func NewGate(name string, max int, now func() time.Time, log *slog.Logger) *Gate {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Gate{name: name, max: max, now: now, log: log, inflight: map[string]int{}, refused: newSummary()}
}

// Name is the gate's name (in its log lines and metrics).
func (g *Gate) Name() string { return g.name }

// Max is how many calls a client may have under way; 0 is no bound.
func (g *Gate) Max() int {
	if g == nil {
		return 0
	}
	return g.max
}

// Refused is how many calls the gate has refused since it was made.
func (g *Gate) Refused() int64 {
	if g == nil {
		return 0
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.refused.total
}

// Enter admits one call of client (a Key, or an actor's name) and returns
// the function that ends it, or TOO_MANY_IN_FLIGHT. A nil gate admits all.
func (g *Gate) Enter(client string) (leave func(), err error) {
	if g == nil || g.max <= 0 {
		return func() {}, nil
	}
	now := g.now()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refused.flush(now, g.log, "too many calls at once", "gate", g.name, "max", g.max)
	if g.inflight[client] >= g.max {
		g.refused.add(client)
		return nil, ReasonTooManyInFlight.New("max", strconv.Itoa(g.max))
	}
	g.inflight[client]++
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			if g.inflight[client]--; g.inflight[client] <= 0 {
				delete(g.inflight, client)
			}
		})
	}, nil
}

// Flush logs the refusals of a minute that has ended, one line per client.
func (g *Gate) Flush() {
	if g == nil {
		return
	}
	now := g.now()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refused.flush(now, g.log, "too many calls at once", "gate", g.name, "max", g.max)
}
