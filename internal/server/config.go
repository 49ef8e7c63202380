// Package server wires the registry, the gRPC services and the web portal
// into one process over one database.
package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/api"
	"github.com/dankyu/dankyu/internal/ratelimit"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/web"
)

// Config is everything the server can be told; each field has a flag and a
// DANKYU_* environment variable.
type Config struct {
	GRPCAddr    string
	HTTPAddr    string
	DataDir     string
	DatabaseURL string
	// MigrationURL connects as the schema's owner to migrate an outside
	// database; empty migrates with DatabaseURL.
	MigrationURL string
	// LogKey is the event log's signing key file (default <data-dir>/log.key).
	LogKey          string
	ShutdownTimeout time.Duration
	LogFormat       string
	// NoticePeriod is how long a 4–7 dan stays on public notice.
	NoticePeriod time.Duration
	// PrintedKyu lists the kyu grades that get a numbered certificate, e.g. "1,2,5,10,15,20,25".
	PrintedKyu string
	// SweepInterval is how often the server issues certificates whose notice period has ended.
	SweepInterval time.Duration
	// DBCheckInterval is how often the server checks that its database
	// answers (health follows it; a dead embedded cluster is restarted).
	DBCheckInterval time.Duration
	// HTTPReadTimeout, HTTPWriteTimeout and HTTPIdleTimeout bound how long
	// one portal client may hold a connection reading a request, writing a
	// response and idle between requests, so slow clients cannot pile up.
	HTTPReadTimeout  time.Duration
	HTTPWriteTimeout time.Duration
	HTTPIdleTimeout  time.Duration
	// SessionTTL is how long a portal sign-in lasts; FormTTL how long a
	// form token is accepted.
	SessionTTL time.Duration
	FormTTL    time.Duration
	// PublicURL is the portal's address as users reach it (e.g. behind a
	// TLS proxy); https makes its cookies Secure.
	PublicURL string
	// CertFont is the TrueType font with Chinese glyphs the certificate
	// PDFs embed.
	CertFont string
	// RateVerify, RateObjection and RateLogin are the per-client limits of
	// the public endpoints ("60/1m"; "off" for none); TrustedProxies the
	// CIDRs whose X-Forwarded-For names the client.
	RateVerify     string
	RateObjection  string
	RateLogin      string
	TrustedProxies string
	// ObjectionOverdue is how long past its end a notice may be held open by
	// objections before the sweeper warns.
	ObjectionOverdue time.Duration
	// IdempotencyTTL is how long a retry with an idempotency key gets the first answer.
	IdempotencyTTL time.Duration
	// Scale is the read replicas and the metrics endpoint.
	Scale ScaleConfig
}

// BindFlags registers the flags on fs, with defaults taken from the
// environment where set.
func (c *Config) BindFlags(fs *flag.FlagSet, getenv func(string) string) {
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	fs.StringVar(&c.GRPCAddr, "grpc-addr", env("DANKYU_GRPC_ADDR", "127.0.0.1:9090"), "gRPC listen address (DANKYU_GRPC_ADDR)")
	fs.StringVar(&c.HTTPAddr, "http-addr", env("DANKYU_HTTP_ADDR", "127.0.0.1:8080"), "web portal listen address (DANKYU_HTTP_ADDR)")
	fs.StringVar(&c.DataDir, "data-dir", env("DANKYU_DATA_DIR", "./.dankyu"), "folder of the embedded PostgreSQL cluster (DANKYU_DATA_DIR)")
	fs.StringVar(&c.LogKey, "log-key", env("DANKYU_LOG_KEY", ""), "event log signing key file, created on first start; default <data-dir>/log.key (DANKYU_LOG_KEY)")
	fs.StringVar(&c.DatabaseURL, "database-url", env("DANKYU_DATABASE_URL", ""), "PostgreSQL URL; empty runs the embedded cluster (DANKYU_DATABASE_URL)")
	fs.StringVar(&c.MigrationURL, "migration-url", env("DANKYU_MIGRATION_URL", ""), "PostgreSQL URL of the schema's owner, used to migrate and grant; the server then connects with --database-url as a role that owns nothing (DANKYU_MIGRATION_URL)")
	fs.StringVar(&c.LogFormat, "log-format", env("DANKYU_LOG_FORMAT", "text"), "log format: text or json (DANKYU_LOG_FORMAT)")
	d, err := time.ParseDuration(env("DANKYU_SHUTDOWN_TIMEOUT", "15s"))
	if err != nil {
		d = 15 * time.Second
	}
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", d, "how long to drain requests on shutdown (DANKYU_SHUTDOWN_TIMEOUT)")
	dur := func(name, def string) time.Duration {
		d, err := time.ParseDuration(env(name, def))
		if err != nil {
			d, _ = time.ParseDuration(def)
		}
		return d
	}
	fs.DurationVar(&c.NoticePeriod, "notice-period", dur("DANKYU_NOTICE_PERIOD", "168h"), "public notice period of 4–7 dan (DANKYU_NOTICE_PERIOD)")
	fs.StringVar(&c.PrintedKyu, "printed-kyu", env("DANKYU_PRINTED_KYU", "1,2,5,10,15,20,25"), "kyu grades that get a numbered certificate (DANKYU_PRINTED_KYU)")
	fs.DurationVar(&c.SweepInterval, "sweep-interval", dur("DANKYU_SWEEP_INTERVAL", "1m"), "how often ended notices are issued (DANKYU_SWEEP_INTERVAL)")
	fs.DurationVar(&c.DBCheckInterval, "db-check-interval", dur("DANKYU_DB_CHECK_INTERVAL", "2s"), "how often the database is checked (DANKYU_DB_CHECK_INTERVAL)")
	fs.DurationVar(&c.HTTPReadTimeout, "http-read-timeout", dur("DANKYU_HTTP_READ_TIMEOUT", "30s"), "longest time to read one portal request, body included (DANKYU_HTTP_READ_TIMEOUT)")
	fs.DurationVar(&c.HTTPWriteTimeout, "http-write-timeout", dur("DANKYU_HTTP_WRITE_TIMEOUT", "60s"), "longest time to handle and write one portal response (DANKYU_HTTP_WRITE_TIMEOUT)")
	fs.DurationVar(&c.HTTPIdleTimeout, "http-idle-timeout", dur("DANKYU_HTTP_IDLE_TIMEOUT", "120s"), "how long an idle portal connection is kept (DANKYU_HTTP_IDLE_TIMEOUT)")
	fs.DurationVar(&c.SessionTTL, "session-ttl", dur("DANKYU_SESSION_TTL", "12h"), "how long a portal sign-in lasts (DANKYU_SESSION_TTL)")
	fs.DurationVar(&c.FormTTL, "form-ttl", dur("DANKYU_FORM_TTL", "2h"), "how long a portal form token is accepted (DANKYU_FORM_TTL)")
	fs.DurationVar(&c.ObjectionOverdue, "objection-overdue", dur("DANKYU_OBJECTION_OVERDUE", "72h"), "how long past its end a notice may wait for objection rulings before a warning (DANKYU_OBJECTION_OVERDUE)")
	fs.DurationVar(&c.IdempotencyTTL, "idempotency-ttl", dur("DANKYU_IDEMPOTENCY_TTL", "168h"), "how long idempotency records answer retries (DANKYU_IDEMPOTENCY_TTL)")
	fs.StringVar(&c.RateVerify, "rate-verify", env("DANKYU_RATE_VERIFY", "60/1m"), "per-client limit of certificate verification, portal and gRPC together (DANKYU_RATE_VERIFY)")
	fs.StringVar(&c.RateObjection, "rate-objection", env("DANKYU_RATE_OBJECTION", "5/1h"), "per-client limit of objections lodged (DANKYU_RATE_OBJECTION)")
	fs.StringVar(&c.RateLogin, "rate-login", env("DANKYU_RATE_LOGIN", "10/1m"), "per-client limit of portal sign-in attempts (DANKYU_RATE_LOGIN)")
	fs.StringVar(&c.TrustedProxies, "trusted-proxies", env("DANKYU_TRUSTED_PROXIES", ""), "comma-separated CIDRs of proxies whose X-Forwarded-For is believed (DANKYU_TRUSTED_PROXIES)")
	fs.StringVar(&c.PublicURL, "public-url", env("DANKYU_PUBLIC_URL", ""), "the portal's public address, e.g. https://dankyu.example; https makes cookies Secure (DANKYU_PUBLIC_URL)")
	fs.StringVar(&c.CertFont, "cert-font", env("DANKYU_CERT_FONT", web.DefaultCertificateFont), "TrueType font with Chinese glyphs for certificate PDFs (DANKYU_CERT_FONT)")
	c.Scale.bindFlags(fs, getenv)
}

// HTTPServer is the portal's server with c's timeouts; the headers get at
// most 10 s (and never more than the whole request).
func (c *Config) HTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: min(10*time.Second, c.HTTPReadTimeout),
		ReadTimeout: c.HTTPReadTimeout, WriteTimeout: c.HTTPWriteTimeout, IdleTimeout: c.HTTPIdleTimeout}
}

// printedKyu parses --printed-kyu.
func (c *Config) printedKyu() ([]int, error) {
	var out []int
	for _, f := range strings.Split(c.PrintedKyu, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSuffix(strings.ToLower(f), "k"))
		if err != nil || n < 1 || n > 30 {
			return nil, fmt.Errorf("--printed-kyu %q: %q is not a kyu grade between 1 and 30", c.PrintedKyu, f)
		}
		out = append(out, n)
	}
	if out == nil {
		out = []int{} // no printed kyu grade at all
	}
	return out, nil
}

// CertsConfig is the certificate settings of c.
func (c *Config) CertsConfig() (certs.Config, error) {
	kyu, err := c.printedKyu()
	if err != nil {
		return certs.Config{}, err
	}
	return certs.Config{NoticePeriod: c.NoticePeriod, PrintedKyu: kyu, OverdueAfter: c.ObjectionOverdue}, nil
}

// WebOptions is the portal settings of c, with the limiters it shares
// with the gRPC server.
func (c *Config) WebOptions(l *Limiters) web.Options {
	return web.Options{SessionTTL: c.SessionTTL, FormTTL: c.FormTTL, PublicURL: c.PublicURL, CertificateFont: c.CertFont,
		Limits: web.Limits{Verify: l.verify, Objection: l.objection, Login: l.login}, Proxies: l.proxies}
}

// Limiters are the rate limits of the public endpoints, one budget per
// client across the portal and gRPC.
type Limiters struct {
	verify, objection, login *ratelimit.Limiter
	proxies                  ratelimit.Proxies
}

// Limiters builds the limiters of c on the clock.
func (c *Config) Limiters(now func() time.Time, log *slog.Logger) (*Limiters, error) {
	var errs []error
	limit := func(flag, v, name string) *ratelimit.Limiter {
		l, err := ratelimit.ParseLimit(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("--%s: %w", flag, err))
		}
		return ratelimit.New(name, l, now, log)
	}
	out := &Limiters{verify: limit("rate-verify", c.RateVerify, "verify"), objection: limit("rate-objection", c.RateObjection, "objection"),
		login: limit("rate-login", c.RateLogin, "login")}
	p, err := ratelimit.ParseProxies(c.TrustedProxies)
	if err != nil {
		errs = append(errs, fmt.Errorf("--trusted-proxies: %w", err))
	}
	out.proxies = p
	return out, errors.Join(errs...)
}

// API is the limits of the public RPCs.
func (l *Limiters) API() api.Limits {
	return api.Limits{Proxies: l.proxies, ByMethod: map[string]*ratelimit.Limiter{
		pb.CertificateService_VerifyCertificate_FullMethodName:  l.verify,
		pb.CertificateService_VerifyCertificates_FullMethodName: l.verify,
		pb.NoticeService_LodgeObjection_FullMethodName:          l.objection,
	}}
}

// Flush logs each limiter's summary of refusals.
func (l *Limiters) Flush() {
	for _, x := range []*ratelimit.Limiter{l.verify, l.objection, l.login} {
		x.Flush()
	}
}

// flushEveryMinute logs the refusal summaries of a minute that ended
// without further requests.
func (l *Limiters) flushEveryMinute(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			l.Flush()
		}
	}
}

// Validate reports the first setting that cannot work.
func (c *Config) Validate() error {
	var errs []error
	for name, addr := range map[string]string{"grpc-addr": c.GRPCAddr, "http-addr": c.HTTPAddr} {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			errs = append(errs, fmt.Errorf("--%s %q: want host:port: %w", name, addr, err))
		}
	}
	if c.MigrationURL != "" && c.DatabaseURL == "" {
		errs = append(errs, errors.New("--migration-url is set but --database-url is not: the embedded cluster makes its own roles"))
	}
	if c.DatabaseURL == "" && strings.TrimSpace(c.DataDir) == "" {
		errs = append(errs, errors.New("--data-dir is empty and no --database-url is set"))
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		errs = append(errs, fmt.Errorf("--log-format %q: want text or json", c.LogFormat))
	}
	if _, err := c.printedKyu(); err != nil {
		errs = append(errs, err)
	}
	// the rate limits and proxies are read again by Limiters; checked here
	// so a typo stops the server before it starts its database
	if _, err := c.Limiters(time.Now, slog.New(slog.DiscardHandler)); err != nil {
		errs = append(errs, err)
	}
	if c.NoticePeriod <= 0 {
		errs = append(errs, fmt.Errorf("--notice-period %s: want a positive duration", c.NoticePeriod))
	}
	if c.DBCheckInterval <= 0 {
		errs = append(errs, fmt.Errorf("--db-check-interval %s: want a positive duration", c.DBCheckInterval))
	}
	if c.SweepInterval <= 0 {
		errs = append(errs, fmt.Errorf("--sweep-interval %s: want a positive duration", c.SweepInterval))
	}
	for name, d := range map[string]time.Duration{"http-read-timeout": c.HTTPReadTimeout,
		"http-write-timeout": c.HTTPWriteTimeout, "http-idle-timeout": c.HTTPIdleTimeout,
		"session-ttl": c.SessionTTL, "form-ttl": c.FormTTL, "idempotency-ttl": c.IdempotencyTTL,
		"objection-overdue": c.ObjectionOverdue} {
		if d <= 0 {
			errs = append(errs, fmt.Errorf("--%s %s: want a positive duration", name, d))
		}
	}
	if _, err := c.Limiters(time.Now, nil); err != nil {
		errs = append(errs, err)
	}
	if c.PublicURL != "" {
		if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			errs = append(errs, fmt.Errorf("--public-url %q: want http(s)://host", c.PublicURL))
		}
	}
	if c.ShutdownTimeout <= 0 {
		errs = append(errs, fmt.Errorf("--shutdown-timeout %s: want a positive duration", c.ShutdownTimeout))
	}
	errs = append(errs, c.Scale.validate(c.DatabaseURL == ""))
	return errors.Join(errs...)
}
