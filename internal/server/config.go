// Package server wires the registry, the gRPC services and the web portal
// into one process over one database.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/api"
	"github.com/dankyu/dankyu/internal/ratelimit"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/web"
	"github.com/dankyu/dankyu/webhooks"
)

// Config is everything the server can be told; each field has a flag and a
// DANKYU_* environment variable, one line of the table in options.go.
type Config struct {
	GRPCAddr    string
	HTTPAddr    string
	DataDir     string
	DatabaseURL string
	// MigrationURL connects as the schema's owner to migrate an outside
	// database; empty migrates with DatabaseURL.
	MigrationURL string
	// LogKey is the event log's signing key file (default <data-dir>/log.key).
	LogKey string
	// LogHead is the file of the last checkpoint signed (default log.head
	// beside the key); LogOrigin the log's name in its checkpoints.
	LogHead   string
	LogOrigin string
	// LogCheckInterval is how often the witness checks the log;
	// LogCheckpointRefresh how old a checkpoint of an unchanged log gets
	// before it is signed again.
	LogCheckInterval     time.Duration
	LogCheckpointRefresh time.Duration
	// LogKeyRotate accepts a missing or changed log key, logging the rotation.
	LogKeyRotate bool
	// WebhookPrivateNetworks lets webhooks reach receivers on inside
	// addresses (webhooks.PrivateNetworks).
	WebhookPrivateNetworks bool
	ShutdownTimeout        time.Duration
	LogFormat              string
	// NoticePeriod is how long a 4–7 dan stays on public notice.
	NoticePeriod time.Duration
	// PrintedKyu lists the kyu grades that get a numbered certificate, e.g. "1,2,5,10,15,20,25".
	PrintedKyu string
	// SweepInterval is how often the server issues certificates whose notice period has ended.
	SweepInterval time.Duration
	// DBCheckInterval is how often the server checks that its database
	// answers (health follows it; a dead embedded cluster is restarted).
	DBCheckInterval time.Duration
	// MinFreeSpaceMB is the free space (MiB) under which the data folder's
	// file system turns health unavailable; 0 checks only that it can be read.
	MinFreeSpaceMB int
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
	// RateVerify, RateObjection, RateLogin and RateAdjudicate are the
	// per-client limits of the public endpoints ("60/1m"; "off" for none);
	// TrustedProxies the CIDRs whose X-Forwarded-For names the client.
	RateVerify     string
	RateObjection  string
	RateLogin      string
	RateAdjudicate string
	TrustedProxies string
	// GRPCInFlight bounds the gRPC calls one client of the public (an
	// address) has under way at once, GRPCInFlightSignedIn those of one
	// signed-in caller (a token); 0 is no bound.
	GRPCInFlight         int
	GRPCInFlightSignedIn int
	// ObjectionOverdue is how long past its end a notice may be held open by
	// objections before the sweeper warns.
	ObjectionOverdue time.Duration
	// ObjectionDeadline is how long past its end objections awaiting a
	// ruling may hold a notice open; then they lapse and it proceeds.
	ObjectionDeadline time.Duration
	// IdempotencyTTL is how long a retry with an idempotency key gets the first answer.
	IdempotencyTTL time.Duration
	// CacheMaxAge and CacheStaleIfError are how long a shared cache may
	// keep the public's pages, and serve them on while the server fails;
	// CachePurgeURL, when set, is the cache told of each revocation.
	CacheMaxAge       time.Duration
	CacheStaleIfError time.Duration
	CachePurgeURL     string
	// Scale is the read replicas and the metrics endpoint.
	Scale ScaleConfig
}

// LogSettings are the witness's settings.
func (c *Config) LogSettings() LogSettings {
	key := LogKeyPath(c.LogKey, c.DataDir)
	return LogSettings{KeyPath: key, HeadPath: LogHeadPath(c.LogHead, key), Origin: c.LogOrigin, Rotate: c.LogKeyRotate,
		Interval: c.LogCheckInterval, Refresh: c.LogCheckpointRefresh}
}

// HTTPServer is the portal's server with c's timeouts; the headers get at
// most 10 s (and never more than the whole request).
func (c *Config) HTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: min(10*time.Second, c.HTTPReadTimeout),
		ReadTimeout: c.HTTPReadTimeout, WriteTimeout: c.HTTPWriteTimeout, IdleTimeout: c.HTTPIdleTimeout}
}

// printedKyu parses --printed-kyu.
func (c *Config) printedKyu() ([]int, error) {
	kyu, err := parsePrintedKyu(c.PrintedKyu)
	if err != nil {
		return nil, fmt.Errorf("--printed-kyu %q: %w", c.PrintedKyu, err)
	}
	return kyu, nil
}

// parsePrintedKyu reads a list of kyu grades such as "1,2,5k"; "" and
// "none" are no grade at all.
func parsePrintedKyu(s string) ([]int, error) {
	out := []int{} // not nil: none printed, rather than certs' default
	if strings.EqualFold(strings.TrimSpace(s), "none") {
		return out, nil
	}
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSuffix(strings.ToLower(f), "k"))
		if err != nil || n < 1 || n > 30 {
			return nil, fmt.Errorf("%q is not a kyu grade between 1 and 30", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// CertsConfig is the certificate settings of c.
func (c *Config) CertsConfig() (certs.Config, error) {
	kyu, err := c.printedKyu()
	if err != nil {
		return certs.Config{}, err
	}
	return certs.Config{NoticePeriod: c.NoticePeriod, PrintedKyu: kyu, OverdueAfter: c.ObjectionOverdue, RulingDeadline: c.ObjectionDeadline}, nil
}

// WebOptions is the portal settings of c, with the limiters it shares
// with the gRPC server.
func (c *Config) WebOptions(l *Limiters) web.Options {
	return web.Options{SessionTTL: c.SessionTTL, FormTTL: c.FormTTL, PublicURL: c.PublicURL, CertificateFont: c.CertFont,
		CacheMaxAge: c.CacheMaxAge, CacheStaleIfError: c.CacheStaleIfError,
		Limits: web.Limits{Verify: l.verify, Objection: l.objection, Login: l.login, Adjudicate: l.adjudicate}, Proxies: l.proxies}
}

// Limiters are the rate limits of the public endpoints, one budget per
// client across the portal and gRPC.
type Limiters struct {
	verify, objection, login, adjudicate *ratelimit.Limiter
	proxies                              ratelimit.Proxies
	inFlight, inFlightSignedIn           *ratelimit.Gate
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
		login: limit("rate-login", c.RateLogin, "login"), adjudicate: limit("rate-adjudicate", c.RateAdjudicate, "adjudicate")}
	p, err := ratelimit.ParseProxies(c.TrustedProxies)
	if err != nil {
		errs = append(errs, fmt.Errorf("--trusted-proxies: %w", err))
	}
	out.proxies = p
	out.inFlight = ratelimit.NewGate("grpc-in-flight", c.GRPCInFlight, now, log)
	out.inFlightSignedIn = ratelimit.NewGate("grpc-in-flight-signed-in", c.GRPCInFlightSignedIn, now, log)
	return out, errors.Join(errs...)
}

// Share counts the low-volume limits, objections and sign-ins, in the
// database (the kernel's store), so every server on it spends one budget;
// verification and adjudication, high-volume, stay counted in each
// process (an edge bounds them per address before they arrive; see
// docs/operations.md). An institution key's quota, when keys come, is one
// more limiter to share here.
func (l *Limiters) Share(w ratelimit.Windows) {
	l.objection.Share(w)
	l.login.Share(w)
}

// API is the limits of the public RPCs.
func (l *Limiters) API() api.Limits {
	return api.Limits{Proxies: l.proxies, InFlight: l.inFlight, InFlightSignedIn: l.inFlightSignedIn, ByMethod: map[string]*ratelimit.Limiter{
		pb.CertificateService_VerifyCertificate_FullMethodName:  l.verify,
		pb.CertificateService_VerifyCertificates_FullMethodName: l.verify,
		pb.CertificateService_GetLogEntries_FullMethodName:      l.verify,
		pb.NoticeService_LodgeObjection_FullMethodName:          l.objection,
		pb.AdjudicationService_Adjudicate_FullMethodName:        l.adjudicate,
	}, KeyMethods: map[string]bool{ // what an institution's key is for
		pb.CertificateService_VerifyCertificate_FullMethodName:  true,
		pb.CertificateService_VerifyCertificates_FullMethodName: true,
	}}
}

// Flush logs each limiter's summary of refusals.
func (l *Limiters) Flush() {
	for _, x := range []*ratelimit.Limiter{l.verify, l.objection, l.login, l.adjudicate} {
		x.Flush()
	}
	l.inFlight.Flush()
	l.inFlightSignedIn.Flush()
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

// Validate reports every setting that cannot work: each field its parser
// would refuse (a Config may be built without BindFlags), and the settings
// that contradict each other.
func (c *Config) Validate() error {
	var errs []error
	for _, o := range options {
		v := o.value(c)
		if err := v.check(); err != nil {
			errs = append(errs, fmt.Errorf("--%s %s: %w", o.flag, v.display(v.String()), err))
		}
	}
	if c.MigrationURL != "" && c.DatabaseURL == "" {
		errs = append(errs, errors.New("--migration-url is set but --database-url is not: the embedded cluster makes its own roles"))
	}
	if c.DatabaseURL == "" && strings.TrimSpace(c.DataDir) == "" {
		errs = append(errs, errors.New("--data-dir is empty and no --database-url is set"))
	}
	errs = append(errs, c.Scale.validate(c.DatabaseURL == ""))
	return errors.Join(errs...)
}

// WebhookOptions are the webhooks service's options the settings make.
func (c Config) WebhookOptions() []webhooks.Option {
	if c.WebhookPrivateNetworks {
		return []webhooks.Option{webhooks.PrivateNetworks()}
	}
	return nil
}
