package server

import (
	"context"
	"log/slog"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// healthSetter is the part of the gRPC health server the supervisor moves.
type healthSetter interface {
	SetServingStatus(service string, status healthpb.HealthCheckResponse_ServingStatus)
}

// Supervise watches the database every interval until ctx ends: health
// answers NOT_SERVING while it does not answer, and an embedded cluster
// that died is started again, with a backoff that doubles up to a minute.
// The pool reconnects by itself once the database is back.
func (d *Database) Supervise(ctx context.Context, interval time.Duration, hs healthSetter, log *slog.Logger) {
	backoff, nextStart := interval, time.Time{}
	serving := true
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
		switch {
		case err == nil && !serving:
			log.Info("database answers again; serving")
			hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
			serving, backoff = true, interval
		case err != nil && serving:
			log.Error("database does not answer; health NOT_SERVING", "err", err)
			hs.SetServingStatus("", healthpb.HealthCheckResponse_NOT_SERVING)
			serving = false
		}
		if err == nil || d.cluster == nil || time.Now().Before(nextStart) {
			continue // an outside database is its operator's to restart
		}
		log.Warn("restarting the embedded PostgreSQL", "backoff", backoff)
		if err := d.cluster.Start(ctx); err != nil {
			log.Error("restart the embedded PostgreSQL", "err", err)
		}
		nextStart, backoff = time.Now().Add(backoff), min(2*backoff, time.Minute)
	}
}
