package main_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestRestoreDrill backs up a serving registry under load, restores the
// backup into a fresh data folder, and finds there every certificate
// acknowledged before the backup began, with the event log verifying
// against the checkpoint saved before it.
func TestRestoreDrill(t *testing.T) {
	server, cli := build(t)
	var dirs []string
	t.Cleanup(func() {
		for _, d := range dirs {
			_ = mustCluster(t, d).Stop(context.Background(), true, true)
			os.RemoveAll(d)
		}
	})
	newDir := func() string {
		d, err := os.MkdirTemp("", "dkr")
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
		return d
	}
	dataDir, freshDir := newDir(), newDir()
	srv := start(t, server, dataDir)
	token := func(args ...string) string {
		out, err := runCLI(t, cli, dataDir, append([]string{"token", "create"}, args...)...)
		if err != nil {
			t.Fatalf("token create: %v\n%s", err, out)
		}
		return strings.Fields(out)[0]
	}
	staff := token("--staff", "li")
	conn, err := grpc.NewClient(srv.grpc, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	reg, certs := pb.NewRegistryServiceClient(conn), pb.NewCertificateServiceClient(conn)
	if _, err := reg.CreateAgency(bearer(staff), &pb.CreateAgencyRequest{Prefix: "110", Name: "北京棋院"}); err != nil {
		t.Fatal(err)
	}
	agency := token("--agency", "110")
	year := int32(time.Now().In(ledger.ChinaTime).Year()) // the server runs on the machine's clock
	for _, y := range []int32{year, year + 1} {
		if _, err := certs.PlaceOrder(bearer(staff), &pb.PlaceOrderRequest{AgencyPrefix: "110", Year: y, DanCount: 5000}); err != nil {
			t.Fatal(err)
		}
		if _, err := certs.DecideOrder(bearer(staff), &pb.DecideOrderRequest{AgencyPrefix: "110", Year: y, Grant: true}); err != nil {
			t.Fatal(err)
		}
	}

	// 8 clients register players and certify them 1 dan until told to stop
	var (
		mu    sync.Mutex
		acked []string // certificate numbers, in the order their answers came
		seq   atomic.Int64
		stop  = make(chan struct{})
		wg    sync.WaitGroup
		fails atomic.Int64
	)
	issueOne := func() error {
		n := int(seq.Add(1))
		p, err := reg.RegisterPlayer(bearer(agency), &pb.RegisterPlayerRequest{Player: &pb.PlayerInput{
			Name: fmt.Sprintf("棋手%d", n), Gender: pb.Gender_GENDER_MALE, BirthDate: "1980-03-04",
			IdentityKind: pb.IdentityKind_IDENTITY_KIND_RESIDENT_ID, IdentityNumber: fixture.ResidentID("110", "19800304", n), ProvinceCode: "11"}})
		if err != nil {
			return err
		}
		app, err := certs.SubmitApplication(bearer(agency), &pb.SubmitApplicationRequest{PlayerId: p.GetPlayer().GetId(),
			TargetRank: "1d", Basis: pb.Basis_BASIS_TOURNAMENT, EventRef: "北京市段位赛", RecordRef: "5/7"})
		if err != nil {
			return err
		}
		ok, err := certs.ApproveApplication(bearer(agency), &pb.ApproveApplicationRequest{Id: app.GetApplication().GetId()})
		if err != nil {
			return err
		}
		if ok.GetApplication().GetCertificateNumber() == "" {
			return fmt.Errorf("application %d approved without a certificate", app.GetApplication().GetId())
		}
		mu.Lock()
		acked = append(acked, ok.GetApplication().GetCertificateNumber())
		mu.Unlock()
		return nil
	}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := issueOne(); err != nil {
					if fails.Add(1) == 1 {
						t.Errorf("a client's request failed: %v", err)
					}
					return
				}
			}
		}()
	}
	ackedNow := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), acked...)
	}
	for len(ackedNow()) < 40 && fails.Load() == 0 {
		time.Sleep(20 * time.Millisecond)
	}
	cp, err := runCLI(t, cli, dataDir, "log", "checkpoint")
	if err != nil {
		t.Fatalf("log checkpoint: %v\n%s", err, cp)
	}
	cpFile := filepath.Join(t.TempDir(), "checkpoint")
	if err := os.WriteFile(cpFile, []byte(cp+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := ackedNow() // acknowledged before the backup began
	backup := filepath.Join(t.TempDir(), "dankyu.dump")
	if out, err := runCLI(t, cli, dataDir, "backup", "--out", backup); err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	after := len(ackedNow())
	close(stop)
	wg.Wait()
	if fails.Load() > 0 {
		t.FailNow()
	}
	if after <= len(before) {
		t.Logf("no certificate was acknowledged while the backup ran (%d before)", len(before))
	}

	if out, err := runCLI(t, cli, freshDir, "restore", "--in", backup); err != nil {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	// restoring twice would merge two registries: refused
	if out, err := runCLI(t, cli, freshDir, "restore", "--in", backup); err == nil || !strings.Contains(out, "already has tables") {
		t.Fatalf("second restore: %v: %s", err, out)
	}
	// the key stays with the original server (it is kept out of the database)
	out, err := runCLI(t, cli, freshDir, "log", "verify", "--checkpoint", cpFile, "--log-key", filepath.Join(dataDir, "log.key"))
	if err != nil {
		t.Fatalf("restored log against the checkpoint: %v: %s", err, out)
	}
	ctx := context.Background()
	restored := mustCluster(t, freshDir)
	if err := restored.Start(ctx); err != nil {
		t.Fatal(err)
	}
	db, err := pgx.Connect(ctx, restored.ConnString("dankyu"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	rows, err := db.Query(ctx, `SELECT number FROM certificates WHERE number IS NOT NULL`)
	if err != nil {
		t.Fatal(err)
	}
	numbers, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, n := range numbers {
		have[n] = true
	}
	for _, n := range before {
		if !have[n] {
			t.Errorf("certificate %s was acknowledged before the backup but is not in the restore", n)
		}
	}
	if len(numbers) < len(before) || len(before) < 40 {
		t.Fatalf("restore holds %d certificates, %d acknowledged before the backup", len(numbers), len(before))
	}
	t.Logf("%d certificates acknowledged before the backup, %d in the restore, %d by the end", len(before), len(numbers), after)
}
