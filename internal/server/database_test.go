package server_test

import (
	"context"
	"flag"
	"io"
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
			db, err := server.OpenDatabase(ctx, server.DatabaseSource{URL: url}, true, slog.New(slog.DiscardHandler))
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
		{"migration url with the database url", func(c *server.Config) { c.DatabaseURL, c.MigrationURL = "postgres://s", "postgres://o" }, true},
		{"migration url without a database url", func(c *server.Config) { c.MigrationURL = "postgres://o" }, false},
		{"printed kyu", func(c *server.Config) { c.PrintedKyu = "1, 5k, 30" }, true},
		{"no printed kyu", func(c *server.Config) { c.PrintedKyu = "" }, true},
		{"printed kyu out of range", func(c *server.Config) { c.PrintedKyu = "1,31" }, false},
		{"printed kyu not a number", func(c *server.Config) { c.PrintedKyu = "one" }, false},
		{"no notice period", func(c *server.Config) { c.NoticePeriod = 0 }, false},
		{"no sweep interval", func(c *server.Config) { c.SweepInterval = -time.Second }, false},
	}
	for _, tt := range tests {
		var c server.Config
		if err := c.BindFlags(flag.NewFlagSet("test", flag.ContinueOnError), func(string) string { return "" }); err != nil {
			t.Fatal(err)
		}
		tt.edit(&c)
		if err := c.Validate(); (err == nil) != tt.ok {
			t.Errorf("%s: Validate() = %v", tt.name, err)
		}
	}
}

func TestHTTPTimeouts(t *testing.T) {
	tests := []struct {
		name              string
		env               map[string]string
		read, write, idle time.Duration
		header            time.Duration
		ok                bool
	}{
		{"defaults", nil, 30 * time.Second, 60 * time.Second, 120 * time.Second, 10 * time.Second, true},
		{"from the environment", map[string]string{"DANKYU_HTTP_READ_TIMEOUT": "5s", "DANKYU_HTTP_WRITE_TIMEOUT": "7s",
			"DANKYU_HTTP_IDLE_TIMEOUT": "1m"}, 5 * time.Second, 7 * time.Second, time.Minute, 5 * time.Second, true},
		{"from flags", nil, 4 * time.Second, 60 * time.Second, 120 * time.Second, 4 * time.Second, true},
		{"unreadable is refused", map[string]string{"DANKYU_HTTP_WRITE_TIMEOUT": "soon"}, 0, 0, 0, 0, false},
		{"zero is refused", map[string]string{"DANKYU_HTTP_READ_TIMEOUT": "0s"}, 0, 0, 0, 0, false},
		{"negative is refused", map[string]string{"DANKYU_HTTP_IDLE_TIMEOUT": "-1s"}, 0, 0, 0, 0, false},
	}
	for _, tt := range tests {
		var args []string
		if tt.name == "from flags" {
			args = []string{"--http-read-timeout", "4s"}
		}
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		c, err := server.ParseConfig(fs, args, func(k string) string { return tt.env[k] })
		if (err == nil) != tt.ok {
			t.Errorf("%s: ParseConfig() = %v", tt.name, err)
		}
		if err != nil {
			continue
		}
		s := c.HTTPServer(nil)
		if s.ReadTimeout != tt.read || s.WriteTimeout != tt.write || s.IdleTimeout != tt.idle || s.ReadHeaderTimeout != tt.header {
			t.Errorf("%s: server timeouts read %s write %s idle %s header %s, want %s %s %s %s", tt.name,
				s.ReadTimeout, s.WriteTimeout, s.IdleTimeout, s.ReadHeaderTimeout, tt.read, tt.write, tt.idle, tt.header)
		}
	}
}
