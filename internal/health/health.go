// Package health says whether the server can do its work, as a small set
// of named checks: the database answers and takes writes, the data folder
// has room, and whatever else a part of the server adds (the event log's
// own witness adds its own). The portal's /healthz and the gRPC health
// service both answer from the same run of the same checks.
package health

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// Check is one condition the server needs to serve. Check returns nil when
// it holds; its error goes to the server's log, only the name to clients.
// A check must honour ctx: a run gives each a short deadline.
type Check interface {
	Name() string
	Check(ctx context.Context) error
}

// Func makes a Check of a name and a function.
func Func(name string, f func(ctx context.Context) error) Check { return funcCheck{name, f} }

type funcCheck struct {
	name string
	f    func(ctx context.Context) error
}

func (c funcCheck) Name() string                    { return c.name }
func (c funcCheck) Check(ctx context.Context) error { return c.f(ctx) }

// Report is the outcome of one run of the checks: what clients are told.
type Report struct {
	// Status is "ok" or "unavailable".
	Status string `json:"status"`
	// Failed names the checks that failed, in the order they were added.
	Failed []string `json:"failed,omitempty"`
}

// OK reports whether every check held.
func (r Report) OK() bool { return len(r.Failed) == 0 }

// StatusSetter is the part of the gRPC health server the checker moves.
type StatusSetter interface {
	SetServingStatus(service string, status healthpb.HealthCheckResponse_ServingStatus)
}

// Options tune a Checker.
type Options struct {
	// Timeout bounds each check of a run (default 2 s).
	Timeout time.Duration
	// MaxAge is how long a run's report answers /healthz before the checks
	// run again (default 1 s): a flood of probes costs one run a second.
	MaxAge time.Duration
	// GRPC, when set, follows every run: SERVING or NOT_SERVING for the
	// whole server (service "").
	GRPC StatusSetter
	Log  *slog.Logger
	// Now is the clock for MaxAge (default time.Now).
	Now func() time.Time
}

// Checker runs the checks and keeps their last report.
type Checker struct {
	opts   Options
	mu     sync.Mutex // one run at a time; guards the fields below
	checks []Check
	last   Report
	at     time.Time
	failed map[string]bool // the failing checks as last logged
}

// New is a checker of checks.
func New(opts Options, checks ...Check) *Checker {
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Second
	}
	if opts.MaxAge <= 0 {
		opts.MaxAge = time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Checker{opts: opts, checks: checks, failed: map[string]bool{}}
}

// Add adds a check; its first failure turns health unavailable.
func (c *Checker) Add(ch Check) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.checks = append(c.checks, ch)
	c.at = time.Time{} // the next reader runs it
}

// Run runs every check now (each under the timeout, all at once, so one
// slow check does not hold up the rest), keeps the report, publishes it to
// the gRPC health service, and logs each check that starts or stops failing.
func (c *Checker) Run(ctx context.Context) Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.run(ctx)
}

func (c *Checker) run(ctx context.Context) Report {
	errs := make([]error, len(c.checks))
	var wg sync.WaitGroup
	for i, ch := range c.checks {
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
			defer cancel()
			errs[i] = ch.Check(cctx)
		})
	}
	wg.Wait()
	r := Report{Status: "ok"}
	for i, ch := range c.checks {
		name := ch.Name()
		if errs[i] != nil {
			r.Failed = append(r.Failed, name)
			if !c.failed[name] {
				c.opts.Log.Error("health check failing; the server answers unavailable", "check", name, "err", errs[i])
			}
			c.failed[name] = true
		} else if c.failed[name] {
			c.opts.Log.Info("health check passes again", "check", name)
			delete(c.failed, name)
		}
	}
	if !r.OK() {
		r.Status = "unavailable"
	}
	c.last, c.at = r, c.opts.Now()
	if c.opts.GRPC != nil {
		st := healthpb.HealthCheckResponse_SERVING
		if !r.OK() {
			st = healthpb.HealthCheckResponse_NOT_SERVING
		}
		c.opts.GRPC.SetServingStatus("", st)
	}
	return r
}

// Current is the last report if it is younger than MaxAge, else a new run's.
func (c *Checker) Current(ctx context.Context) Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && c.opts.Now().Sub(c.at) < c.opts.MaxAge {
		return c.last
	}
	return c.run(ctx)
}

// Watch runs the checks every interval until ctx ends, so the gRPC health
// service follows even when nobody asks /healthz.
func (c *Checker) Watch(ctx context.Context, interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		c.Run(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// ServeHTTP answers /healthz: 200 and {"status":"ok"} when every check
// holds, else 503 and {"status":"unavailable","failed":[names]}. Never
// cached by a proxy; a HEAD gets the status alone.
func (c *Checker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rep := c.Current(r.Context())
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	code := http.StatusOK
	if !rep.OK() {
		code = http.StatusServiceUnavailable
	}
	w.WriteHeader(code)
	if r.Method == http.MethodHead {
		return
	}
	b, _ := json.Marshal(rep)
	_, _ = w.Write(append(b, '\n'))
}

// ErrNotPrimary says the database answers but is a standby: it takes no writes.
var ErrNotPrimary = errors.New("the database is in recovery (a standby): it takes no writes")

// Database is the check named "database": the primary answers a cheap
// query within the run's deadline and is not a standby, so writes can go
// through.
func Database(pool *pgxpool.Pool) Check {
	return Func("database", func(ctx context.Context) error {
		var inRecovery bool
		if err := pool.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&inRecovery); err != nil {
			return fmt.Errorf("the database does not answer: %w", err)
		}
		if inRecovery {
			return ErrNotPrimary
		}
		return nil
	})
}

// FreeSpace is the check named "disk": the file system of dir has at least
// min bytes free. free reports the bytes free to this process (Statfs in
// production; tests hand in a full disk).
func FreeSpace(dir string, min uint64, free func(dir string) (uint64, error)) Check {
	return Func("disk", func(ctx context.Context) error {
		n, err := free(dir)
		if err != nil {
			return fmt.Errorf("free space of %s: %w", dir, err)
		}
		if n < min {
			return fmt.Errorf("%s has %d bytes free, under the %d required", dir, n, min)
		}
		return nil
	})
}
