package drills_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// The drills' helpers, after cmd/dankyud's tests: the built binaries, a
// server on free ports, clients certifying players.

// build compiles the server and the CLI once for this test.
func build(t *testing.T) (server, cli string) {
	t.Helper()
	dir := t.TempDir()
	server, cli = filepath.Join(dir, "dankyud"), filepath.Join(dir, "dankyu")
	for out, pkg := range map[string]string{server: "../../cmd/dankyud", cli: "../../cmd/dankyu"} {
		if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", pkg, err, b)
		}
	}
	return server, cli
}

type running struct {
	cmd        *exec.Cmd
	grpc, http string
	log        *syncBuffer
	done       chan struct{} // closed when stderr reaches EOF
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) add(line string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.WriteString(line + "\n")
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var servingRe = regexp.MustCompile(`dankyu serving"? grpc=(\S+) http=http://(\S+)/`)

// embedded is the environment of the embedded cluster in dataDir.
func embedded(dataDir string) []string {
	return []string{"DANKYU_DATA_DIR=" + dataDir, "DANKYU_DATABASE_URL=", "DANKYU_MIGRATION_URL="}
}

// startEnv runs the server on free ports with the database env gives and
// waits until it serves.
func startEnv(t *testing.T, bin string, env []string) *running {
	t.Helper()
	cmd := exec.Command(bin, "--grpc-addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0")
	cmd.Env = append(append(os.Environ(), env...), "DANKYU_SWEEP_INTERVAL=200ms")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	r := &running{cmd: cmd, log: &syncBuffer{}, done: make(chan struct{})}
	found := make(chan []string, 1)
	go func() {
		defer close(r.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			r.log.add(sc.Text())
			if m := servingRe.FindStringSubmatch(sc.Text()); m != nil {
				found <- m
			}
		}
	}()
	select {
	case m := <-found:
		r.grpc, r.http = m[1], m[2]
	case <-r.done:
		cmd.Wait()
		t.Fatalf("server exited before serving:\n%s", r.log)
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("server not serving within 2 min:\n%s", r.log)
	}
	return r
}

// stop stops the server and waits for it.
func (r *running) stop() {
	_ = r.cmd.Process.Signal(os.Interrupt)
	<-r.done
	_ = r.cmd.Wait()
}

// runCLI runs the CLI with the database env gives.
func runCLI(t *testing.T, cli string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(cli, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return strings.TrimSpace(out.String() + errb.String()), err
}

func bearer(ctx context.Context, tok string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+tok)
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// certifying is a load of clients that register players and certify each
// 1 dan, keeping the number of every certificate answered and when.
type certifying struct {
	mu     sync.Mutex
	acked  []string
	at     []time.Time        // when each of acked was answered
	codes  map[codes.Code]int // the status codes of failed requests
	errors atomic.Int64
	first  atomic.Value
	stop   chan struct{}
	wg     sync.WaitGroup
	gate   sync.RWMutex // each request holds it to read; pause takes it to write
}

// certifyUnderLoad sets up agency 110 with stock and starts clients; with
// retry false the first failed request stops its client (and waitAcked
// fails the test), with retry true clients carry on through errors.
func certifyUnderLoad(t *testing.T, cli string, env []string, conn *grpc.ClientConn, clients int, retry bool) *certifying {
	t.Helper()
	ctx := context.Background()
	token := func(args ...string) string {
		out, err := runCLI(t, cli, env, append([]string{"token", "create"}, args...)...)
		if err != nil {
			t.Fatalf("token create: %v\n%s", err, out)
		}
		return strings.Fields(out)[0]
	}
	staff := token("--staff", "li")
	reg, certs := pb.NewRegistryServiceClient(conn), pb.NewCertificateServiceClient(conn)
	if _, err := reg.CreateAgency(bearer(ctx, staff), &pb.CreateAgencyRequest{Prefix: "110", Name: "北京棋院"}); err != nil {
		t.Fatal(err)
	}
	agency := token("--agency", "110")
	year := int32(time.Now().In(ledger.ChinaTime).Year()) // the server runs on the machine's clock
	for _, y := range []int32{year, year + 1} {
		if _, err := pb.NewAuditServiceClient(conn).Bootstrap(bearer(ctx, staff), &pb.BootstrapRequest{AgencyPrefix: "110", StockYear: y, Note: "首年"}); err != nil {
			t.Fatal(err)
		}
		if _, err := certs.PlaceOrder(bearer(ctx, staff), &pb.PlaceOrderRequest{AgencyPrefix: "110", Year: y, DanCount: 5000}); err != nil {
			t.Fatal(err)
		}
		if _, err := certs.DecideOrder(bearer(ctx, staff), &pb.DecideOrderRequest{AgencyPrefix: "110", Year: y, Grant: true}); err != nil {
			t.Fatal(err)
		}
	}
	l := &certifying{stop: make(chan struct{}), codes: map[codes.Code]int{}}
	var seq atomic.Int64
	issueOne := func() error {
		ctx, cancel := context.WithTimeout(bearer(ctx, agency), 10*time.Second)
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
	t.Cleanup(l.halt)
	return l
}

// earnedOverGRPC runs a two-board event in which player places first and
// so earns rank, and returns the event's id.
func earnedOverGRPC(ctx context.Context, conn grpc.ClientConnInterface, player int64, rank string) (int64, error) {
	tc := pb.NewTournamentServiceClient(conn)
	today := time.Now().In(ledger.ChinaTime).Format(time.DateOnly)
	ev, err := tc.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: fmt.Sprintf("升%s赛", rank), StartDate: today, Level: "county",
		System: "round_robin", Grading: []*pb.GradingRule{{MaxPlacing: 1, Rank: rank}}})
	if err != nil {
		return 0, err
	}
	id := ev.GetTournament().GetId()
	if _, err := tc.AddParticipant(ctx, &pb.AddParticipantRequest{TournamentId: id, PlayerId: player}); err != nil {
		return 0, err
	}
	if _, err := tc.AddParticipant(ctx, &pb.AddParticipantRequest{TournamentId: id, GuestName: "陪练", GuestRank: "1k"}); err != nil {
		return 0, err
	}
	rd, err := tc.PairNextRound(ctx, &pb.PairNextRoundRequest{TournamentId: id})
	if err != nil {
		return 0, err
	}
	g := rd.GetRound().GetGames()[0]
	result := "black"
	if g.GetWhite() == 1 {
		result = "white"
	}
	if _, err := tc.RecordResult(ctx, &pb.RecordResultRequest{TournamentId: id, Round: 1, Board: g.GetBoard(), Result: result}); err != nil {
		return 0, err
	}
	if _, err := tc.FinishTournament(ctx, &pb.FinishTournamentRequest{TournamentId: id}); err != nil {
		return 0, err
	}
	return id, nil
}

// pause waits for the requests in flight and holds every client until
// the returned resume is called: a quiet moment to note.
func (l *certifying) pause() (resume func()) {
	l.gate.Lock()
	return l.gate.Unlock
}

func (l *certifying) ackedNow() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.acked)
}

// waitAcked waits until n more certificates than now are acknowledged.
func (l *certifying) waitAcked(t *testing.T, n int, retry bool) {
	t.Helper()
	want := len(l.ackedNow()) + n
	deadline := time.Now().Add(2 * time.Minute)
	for len(l.ackedNow()) < want {
		if !retry && l.errors.Load() > 0 {
			t.Fatalf("a client's request failed: %v", l.first.Load())
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d certificates acknowledged within 2 min (%d errors, first %v)", want, l.errors.Load(), l.first.Load())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (l *certifying) halt() {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	l.wg.Wait()
}

// numbersIn reads every certificate number of the database at url.
func numbersIn(t *testing.T, db *pgx.Conn) []string {
	t.Helper()
	rows, err := db.Query(context.Background(), `SELECT number FROM certificates WHERE number IS NOT NULL`)
	if err != nil {
		t.Fatal(err)
	}
	numbers, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return numbers
}

// superuser connects to the embedded database of dir as the cluster's
// superuser, starting the cluster if need be.
func superuser(t *testing.T, dir string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	c, err := pgcluster.New(dir, pgcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
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

// asSuperuser runs sql with triggers off (the append-only guards a
// superuser can lift).
func asSuperuser(t *testing.T, db *pgx.Conn, sql string, args ...any) {
	t.Helper()
	ctx := context.Background()
	if _, err := db.Exec(ctx, `SET session_replication_role = replica`); err != nil {
		t.Fatal(err)
	}
	defer db.Exec(ctx, `SET session_replication_role = DEFAULT`)
	if _, err := db.Exec(ctx, sql, args...); err != nil {
		t.Fatal(err)
	}
}

// missing lists the numbers of want that are not in have.
func missing(want, have []string) []string {
	var out []string
	for _, n := range want {
		if !slices.Contains(have, n) {
			out = append(out, n)
		}
	}
	return out
}

// assertGapless checks each series (the first 5 digits of 9-digit
// numbers) runs 0001, 0002, … without a hole.
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
