// Package pgtest gives tests a real PostgreSQL: one throwaway cluster per
// test binary, migrated once into a template database, and a fresh database
// cloned from that template for each test.
package pgtest

import (
	"context"
	"fmt"
	"os"
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

// Harness is one running throwaway cluster.
type Harness struct {
	cluster *pgcluster.Cluster
	dir     string
	seq     atomic.Int64
}

// Start creates the cluster and the migrated template database.
func Start(ctx context.Context) (*Harness, error) {
	// Under /tmp (world-searchable), not t.TempDir(): the postgres user must reach it.
	dir, err := os.MkdirTemp("", "dkpg")
	if err != nil {
		return nil, err
	}
	c, err := pgcluster.New(dir, pgcluster.Options{Throwaway: true})
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	h := &Harness{cluster: c, dir: dir}
	if err := c.Start(ctx); err != nil {
		h.Close()
		return nil, err
	}
	if err := c.EnsureDatabase(ctx, templateDB); err != nil {
		h.Close()
		return nil, err
	}
	pool, err := pgxpool.New(ctx, c.ConnString(templateDB))
	if err != nil {
		h.Close()
		return nil, err
	}
	db := stdlib.OpenDBFromPool(pool)
	_, err = migrations.Up(ctx, db)
	db.Close()
	pool.Close()
	if err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// Main runs a package's tests inside a harness; call it from TestMain and
// keep the harness it hands over.
func Main(m *testing.M, keep func(*Harness)) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	h, err := Start(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
		os.Exit(1)
	}
	keep(h)
	code := m.Run()
	h.Close()
	os.Exit(code)
}

// Close stops the cluster and removes its folder.
func (h *Harness) Close() {
	_ = h.cluster.Stop(context.Background(), true, true)
	os.RemoveAll(h.dir)
}

// ConnString is the connection string of database name in this cluster.
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
