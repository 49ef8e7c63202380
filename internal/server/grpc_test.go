package server_test

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/internal/server"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

// env is one test's server over a real loopback gRPC connection.
type env struct {
	au      *audit.Service
	audits  pb.AuditServiceClient
	clock   *fixture.Clock
	cs      *certs.Service
	certs   pb.CertificateServiceClient
	notices pb.NoticeServiceClient
	reg     *registry.Service
	store   *ledger.Store
	ts      *tournaments.Service
	client  pb.RegistryServiceClient
	conn    *grpc.ClientConn
	gs      *grpc.Server // for the HTTP/JSON API over the same server
	staff   string
	bj      string // token of the Beijing agency
}

func newEnv(t *testing.T) *env { t.Helper(); return newEnvConfig(t, server.Config{}) }

// newEnvConfig is newEnv with the rate limits and trusted proxies of cfg.
func newEnvConfig(t testing.TB, cfg server.Config) *env {
	t.Helper()
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clock := fixture.NewClock(time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)) // 16:00 in Beijing
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// wired as the server wires it: the audit gates every grant
	au, err := audit.New(store, reg, audit.Config{})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithGrantGate(au), certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	lim, err := cfg.Limiters(clock.Now, log)
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	gs, hs := server.NewGRPCServer(store, reg, cs, ts, au, book.New(store), log, lim.API(), server.WithWebhooks(cfg.WebhookOptions()...))
	hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	system := ledger.Actor{Kind: ledger.SystemActor, Name: "test"}
	staff, _, err := reg.CreateToken(ctx, system, ledger.StaffActor, "", "li")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{au: au, audits: pb.NewAuditServiceClient(conn), reg: reg, store: store, ts: ts, client: pb.NewRegistryServiceClient(conn), conn: conn, gs: gs, staff: staff, clock: clock, cs: cs,
		certs: pb.NewCertificateServiceClient(conn), notices: pb.NewNoticeServiceClient(conn)}
	for _, p := range []string{"110", "310"} {
		_, err := e.client.CreateAgency(e.as(staff), &pb.CreateAgencyRequest{Prefix: p, Name: "Agency " + p, Contact: "go@example.org"})
		if err != nil {
			t.Fatalf("create agency %s: %v", p, err)
		}
	}
	e.bj, _, err = reg.CreateToken(ctx, system, ledger.AgencyActor, "110", "")
	if err != nil {
		t.Fatal(err)
	}
	// the registry's first year: staff's logged decision lets their stock through
	for _, y := range []int{2026, 2027} {
		fixture.Bootstrap(t, au, y, "110", "310")
	}
	return e
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func (e *env) as(token string, kv ...string) context.Context {
	md := metadata.Pairs(kv...)
	if token != "" {
		md.Append("authorization", "Bearer "+token)
	}
	return metadata.NewOutgoingContext(context.Background(), md)
}

func wang() *pb.PlayerInput {
	return &pb.PlayerInput{Name: "王小明", Gender: pb.Gender_GENDER_MALE, BirthDate: "1949-12-31",
		IdentityKind: pb.IdentityKind_IDENTITY_KIND_RESIDENT_ID, IdentityNumber: "11010519491231002X", ProvinceCode: "11", Rank: "3d"}
}

func TestHealthServing(t *testing.T) {
	e := newEnv(t)
	resp, err := healthpb.NewHealthClient(e.conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health = %v, %v", resp, err)
	}
}

func TestPlayerRolesAndMasking(t *testing.T) {
	e := newEnv(t)
	created, err := e.client.RegisterPlayer(e.as(e.bj), &pb.RegisterPlayerRequest{Player: wang()})
	if err != nil {
		t.Fatalf("agency in its own province: %v", err)
	}
	if created.GetPlayer().GetIdentityNumber() != "11010519491231002X" {
		t.Fatalf("own agency sees %q", created.GetPlayer().GetIdentityNumber())
	}
	pub, err := e.client.GetPlayer(context.Background(), &pb.GetPlayerRequest{Id: created.GetPlayer().GetId()})
	if err != nil {
		t.Fatal(err)
	}
	if got := pub.GetPlayer().GetIdentityNumber(); strings.Contains(got, "19491231") || !strings.Contains(got, "*") {
		t.Fatalf("public sees identity %q", got)
	}
	if pub.GetPlayer().GetBirthDate() != "" || pub.GetPlayer().GetBirthYear() != 1949 {
		t.Fatalf("public sees birth date %q / year %d", pub.GetPlayer().GetBirthDate(), pub.GetPlayer().GetBirthYear())
	}

	other := wang()
	other.ProvinceCode = "31"
	_, err = e.client.RegisterPlayer(e.as(e.bj), &pb.RegisterPlayerRequest{Player: other})
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("another province: %v, want PermissionDenied", err)
	}

	bad := wang()
	bad.IdentityNumber = "110105194912310021"
	_, err = e.client.RegisterPlayer(e.as(e.bj), &pb.RegisterPlayerRequest{Player: bad})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "check digit") ||
		!strings.Contains(status.Convert(err).Message(), "identity_number") {
		t.Fatalf("wrong check digit: %v, want InvalidArgument naming identity_number and the check digit", err)
	}

	_, err = e.client.RegisterPlayer(e.as(e.bj), &pb.RegisterPlayerRequest{Player: wang()})
	if status.Code(err) != codes.AlreadyExists {
		t.Fatalf("same ID twice: %v, want AlreadyExists", err)
	}
	_, err = e.client.RegisterPlayer(context.Background(), &pb.RegisterPlayerRequest{Player: wang()})
	if status.Code(err) != codes.Unauthenticated {
		t.Fatalf("public mutation: %v, want Unauthenticated", err)
	}
	_, err = e.client.RegisterPlayer(e.as("dk_forged"), &pb.RegisterPlayerRequest{Player: wang()})
	if status.Code(err) != codes.Unauthenticated {
		t.Fatalf("unknown token: %v, want Unauthenticated", err)
	}
	_, err = e.client.GetPlayer(context.Background(), &pb.GetPlayerRequest{Id: 9999})
	if status.Code(err) != codes.NotFound {
		t.Fatalf("unknown player: %v, want NotFound", err)
	}
	_, err = e.client.GetPlayer(context.Background(), &pb.GetPlayerRequest{})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "id") {
		t.Fatalf("player id 0: %v, want InvalidArgument naming id", err)
	}
	_, err = e.client.CreateAgency(e.as(e.staff), &pb.CreateAgencyRequest{Prefix: "110", Name: "again"})
	if status.Code(err) != codes.AlreadyExists {
		t.Fatalf("second agency for a province: %v, want AlreadyExists", err)
	}
	_, err = e.client.CreateAgency(e.as(e.staff), &pb.CreateAgencyRequest{Prefix: "999", Name: "x"})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "prefix") {
		t.Fatalf("unknown prefix: %v, want InvalidArgument naming prefix", err)
	}
	_, err = e.client.CreateAgency(e.as(e.bj), &pb.CreateAgencyRequest{Prefix: "440", Name: "x"})
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("agency creating an agency: %v, want PermissionDenied", err)
	}
}

func TestIdempotencyKeyOverGRPC(t *testing.T) {
	e := newEnv(t)
	ctx := e.as(e.bj, "idempotency-key", "reg-wang-1")
	first, err := e.client.RegisterPlayer(ctx, &pb.RegisterPlayerRequest{Player: wang()})
	if err != nil {
		t.Fatal(err)
	}
	second, err := e.client.RegisterPlayer(ctx, &pb.RegisterPlayerRequest{Player: wang()})
	if err != nil {
		t.Fatalf("repeat with the same key: %v", err)
	}
	if second.GetPlayer().GetId() != first.GetPlayer().GetId() {
		t.Fatalf("repeat answered player %d, first %d", second.GetPlayer().GetId(), first.GetPlayer().GetId())
	}
	list, err := e.client.SearchPlayers(context.Background(), &pb.SearchPlayersRequest{})
	if err != nil || list.GetTotal() != 1 {
		t.Fatalf("players after repeat: %d, %v", list.GetTotal(), err)
	}
	other := wang()
	other.Rank = "2d"
	_, err = e.client.RegisterPlayer(ctx, &pb.RegisterPlayerRequest{Player: other})
	if status.Code(err) != codes.Aborted {
		t.Fatalf("same key, other request: %v, want Aborted", err)
	}
}

func TestUpdatePlayerAndSearch(t *testing.T) {
	e := newEnv(t)
	created, err := e.client.RegisterPlayer(e.as(e.bj), &pb.RegisterPlayerRequest{Player: wang()})
	if err != nil {
		t.Fatal(err)
	}
	in := wang()
	in.Rank = "5d"
	_, err = e.client.UpdatePlayer(e.as(e.bj), &pb.UpdatePlayerRequest{Id: created.GetPlayer().GetId(), Player: in})
	if status.Code(err) != codes.FailedPrecondition || reasonOf(err) != "DECLARED_RANK_TOO_HIGH" {
		t.Fatalf("declaring 5d: %v, want FailedPrecondition DECLARED_RANK_TOO_HIGH", err)
	}
	in.Rank = "2d"
	up, err := e.client.UpdatePlayer(e.as(e.bj), &pb.UpdatePlayerRequest{Id: created.GetPlayer().GetId(), Player: in})
	if err != nil || up.GetPlayer().GetDeclaredRank() != "2d" || up.GetPlayer().GetRank() != "" {
		t.Fatalf("update: %v, %v; want declared 2d, no certified rank", up, err)
	}
	in.ProvinceCode = "31"
	_, err = e.client.UpdatePlayer(e.as(e.bj), &pb.UpdatePlayerRequest{Id: created.GetPlayer().GetId(), Player: in})
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("moving a player out of the province: %v, want PermissionDenied", err)
	}
	found, err := e.client.SearchPlayers(context.Background(), &pb.SearchPlayersRequest{Name: "小明", ProvinceCode: "11"})
	if err != nil || len(found.GetPlayers()) != 1 {
		t.Fatalf("search: %v, %v", found, err)
	}
	if found, err := e.client.SearchPlayers(context.Background(), &pb.SearchPlayersRequest{Rank: "2d"}); err != nil || len(found.GetPlayers()) != 0 {
		t.Fatalf("searching the declared 2d as a rank: %v, %v; want none", found, err)
	}
	_, err = e.client.SearchPlayers(context.Background(), &pb.SearchPlayersRequest{Rank: "12d"})
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("bad rank: %v, want InvalidArgument", err)
	}
	events, err := ledger.EventsFor(context.Background(), e.store.DB(), "player", "1")
	if err != nil || len(events) != 2 || events[1].Actor != "agency:110" || events[1].Action != "player.updated" {
		t.Fatalf("events: %+v, %v", events, err)
	}
	if strings.Contains(string(events[0].Payload), "11010519491231002X") {
		t.Fatalf("event log holds the full identity number: %s", events[0].Payload)
	}
}

// newEnvB is newEnv for a benchmark.
func newEnvB(b *testing.B) *env { b.Helper(); return newEnvConfig(b, server.Config{}) }
