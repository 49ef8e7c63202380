package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/internal/metrics"
)

// serveMetrics serves /metrics on addr (none when empty) and returns what
// stops it.
func serveMetrics(addr string, m *metrics.Metrics, log *slog.Logger) (func(), error) {
	if addr == "" {
		return func() {}, nil
	}
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen for metrics on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second}
	go func() {
		if err := srv.Serve(lis); !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server", "err", err)
		}
	}()
	log.Info("metrics serving", "url", "http://"+lis.Addr().String()+"/metrics")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}

// pools names every database's pool for the metrics: the primary and each replica.
func (r *Replicas) pools(primary *pgxpool.Pool) map[string]*pgxpool.Pool {
	out := map[string]*pgxpool.Pool{"primary": primary}
	for _, db := range r.DBs {
		out[db.Name] = db.Pool
	}
	return out
}
