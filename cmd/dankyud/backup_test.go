package main_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dankyu/dankyu/internal/daemontest"
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
	conn, err := grpc.NewClient(srv.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	load := daemontest.CertifyUnderLoad(t, cli, daemontest.Embedded(dataDir), conn, 8, false)
	load.WaitAcked(t, 40, false)
	cp, err := runCLI(t, cli, dataDir, "log", "checkpoint")
	if err != nil {
		t.Fatalf("log checkpoint: %v\n%s", err, cp)
	}
	cpFile := filepath.Join(t.TempDir(), "checkpoint")
	if err := os.WriteFile(cpFile, []byte(cp+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := load.Acked() // acknowledged before the backup began
	backup := filepath.Join(t.TempDir(), "dankyu.dump")
	if out, err := runCLI(t, cli, dataDir, "backup", "--out", backup); err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	after := len(load.Acked())
	load.Halt()
	if load.Errors() > 0 {
		t.Fatalf("a client's request failed: %v", load.FirstError())
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
	numbers := daemontest.Column(t, daemontest.Superuser(t, freshDir), allNumbers)
	if lost := daemontest.Missing(before, numbers); len(lost) > 0 {
		t.Errorf("acknowledged before the backup but not in the restore: %v", lost)
	}
	daemontest.AssertGapless(t, numbers)
	if len(numbers) < len(before) || len(before) < 40 {
		t.Fatalf("restore holds %d certificates, %d acknowledged before the backup", len(numbers), len(before))
	}
	t.Logf("%d certificates acknowledged before the backup, %d in the restore, %d by the end", len(before), len(numbers), after)
}
