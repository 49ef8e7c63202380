// Package metrics is the server's Prometheus instrumentation: requests and
// latency per RPC and per portal route, pool use per database, the read
// replicas' lag and rotation, sweeper runs, certificates issued and rate
// limit refusals. Everything registers on the registry given to New (made
// at the entry point); nothing is global.
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/internal/ratelimit"
	"github.com/dankyu/dankyu/internal/replicas"
)

// Metrics are the server's series.
type Metrics struct {
	reg         *prometheus.Registry
	rpcs        *prometheus.CounterVec
	rpcSeconds  *prometheus.HistogramVec
	pages       *prometheus.CounterVec
	pageSeconds *prometheus.HistogramVec
	sweeps      *prometheus.CounterVec
	issued      prometheus.Counter
	mismatches  prometheus.Counter
}

// latency buckets from 100 µs to 10 s
var buckets = prometheus.ExponentialBucketsRange(0.0001, 10, 16)

// New registers the series on reg.
func New(reg *prometheus.Registry) *Metrics {
	m := &Metrics{reg: reg,
		rpcs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dankyu_grpc_requests_total",
			Help: "gRPC calls by method and status code."}, []string{"method", "code"}),
		rpcSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "dankyu_grpc_request_duration_seconds",
			Help: "gRPC call latency by method.", Buckets: buckets}, []string{"method"}),
		pages: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dankyu_http_requests_total",
			Help: "Portal requests by route pattern and status code."}, []string{"route", "code"}),
		pageSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "dankyu_http_request_duration_seconds",
			Help: "Portal request latency by route pattern.", Buckets: buckets}, []string{"route"}),
		sweeps: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dankyu_sweeper_runs_total",
			Help: "Notice sweeper runs by outcome (ok, error)."}, []string{"outcome"}),
		issued: prometheus.NewCounter(prometheus.CounterOpts{Name: "dankyu_certificates_issued_total",
			Help: "Certificates issued by this process (approvals and notices swept)."}),
		mismatches: prometheus.NewCounter(prometheus.CounterOpts{Name: "dankyu_certificate_log_mismatches_total",
			Help: "Verifications that found a certificate's row disagreeing with its logged events (answered as under review)."}),
	}
	reg.MustRegister(m.rpcs, m.rpcSeconds, m.pages, m.pageSeconds, m.sweeps, m.issued, m.mismatches,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the registry's series in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// UnaryInterceptor counts and times every gRPC call.
func (m *Metrics) UnaryInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := handler(ctx, req)
		m.rpcSeconds.WithLabelValues(info.FullMethod).Observe(time.Since(start).Seconds())
		m.rpcs.WithLabelValues(info.FullMethod, status.Code(err).String()).Inc()
		return resp, err
	}
}

type routeKey struct{}

// HTTP counts and times every portal request by the route pattern the
// portal reports through SetRoute ("unmatched" when it reports none).
func (m *Metrics) HTTP(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		route := new(string)
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		h.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), routeKey{}, route)))
		name := *route
		if name == "" {
			name = "unmatched"
		}
		m.pageSeconds.WithLabelValues(name).Observe(time.Since(start).Seconds())
		m.pages.WithLabelValues(name, strconv.Itoa(sw.code)).Inc()
	})
}

// SetRoute records the route pattern the portal matched for the request
// (its r.Pattern once the mux has served it).
func SetRoute(r *http.Request) {
	if p, ok := r.Context().Value(routeKey{}).(*string); ok {
		*p = r.Pattern
	}
}

type statusWriter struct {
	http.ResponseWriter
	code  int
	wrote bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.code, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// SweeperRun counts one sweeper run.
func (m *Metrics) SweeperRun(err error) {
	if err != nil {
		m.sweeps.WithLabelValues("error").Inc()
		return
	}
	m.sweeps.WithLabelValues("ok").Inc()
}

// LogMismatch counts one verification of a certificate whose row
// disagrees with its logged events (certs.Config.OnLogMismatch).
func (m *Metrics) LogMismatch(string, []string) { m.mismatches.Inc() }

// Event hears of one committed event (ledger.Store.ObserveEvents): issued
// certificates are counted, whichever path issued them.
func (m *Metrics) Event(action string) {
	if action == "certificate.issued" {
		m.issued.Inc()
	}
}

// Refuser is a limiter or gate whose refusals are counted.
type Refuser interface {
	Name() string
	Refused() int64
}

var (
	_ Refuser = (*ratelimit.Limiter)(nil)
	_ Refuser = (*ratelimit.Gate)(nil)
)

// Limits reports each limiter's (and gate's) refusals.
func (m *Metrics) Limits(ls ...Refuser) { m.reg.MustRegister(limitCollector(ls)) }

type limitCollector []Refuser

var limited = prometheus.NewDesc("dankyu_rate_limited_total", "Requests refused by a rate limit, by limit.", []string{"limit"}, nil)

func (c limitCollector) Describe(ch chan<- *prometheus.Desc) { ch <- limited }

func (c limitCollector) Collect(ch chan<- prometheus.Metric) {
	for _, l := range c {
		if l != nil {
			ch <- prometheus.MustNewConstMetric(limited, prometheus.CounterValue, float64(l.Refused()), l.Name())
		}
	}
}

// Pools reports each database's pool use.
func (m *Metrics) Pools(pools map[string]*pgxpool.Pool) { m.reg.MustRegister(poolCollector(pools)) }

// Router reports the read replicas: lag, rotation and reads served.
func (m *Metrics) Router(r *replicas.Router) { m.reg.MustRegister(routerCollector{r}) }

type poolCollector map[string]*pgxpool.Pool

var (
	poolConns    = prometheus.NewDesc("dankyu_db_pool_connections", "Connections of the pool by state (idle, in_use, total, max).", []string{"database", "state"}, nil)
	poolAcquires = prometheus.NewDesc("dankyu_db_pool_acquires_total", "Connections acquired from the pool.", []string{"database"}, nil)
	poolWaits    = prometheus.NewDesc("dankyu_db_pool_empty_acquires_total", "Acquires that had to wait for a connection.", []string{"database"}, nil)
	poolWaitSecs = prometheus.NewDesc("dankyu_db_pool_acquire_wait_seconds_total", "Time spent waiting for a connection.", []string{"database"}, nil)
)

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- poolConns
	ch <- poolAcquires
	ch <- poolWaits
	ch <- poolWaitSecs
}

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	for name, p := range c {
		s := p.Stat()
		ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(s.IdleConns()), name, "idle")
		ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(s.AcquiredConns()), name, "in_use")
		ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(s.TotalConns()), name, "total")
		ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(s.MaxConns()), name, "max")
		ch <- prometheus.MustNewConstMetric(poolAcquires, prometheus.CounterValue, float64(s.AcquireCount()), name)
		ch <- prometheus.MustNewConstMetric(poolWaits, prometheus.CounterValue, float64(s.EmptyAcquireCount()), name)
		ch <- prometheus.MustNewConstMetric(poolWaitSecs, prometheus.CounterValue, s.AcquireDuration().Seconds(), name)
	}
}

type routerCollector struct{ r *replicas.Router }

var (
	replicaLag  = prometheus.NewDesc("dankyu_replica_lag_seconds", "Replay lag of each replica at the last check.", []string{"replica"}, nil)
	replicaIn   = prometheus.NewDesc("dankyu_replica_in_rotation", "1 while the replica serves public reads, 0 while it is out of rotation.", []string{"replica"}, nil)
	publicReads = prometheus.NewDesc("dankyu_public_reads_total", "Public reads by the database that served them.", []string{"database"}, nil)
)

func (c routerCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- replicaLag
	ch <- replicaIn
	ch <- publicReads
}

func (c routerCollector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(publicReads, prometheus.CounterValue, float64(c.r.PrimaryReads()), "primary")
	for _, s := range c.r.Status() {
		in := 0.0
		if s.InRotation {
			in = 1
		}
		ch <- prometheus.MustNewConstMetric(replicaLag, prometheus.GaugeValue, s.Lag.Seconds(), s.Name)
		ch <- prometheus.MustNewConstMetric(replicaIn, prometheus.GaugeValue, in, s.Name)
		ch <- prometheus.MustNewConstMetric(publicReads, prometheus.CounterValue, float64(s.Reads), s.Name)
	}
}
