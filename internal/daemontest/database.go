package daemontest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/internal/pgcluster"
)

// Superuser connects to the embedded database of dir as the cluster's
// superuser (past the server's role), starting the cluster if need be; the
// connection closes when the test ends.
func Superuser(t testing.TB, dir string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	c, err := pgcluster.New(dir, pgcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	db, err := pgx.Connect(ctx, c.ConnString("dankyu"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close(context.Background()) })
	return db
}

// AsSuperuser runs sql with triggers off (the append-only guards a
// superuser can lift), as tampering drills do.
func AsSuperuser(t testing.TB, db *pgx.Conn, sql string, args ...any) {
	t.Helper()
	ctx := context.Background()
	if _, err := db.Exec(ctx, `SET session_replication_role = replica`); err != nil {
		t.Fatal(err)
	}
	defer db.Exec(ctx, `SET session_replication_role = DEFAULT`)
	if _, err := db.Exec(ctx, sql, args...); err != nil {
		t.Fatal(err)
	}
}

// Column reads the one text column of every row query returns, as an
// outsider checking what a database holds would.
func Column(t testing.TB, db *pgx.Conn, query string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(context.Background(), query, args...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return out
}
