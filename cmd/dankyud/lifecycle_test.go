package main_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/internal/daemontest"
	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// binaries are the server and the CLI, built for the first test that asks.
var binaries daemontest.Binaries

func TestMain(m *testing.M) {
	code := m.Run()
	binaries.Remove()
	os.Exit(code)
}

// build returns the built server and CLI.
func build(t *testing.T) (server, cli string) { return binaries.Get(t) }

// embedded is the environment of the embedded cluster in dataDir, with a
// short notice period and sweep so a notice ends within the test.
func embedded(dataDir string) []string {
	return append(daemontest.Embedded(dataDir), "DANKYU_NOTICE_PERIOD=3s", "DANKYU_SWEEP_INTERVAL=200ms")
}

// start runs the server on free ports with dataDir and waits until it serves.
func start(t *testing.T, bin, dataDir string) *daemontest.Server {
	t.Helper()
	return daemontest.Start(t, bin, embedded(dataDir))
}

// startWith is start with more flags.
func startWith(t *testing.T, bin, dataDir string, flags ...string) *daemontest.Server {
	t.Helper()
	return daemontest.Start(t, bin, embedded(dataDir), flags...)
}

func runCLI(t *testing.T, cli, dataDir string, args ...string) (string, error) {
	t.Helper()
	return daemontest.RunCLI(t, cli, daemontest.Embedded(dataDir), args...)
}

func bearer(tok string) context.Context {
	return daemontest.Bearer(context.Background(), tok)
}

// TestKillNineKeepsEveryRow is the embedded default end to end: first start,
// a token from the CLI, a player over gRPC, kill -9, restart, the player is
// still there; then a hand-tampered event row is named by `dankyu log verify`.
func TestKillNineKeepsEveryRow(t *testing.T) {
	if _, err := pgcluster.FindBinaries(); err != nil {
		t.Fatal(err)
	}
	server, cli := build(t)
	dataDir, err := os.MkdirTemp("", "dkd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Whatever failed above, leave no PostgreSQL running behind.
		_ = mustCluster(t, dataDir).Stop(context.Background(), true, true)
		os.RemoveAll(dataDir)
	})

	srv := start(t, server, dataDir)
	staff, err := runCLI(t, cli, dataDir, "token", "create", "--staff", "li")
	if err != nil {
		t.Fatalf("token create --staff: %v\n%s", err, staff)
	}
	staff = strings.Fields(staff)[0]
	conn, err := grpc.NewClient(srv.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	client := pb.NewRegistryServiceClient(conn)
	if _, err := client.CreateAgency(bearer(staff), &pb.CreateAgencyRequest{Prefix: "110", Name: "北京棋院"}); err != nil {
		t.Fatal(err)
	}
	agency, err := runCLI(t, cli, dataDir, "token", "create", "--agency", "110")
	if err != nil {
		t.Fatalf("token create --agency: %v\n%s", err, agency)
	}
	reg, err := client.RegisterPlayer(bearer(strings.Fields(agency)[0]), &pb.RegisterPlayerRequest{Player: &pb.PlayerInput{
		Name: "王小明", Gender: pb.Gender_GENDER_MALE, BirthDate: "1949-12-31", IdentityKind: pb.IdentityKind_IDENTITY_KIND_RESIDENT_ID,
		IdentityNumber: "11010519491231002X", ProvinceCode: "11"}})
	if err != nil {
		t.Fatal(err)
	}
	// a 4 dan goes on a 3-second notice; the server is killed before it ends
	certClient := pb.NewCertificateServiceClient(conn)
	// The server runs on the machine's clock; stock for this year and the
	// next keeps the test whole should it run across New Year in Beijing.
	year := int32(time.Now().In(ledger.ChinaTime).Year())
	for _, y := range []int32{year, year + 1} {
		// the registry's first year: staff's logged decision opens the audit's gate
		if _, err := pb.NewAuditServiceClient(conn).Bootstrap(bearer(staff), &pb.BootstrapRequest{AgencyPrefix: "110", StockYear: y, Note: "首年"}); err != nil {
			t.Fatal(err)
		}
		if _, err := certClient.PlaceOrder(bearer(staff), &pb.PlaceOrderRequest{AgencyPrefix: "110", Year: y, DanCount: 5}); err != nil {
			t.Fatal(err)
		}
		if _, err := certClient.DecideOrder(bearer(staff), &pb.DecideOrderRequest{AgencyPrefix: "110", Year: y, Grant: true}); err != nil {
			t.Fatal(err)
		}
	}
	earned, err := daemontest.EarnedOverGRPC(bearer(strings.Fields(agency)[0]), conn, reg.GetPlayer().GetId(), "4d")
	if err != nil {
		t.Fatal(err)
	}
	app, err := certClient.SubmitApplication(bearer(strings.Fields(agency)[0]), &pb.SubmitApplicationRequest{PlayerId: reg.GetPlayer().GetId(),
		TargetRank: "4d", Basis: pb.Basis_BASIS_TOURNAMENT, EventId: earned})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := certClient.ApproveApplication(bearer(strings.Fields(agency)[0]), &pb.ApproveApplicationRequest{Id: app.GetApplication().GetId()}); err != nil {
		t.Fatal(err)
	}
	conn.Close()

	srv.Kill(t)

	srv = start(t, server, dataDir)
	conn, err = grpc.NewClient(srv.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	h, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil || h.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health after restart: %v, %v", h, err)
	}
	got, err := pb.NewRegistryServiceClient(conn).GetPlayer(context.Background(), &pb.GetPlayerRequest{Id: reg.GetPlayer().GetId()})
	if err != nil || got.GetPlayer().GetName() != "王小明" {
		t.Fatalf("player after kill -9: %v, %v", got, err)
	}
	// the restarted server's sweeper issues the certificate once the notice has ended
	numbers := []string{fmt.Sprintf("110%02d0001", year%100), fmt.Sprintf("110%02d0001", (year+1)%100)}
	issued := func(number string) bool {
		v, err := pb.NewCertificateServiceClient(conn).VerifyCertificate(context.Background(), &pb.VerifyCertificateRequest{Number: number})
		return err == nil && v.GetFound()
	}
	deadline := time.Now().Add(30 * time.Second)
	for !slices.ContainsFunc(numbers, issued) {
		if time.Now().After(deadline) {
			t.Fatalf("none of %v issued after the notice ended\n%s", numbers, srv.Log)
		}
		time.Sleep(200 * time.Millisecond)
	}
	resp, err := http.Get("http://" + srv.HTTP + "/players/1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "110*************2X") || strings.Contains(string(body), "11010519491231002X") {
		t.Fatalf("public page does not mask the ID:\n%s", body)
	}

	out, err := runCLI(t, cli, dataDir, "log", "verify")
	// 16 rows of the story and 7 of the event the 4-dan application rests on
	if err != nil || !strings.Contains(out, "23 rows verified") {
		t.Fatalf("log verify on an intact log: %v: %s", err, out)
	}
	// the server signs with the key it created beside the cluster, and a
	// checkpoint fetched from the portal verifies with the CLI
	resp, err = http.Get("http://" + srv.HTTP + "/log/checkpoint")
	if err != nil {
		t.Fatal(err)
	}
	cp, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	cpFile := filepath.Join(t.TempDir(), "checkpoint")
	if err := os.WriteFile(cpFile, cp, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = runCLI(t, cli, dataDir, "log", "verify", "--checkpoint", cpFile)
	if err != nil || !strings.Contains(out, "consistent with the checkpoint of 23 rows") {
		t.Fatalf("log verify --checkpoint of the server's checkpoint: %v: %s\n%s", err, out, cp)
	}
	c := mustCluster(t, dataDir)
	db, err := pgx.Connect(context.Background(), c.ConnString("dankyu"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(context.Background(), `SET session_replication_role = replica; UPDATE events SET actor = 'agency:310' WHERE id = 4`)
	db.Close(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out, err = runCLI(t, cli, dataDir, "log", "verify")
	if err == nil || !strings.Contains(out, "event 4") {
		t.Fatalf("log verify on a tampered log: %v: %s", err, out)
	}

	// SIGTERM stops the server and its PostgreSQL in order.
	if err := srv.Stop(syscall.SIGTERM); err != nil {
		t.Fatalf("graceful stop: %v\n%s", err, srv.Log)
	}
	if !strings.Contains(srv.Log.String(), "PostgreSQL stopped") {
		t.Fatalf("PostgreSQL not stopped on shutdown:\n%s", srv.Log)
	}
}

func mustCluster(t *testing.T, dir string) *pgcluster.Cluster {
	t.Helper()
	c, err := pgcluster.New(dir, pgcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
