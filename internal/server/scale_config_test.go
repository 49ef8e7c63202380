package server_test

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/internal/server"
)

// TestScaleFlags: the replica and metrics settings from flags and the
// environment, and the combinations refused.
func TestScaleFlags(t *testing.T) {
	for _, tt := range []struct {
		name    string
		env     map[string]string
		args    []string
		wantErr string
		check   func(server.ScaleConfig) bool
	}{
		{"defaults", nil, nil, "", func(c server.ScaleConfig) bool {
			return c.Replicas == 0 && len(c.ReplicaURLs) == 0 && c.MetricsListen == "127.0.0.1:9464"
		}},
		{"embedded replicas", nil, []string{"--replicas", "2"}, "", func(c server.ScaleConfig) bool { return c.Replicas == 2 }},
		{"urls from env", map[string]string{"DANKYU_DATABASE_URL": "host=/p", "DANKYU_REPLICA_URL": "host=/a, host=/b"},
			nil, "", func(c server.ScaleConfig) bool {
				return strings.Join(c.ReplicaURLs, ";") == "host=/a;host=/b"
			}},
		{"urls from flags replace env", map[string]string{"DANKYU_DATABASE_URL": "host=/p", "DANKYU_REPLICA_URL": "host=/a, host=/b"},
			[]string{"--replica-url", "host=/c"}, "", func(c server.ScaleConfig) bool {
				return strings.Join(c.ReplicaURLs, ";") == "host=/c"
			}},
		{"metrics off", nil, []string{"--metrics-listen", "off"}, "", func(c server.ScaleConfig) bool { return c.MetricsListen == "" }},
		{"replicas with an outside database", map[string]string{"DANKYU_DATABASE_URL": "host=/p"}, []string{"--replicas", "1"}, "--replica-url instead", nil},
		{"replica url without an outside database", nil, []string{"--replica-url", "host=/a"}, "use --replicas", nil},
		{"bad metrics address", nil, []string{"--metrics-listen", "9464"}, "-metrics-listen", nil},
		{"too many replicas", nil, []string{"--replicas", "99"}, "0 to 16", nil},
		{"too many replicas from the environment", map[string]string{"DANKYU_REPLICAS": "99"}, nil, `DANKYU_REPLICAS="99": want 0 to 16`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			cfg, err := server.ParseConfig(fs, tt.args, func(k string) string { return tt.env[k] })
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseConfig() = %v, want %q", err, tt.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case !tt.check(cfg.Scale):
				t.Fatalf("settings %+v", cfg.Scale)
			}
		})
	}
}

// TestOpenReplicaURLs connects to a --replica-url standby as given.
func TestOpenReplicaURLs(t *testing.T) {
	ctx := context.Background()
	pool, conn := harness.NewDB(t)
	cfg, err := pgxpool.ParseConfig(conn)
	if err != nil {
		t.Fatal(err)
	}
	standby := harness.Standby(t)
	db := &server.Database{Pool: pool}
	reps, err := db.OpenReplicas(ctx, server.ScaleConfig{ReplicaURLs: []string{standby.ConnString(cfg.ConnConfig.Database)}}, t.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer reps.Close(ctx)
	if len(reps.DBs) != 1 || reps.DBs[0].Name != "replica1" {
		t.Fatalf("replicas %+v", reps.DBs)
	}
	var recovering bool
	if err := reps.DBs[0].Pool.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&recovering); err != nil || !recovering {
		t.Fatalf("the replica's pool: in recovery %v, %v", recovering, err)
	}
	if _, err := db.OpenReplicas(ctx, server.ScaleConfig{Replicas: 1}, t.TempDir(), slog.New(slog.DiscardHandler)); err == nil {
		t.Fatal("--replicas on an outside database was accepted")
	}
}
