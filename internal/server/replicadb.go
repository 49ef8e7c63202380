package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/internal/replicas"
)

// ReplicaHealthService is the gRPC health service name that answers
// SERVING while at least one replica is in rotation (NOT_SERVING: the
// public's reads have fallen back to the primary).
const ReplicaHealthService = "dankyu.replicas"

// Replicas are the databases the public reads from besides the primary,
// with the embedded standbys this process runs.
type Replicas struct {
	DBs      []replicas.DB
	standbys []*pgcluster.Cluster // index-aligned with DBs when embedded
	stopPG   bool
}

// OpenReplicas connects to the --replica-url standbys or, on the embedded
// cluster, starts --replicas streaming standbys of it, each in
// <data-dir>/replicaN (pg_basebackup -R the first time), on a Unix socket
// of its own, and connects to each as the server's role.
func (d *Database) OpenReplicas(ctx context.Context, cfg ScaleConfig, dataDir string, log *slog.Logger) (*Replicas, error) {
	r := &Replicas{stopPG: d.stopPG}
	for i, u := range cfg.ReplicaURLs {
		pool, err := pgxpool.New(ctx, u)
		if err != nil {
			r.Close(ctx)
			return nil, fmt.Errorf("replica %d: %w", i+1, err)
		}
		r.DBs = append(r.DBs, replicas.DB{Name: fmt.Sprintf("replica%d", i+1), Pool: pool})
	}
	if cfg.Replicas > 0 && d.cluster == nil {
		r.Close(ctx)
		return nil, errors.New("--replicas needs the embedded cluster")
	}
	for i := range cfg.Replicas {
		name := fmt.Sprintf("replica%d", i+1)
		c, err := pgcluster.NewStandby(filepath.Join(dataDir, name), d.cluster, pgcluster.Options{Log: log.With("replica", name)})
		if err == nil {
			err = c.Start(ctx)
		}
		var pool *pgxpool.Pool
		if err == nil {
			pool, err = pgxpool.New(ctx, c.ConnStringAs(EmbeddedDatabase, EmbeddedServerRole))
		}
		if err != nil {
			r.Close(ctx)
			return nil, fmt.Errorf("start %s: %w", name, err)
		}
		r.standbys = append(r.standbys, c)
		r.DBs = append(r.DBs, replicas.DB{Name: name, Pool: pool})
	}
	if len(r.DBs) > 0 {
		log.Info("read replicas ready", "replicas", len(r.DBs), "embedded", len(r.standbys))
	}
	return r, nil
}

// Close closes the replicas' pools and stops the standbys this process started.
func (r *Replicas) Close(ctx context.Context) {
	for _, db := range r.DBs {
		db.Pool.Close()
	}
	for _, c := range r.standbys {
		_ = c.Stop(ctx, r.stopPG, false)
	}
}

// Supervise checks the replicas every interval until ctx ends: the router
// takes a lagging or dead one out of rotation, health service
// ReplicaHealthService says whether any is in, and a dead embedded standby
// is started again (at most every 30 s).
func (r *Replicas) Supervise(ctx context.Context, router *replicas.Router, interval time.Duration, hs healthSetter, log *slog.Logger) {
	if len(r.DBs) == 0 {
		return
	}
	nextStart := make([]time.Time, len(r.standbys))
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		router.Check(ctx)
		status := healthpb.HealthCheckResponse_NOT_SERVING
		for i, st := range router.Status() {
			if st.InRotation {
				status = healthpb.HealthCheckResponse_SERVING
				continue
			}
			if i < len(r.standbys) && st.Down && time.Now().After(nextStart[i]) {
				nextStart[i] = time.Now().Add(30 * time.Second)
				log.Warn("restarting an embedded standby", "replica", st.Name)
				if err := r.standbys[i].Start(ctx); err != nil {
					log.Error("restart an embedded standby", "replica", st.Name, "err", err)
				}
			}
		}
		hs.SetServingStatus(ReplicaHealthService, status)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
