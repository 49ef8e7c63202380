package main_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/mod/sumdb/tlog"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/daemontest"
	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/internal/server"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// witnessInterval is the drill's check interval; slack is what two shared
// cores may add to it before a check has run (the server checks at its
// interval; the test polls with a deadline, never sleeps as an assertion).
const (
	witnessInterval = 500 * time.Millisecond
	witnessSlack    = 10 * time.Second
)

// provinces give the drill's agencies their prefixes.
var provinces = []string{"11", "12", "13", "14", "15", "21", "22", "23", "31", "32", "33", "34", "35", "36", "37", "41", "42", "43", "44", "45", "46"}

// drillOutsider is anyone with the log's verifier key and a checkpoint
// they kept, using the public endpoints only.
type drillOutsider struct {
	t    *testing.T
	base string
	vkey string
}

func (o drillOutsider) checkpoint() ledger.Checkpoint {
	o.t.Helper()
	code, body := daemontest.HTTPGet(o.t, o.base+"/log/checkpoint")
	if code != 200 {
		o.t.Fatalf("/log/checkpoint: %d %s", code, body)
	}
	c, err := ledger.OpenSignedCheckpoint([]byte(body), o.vkey)
	if err != nil {
		o.t.Fatalf("%v\n%s", err, body)
	}
	return c
}

// consistent checks, by the public endpoints, that the tree of newer
// extends that of kept.
func (o drillOutsider) consistent(kept, newer tlog.Tree) error {
	code, body := daemontest.HTTPGet(o.t, fmt.Sprintf("%s/log/consistency?old=%d&new=%d", o.base, kept.N, newer.N))
	if code != 200 {
		return fmt.Errorf("/log/consistency: %d %s", code, strings.TrimSpace(body))
	}
	var proof tlog.TreeProof
	for _, line := range strings.Fields(body) {
		b, err := base64.StdEncoding.DecodeString(line)
		if err != nil || len(b) != tlog.HashSize {
			return fmt.Errorf("bad proof line %q", line)
		}
		proof = append(proof, tlog.Hash(b))
	}
	return tlog.CheckTree(proof, newer.N, newer.Hash, kept.N, kept.Hash)
}

// verdict is the outsider's whole check from a kept checkpoint: every
// checkpoint published after it (the history) opens with the key and is
// consistent with it, and the server signs a current one that is. nil:
// the log extends what they kept.
func (o drillOutsider) verdict(kept ledger.Checkpoint) error {
	code, body := daemontest.HTTPGet(o.t, o.base+"/log/checkpoints")
	if code != 200 {
		return fmt.Errorf("/log/checkpoints: %d", code)
	}
	var page struct {
		Checkpoints []ledger.KeptCheckpoint `json:"checkpoints"`
	}
	if err := json.Unmarshal([]byte(body), &page); err != nil {
		return err
	}
	for _, k := range page.Checkpoints {
		c, err := ledger.OpenSignedCheckpoint([]byte(k.Note), o.vkey)
		if err != nil {
			return fmt.Errorf("history %d: %w", k.ID, err)
		}
		if c.Tree.N <= kept.Tree.N {
			continue
		}
		if err := o.consistent(kept.Tree, c.Tree); err != nil {
			return fmt.Errorf("history %d (%d events) does not extend the kept checkpoint: %w", k.ID, c.Tree.N, err)
		}
	}
	code, body = daemontest.HTTPGet(o.t, o.base+"/log/checkpoint")
	if code != 200 {
		return fmt.Errorf("/log/checkpoint: %d %s", code, strings.TrimSpace(body))
	}
	c, err := ledger.OpenSignedCheckpoint([]byte(body), o.vkey)
	if err != nil {
		return err
	}
	if c.Tree.N < kept.Tree.N {
		return fmt.Errorf("the log shrank to %d events", c.Tree.N)
	}
	if c.Tree.N > kept.Tree.N {
		return o.consistent(kept.Tree, c.Tree)
	}
	if c.Tree.Hash != kept.Tree.Hash {
		return fmt.Errorf("a fork: another tree of %d events", c.Tree.N)
	}
	return nil
}

func reasonCode(err error) string {
	for _, d := range status.Convert(err).Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info.GetReason()
		}
	}
	return ""
}

// TestTamperingDrill: as the database's superuser and as the server's own
// role, each way of changing the log behind the server's back, and a
// replaced key file, is found by the server itself within one check
// interval (health NOT_SERVING, an error logged, writes and signing
// refused with LOG_INTEGRITY) and by an outsider with a checkpoint kept
// before and the public endpoints alone. Each case starts from the intact
// log, restored and the server restarted.
func TestTamperingDrill(t *testing.T) {
	if _, err := pgcluster.FindBinaries(); err != nil {
		t.Fatal(err)
	}
	bin, cli := build(t)
	dataDir, err := os.MkdirTemp("", "dkw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = mustCluster(t, dataDir).Stop(context.Background(), true, true)
		os.RemoveAll(dataDir)
	})
	t.Setenv("DANKYU_LOG_CHECK_INTERVAL", witnessInterval.String())
	ctx := context.Background()
	keyFile := filepath.Join(dataDir, "log.key")

	srv := start(t, bin, dataDir) // the first start on an empty log makes the key
	staff, err := runCLI(t, cli, dataDir, "token", "create", "--staff", "li")
	if err != nil {
		t.Fatalf("token create: %v\n%s", err, staff)
	}
	staff = strings.Fields(staff)[0]
	key, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	_, vkey := daemontest.HTTPGet(t, "http://"+srv.HTTP+"/log/key")
	vkey = strings.TrimSpace(vkey)
	db := daemontest.Superuser(t, dataDir)
	srvRole, err := pgx.Connect(ctx, mustCluster(t, dataDir).ConnStringAs(server.EmbeddedDatabase, server.EmbeddedServerRole))
	if err != nil {
		t.Fatal(err)
	}
	defer srvRole.Close(ctx)

	// a 1-dan certificate, for the cases that change its row behind the log
	number := drillCertificate(t, cli, dataDir, srv.GRPC, staff)
	var certRank int
	var certStatus string
	if err := db.QueryRow(ctx, `SELECT rank, status FROM certificates WHERE number = $1`, number).Scan(&certRank, &certStatus); err != nil {
		t.Fatal(err)
	}
	restoreCert := func() {
		daemontest.AsSuperuser(t, db, `UPDATE certificates SET rank = $2, status = $3 WHERE number = $1`, number, certRank, certStatus)
	}

	// snapshot and restore of the log and its tree, as the superuser
	saveLog := func() ([]ledger.Event, map[int64][]byte) {
		t.Helper()
		rows, err := db.Query(ctx, `SELECT id, at, actor, action, entity_type, entity_id, payload::text, prev_hash, hash FROM events ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		es, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Event, error) {
			var e ledger.Event
			var payload string
			err := r.Scan(&e.ID, &e.At, &e.Actor, &e.Action, &e.EntityType, &e.EntityID, &payload, &e.PrevHash, &e.Hash)
			e.Payload = []byte(payload)
			return e, err
		})
		if err != nil {
			t.Fatal(err)
		}
		tree := map[int64][]byte{}
		rows, err = db.Query(ctx, `SELECT idx, hash FROM event_tree`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var x int64
			var h []byte
			if err := rows.Scan(&x, &h); err != nil {
				t.Fatal(err)
			}
			tree[x] = h
		}
		rows.Close()
		return es, tree
	}
	putLog := func(es []ledger.Event, tree map[int64][]byte) {
		t.Helper()
		err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica; TRUNCATE events, event_tree`); err != nil {
				return err
			}
			for _, e := range es {
				if _, err := tx.Exec(ctx, `INSERT INTO events (id, at, actor, action, entity_type, entity_id, payload, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
					e.ID, e.At, e.Actor, e.Action, e.EntityType, e.EntityID, string(e.Payload), e.PrevHash, e.Hash); err != nil {
					return err
				}
			}
			for x, h := range tree {
				if _, err := tx.Exec(ctx, `INSERT INTO event_tree (idx, hash) VALUES ($1, $2)`, x, h); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// recomputed is the log with one middle payload rewritten, its chain
	// and tree recomputed: the forger's best without the key
	recomputed := func(es []ledger.Event) ([]ledger.Event, map[int64][]byte) {
		out := make([]ledger.Event, len(es))
		tree := map[int64][]byte{}
		mem := map[int64]tlog.Hash{}
		r := tlog.HashReaderFunc(func(idx []int64) ([]tlog.Hash, error) {
			hs := make([]tlog.Hash, len(idx))
			for i, x := range idx {
				hs[i] = mem[x]
			}
			return hs, nil
		})
		prev := []byte{}
		for i, e := range es {
			if i == len(es)/2 {
				e.Payload = []byte(`{"forged": true}`)
			}
			e.PrevHash = prev
			e.Hash = ledger.ChainHash(prev, e)
			prev = e.Hash
			out[i] = e
			hs, err := tlog.StoredHashes(int64(i), e.Hash, r)
			if err != nil {
				t.Fatal(err)
			}
			for j, h := range hs {
				x := tlog.StoredHashIndex(0, int64(i)) + int64(j)
				mem[x] = h
				tree[x] = h[:]
			}
		}
		return out, tree
	}
	asSuper := func(sql string, args ...any) {
		t.Helper()
		daemontest.AsSuperuser(t, db, sql, args...)
	}

	for i, tt := range []struct {
		name   string
		tamper func(es []ledger.Event)
		// independent: the outsider's consistency check from the kept
		// checkpoint fails by itself, not only the server's refusal to sign
		independent bool
		// certificate: the case changes the certificate's row, which the
		// outsider's verification answers as under review
		certificate bool
	}{
		{"superuser deletes the newest events, tree kept", func(es []ledger.Event) {
			asSuper(`DELETE FROM events WHERE id > $1`, len(es)-2)
		}, false, false},
		{"superuser deletes the newest events and their tree", func(es []ledger.Event) {
			asSuper(`DELETE FROM events WHERE id > $1`, len(es)-2)
			asSuper(`DELETE FROM event_tree WHERE idx >= $1`, tlog.StoredHashIndex(0, int64(len(es)-2)))
		}, true, false},
		{"superuser rewrites a middle payload, chain and tree recomputed", func(es []ledger.Event) {
			putLog(recomputed(es))
		}, true, false},
		{"the key file replaced", func([]ledger.Event) {
			if _, _, err := server.CreateLogKey(keyFile+".other", "dankyu.events/registry"); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(keyFile+".other", keyFile); err != nil {
				t.Fatal(err)
			}
		}, false, false},
		{"the server's role appends a row whose tree hash its record does not give", func(es []ledger.Event) {
			// what the role may not do, it cannot
			if _, err := srvRole.Exec(ctx, `DELETE FROM events WHERE id = $1`, len(es)); err == nil {
				t.Fatal("the server's role deleted an event")
			}
			if _, err := srvRole.Exec(ctx, `UPDATE event_tree SET hash = hash WHERE idx = 0`); err == nil {
				t.Fatal("the server's role updated the tree")
			}
			// what it may: INSERT a chained row with a tree hash of its own
			e := es[len(es)-1]
			e.ID, e.PrevHash, e.Payload = e.ID+1, e.Hash, []byte(`{"forged": true}`)
			e.Hash = ledger.ChainHash(e.PrevHash, e)
			if _, err := srvRole.Exec(ctx, `INSERT INTO events (id, at, actor, action, entity_type, entity_id, payload, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
				e.ID, e.At, e.Actor, e.Action, e.EntityType, e.EntityID, string(e.Payload), e.PrevHash, e.Hash); err != nil {
				t.Fatal(err)
			}
			var wrong tlog.Hash
			if _, err := srvRole.Exec(ctx, `INSERT INTO event_tree (idx, hash) VALUES ($1, $2)`, tlog.StoredHashIndex(0, e.ID-1), wrong[:]); err != nil {
				t.Fatal(err)
			}
		}, false, false},
		{"the server's role changes a certificate's rank", func([]ledger.Event) {
			if _, err := srvRole.Exec(ctx, `UPDATE certificates SET rank = 5 WHERE number = $1`, number); err != nil {
				t.Fatal(err)
			}
		}, false, true},
		{"superuser changes a certificate's status", func([]ledger.Event) {
			asSuper(`UPDATE certificates SET status = 'revoked' WHERE number = $1`, number)
		}, false, true},
	} {
		var (
			saved     []ledger.Event
			savedTree map[int64][]byte
		)
		t.Run(tt.name, func(t *testing.T) {
			conn, err := grpc.NewClient(srv.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			health := healthpb.NewHealthClient(conn)
			if h, err := health.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil || h.GetStatus() != healthpb.HealthCheckResponse_SERVING {
				t.Fatalf("health before: %v %v\n%s", h, err, srv.Log)
			}
			o := drillOutsider{t: t, base: "http://" + srv.HTTP, vkey: vkey}
			kept := o.checkpoint() // what the outsider keeps
			// the log grows past it, and the server publishes that
			client := pb.NewRegistryServiceClient(conn)
			for j := range 3 {
				if _, err := client.CreateAgency(bearer(staff), &pb.CreateAgencyRequest{Prefix: provinces[3*i+j] + "0", Name: "棋院", Contact: "1"}); err != nil {
					t.Fatal(err)
				}
			}
			if grown := o.checkpoint(); grown.Tree.N <= kept.Tree.N {
				t.Fatalf("the tree did not grow: %d then %d", kept.Tree.N, grown.Tree.N)
			}
			if err := o.verdict(kept); err != nil {
				t.Fatalf("the outsider's check of the intact log: %v", err)
			}
			es, tree := saveLog()

			tt.tamper(es)
			tampered := time.Now()
			deadline := tampered.Add(witnessInterval + witnessSlack)
			for {
				h, err := health.Check(ctx, &healthpb.HealthCheckRequest{})
				if err == nil && h.GetStatus() == healthpb.HealthCheckResponse_NOT_SERVING && strings.Contains(srv.Log.String(), "EVENT LOG INTEGRITY CHECK FAILED") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("not found within %v (health %v %v)\n%s", witnessInterval, h, err, srv.Log)
				}
				time.Sleep(50 * time.Millisecond)
			}
			t.Logf("found %v after the tampering", time.Since(tampered).Round(time.Millisecond))
			if !strings.Contains(srv.Log.String(), "level=ERROR") {
				t.Fatalf("the finding is not logged as an error:\n%s", srv.Log)
			}
			h, err := health.Check(ctx, &healthpb.HealthCheckRequest{Service: server.LogHealthService})
			if err != nil || h.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
				t.Fatalf("health of %s: %v %v", server.LogHealthService, h, err)
			}
			_, err = client.CreateAgency(bearer(staff), &pb.CreateAgencyRequest{Prefix: "650", Name: "棋院", Contact: "1"})
			if status.Code(err) != codes.FailedPrecondition || reasonCode(err) != "LOG_INTEGRITY" {
				t.Fatalf("a write after the finding: %v", err)
			}
			if code, body := daemontest.HTTPGet(t, o.base+"/healthz"); code != 503 || !strings.Contains(strings.ToLower(body), "log_integrity") {
				t.Fatalf("/healthz: %d %s", code, body)
			}
			if code, body := daemontest.HTTPGet(t, o.base+"/log/checkpoint"); code != 503 || !strings.Contains(body, "LOG_INTEGRITY") {
				t.Fatalf("/log/checkpoint: %d %s", code, body)
			}
			// the outsider: the kept checkpoint is no longer extended
			if err := o.verdict(kept); err == nil {
				t.Fatal("the outsider's check passes on the tampered log")
			}
			if tt.certificate {
				// the outsider verifying the number sees it under review,
				// never the changed row as valid
				code, body := daemontest.HTTPGet(t, o.base+"/verify/proof?number="+number)
				var ans struct {
					ReasonCode string `json:"reason_code"`
				}
				if err := json.Unmarshal([]byte(body), &ans); err != nil || code != 200 || ans.ReasonCode != "CERTIFICATE_UNDER_REVIEW" {
					t.Fatalf("/verify/proof of the changed certificate: %d %s", code, body)
				}
			}
			if tt.independent {
				// from the history alone, without the server's word
				if err := o.verdictFromHistory(kept); err == nil {
					t.Fatal("the history's checkpoints are still consistent with the tampered tree")
				} else {
					t.Logf("outsider: %v", err)
				}
			}

			saved, savedTree = es, tree
		})
		// the intact log and key restored, the server restarted (by the
		// test, whose cleanup stops it)
		if saved == nil {
			t.FailNow()
		}
		putLog(saved, savedTree)
		restoreCert()
		if err := os.WriteFile(keyFile, key, 0o600); err != nil {
			t.Fatal(err)
		}
		srv.Kill(t)
		srv = start(t, bin, dataDir)
	}

	// a start with another key is refused, coded; the restored key starts
	if err := os.Rename(keyFile, keyFile+".kept"); err != nil {
		t.Fatal(err)
	}
	_ = srv.Stop(syscall.SIGTERM)
	out, err := runServerOnce(bin, dataDir)
	if err == nil || !strings.Contains(out, "is missing while the log has events") {
		t.Fatalf("a start without the key: %v\n%s", err, out)
	}
	if _, err := os.Stat(keyFile); !os.IsNotExist(err) {
		t.Fatalf("a refused start made a key: %v", err)
	}
}

// verdictFromHistory is the outsider's check of every published
// checkpoint after the kept one against the tree the server now proves.
func (o drillOutsider) verdictFromHistory(kept ledger.Checkpoint) error {
	code, body := daemontest.HTTPGet(o.t, o.base+"/log/checkpoints")
	if code != 200 {
		return fmt.Errorf("/log/checkpoints: %d", code)
	}
	var page struct {
		Checkpoints []ledger.KeptCheckpoint `json:"checkpoints"`
	}
	if err := json.Unmarshal([]byte(body), &page); err != nil {
		return err
	}
	for _, k := range page.Checkpoints {
		c, err := ledger.OpenSignedCheckpoint([]byte(k.Note), o.vkey)
		if err != nil {
			return err
		}
		if c.Tree.N > kept.Tree.N {
			if err := o.consistent(kept.Tree, c.Tree); err != nil {
				return fmt.Errorf("published checkpoint of %d events: %w", c.Tree.N, err)
			}
		}
	}
	return nil
}

// runServerOnce runs the server expecting it to stop by itself (a refused
// start), and returns what it printed.
func runServerOnce(bin, dataDir string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--grpc-addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0", "--metrics-listen", "off")
	cmd.Env = append(os.Environ(), "DANKYU_DATA_DIR="+dataDir, "DANKYU_DATABASE_URL=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// drillCertificate issues a 1-dan certificate through the API (agency 640,
// its stock granted, a player who earned the rank at an event) and returns
// its number.
func drillCertificate(t *testing.T, cli, dataDir, grpcAddr, staff string) string {
	t.Helper()
	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := pb.NewRegistryServiceClient(conn)
	if _, err := client.CreateAgency(bearer(staff), &pb.CreateAgencyRequest{Prefix: "640", Name: "宁夏棋院", Contact: "1"}); err != nil {
		t.Fatal(err)
	}
	agency, err := runCLI(t, cli, dataDir, "token", "create", "--agency", "640")
	if err != nil {
		t.Fatalf("token create --agency: %v\n%s", err, agency)
	}
	agency = strings.Fields(agency)[0]
	reg, err := client.RegisterPlayer(bearer(agency), &pb.RegisterPlayerRequest{Player: &pb.PlayerInput{
		Name: "马小龙", Gender: pb.Gender_GENDER_MALE, BirthDate: "1980-01-01", IdentityKind: pb.IdentityKind_IDENTITY_KIND_RESIDENT_ID,
		IdentityNumber: "640104198001011235", ProvinceCode: "64"}})
	if err != nil {
		t.Fatal(err)
	}
	certClient := pb.NewCertificateServiceClient(conn)
	// the server runs on the machine's clock: stock for this year and the
	// next, should the test run across New Year in Beijing
	year := int32(time.Now().In(ledger.ChinaTime).Year())
	for _, y := range []int32{year, year + 1} {
		if _, err := pb.NewAuditServiceClient(conn).Bootstrap(bearer(staff), &pb.BootstrapRequest{AgencyPrefix: "640", StockYear: y, Note: "首年"}); err != nil {
			t.Fatal(err)
		}
		if _, err := certClient.PlaceOrder(bearer(staff), &pb.PlaceOrderRequest{AgencyPrefix: "640", Year: y, DanCount: 5}); err != nil {
			t.Fatal(err)
		}
		if _, err := certClient.DecideOrder(bearer(staff), &pb.DecideOrderRequest{AgencyPrefix: "640", Year: y, Grant: true}); err != nil {
			t.Fatal(err)
		}
	}
	earned, err := daemontest.EarnedOverGRPC(bearer(agency), conn, reg.GetPlayer().GetId(), "1d")
	if err != nil {
		t.Fatal(err)
	}
	app, err := certClient.SubmitApplication(bearer(agency), &pb.SubmitApplicationRequest{PlayerId: reg.GetPlayer().GetId(),
		TargetRank: "1d", Basis: pb.Basis_BASIS_TOURNAMENT, EventId: earned})
	if err != nil {
		t.Fatal(err)
	}
	ok, err := certClient.ApproveApplication(bearer(agency), &pb.ApproveApplicationRequest{Id: app.GetApplication().GetId()})
	if err != nil {
		t.Fatal(err)
	}
	number := ok.GetApplication().GetCertificateNumber()
	if number == "" {
		t.Fatalf("no certificate issued: %v", ok)
	}
	return number
}
