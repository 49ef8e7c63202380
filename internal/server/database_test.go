package server_test

import (
	"context"
	"flag"
	"io/fs"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/server"
	"github.com/dankyu/dankyu/migrations"
)

// TestOpenDatabaseURLMigratesOnce opens an empty outside database from
// several "servers" at once: every one succeeds and the schema is applied once.
func TestOpenDatabaseURLMigratesOnce(t *testing.T) {
	pool, url := harness.NewEmptyDB(t)
	ctx := context.Background()
	const servers = 4
	var wg sync.WaitGroup
	errs := make([]error, servers)
	for i := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := server.OpenDatabase(ctx, url, "", true, slog.New(slog.DiscardHandler))
			if err == nil {
				err = db.Close(ctx)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("server %d: %v", i, err)
		}
	}
	var applied int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM goose_db_version WHERE version_id > 0`).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	files, err := fs.Glob(migrations.FS(), "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if applied != len(files) {
		t.Fatalf("migration rows %d, want %d (each migration applied once)", applied, len(files))
	}
	var tables int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM information_schema.tables WHERE table_name IN ('players', 'agencies', 'events', 'api_tokens')`).Scan(&tables); err != nil || tables != 4 {
		t.Fatalf("tables %d, %v", tables, err)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*server.Config)
		ok   bool
	}{
		{"defaults", func(*server.Config) {}, true},
		{"bad grpc address", func(c *server.Config) { c.GRPCAddr = "9090" }, false},
		{"bad log format", func(c *server.Config) { c.LogFormat = "xml" }, false},
		{"no data dir and no url", func(c *server.Config) { c.DataDir = "" }, false},
		{"url instead of data dir", func(c *server.Config) { c.DataDir, c.DatabaseURL = "", "postgres://x" }, true},
		{"printed kyu", func(c *server.Config) { c.PrintedKyu = "1, 5k, 30" }, true},
		{"no printed kyu", func(c *server.Config) { c.PrintedKyu = "" }, true},
		{"printed kyu out of range", func(c *server.Config) { c.PrintedKyu = "1,31" }, false},
		{"printed kyu not a number", func(c *server.Config) { c.PrintedKyu = "one" }, false},
		{"no notice period", func(c *server.Config) { c.NoticePeriod = 0 }, false},
		{"no sweep interval", func(c *server.Config) { c.SweepInterval = -time.Second }, false},
	}
	for _, tt := range tests {
		var c server.Config
		c.BindFlags(flag.NewFlagSet("test", flag.ContinueOnError), func(string) string { return "" })
		tt.edit(&c)
		if err := c.Validate(); (err == nil) != tt.ok {
			t.Errorf("%s: Validate() = %v", tt.name, err)
		}
	}
}
