package server

import (
	"errors"
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

// validate reports the replica settings that contradict the database's;
// each field on its own is checked by its option.
func (c *ScaleConfig) validate(embedded bool) error {
	var errs []error
	if c.Replicas > 0 && !embedded {
		errs = append(errs, errors.New("--replicas runs standbys of the embedded cluster: with --database-url give --replica-url instead"))
	}
	if len(c.ReplicaURLs) > 0 && embedded {
		errs = append(errs, errors.New("--replica-url is a standby of --database-url, which is not set: use --replicas for the embedded cluster"))
	}
	if strings.EqualFold(c.MetricsListen, "off") {
		c.MetricsListen = ""
	}
	return errors.Join(errs...)
}
