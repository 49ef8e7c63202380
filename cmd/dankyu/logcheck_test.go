package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// TestLogCertificateOutsider: `dankyu log certificate`, with the portal's
// public endpoints and a kept key and checkpoint only, accepts a revoked
// certificate whose answer is its logged events, and fails (exit 1) on one
// whose row was changed behind the services' back (issue 31, finding 2).
func TestLogCertificateOutsider(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clock := fixture.TodayClock(t)
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	skey, vkey, err := note.GenerateKey(rand.Reader, "dankyu-test")
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ledger.NewTreeSigner(pool, skey, vkey)
	if err != nil {
		t.Fatal(err)
	}
	h, err := web.New(ctx, store, reg, cs, ts, nil, web.Options{Log: signer.WithPublicActions(certs.PublicLogActions()...)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	fixture.Agencies(t, reg, "110")
	fixture.Stock(t, cs, "110", clock.Now().In(ledger.ChinaTime).Year(), 10, 0)
	issue := func(name string, n int) string {
		p := fixture.Player(t, reg, "110", name, "", "1985-03-0"+string(rune('0'+n)), n)
		a, err := cs.Apply(ctx, fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament",
			EventID: fixture.Earned(t, ts, "1d", p.ID)})
		if err != nil {
			t.Fatal(err)
		}
		if a, err = cs.Approve(ctx, fixture.Agency("110"), "", a.ID); err != nil {
			t.Fatal(err)
		}
		return a.CertificateNumber
	}
	dir := t.TempDir()
	keyFile, cpFile := filepath.Join(dir, "log.vkey"), filepath.Join(dir, "cp.txt")
	cp, err := signer.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, []byte(vkey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cpFile, cp, 0o600); err != nil {
		t.Fatal(err)
	}
	good, bad := issue("清白", 1), issue("被改", 2)
	if _, err := cs.Revoke(ctx, fixture.Staff, "", good, "成绩作假"); err != nil {
		t.Fatal(err)
	}
	check := func(number string) (int, string) {
		var out, errb bytes.Buffer
		code := run(ctx, []string{"log", "certificate", "--server", srv.URL, "--key", keyFile, "--checkpoint", cpFile, number}, &out, &errb,
			func(string) string { return "" })
		return code, out.String() + errb.String()
	}
	if code, out := check(good); code != 0 || !strings.Contains(out, "certificate.revoked") || !strings.Contains(out, "agrees with 2 logged events") {
		t.Fatalf("a revoked certificate as logged: exit %d\n%s", code, out)
	}
	if _, err := pool.Exec(ctx, `UPDATE certificates SET rank = 5 WHERE number = $1`, bad); err != nil {
		t.Fatal(err)
	}
	if code, out := check(bad); code != 1 || !strings.Contains(out, "UNDER REVIEW") || !strings.Contains(out, "the log says: 1d") {
		t.Fatalf("a changed row: exit %d\n%s", code, out)
	}
	// a checkpoint of another log (another key) is refused
	_, other, _ := note.GenerateKey(rand.Reader, "other")
	if err := os.WriteFile(filepath.Join(dir, "other.vkey"), []byte(other), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(ctx, []string{"log", "certificate", "--server", srv.URL, "--key", filepath.Join(dir, "other.vkey"), good}, &out, &errb,
		func(string) string { return "" }); code != 1 {
		t.Fatalf("with another log's key: exit %d\n%s%s", code, out.String(), errb.String())
	}
}
