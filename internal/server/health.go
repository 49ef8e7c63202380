package server

import (
	"net/http"
	"path/filepath"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/internal/health"
)

// HealthChecks are the server's own checks of its health: the database
// (the primary, answering and taking writes) and the free space of the
// folder it writes to. Other parts add theirs to the Checker (the event
// log's witness turns health NOT_SERVING when the log fails its check).
// free is the free-space function (health.Statfs; tests pass a full disk).
func (c *Config) HealthChecks(pool *pgxpool.Pool, free func(dir string) (uint64, error)) []health.Check {
	return []health.Check{
		health.Database(pool),
		health.FreeSpace(c.healthDir(), uint64(c.MinFreeSpaceMB)<<20, free),
	}
}

// healthDir is the folder whose free space decides health: the embedded
// cluster's data folder, or with an outside database the folder of the log
// key (the one folder the server itself must find at start).
func (c *Config) healthDir() string {
	if c.DatabaseURL == "" {
		return c.DataDir
	}
	return filepath.Dir(LogKeyPath(c.LogKey, c.DataDir))
}

// WithHealthz serves GET /healthz from the checker and everything else from
// h: 200 {"status":"ok"} or 503 {"status":"unavailable","failed":[…]}.
// Outside the portal, so probes are neither access-logged nor rate-limited.
func WithHealthz(checker *health.Checker, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			checker.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}
