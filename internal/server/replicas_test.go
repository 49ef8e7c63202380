package server_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/mod/sumdb/note"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/internal/replicas"
	"github.com/dankyu/dankyu/internal/server"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// replicaEnv is a server whose public reads go to a real streaming standby
// of the test cluster.
type replicaEnv struct {
	router  *replicas.Router
	standby *pgcluster.Cluster
	db      string
	primary *pgxpool.Pool
	queries *queryLog // every statement on primary
	cs      *certs.Service
	ts      *tournaments.Service
	reg     *registry.Service
	pr      *server.PublicReads
	vkey    string // the event log's verifier key
	portal  *httptest.Server
	certs   pb.CertificateServiceClient
	players pb.RegistryServiceClient
	health  healthpb.HealthClient
	year    int
	seq     int
}

// queryLog records, while on, the statements run on a pool and the
// connections taken from it.
type queryLog struct {
	mu       sync.Mutex
	on       bool
	acquires int
	sql      []string
}

func (q *queryLog) start() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.on, q.acquires, q.sql = true, 0, nil
}

// stop ends the recording and returns what it saw.
func (q *queryLog) stop() (acquires int, sql []string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.on = false
	return q.acquires, q.sql
}

func (q *queryLog) record(sql string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.on {
		q.sql = append(q.sql, sql)
	}
}

func (q *queryLog) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	q.record(d.SQL)
	return ctx
}

func (q *queryLog) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (q *queryLog) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	q.record("(batch)")
	return ctx
}

func (q *queryLog) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	q.record(d.SQL)
}

func (q *queryLog) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

func (q *queryLog) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceCopyFromStartData) context.Context {
	q.record("COPY " + d.TableName.Sanitize())
	return ctx
}

func (q *queryLog) TraceCopyFromEnd(context.Context, *pgx.Conn, pgx.TraceCopyFromEndData) {}

func (q *queryLog) TraceAcquireStart(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireStartData) context.Context {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.on {
		q.acquires++
	}
	return ctx
}

func (q *queryLog) TraceAcquireEnd(context.Context, *pgxpool.Pool, pgxpool.TraceAcquireEndData) {}

func newReplicaEnv(t *testing.T, maxLag time.Duration) *replicaEnv {
	t.Helper()
	return newReplicaEnvWith(t, maxLag, true)
}

// newReplicaEnvWith is newReplicaEnv, with or without the standby; its
// portal also serves a trivial handler at /trivial, the load test's baseline.
func newReplicaEnvWith(t testing.TB, maxLag time.Duration, withReplica bool) *replicaEnv {
	t.Helper()
	ctx := context.Background()
	_, conn := harness.NewDB(t)
	pcfg, err := pgxpool.ParseConfig(conn)
	if err != nil {
		t.Fatal(err)
	}
	db := pcfg.ConnConfig.Database
	// the server's own pool on the primary, every statement on it seen
	queries := &queryLog{}
	pcfg.ConnConfig.Tracer = queries
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	var standby *pgcluster.Cluster
	var dbs []replicas.DB
	if withReplica {
		standby = harness.Standby(t)
		rpool, err := pgxpool.New(ctx, standby.ConnString(db))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(rpool.Close)
		dbs = append(dbs, replicas.DB{Name: "replica0", Pool: rpool})
	}
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	router := replicas.New(pool, dbs, replicas.Options{MaxLag: maxLag, Log: log})

	clock := fixture.TodayClock(t)
	store := ledger.New(pool, clock.Now, log)
	reg := registry.New(store)
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	skey, vkey, err := note.GenerateKey(rand.Reader, server.LogKeyName)
	if err != nil {
		t.Fatal(err)
	}
	// as the server wires it: one notary signs every copy's tree
	notary, err := ledger.NewNotary(skey, vkey, ledger.NotaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := server.NewPublicReads(router, server.PublicServices{Store: store, Registry: reg, Certs: cs, Tournaments: ts,
		LogKey: skey, LogVerifierKey: vkey, Notary: notary})
	if err != nil {
		t.Fatal(err)
	}
	preg, pcs, pts := pr.PortalServices()
	h, err := web.New(ctx, store, preg, pcs, pts, log, web.Options{Log: pr.Log()})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", server.SignedInOnPrimary(h))
	mux.HandleFunc("GET /trivial", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	portal := httptest.NewServer(mux)
	t.Cleanup(portal.Close)
	lim, err := (&server.Config{RateVerify: "off", RateObjection: "off", RateLogin: "off", RateAdjudicate: "off"}).Limiters(clock.Now, log)
	if err != nil {
		t.Fatal(err)
	}
	gs, _ := server.NewGRPCServer(store, reg, cs, ts, nil, book.New(store), log, lim.API(), server.WithPublicReads(pr))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	fixture.Agencies(t, reg, "110")
	year := clock.Now().In(ledger.ChinaTime).Year()
	fixture.Stock(t, cs, "110", year, 2000, 0)
	return &replicaEnv{router: router, standby: standby, db: db, primary: pool, queries: queries, cs: cs, ts: ts, reg: reg, pr: pr, vkey: vkey, portal: portal,
		certs: pb.NewCertificateServiceClient(cc), players: pb.NewRegistryServiceClient(cc), health: healthpb.NewHealthClient(cc), year: year}
}

// issue certifies a new player 1 dan on the primary and returns the number.
func (e *replicaEnv) issue(t testing.TB) string {
	t.Helper()
	e.seq++
	birth := time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, e.seq/900).Format(time.DateOnly)
	p := fixture.Player(t, e.reg, "110", fmt.Sprintf("副本%d", e.seq), "", birth, e.seq%900+1)
	a, err := e.cs.Apply(context.Background(), fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d",
		Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
	if err != nil {
		t.Fatal(err)
	}
	a, err = e.cs.Approve(context.Background(), fixture.Agency("110"), "", a.ID)
	if err != nil || a.CertificateNumber == "" {
		t.Fatalf("approve 1 dan: %v %v", a, err)
	}
	return a.CertificateNumber
}

// verifyPage fetches the public verification page of number and reports
// whether it shows the certificate as valid.
func (e *replicaEnv) verifyPage(t *testing.T, number string) bool {
	t.Helper()
	resp, err := http.Get(e.portal.URL + "/verify?lang=en&number=" + url.QueryEscape(number))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /verify?number=%s: %d\n%s", number, resp.StatusCode, body)
	}
	return strings.Contains(string(body), "Valid certificate")
}

// reads is how many public reads the replica and the primary have served.
func (e *replicaEnv) reads() (replica, primary int64) {
	return e.router.Status()[0].Reads, e.router.PrimaryReads()
}

// untilInRotation checks until the replica is in rotation and has replayed number.
func (e *replicaEnv) untilReplayed(t *testing.T, number string) {
	t.Helper()
	rcs := e.router.Pool(0)
	deadline := time.Now().Add(20 * time.Second)
	for {
		e.router.Check(context.Background())
		var n int
		err := rcs.QueryRow(context.Background(), `SELECT count(*) FROM certificates WHERE number = $1`, number).Scan(&n)
		if e.router.Status()[0].InRotation && err == nil && n == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica never replayed %s: %+v, %v", number, e.router.Status(), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestPublicReadsFromReplica issues on the primary and sees the public
// verification page and VerifyCertificate answer from a real streaming
// standby once it has replayed; a replica whose replay is held past the
// lag setting, or that is stopped, leaves rotation and the primary answers.
func TestPublicReadsFromReplica(t *testing.T) {
	e := newReplicaEnv(t, 500*time.Millisecond)
	ctx := context.Background()
	first := e.issue(t)
	e.untilReplayed(t, first)

	r0, p0 := e.reads()
	if !e.verifyPage(t, first) {
		t.Fatalf("replica's verification page does not show %s as valid", first)
	}
	v, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: first})
	if err != nil || !v.GetFound() {
		t.Fatalf("VerifyCertificate(%s) = %v, %v", first, v, err)
	}
	// the page and the RPC each read the verdict and its receipts in one statement
	if r, p := e.reads(); r != r0+2 || p != p0 {
		t.Fatalf("reads replica %d→%d, primary %d→%d; want the replica to serve both", r0, r, p0, p)
	}

	// signed in, on the portal (a session cookie) or over gRPC (a token),
	// one reads from the primary: what one just wrote is there
	r0, p0 = e.reads()
	e.queries.start()
	req, _ := http.NewRequest(http.MethodGet, e.portal.URL+"/verify?number="+url.QueryEscape(first), nil)
	req.AddCookie(&http.Cookie{Name: "dk_session", Value: "x"})
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	token, _, err := e.reg.CreateToken(ctx, ledger.Actor{Kind: ledger.SystemActor, Name: "test"}, ledger.AgencyActor, "110", "")
	if err != nil {
		t.Fatal(err)
	}
	signedIn := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
	if v, err := e.certs.VerifyCertificate(signedIn, &pb.VerifyCertificateRequest{Number: first}); err != nil || !v.GetFound() {
		t.Fatalf("signed-in VerifyCertificate = %v, %v", v, err)
	}
	// both go through the router marked for the primary: not the public's
	// reads, counted on neither, but run on the primary
	if r, p := e.reads(); r != r0 || p != p0 {
		t.Fatalf("signed in: reads replica %d→%d, primary %d→%d; want the replica to serve neither", r0, r, p0, p)
	}
	if _, sql := e.queries.stop(); !slices.ContainsFunc(sql, func(q string) bool { return strings.Contains(q, "FROM certificates") }) {
		t.Fatalf("signed in: the primary ran %q, no certificate look-up", sql)
	}

	// replay held: the primary writes on, the replica falls behind past the setting
	e.pauseReplay(t)
	second := e.issue(t) // what the replica must not see
	e.router.Check(ctx)
	time.Sleep(700 * time.Millisecond)
	e.router.Check(ctx)
	st := e.router.Status()[0]
	if st.InRotation || st.Lag < 500*time.Millisecond || !strings.Contains(st.Err, "lags") {
		t.Fatalf("replica with replay paused: %+v; want out of rotation for its lag", st)
	}
	r0, p0 = e.reads()
	if !e.verifyPage(t, second) {
		t.Fatalf("with the replica lagging, %s is not shown valid", second)
	}
	if r, p := e.reads(); r != r0 || p != p0+1 { // one statement
		t.Fatalf("lagging: reads replica %d→%d, primary %d→%d; want the primary to serve", r0, r, p0, p)
	}
	if err := pgtest.Superuser(ctx, e.standby, e.db, `SELECT pg_wal_replay_resume()`); err != nil {
		t.Fatal(err)
	}
	e.untilReplayed(t, second)

	// killed while in rotation: the read it fails is answered by the primary
	if err := e.standby.Kill(ctx); err != nil {
		t.Fatal(err)
	}
	r0, p0 = e.reads()
	if !e.verifyPage(t, second) {
		t.Fatalf("with the replica killed, %s is not shown valid", second)
	}
	v, err = e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: first})
	if err != nil || !v.GetFound() {
		t.Fatalf("VerifyCertificate(%s) with the replica killed = %v, %v", first, v, err)
	}
	// the page's one statement fails on the replica and is read again on
	// the primary; the RPC reads the primary
	if r, p := e.reads(); r != r0 || p != p0+2 {
		t.Fatalf("killed: reads replica %d→%d, primary %d→%d; want the primary to serve both", r0, r, p0, p)
	}
	e.router.Check(ctx)
	if st := e.router.Status()[0]; st.InRotation || !strings.Contains(st.Err, "does not answer") {
		t.Fatalf("killed replica after a check: %+v", st)
	}
	// every public page still works on the primary alone
	for _, path := range []string{"/", "/notices", "/players", "/agencies", "/tournaments", "/statistics"} {
		resp, err := http.Get(e.portal.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s with the replica down: %d", path, resp.StatusCode)
		}
	}
}
