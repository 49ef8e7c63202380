// Package pgtest gives tests a real PostgreSQL: one throwaway cluster per
// test binary, migrated once into a template database, and a fresh database
// cloned from that template for each test.
package pgtest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/migrations"
)

const templateDB = "dankyu_template"

// Harness is one throwaway cluster, started when a test first asks for a
// database: a test binary that needs none (a fuzz worker, which runs
// TestMain too) never starts one.
type Harness struct {
	once    sync.Once
	err     error
	cluster *pgcluster.Cluster
	dir     string
	seq     atomic.Int64
}

// Start creates the cluster and the migrated template database now.
func Start(ctx context.Context) (*Harness, error) {
	h := &Harness{}
	h.once.Do(func() { h.err = h.start(ctx) })
	return h, h.err
}

func (h *Harness) start(ctx context.Context) error {
	// Under /tmp (world-searchable), not t.TempDir(): the postgres user must reach it.
	dir, err := os.MkdirTemp("", "dkpg")
	if err != nil {
		return err
	}
	c, err := pgcluster.New(dir, pgcluster.Options{Throwaway: true})
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	h.cluster, h.dir = c, dir
	if err := c.Start(ctx); err != nil {
		h.Close()
		return err
	}
	if err := c.EnsureDatabase(ctx, templateDB); err != nil {
		h.Close()
		return err
	}
	pool, err := pgxpool.New(ctx, c.ConnString(templateDB))
	if err != nil {
		h.Close()
		return err
	}
	db := stdlib.OpenDBFromPool(pool)
	_, err = migrations.Up(ctx, db)
	db.Close()
	pool.Close()
	if err != nil {
		h.Close()
		return err
	}
	return nil
}

// started starts the cluster on first use, failing t if it cannot.
func (h *Harness) started(t testing.TB) {
	t.Helper()
	h.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		h.err = h.start(ctx)
	})
	if h.err != nil {
		t.Fatalf("pgtest: %v", h.err)
	}
}

// Main runs a package's tests with a harness; call it from TestMain and
// keep the harness it hands over.
func Main(m *testing.M, keep func(*Harness)) {
	h := &Harness{}
	keep(h)
	code := m.Run()
	h.Close()
	os.Exit(code)
}

// Close stops the cluster, if it was started, and removes its folder.
func (h *Harness) Close() {
	if h.cluster != nil {
		_ = h.cluster.Stop(context.Background(), true, true)
	}
	if h.dir != "" {
		os.RemoveAll(h.dir)
	}
}

// ConnString is the connection string of database name in this cluster,
// once a test has started it (NewDB).
func (h *Harness) ConnString(name string) string { return h.cluster.ConnString(name) }

// NewDB creates a database cloned from the migrated template, dropped when the test ends.
func (h *Harness) NewDB(t testing.TB) (*pgxpool.Pool, string) {
	return h.newDB(t, templateDB)
}

// NewEmptyDB creates a database with no schema at all, for migration tests.
func (h *Harness) NewEmptyDB(t testing.TB) (*pgxpool.Pool, string) {
	return h.newDB(t, "template0")
}

func (h *Harness) newDB(t testing.TB, template string) (*pgxpool.Pool, string) {
	t.Helper()
	h.started(t)
	ctx := context.Background()
	name := fmt.Sprintf("t%d_%d", os.Getpid(), h.seq.Add(1))
	admin, err := pgx.Connect(ctx, h.cluster.ConnString("postgres"))
	if err != nil {
		t.Fatalf("connect to test cluster: %v", err)
	}
	defer admin.Close(ctx)
	// CREATE DATABASE must run alone, outside a multi-statement Exec.
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE "+template); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	pool, err := pgxpool.New(ctx, h.cluster.ConnString(name))
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	t.Cleanup(func() {
		pool.Close()
		c, err := pgx.Connect(ctx, h.cluster.ConnString("postgres"))
		if err != nil {
			t.Errorf("drop test database: %v", err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop test database: %v", err)
		}
	})
	return pool, h.cluster.ConnString(name)
}

// Standby starts a streaming standby of the harness's cluster (every test
// database replicates to it), stopped and removed when the test ends.
func (h *Harness) Standby(t testing.TB) *pgcluster.Cluster {
	t.Helper()
	h.started(t)
	dir, err := os.MkdirTemp("", "dkstandby")
	if err != nil {
		t.Fatal(err)
	}
	c, err := pgcluster.NewStandby(dir, h.cluster, pgcluster.Options{Throwaway: true})
	if err != nil {
		os.RemoveAll(dir)
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		os.RemoveAll(dir)
		t.Fatalf("start standby: %v", err)
	}
	t.Cleanup(func() {
		_ = c.Stop(context.Background(), true, true)
		os.RemoveAll(dir)
	})
	return c
}

// Superuser runs sql on database name as the cluster's superuser (for
// tests that pause a standby's replay, say).
func Superuser(ctx context.Context, c *pgcluster.Cluster, name, sql string) error {
	conn, err := pgx.Connect(ctx, c.ConnString(name))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}
