package main_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/jackc/pgx/v5"
)

// certifying is a load of clients that register players and certify each
// 1 dan, keeping the certificate number of every answer that came back.
type certifying struct {
	mu     sync.Mutex
	acked  []string
	errors atomic.Int64
	first  atomic.Value // the first error, for the failure message
	stop   chan struct{}
	wg     sync.WaitGroup
}

// certifyUnderLoad sets up agency 110 with stock and starts clients; with
// retry false the first failed request stops its client (and fails the
// test), with retry true clients carry on through errors (an outage).
func certifyUnderLoad(t *testing.T, cli, dataDir string, conn *grpc.ClientConn, clients int, retry bool) *certifying {
	t.Helper()
	token := func(args ...string) string {
		out, err := runCLI(t, cli, dataDir, append([]string{"token", "create"}, args...)...)
		if err != nil {
			t.Fatalf("token create: %v\n%s", err, out)
		}
		return strings.Fields(out)[0]
	}
	staff := token("--staff", "li")
	reg, certs := pb.NewRegistryServiceClient(conn), pb.NewCertificateServiceClient(conn)
	if _, err := reg.CreateAgency(bearer(staff), &pb.CreateAgencyRequest{Prefix: "110", Name: "北京棋院"}); err != nil {
		t.Fatal(err)
	}
	agency := token("--agency", "110")
	year := int32(time.Now().In(ledger.ChinaTime).Year()) // the server runs on the machine's clock
	for _, y := range []int32{year, year + 1} {
		// the registry's first year: staff's logged decision opens the audit's gate
		if _, err := pb.NewAuditServiceClient(conn).Bootstrap(bearer(staff), &pb.BootstrapRequest{AgencyPrefix: "110", StockYear: y, Note: "首年"}); err != nil {
			t.Fatal(err)
		}
		if _, err := certs.PlaceOrder(bearer(staff), &pb.PlaceOrderRequest{AgencyPrefix: "110", Year: y, DanCount: 5000}); err != nil {
			t.Fatal(err)
		}
		if _, err := certs.DecideOrder(bearer(staff), &pb.DecideOrderRequest{AgencyPrefix: "110", Year: y, Grant: true}); err != nil {
			t.Fatal(err)
		}
	}
	l := &certifying{stop: make(chan struct{})}
	var seq atomic.Int64
	issueOne := func() error {
		ctx, cancel := context.WithTimeout(metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+agency), 10*time.Second)
		defer cancel()
		n := int(seq.Add(1))
		p, err := reg.RegisterPlayer(ctx, &pb.RegisterPlayerRequest{Player: &pb.PlayerInput{
			Name: fmt.Sprintf("棋手%d", n), Gender: pb.Gender_GENDER_MALE, BirthDate: "1980-03-04",
			IdentityKind: pb.IdentityKind_IDENTITY_KIND_RESIDENT_ID, IdentityNumber: fixture.ResidentID("110", "19800304", n), ProvinceCode: "11"}})
		if err != nil {
			return err
		}
		earned, err := earnedOverGRPC(ctx, conn, p.GetPlayer().GetId(), "1d")
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
		l.mu.Unlock()
		return nil
	}
	for range clients {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for {
				select {
				case <-l.stop:
					return
				default:
				}
				if err := issueOne(); err != nil {
					if l.errors.Add(1) == 1 {
						l.first.Store(err.Error())
					}
					if !retry {
						return
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
		}()
	}
	t.Cleanup(l.halt)
	return l
}

// ackedNow is every certificate number answered so far.
func (l *certifying) ackedNow() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.acked...)
}

// waitAcked waits until n more certificates than now are acknowledged.
func (l *certifying) waitAcked(t *testing.T, n int, retry bool) {
	t.Helper()
	want := len(l.ackedNow()) + n
	deadline := time.Now().Add(60 * time.Second)
	for len(l.ackedNow()) < want {
		if !retry && l.errors.Load() > 0 {
			t.Fatalf("a client's request failed: %v", l.first.Load())
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d certificates acknowledged within 60 s (%d errors, first %v)", want, l.errors.Load(), l.first.Load())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// halt stops the clients and waits for them.
func (l *certifying) halt() {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	l.wg.Wait()
}

// superuser connects to the embedded database of dir as the cluster's
// superuser (past the server's role), starting the cluster if need be; the
// connection closes when the test ends.
func superuser(t *testing.T, dir string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	c := mustCluster(t, dir)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	db, err := pgx.Connect(ctx, c.ConnString("dankyu"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close(context.Background()) })
	return db
}

// certificateNumbers reads every certificate number in the embedded
// database of dir, starting its cluster if need be.
func certificateNumbers(t *testing.T, dir string) []string {
	t.Helper()
	rows, err := superuser(t, dir).Query(context.Background(), `SELECT number FROM certificates WHERE number IS NOT NULL`)
	if err != nil {
		t.Fatal(err)
	}
	numbers, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return numbers
}

// missing lists the numbers of want that are not in have.
func missing(want, have []string) []string {
	in := map[string]bool{}
	for _, n := range have {
		in[n] = true
	}
	var out []string
	for _, n := range want {
		if !in[n] {
			out = append(out, n)
		}
	}
	return out
}

// assertGapless checks that each series (province prefix and year: the
// first 5 digits) of 9-digit numbers runs 0001, 0002, … without a hole.
func assertGapless(t *testing.T, numbers []string) {
	t.Helper()
	series := map[string][]int{}
	for _, n := range numbers {
		if len(n) != 9 {
			continue
		}
		s, err := strconv.Atoi(n[5:])
		if err != nil {
			t.Fatalf("certificate number %q", n)
		}
		series[n[:5]] = append(series[n[:5]], s)
	}
	for key, serials := range series {
		slices.Sort(serials)
		for i, s := range serials {
			if s != i+1 {
				t.Fatalf("series %s: serial %04d where %04d was due (%d numbers)", key, s, i+1, len(serials))
			}
		}
	}
}
