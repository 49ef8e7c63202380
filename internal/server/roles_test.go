package server_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/internal/server"
)

// assertLeastPrivilege checks that the server's pool connects as a role
// that owns nothing and can neither rewrite the event log nor switch its
// triggers off.
func assertLeastPrivilege(t *testing.T, pool *pgxpool.Pool, wantUser string) {
	t.Helper()
	ctx := context.Background()
	var user string
	var super bool
	var owned int
	if err := pool.QueryRow(ctx, `SELECT current_user, r.rolsuper,
		(SELECT count(*) FROM pg_class c WHERE c.relowner = r.oid) + (SELECT count(*) FROM pg_namespace n WHERE n.nspowner = r.oid)
		FROM pg_roles r WHERE r.rolname = current_user`).Scan(&user, &super, &owned); err != nil {
		t.Fatal(err)
	}
	if user != wantUser || super || owned != 0 {
		t.Fatalf("server connects as %s (superuser %v, owns %d objects), want %s, no superuser, owning nothing", user, super, owned, wantUser)
	}
	refused := []string{
		`UPDATE events SET action = action`,
		`DELETE FROM events`,
		`TRUNCATE events`,
		`DELETE FROM event_tree`,
		`SET session_replication_role = replica`,
		`ALTER TABLE events DISABLE TRIGGER ALL`,
		`DROP TABLE events`,
		`DELETE FROM goose_db_version`,
		`CREATE TABLE sneaky (x int)`,
	}
	for _, stmt := range refused {
		_, err := pool.Exec(ctx, stmt)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || (pgErr.Code != "42501" && !strings.Contains(pgErr.Message, "must be owner")) {
			t.Errorf("%s as the server's role: got %v, want permission denied", stmt, err)
		}
	}
	var can bool
	if err := pool.QueryRow(ctx, `SELECT has_table_privilege('events', 'INSERT') AND has_table_privilege('events', 'SELECT')
		AND has_table_privilege('players', 'UPDATE') AND has_table_privilege('certificates', 'INSERT')`).Scan(&can); err != nil || !can {
		t.Fatalf("server role lacks the rights it needs (%v, %v)", can, err)
	}
}

// TestEmbeddedServerRoleOwnsNothing starts the embedded default: the
// migrations run as dankyu_owner, the server connects as dankyu_server.
// Then it restarts twice: once after the superuser made a table behind the
// server's back (roles not settled: the start hands it to the owner), and
// once more with everything settled (the start checks and migrates on the
// owner's one connection); each start keeps the same least privilege.
func TestEmbeddedServerRoleOwnsNothing(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	for i, step := range []string{"first start", "restart, a stray table", "restart, settled"} {
		db, err := server.OpenDatabase(ctx, server.DatabaseSource{DataDir: dir}, true, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		assertLeastPrivilege(t, db.Pool, server.EmbeddedServerRole)
		for _, table := range []string{"events", "restart_stray"} {
			if i == 0 && table == "restart_stray" {
				continue
			}
			var owner string
			if err := db.Pool.QueryRow(ctx, `SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = $1`, table).Scan(&owner); err != nil || owner != server.EmbeddedOwnerRole {
				t.Errorf("%s: %s owned by %q (%v), want %s", step, table, owner, err, server.EmbeddedOwnerRole)
			}
		}
		if i == 0 {
			c, err := pgcluster.New(dir, pgcluster.Options{})
			if err != nil {
				t.Fatal(err)
			}
			conn, err := pgx.Connect(ctx, c.ConnString(server.EmbeddedDatabase))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(ctx, `CREATE TABLE restart_stray (x int)`); err != nil {
				t.Fatal(err)
			}
			conn.Close(ctx)
		}
		if err := db.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOutsideDatabaseWithMigrationURL migrates an outside database as its
// owner and runs the server as a plain role it was given.
func TestOutsideDatabaseWithMigrationURL(t *testing.T) {
	ctx := context.Background()
	_, ownerURL := harness.NewEmptyDB(t)
	role := fmt.Sprintf("dankyu_app_%d", time.Now().UnixNano()) // roles are cluster-wide
	admin, err := pgx.Connect(ctx, harness.ConnString("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE ROLE "+role+" LOGIN"); err != nil {
		t.Fatal(err)
	}
	serverURL := strings.Replace(ownerURL, "user=postgres", "user="+role, 1)
	if serverURL == ownerURL {
		t.Fatalf("cannot set the user in %q", ownerURL)
	}
	db, err := server.OpenDatabase(ctx, server.DatabaseSource{URL: serverURL, MigrationURL: ownerURL}, true, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	assertLeastPrivilege(t, db.Pool, role)
}
