package server

import (
	"context"
	"log/slog"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// healthSetter is the part of the gRPC health server the supervisors move.
type healthSetter interface {
	SetServingStatus(service string, status healthpb.HealthCheckResponse_ServingStatus)
}

// Supervise watches the database every interval until ctx ends and starts
// an embedded cluster that died again, with a backoff that doubles up to a
// minute. Health follows the database through its own check (HealthChecks);
// the pool reconnects by itself once the database is back.
func (d *Database) Supervise(ctx context.Context, interval time.Duration, log *slog.Logger) {
	backoff, nextStart := interval, time.Time{}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		pingCtx, cancel := context.WithTimeout(ctx, interval)
		err := d.Pool.Ping(pingCtx)
		cancel()
		if err == nil {
			backoff = interval
		}
		if err == nil || d.cluster == nil || time.Now().Before(nextStart) {
			continue // an outside database is its operator's to restart
		}
		log.Warn("restarting the embedded PostgreSQL", "backoff", backoff, "err", err)
		if err := d.cluster.Start(ctx); err != nil {
			log.Error("restart the embedded PostgreSQL", "err", err)
		}
		nextStart, backoff = time.Now().Add(backoff), min(2*backoff, time.Minute)
	}
}
