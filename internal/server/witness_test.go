package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/server"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// lockedBuffer is a log the witness writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// witnessEnv is a database, its store and the key folder of one test.
type witnessEnv struct {
	pool  *pgxpool.Pool
	store *ledger.Store
	clock *fixture.Clock
	dir   string
	logs  *lockedBuffer
	log   *slog.Logger
}

func newWitnessEnv(t *testing.T) *witnessEnv {
	t.Helper()
	pool, _ := harness.NewDB(t)
	clock := fixture.TodayClock(t)
	logs := &lockedBuffer{}
	return &witnessEnv{pool: pool, store: ledger.New(pool, clock.Now, nil), clock: clock, dir: t.TempDir(), logs: logs,
		log: slog.New(slog.NewTextHandler(logs, nil))}
}

func (e *witnessEnv) settings(rotate bool) server.LogSettings {
	key := filepath.Join(e.dir, "log.key")
	return server.LogSettings{KeyPath: key, HeadPath: server.LogHeadPath("", key), Origin: "dankyu.events/test", Rotate: rotate,
		Interval: time.Hour, Refresh: time.Hour}
}

func (e *witnessEnv) open(t *testing.T, rotate bool) (*server.Witness, error) {
	t.Helper()
	return server.OpenWitness(context.Background(), e.store, e.settings(rotate), e.log)
}

func (e *witnessEnv) agency(t *testing.T, prefix string) {
	t.Helper()
	_, err := registry.New(e.store).CreateAgency(context.Background(), ledger.Actor{Kind: ledger.StaffActor, Name: "li"}, "",
		registry.AgencyInput{Prefix: prefix, Name: "棋院" + prefix, Contact: "1"})
	if err != nil {
		t.Fatal(err)
	}
}

func domainReason(err error) string {
	if e, ok := ledger.AsError(err); ok {
		return e.Reason.Code()
	}
	return ""
}

// TestLogKeyNeverReplacedSilently: the first start on an empty log makes
// the key (0600) and keeps the head beside it (0600); later starts read
// both; a missing or another key is refused, coded, unless rotated, and a
// rotation is an event of the log, co-signed by the old key when it was
// left at log.key.old.
func TestLogKeyNeverReplacedSilently(t *testing.T) {
	e := newWitnessEnv(t)
	s := e.settings(false)
	w, err := e.open(t, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{s.KeyPath, s.HeadPath} {
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v", f, fi, err)
		}
	}
	first := w.VerifierKey()
	e.agency(t, "110")
	if w, err = e.open(t, false); err != nil || w.VerifierKey() != first {
		t.Fatalf("second start: %v, another key %v", err, w.VerifierKey() != first)
	}

	// the key deleted (as the database's system user can)
	if err := os.Remove(s.KeyPath); err != nil {
		t.Fatal(err)
	}
	if _, err := e.open(t, false); domainReason(err) != "LOG_KEY_MISSING" {
		t.Fatalf("start without the key: %v", err)
	}
	if _, err := os.Stat(s.KeyPath); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a refused start made a key")
	}
	// another key put in its place
	if _, _, err := server.CreateLogKey(s.KeyPath, "dankyu.events/test"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.open(t, false); domainReason(err) != "LOG_KEY_CHANGED" {
		t.Fatalf("start with another key: %v", err)
	}
	// the operator accepts it: a rotation, logged, signed by the new key only
	w, err = e.open(t, true)
	if err != nil {
		t.Fatal(err)
	}
	rot := rotations(t, e)
	if len(rot) != 1 || rot[0].OldKey != first || rot[0].NewKey != w.VerifierKey() || rot[0].OldKeySigns || rot[0].Why != "changed" {
		t.Fatalf("rotation events %+v", rot)
	}
	second := w.VerifierKey()

	// a planned rotation: the old key moved aside co-signs the hand-over
	if err := os.Rename(s.KeyPath, s.KeyPath+".old"); err != nil {
		t.Fatal(err)
	}
	w, err = e.open(t, true)
	if err != nil {
		t.Fatal(err)
	}
	rot = rotations(t, e)
	if len(rot) != 2 || rot[1].OldKey != second || !rot[1].OldKeySigns || rot[1].Why != "planned" {
		t.Fatalf("planned rotation %+v", rot)
	}
	last := w.Notary().Last()
	for _, k := range []string{second, w.VerifierKey()} {
		if c, err := ledger.OpenSignedCheckpoint(last.Note, k); err != nil || c.Origin != "dankyu.events/test" {
			t.Fatalf("the rotation's checkpoint with %s: %+v %v", k, c, err)
		}
	}
	// and the server goes on without the setting
	if _, err := e.open(t, false); err != nil {
		t.Fatalf("start after the rotation: %v", err)
	}
}

func rotations(t *testing.T, e *witnessEnv) []ledger.LogKeyRotatedPayload {
	t.Helper()
	events, err := ledger.EventsFor(context.Background(), e.pool, "log", "key")
	if err != nil {
		t.Fatal(err)
	}
	var out []ledger.LogKeyRotatedPayload
	for _, ev := range events {
		var p ledger.LogKeyRotatedPayload
		if ev.Action != p.Action() {
			t.Fatalf("event %s of the log's key", ev.Action)
		}
		if err := jsonUnmarshal(ev.Payload, &p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// healthRecorder is the gRPC health server as the witness moves it.
type healthRecorder struct {
	mu     sync.Mutex
	status map[string]healthpb.HealthCheckResponse_ServingStatus
}

func (h *healthRecorder) SetServingStatus(service string, s healthpb.HealthCheckResponse_ServingStatus) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.status == nil {
		h.status = map[string]healthpb.HealthCheckResponse_ServingStatus{}
	}
	h.status[service] = s
}

func (h *healthRecorder) get(service string) healthpb.HealthCheckResponse_ServingStatus {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.status[service]
}

// TestWitnessTrips: rows deleted behind the server's back are found by the
// next check: signing stops, writes are refused with LOG_INTEGRITY, health
// stays NOT_SERVING whatever the database supervisor says, /healthz and
// form posts answer 503 with the code, and the finding is logged as an
// error. An extra check's tampering trips it too.
func TestWitnessTrips(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		tamper func(t *testing.T, e *witnessEnv, w *server.Witness)
		want   string
	}{
		{"newest events deleted", func(t *testing.T, e *witnessEnv, _ *server.Witness) {
			err := pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, `DELETE FROM events WHERE id > 1`)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}, "deleted"},
		{"key file replaced", func(t *testing.T, e *witnessEnv, _ *server.Witness) {
			s := e.settings(false)
			if err := os.Remove(s.KeyPath); err != nil {
				t.Fatal(err)
			}
			if _, _, err := server.CreateLogKey(s.KeyPath, "dankyu.events/test"); err != nil {
				t.Fatal(err)
			}
		}, "replaced"},
		{"an extra check finds tampering", func(t *testing.T, _ *witnessEnv, w *server.Witness) {
			w.AddCheck(server.IntegrityCheckFunc(func(context.Context) error {
				return &ledger.Tampering{What: "certificate 1 disagrees with its events"}
			}))
		}, "certificate 1 disagrees"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newWitnessEnv(t)
			w, err := e.open(t, false)
			if err != nil {
				t.Fatal(err)
			}
			e.agency(t, "110")
			e.agency(t, "310")
			if err := w.Check(ctx); err != nil || w.Tripped() {
				t.Fatalf("an honest log: %v %s", err, w.Finding())
			}
			hs := &healthRecorder{}
			health := w.Health(hs)
			health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
			w.AddCheck(server.IntegrityCheckFunc(func(context.Context) error { return errors.New("database busy") })) // not a finding
			if err := w.Check(ctx); err == nil || w.Tripped() {
				t.Fatalf("a check that could not run: %v, tripped %v", err, w.Tripped())
			}
			portal := w.Guard(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) { _, _ = rw.Write([]byte("ok\n")) }))
			serve := func(method, path string) *httptest.ResponseRecorder {
				rec := httptest.NewRecorder()
				portal.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
				return rec
			}
			if rec := serve("GET", "/healthz"); rec.Code != 200 {
				t.Fatalf("/healthz before: %d", rec.Code)
			}

			tt.tamper(t, e, w)
			_ = w.Check(ctx)
			if !w.Tripped() || !strings.Contains(w.Finding(), tt.want) {
				t.Fatalf("not tripped (finding %q, want %q)\n%s", w.Finding(), tt.want, e.logs)
			}
			if !strings.Contains(e.logs.String(), "level=ERROR msg=\"EVENT LOG INTEGRITY CHECK FAILED") || !strings.Contains(e.logs.String(), "LOG_INTEGRITY") {
				t.Fatalf("no error logged:\n%s", e.logs)
			}
			if _, err := w.Notary().Signer(e.pool, true).Checkpoint(ctx); domainReason(err) != "LOG_INTEGRITY" {
				t.Fatalf("a checkpoint signed after the finding: %v", err)
			}
			if err := registryWrite(e); domainReason(err) != "LOG_INTEGRITY" {
				t.Fatalf("a write after the finding: %v", err)
			}
			health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING) // the database supervisor's next tick
			if hs.get("") != healthpb.HealthCheckResponse_NOT_SERVING || hs.get(server.LogHealthService) != healthpb.HealthCheckResponse_NOT_SERVING {
				t.Fatalf("health %v / %v", hs.get(""), hs.get(server.LogHealthService))
			}
			for _, r := range []struct {
				method, path string
				code         int
			}{{"GET", "/healthz", 503}, {"POST", "/players/new", 503}, {"GET", "/verify", 200}, {"POST", "/verify/batch", 200}} {
				rec := serve(r.method, r.path)
				if rec.Code != r.code || (r.code == 503 && !strings.Contains(rec.Body.String(), "LOG_INTEGRITY")) {
					t.Errorf("%s %s: %d %s", r.method, r.path, rec.Code, rec.Body)
				}
			}
		})
	}
}

func registryWrite(e *witnessEnv) error {
	_, err := registry.New(e.store).CreateAgency(context.Background(), ledger.Actor{Kind: ledger.StaffActor, Name: "li"}, "",
		registry.AgencyInput{Prefix: "440", Name: "广东", Contact: "1"})
	return err
}

// TestWitnessStartsTripped: a start whose database no longer holds the
// kept head comes up tripped rather than signing the log it found.
func TestWitnessStartsTripped(t *testing.T) {
	e := newWitnessEnv(t)
	if _, err := e.open(t, false); err != nil {
		t.Fatal(err)
	}
	e.agency(t, "110")
	e.agency(t, "310")
	w, err := e.open(t, false) // publishes the head of both agencies
	if err != nil {
		t.Fatal(err)
	}
	if w.Tripped() {
		t.Fatal(w.Finding())
	}
	ctx := context.Background()
	err = pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM events WHERE id > 1; DELETE FROM event_tree WHERE idx > 0`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	w, err = e.open(t, false)
	if err != nil || !w.Tripped() || !strings.Contains(w.Finding(), "deleted") {
		t.Fatalf("start on a shortened log: %v, finding %q", err, w.Finding())
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
