package pgcluster

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// ConnStringAs is the connection string for database db as role user.
func (c *Cluster) ConnStringAs(db, user string) string {
	return fmt.Sprintf("host=%s port=5432 user=%s dbname=%s sslmode=disable", c.SocketDir, user, db)
}

// EnsureRoles makes owner the owner of database db and of everything in its
// public schema, and server a plain login role that owns nothing: no
// superuser, so it cannot set session_replication_role, and not an owner,
// so it cannot disable a trigger. A data folder made before the roles
// existed has its tables handed over to owner here.
func (c *Cluster) EnsureRoles(ctx context.Context, db, owner, server string) error {
	return ensureRoles(ctx, func(db string) string { return c.ConnString(db) }, db, owner, server)
}

// RolesSettled says, in one connection to db and one query, whether
// EnsureDatabase and EnsureRoles would change nothing: db exists, both
// roles exist, and owner owns db, its public schema and every relation and
// function in it. A restart then skips them (their three connections and
// their statements were a fifth of a restart's time). Any error is false.
func (c *Cluster) RolesSettled(ctx context.Context, db, owner, server string) bool {
	conn, err := pgx.Connect(ctx, c.ConnString(db))
	if err != nil {
		return false
	}
	defer conn.Close(ctx)
	return RolesSettledOn(ctx, conn, owner, server)
}

// Querier is what RolesSettledOn asks through: a connection or a pool.
type Querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// RolesSettledOn is RolesSettled's query on a connection of any role to the
// database (it reads only the catalogues): a restart asks it on the owner's
// connection, which then migrates, instead of opening the superuser's too.
func RolesSettledOn(ctx context.Context, q Querier, owner, server string) bool {
	var settled bool
	err := q.QueryRow(ctx, `SELECT (SELECT count(*) FROM pg_roles WHERE rolname IN ($1, $2)) = 2
		AND (SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()) = $1
		AND (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'public') = $1
		AND NOT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'p', 'f') AND pg_get_userbyid(c.relowner) <> $1)
		AND NOT EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
			WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> $1)`, owner, server).Scan(&settled)
	return err == nil && settled
}

// ensureRoles is EnsureRoles with the superuser's connection string of
// each database from connString.
func ensureRoles(ctx context.Context, connString func(db string) string, db, owner, server string) error {
	conn, err := pgx.Connect(ctx, connString("postgres"))
	if err != nil {
		return fmt.Errorf("connect to cluster: %w", err)
	}
	defer conn.Close(ctx)
	for _, role := range []string{owner, server} {
		var exists bool
		if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)`, role).Scan(&exists); err != nil {
			return fmt.Errorf("look up role %s: %w", role, err)
		}
		if !exists {
			if _, err := conn.Exec(ctx, "CREATE ROLE "+pgx.Identifier{role}.Sanitize()+
				" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS"); err != nil {
				return fmt.Errorf("create role %s: %w", role, err)
			}
		}
	}
	ownerID := pgx.Identifier{owner}.Sanitize()
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{db}.Sanitize()+" OWNER TO "+ownerID); err != nil {
		return fmt.Errorf("hand database %s to %s: %w", db, owner, err)
	}
	inDB, err := pgx.Connect(ctx, connString(db))
	if err != nil {
		return fmt.Errorf("connect to %s: %w", db, err)
	}
	defer inDB.Close(ctx)
	// the schema and every relation and function in it, whoever made them
	rows, err := inDB.Query(ctx, `SELECT 'TABLE public.' || quote_ident(c.relname) FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'p', 'f') AND pg_get_userbyid(c.relowner) <> $1
		UNION ALL
		SELECT 'ROUTINE ' || p.oid::regprocedure::text FROM pg_proc p
		JOIN pg_namespace n ON n.oid = p.pronamespace
		WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> $1`, owner)
	if err != nil {
		return fmt.Errorf("list %s's objects: %w", db, err)
	}
	objects, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("list %s's objects: %w", db, err)
	}
	for _, obj := range append([]string{"SCHEMA public"}, objects...) {
		if _, err := inDB.Exec(ctx, "ALTER "+obj+" OWNER TO "+ownerID); err != nil {
			return fmt.Errorf("hand %s to %s: %w", obj, owner, err)
		}
	}
	return nil
}
