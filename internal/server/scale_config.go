package server

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// ScaleConfig is how the server spreads its public reads and what it
// shows of itself: read replicas and the metrics endpoint.
type ScaleConfig struct {
	// ReplicaURLs are streaming standbys of --database-url the public reads from.
	ReplicaURLs []string
	// Replicas is how many streaming standbys of the embedded cluster to run.
	Replicas int
	// ReplicaMaxLag is the replay lag past which a replica leaves rotation.
	ReplicaMaxLag time.Duration
	// ReplicaCheckInterval is how often the replicas' health and lag are checked.
	ReplicaCheckInterval time.Duration
	// MetricsListen is the Prometheus endpoint's address; empty serves none.
	MetricsListen string
}

func (c *ScaleConfig) bindFlags(fs *flag.FlagSet, getenv func(string) string) {
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	dur := func(name, def string) time.Duration {
		d, err := time.ParseDuration(env(name, def))
		if err != nil {
			d, _ = time.ParseDuration(def)
		}
		return d
	}
	for _, u := range strings.Split(getenv("DANKYU_REPLICA_URL"), ",") {
		if u = strings.TrimSpace(u); u != "" {
			c.ReplicaURLs = append(c.ReplicaURLs, u)
		}
	}
	fs.Func("replica-url", "PostgreSQL URL of a streaming standby of --database-url the public reads from; repeatable (DANKYU_REPLICA_URL, comma-separated)", func(v string) error {
		c.ReplicaURLs = append(c.ReplicaURLs, v)
		return nil
	})
	n, _ := strconv.Atoi(env("DANKYU_REPLICAS", "0"))
	fs.IntVar(&c.Replicas, "replicas", n, "with the embedded cluster: how many streaming standbys to run for the public's reads (DANKYU_REPLICAS)")
	fs.DurationVar(&c.ReplicaMaxLag, "replica-max-lag", dur("DANKYU_REPLICA_MAX_LAG", "5s"), "replay lag past which a replica leaves rotation (DANKYU_REPLICA_MAX_LAG)")
	fs.DurationVar(&c.ReplicaCheckInterval, "replica-check-interval", dur("DANKYU_REPLICA_CHECK_INTERVAL", "1s"), "how often the replicas are checked (DANKYU_REPLICA_CHECK_INTERVAL)")
	fs.StringVar(&c.MetricsListen, "metrics-listen", env("DANKYU_METRICS_LISTEN", "127.0.0.1:9464"), "Prometheus metrics listen address; empty or off serves none (DANKYU_METRICS_LISTEN)")
}

func (c *ScaleConfig) validate(embedded bool) error {
	var errs []error
	if c.Replicas < 0 || c.Replicas > 16 {
		errs = append(errs, fmt.Errorf("--replicas %d: want 0 to 16", c.Replicas))
	}
	if c.Replicas > 0 && !embedded {
		errs = append(errs, errors.New("--replicas runs standbys of the embedded cluster: with --database-url give --replica-url instead"))
	}
	if len(c.ReplicaURLs) > 0 && embedded {
		errs = append(errs, errors.New("--replica-url is a standby of --database-url, which is not set: use --replicas for the embedded cluster"))
	}
	if c.Replicas > 0 || len(c.ReplicaURLs) > 0 {
		if c.ReplicaMaxLag <= 0 || c.ReplicaCheckInterval <= 0 {
			errs = append(errs, errors.New("--replica-max-lag and --replica-check-interval: want positive durations"))
		}
	}
	if strings.EqualFold(c.MetricsListen, "off") {
		c.MetricsListen = ""
	}
	if c.MetricsListen != "" {
		if _, _, err := net.SplitHostPort(c.MetricsListen); err != nil {
			errs = append(errs, fmt.Errorf("--metrics-listen %q: want host:port: %w", c.MetricsListen, err))
		}
	}
	return errors.Join(errs...)
}
