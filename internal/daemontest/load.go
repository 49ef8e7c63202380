package daemontest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// Certifying is a load of clients that register players and certify each
// 1 dan, keeping the number of every certificate answered and when.
type Certifying struct {
	mu     sync.Mutex
	acked  []string
	at     []time.Time        // when each of acked was answered
	codes  map[codes.Code]int // the status codes of failed requests
	errors atomic.Int64
	first  atomic.Value // the first error, for the failure message
	stop   chan struct{}
	wg     sync.WaitGroup
	gate   sync.RWMutex // each request holds it to read; Pause takes it to write
}

// CertifyUnderLoad sets up agency 110 with stock for this year and the next
// and starts clients, the CLI run with env for the tokens; with retry false
// the first failed request stops its client (and WaitAcked fails the test),
// with retry true clients carry on through errors (an outage).
func CertifyUnderLoad(t testing.TB, cli string, env []string, conn *grpc.ClientConn, clients int, retry bool) *Certifying {
	t.Helper()
	ctx := context.Background()
	token := func(args ...string) string {
		out, err := RunCLI(t, cli, env, append([]string{"token", "create"}, args...)...)
		if err != nil {
			t.Fatalf("token create: %v\n%s", err, out)
		}
		return strings.Fields(out)[0]
	}
	staff := token("--staff", "li")
	reg, certs := pb.NewRegistryServiceClient(conn), pb.NewCertificateServiceClient(conn)
	if _, err := reg.CreateAgency(Bearer(ctx, staff), &pb.CreateAgencyRequest{Prefix: "110", Name: "北京棋院"}); err != nil {
		t.Fatal(err)
	}
	agency := token("--agency", "110")
	year := int32(time.Now().In(ledger.ChinaTime).Year()) // the server runs on the machine's clock
	for _, y := range []int32{year, year + 1} {
		// the registry's first year: staff's logged decision opens the audit's gate
		if _, err := pb.NewAuditServiceClient(conn).Bootstrap(Bearer(ctx, staff), &pb.BootstrapRequest{AgencyPrefix: "110", StockYear: y, Note: "首年"}); err != nil {
			t.Fatal(err)
		}
		if _, err := certs.PlaceOrder(Bearer(ctx, staff), &pb.PlaceOrderRequest{AgencyPrefix: "110", Year: y, DanCount: 5000}); err != nil {
			t.Fatal(err)
		}
		if _, err := certs.DecideOrder(Bearer(ctx, staff), &pb.DecideOrderRequest{AgencyPrefix: "110", Year: y, Grant: true}); err != nil {
			t.Fatal(err)
		}
	}
	l := &Certifying{stop: make(chan struct{}), codes: map[codes.Code]int{}}
	var seq atomic.Int64
	issueOne := func() error {
		ctx, cancel := context.WithTimeout(Bearer(ctx, agency), 10*time.Second)
		defer cancel()
		n := int(seq.Add(1))
		p, err := reg.RegisterPlayer(ctx, &pb.RegisterPlayerRequest{Player: &pb.PlayerInput{
			Name: fmt.Sprintf("棋手%d", n), Gender: pb.Gender_GENDER_MALE, BirthDate: "1980-03-04",
			IdentityKind: pb.IdentityKind_IDENTITY_KIND_RESIDENT_ID, IdentityNumber: fixture.ResidentID("110", "19800304", n), ProvinceCode: "11"}})
		if err != nil {
			return err
		}
		earned, err := EarnedOverGRPC(ctx, conn, p.GetPlayer().GetId(), "1d")
		if err != nil {
			return err
		}
		app, err := certs.SubmitApplication(ctx, &pb.SubmitApplicationRequest{PlayerId: p.GetPlayer().GetId(),
			TargetRank: "1d", Basis: pb.Basis_BASIS_TOURNAMENT, EventId: earned})
		if err != nil {
			return err
		}
		ok, err := certs.ApproveApplication(ctx, &pb.ApproveApplicationRequest{Id: app.GetApplication().GetId()})
		if err != nil {
			return err
		}
		if ok.GetApplication().GetCertificateNumber() == "" {
			return fmt.Errorf("application %d approved without a certificate", app.GetApplication().GetId())
		}
		l.mu.Lock()
		l.acked = append(l.acked, ok.GetApplication().GetCertificateNumber())
		l.at = append(l.at, time.Now())
		l.mu.Unlock()
		return nil
	}
	for range clients {
		l.wg.Go(func() {
			for {
				select {
				case <-l.stop:
					return
				default:
				}
				l.gate.RLock()
				err := issueOne()
				l.gate.RUnlock()
				if err != nil {
					l.mu.Lock()
					l.codes[status.Code(err)]++
					l.mu.Unlock()
					if l.errors.Add(1) == 1 {
						l.first.Store(err.Error())
					}
					if !retry {
						return
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
		})
	}
	t.Cleanup(l.Halt)
	return l
}

// EarnedOverGRPC runs, as the agency of ctx, a finished one-round county
// event starting today whose grading table, published at creation, earns
// rank to its winner: the player against a guest, the player winning. It
// returns the event's id, the evidence of the player's application.
func EarnedOverGRPC(ctx context.Context, conn grpc.ClientConnInterface, player int64, rank string) (int64, error) {
	tc := pb.NewTournamentServiceClient(conn)
	today := time.Now().In(ledger.ChinaTime).Format(time.DateOnly)
	ev, err := tc.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: fmt.Sprintf("升%s赛", rank), StartDate: today, Level: "county",
		System: "round_robin", Grading: []*pb.GradingRule{{MaxPlacing: 1, Rank: rank}}})
	if err != nil {
		return 0, fmt.Errorf("create the event: %w", err)
	}
	id := ev.GetTournament().GetId()
	if _, err := tc.AddParticipant(ctx, &pb.AddParticipantRequest{TournamentId: id, PlayerId: player}); err != nil {
		return 0, fmt.Errorf("add player %d: %w", player, err)
	}
	if _, err := tc.AddParticipant(ctx, &pb.AddParticipantRequest{TournamentId: id, GuestName: "陪练", GuestRank: "1k"}); err != nil {
		return 0, fmt.Errorf("add the guest: %w", err)
	}
	rd, err := tc.PairNextRound(ctx, &pb.PairNextRoundRequest{TournamentId: id})
	if err != nil {
		return 0, fmt.Errorf("pair: %w", err)
	}
	g := rd.GetRound().GetGames()[0]
	result := "black"
	if g.GetWhite() == 1 {
		result = "white"
	}
	if _, err := tc.RecordResult(ctx, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: g.GetBoard(), Result: result}); err != nil {
		return 0, fmt.Errorf("result: %w", err)
	}
	if _, err := tc.FinishTournament(ctx, &pb.FinishTournamentRequest{TournamentId: id}); err != nil {
		return 0, fmt.Errorf("finish: %w", err)
	}
	return id, nil
}

// Pause waits for the requests in flight and holds every client until the
// returned resume is called: a quiet moment to take note.
func (l *Certifying) Pause() (resume func()) {
	l.gate.Lock()
	return l.gate.Unlock
}

// Acked is every certificate number answered so far.
func (l *Certifying) Acked() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.acked)
}

// AckedAt is when each of Acked was answered.
func (l *Certifying) AckedAt() []time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.at)
}

// Codes counts the status codes of the failed requests so far.
func (l *Certifying) Codes() map[codes.Code]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[codes.Code]int, len(l.codes))
	for c, n := range l.codes {
		out[c] = n
	}
	return out
}

// Errors is how many requests failed so far.
func (l *Certifying) Errors() int64 { return l.errors.Load() }

// WaitAcked waits until n more certificates than now are acknowledged.
func (l *Certifying) WaitAcked(t testing.TB, n int, retry bool) {
	t.Helper()
	want := len(l.Acked()) + n
	deadline := time.Now().Add(2 * time.Minute)
	for len(l.Acked()) < want {
		if !retry && l.errors.Load() > 0 {
			t.Fatalf("a client's request failed: %v", l.first.Load())
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d certificates acknowledged within 2 min (%d errors, first %v)", want, l.errors.Load(), l.first.Load())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Halt stops the clients and waits for them.
func (l *Certifying) Halt() {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	l.wg.Wait()
}

// FirstError is the first failed request's error, nil before any.
func (l *Certifying) FirstError() any { return l.first.Load() }
