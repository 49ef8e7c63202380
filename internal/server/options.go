package server

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dankyu/dankyu/internal/ratelimit"
	"github.com/dankyu/dankyu/web"
)

//go:generate go test -run ^TestConfigurationDoc$ -update

// option is one setting of the server: its flag, its environment variable,
// its default and its help, and the field of Config it sets through its
// parser. The flag set, the environment and docs/configuration.md are all
// made from the table below, so none of them can drift from the others.
type option struct {
	group string
	flag  string
	env   string
	def   string // as a user would write it; parsed like any other value
	help  string // plain text (flag.PrintDefaults reads backquotes)
	value func(*Config) setting
}

// options is the table of every setting.
var options = []option{
	{group: groupListen, flag: "grpc-addr", env: "DANKYU_GRPC_ADDR", def: "127.0.0.1:9090",
		help:  "gRPC listen address",
		value: text(hostPort, func(c *Config) *string { return &c.GRPCAddr })},
	{group: groupListen, flag: "http-addr", env: "DANKYU_HTTP_ADDR", def: "127.0.0.1:8080",
		help:  "web portal listen address",
		value: text(hostPort, func(c *Config) *string { return &c.HTTPAddr })},
	{group: groupListen, flag: "public-url", env: "DANKYU_PUBLIC_URL",
		help:  "the portal's address as users reach it, e.g. https://dankyu.example; https makes its cookies Secure (TLS ended at a proxy)",
		value: text(publicURL, func(c *Config) *string { return &c.PublicURL })},
	{group: groupPortal, flag: "cache-max-age", env: "DANKYU_CACHE_MAX_AGE", def: "1m",
		help:  "how long a shared cache (reverse proxy, CDN) may keep the public's notice, player, tournament, ratings and statistics pages (Cache-Control: public, max-age); /verify is always revalidated",
		value: duration(func(c *Config) *time.Duration { return &c.CacheMaxAge })},
	{group: groupPortal, flag: "cache-stale-if-error", env: "DANKYU_CACHE_STALE_IF_ERROR", def: "24h",
		help:  "how long past its max-age a shared cache may still serve a public page while the server fails (stale-if-error)",
		value: duration(func(c *Config) *time.Duration { return &c.CacheStaleIfError })},
	{group: groupPortal, flag: "cache-purge-url", env: "DANKYU_CACHE_PURGE_URL",
		help:  "a shared cache to send PURGE requests to for the pages a revocation or reissue changed, e.g. http://127.0.0.1:8081; empty sends none",
		value: text(publicURL, func(c *Config) *string { return &c.CachePurgeURL })},
	{group: groupListen, flag: "metrics-listen", env: "DANKYU_METRICS_LISTEN", def: "127.0.0.1:9464",
		help:  "Prometheus /metrics listen address; off serves none",
		value: text(metricsAddr, func(c *Config) *string { return &c.Scale.MetricsListen })},

	{group: groupDatabase, flag: "data-dir", env: "DANKYU_DATA_DIR", def: "./.dankyu",
		help:  "folder of the embedded PostgreSQL cluster, created on first start",
		value: text(path, func(c *Config) *string { return &c.DataDir })},
	{group: groupDatabase, flag: "database-url", env: "DANKYU_DATABASE_URL",
		help:  "PostgreSQL URL (or key=value string) to use instead of the embedded cluster",
		value: text(postgres, func(c *Config) *string { return &c.DatabaseURL })},
	{group: groupDatabase, flag: "migration-url", env: "DANKYU_MIGRATION_URL",
		help:  "with --database-url: the schema owner's URL; migrations run as that role, which then grants --database-url's role what the server needs and no more. Empty: the server migrates and runs as one role, and warns",
		value: text(postgres, func(c *Config) *string { return &c.MigrationURL })},
	{group: groupDatabase, flag: "db-check-interval", env: "DANKYU_DB_CHECK_INTERVAL", def: "2s",
		help:  "how often the server checks its database (health follows; a dead embedded cluster is restarted)",
		value: duration(func(c *Config) *time.Duration { return &c.DBCheckInterval })},
	{group: groupDatabase, flag: "min-free-space", env: "DANKYU_MIN_FREE_SPACE", def: "512",
		help:  "MiB that must stay free in the data folder's file system (with --database-url: the log key's folder); under it /healthz answers 503 and gRPC health NOT_SERVING; 0 checks only that the folder can be read",
		value: count(0, 1<<24, func(c *Config) *int { return &c.MinFreeSpaceMB })},
	{group: groupDatabase, flag: "replicas", env: "DANKYU_REPLICAS", def: "0",
		help:  "with the embedded cluster: how many streaming standbys to run for the public's reads",
		value: count(0, 16, func(c *Config) *int { return &c.Scale.Replicas })},
	{group: groupDatabase, flag: "replica-url", env: "DANKYU_REPLICA_URL",
		help:  "with --database-url: a streaming standby the public reads from; repeatable (the variable: comma-separated); a flag replaces the variable's list",
		value: list(postgres, func(c *Config) *[]string { return &c.Scale.ReplicaURLs })},
	{group: groupDatabase, flag: "replica-max-lag", env: "DANKYU_REPLICA_MAX_LAG", def: "5s",
		help:  "replay lag past which a replica leaves rotation",
		value: duration(func(c *Config) *time.Duration { return &c.Scale.ReplicaMaxLag })},
	{group: groupDatabase, flag: "replica-check-interval", env: "DANKYU_REPLICA_CHECK_INTERVAL", def: "1s",
		help:  "how often the replicas' health and lag are checked",
		value: duration(func(c *Config) *time.Duration { return &c.Scale.ReplicaCheckInterval })},

	{group: groupProcess, flag: "log-key", env: "DANKYU_LOG_KEY",
		help:  "the event log's Ed25519 signing key file, created on first start; default <data-dir>/log.key. Kept outside the database so whoever rewrites the database cannot sign a rewritten log; with --database-url give it a path of its own and keep a copy",
		value: text(path, func(c *Config) *string { return &c.LogKey })},
	{group: groupProcess, flag: "log-head", env: "DANKYU_LOG_HEAD",
		help:  "file where the server keeps the last checkpoint it signed (mode 0600, replaced atomically); default log.head beside the log key. At start and every --log-check-interval the database's log must extend it",
		value: text(path, func(c *Config) *string { return &c.LogHead })},
	{group: groupProcess, flag: "log-origin", env: "DANKYU_LOG_ORIGIN", def: "dankyu.events/registry",
		help:  "this log's name, the first line of its checkpoints (and the name of a new key); one word, e.g. dankyu.events/beijing",
		value: text(logOrigin, func(c *Config) *string { return &c.LogOrigin })},
	{group: groupProcess, flag: "log-check-interval", env: "DANKYU_LOG_CHECK_INTERVAL", def: "1m",
		help:  "how often the server checks its own event log against the kept head (chain, tree and key file; a finding stops signing and writes and turns health NOT_SERVING)",
		value: duration(func(c *Config) *time.Duration { return &c.LogCheckInterval })},
	{group: groupProcess, flag: "log-checkpoint-refresh", env: "DANKYU_LOG_CHECKPOINT_REFRESH", def: "1h",
		help:  "a log that has not grown gets a new checkpoint (a new time line) once the last is this old; each new size gets one at once. Every checkpoint published is kept and served at /log/checkpoints",
		value: duration(func(c *Config) *time.Duration { return &c.LogCheckpointRefresh })},
	{group: groupProcess, flag: "webhook-private-networks", env: "DANKYU_WEBHOOK_PRIVATE_NETWORKS", def: "false",
		help:  "let webhook subscriptions name receivers on loopback, private and link-local addresses (an association's own network). Without it the registry posts to public addresses only, so a subscriber cannot make it probe the machines beside it",
		value: boolean(func(c *Config) *bool { return &c.WebhookPrivateNetworks })},
	{group: groupProcess, flag: "log-key-rotate", env: "DANKYU_LOG_KEY_ROTATE", def: "false",
		help:  "accept a missing or changed log key at start: a missing one is made anew; the rotation is logged as an event and published, co-signed by the old key when it is left at <log-key>.old. Without it such a start is refused. Remove it after the rotation",
		value: boolean(func(c *Config) *bool { return &c.LogKeyRotate })},
	{group: groupProcess, flag: "log-format", env: "DANKYU_LOG_FORMAT", def: "text",
		help:  "text or json logs (log/slog, to standard error)",
		value: text(logFormat, func(c *Config) *string { return &c.LogFormat })},
	{group: groupProcess, flag: "shutdown-timeout", env: "DANKYU_SHUTDOWN_TIMEOUT", def: "15s",
		help:  "how long to drain requests on SIGINT or SIGTERM",
		value: duration(func(c *Config) *time.Duration { return &c.ShutdownTimeout })},

	{group: groupCerts, flag: "notice-period", env: "DANKYU_NOTICE_PERIOD", def: "168h",
		help:  "how long a 4–7 dan stays on public notice",
		value: duration(func(c *Config) *time.Duration { return &c.NoticePeriod })},
	{group: groupCerts, flag: "printed-kyu", env: "DANKYU_PRINTED_KYU", def: "1,2,5,10,15,20,25",
		help:  "kyu grades that get a numbered certificate (others are recorded without a number); none for none",
		value: text(kyuList, func(c *Config) *string { return &c.PrintedKyu })},
	{group: groupCerts, flag: "sweep-interval", env: "DANKYU_SWEEP_INTERVAL", def: "1m",
		help:  "how often the server issues the certificates of notices whose period has ended",
		value: duration(func(c *Config) *time.Duration { return &c.SweepInterval })},
	{group: groupCerts, flag: "objection-overdue", env: "DANKYU_OBJECTION_OVERDUE", def: "72h",
		help:  "how long past its end a notice may be held open by objections awaiting a ruling before the sweeper warns",
		value: duration(func(c *Config) *time.Duration { return &c.ObjectionOverdue })},
	{group: groupCerts, flag: "objection-deadline", env: "DANKYU_OBJECTION_DEADLINE", def: "336h",
		help:  "how long past its end objections awaiting a ruling may hold a notice open; then they lapse (recorded) and the notice proceeds",
		value: duration(func(c *Config) *time.Duration { return &c.ObjectionDeadline })},
	{group: groupCerts, flag: "cert-font", env: "DANKYU_CERT_FONT", def: web.DefaultCertificateFont,
		help:  "TrueType font with Chinese glyphs that certificate PDFs embed (Debian fonts-droid-fallback); missing, the server warns at start and a PDF request answers 503",
		value: text(path, func(c *Config) *string { return &c.CertFont })},

	{group: groupPortal, flag: "session-ttl", env: "DANKYU_SESSION_TTL", def: "12h",
		help:  "how long a portal sign-in lasts",
		value: duration(func(c *Config) *time.Duration { return &c.SessionTTL })},
	{group: groupPortal, flag: "form-ttl", env: "DANKYU_FORM_TTL", def: "2h",
		help:  "how long a portal form token is accepted after its page was shown",
		value: duration(func(c *Config) *time.Duration { return &c.FormTTL })},
	{group: groupPortal, flag: "http-read-timeout", env: "DANKYU_HTTP_READ_TIMEOUT", def: "30s",
		help:  "longest time to read one portal request, body included (headers get at most 10s)",
		value: duration(func(c *Config) *time.Duration { return &c.HTTPReadTimeout })},
	{group: groupPortal, flag: "http-write-timeout", env: "DANKYU_HTTP_WRITE_TIMEOUT", def: "60s",
		help:  "longest time to handle one portal request and write its response",
		value: duration(func(c *Config) *time.Duration { return &c.HTTPWriteTimeout })},
	{group: groupPortal, flag: "http-idle-timeout", env: "DANKYU_HTTP_IDLE_TIMEOUT", def: "120s",
		help:  "how long an idle keep-alive portal connection is kept open",
		value: duration(func(c *Config) *time.Duration { return &c.HTTPIdleTimeout })},

	{group: groupLimits, flag: "rate-verify", env: "DANKYU_RATE_VERIFY", def: "60/1m",
		help:  "per client: certificate verifications, portal and gRPC sharing one budget",
		value: text(rateLimit, func(c *Config) *string { return &c.RateVerify })},
	{group: groupLimits, flag: "rate-objection", env: "DANKYU_RATE_OBJECTION", def: "5/1h",
		help:  "per client: objections lodged, portal and gRPC",
		value: text(rateLimit, func(c *Config) *string { return &c.RateObjection })},
	{group: groupLimits, flag: "rate-login", env: "DANKYU_RATE_LOGIN", def: "10/1m",
		help:  "per client: portal sign-in attempts",
		value: text(rateLimit, func(c *Config) *string { return &c.RateLogin })},
	{group: groupLimits, flag: "rate-adjudicate", env: "DANKYU_RATE_ADJUDICATE", def: "30/1m",
		help:  "per client: records adjudicated, portal and gRPC sharing one budget",
		value: text(rateLimit, func(c *Config) *string { return &c.RateAdjudicate })},
	{group: groupLimits, flag: "grpc-in-flight", env: "DANKYU_GRPC_IN_FLIGHT", def: "8",
		help:  "per client address of the public: gRPC calls under way at once; past it RESOURCE_EXHAUSTED, TOO_MANY_IN_FLIGHT; 0 is no bound",
		value: count(0, 10000, func(c *Config) *int { return &c.GRPCInFlight })},
	{group: groupLimits, flag: "grpc-in-flight-signed-in", env: "DANKYU_GRPC_IN_FLIGHT_SIGNED_IN", def: "32",
		help:  "per signed-in caller (a token): gRPC calls under way at once; 0 is no bound",
		value: count(0, 10000, func(c *Config) *int { return &c.GRPCInFlightSignedIn })},
	{group: groupLimits, flag: "trusted-proxies", env: "DANKYU_TRUSTED_PROXIES",
		help:  "comma-separated CIDRs of proxies whose X-Forwarded-For (gRPC: x-forwarded-for metadata) names the client; from anyone else it is ignored",
		value: text(proxies, func(c *Config) *string { return &c.TrustedProxies })},
	{group: groupLimits, flag: "idempotency-ttl", env: "DANKYU_IDEMPOTENCY_TTL", def: "168h",
		help:  "how long a retry with an idempotency key gets the first answer; older records are deleted by the sweeper",
		value: duration(func(c *Config) *time.Duration { return &c.IdempotencyTTL })},
}

// The groups of the configuration document, in its order.
const (
	groupListen   = "Addresses"
	groupDatabase = "Database"
	groupProcess  = "Event log and process"
	groupCerts    = "Certificates"
	groupPortal   = "Portal"
	groupLimits   = "Public endpoints"
)

var groups = []string{groupListen, groupDatabase, groupProcess, groupCerts, groupPortal, groupLimits}

// BindFlags sets every field of c to its default, then to its DANKYU_*
// environment variable where that is set (an empty variable counts as
// unset), and registers the flags on fs, which override both when parsed.
// Each variable goes through the parser of its flag; the error names every
// variable refused, with its value.
func (c *Config) BindFlags(fs *flag.FlagSet, getenv func(string) string) error {
	*c = Config{}
	var errs []error
	for _, o := range options {
		v := o.value(c)
		if o.def != "" {
			if err := v.Set(o.def); err != nil {
				return fmt.Errorf("default of --%s %q: %w", o.flag, o.def, err) // a mistake in the table
			}
		}
		if s := getenv(o.env); s != "" {
			set := v.Set
			if l, ok := v.(envList); ok {
				set = l.setEnv
			}
			if err := set(s); err != nil {
				errs = append(errs, fmt.Errorf("%s=%s: %w", o.env, v.display(s), err))
			}
		}
		// the backquoted syntax is the placeholder flag.PrintDefaults shows
		fs.Var(v, o.flag, o.help+" ("+o.env+"; `"+v.syntax()+"`)")
	}
	return errors.Join(errs...)
}

// ParseConfig reads the server's configuration from the environment and
// the command line args, with the flags registered on fs. It fails on any
// variable or flag its parser refuses, on arguments that are not flags and
// on settings that cannot work together (Validate); -h is flag.ErrHelp.
func ParseConfig(fs *flag.FlagSet, args []string, getenv func(string) string) (Config, error) {
	var c Config
	envErr := c.BindFlags(fs, getenv)
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return c, err
	} else if err != nil || envErr != nil {
		return c, errors.Join(envErr, err)
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q: the server takes flags only", fs.Args())
	}
	return c, c.Validate()
}

// UnknownVariables are the DANKYU_* variables of environ (os.Environ's
// form) that no setting reads: most likely misspelt, and otherwise
// silently ignored.
func UnknownVariables(environ []string) []string {
	known := map[string]bool{}
	for _, o := range options {
		known[o.env] = true
	}
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "DANKYU_") && !known[name] {
			out = append(out, name)
		}
	}
	return out
}

// setting is the field of one option behind the parser its flag and its
// variable share.
type setting interface {
	flag.Value
	// check reports whether the field's value, however it was set, is one
	// Set would have accepted.
	check() error
	// syntax says what the value looks like, for the document.
	syntax() string
	// display is s as messages may show it (without a password).
	display(s string) string
}

// envList is a setting whose variable holds a comma-separated list where
// its flag is repeated.
type envList interface {
	setEnv(s string) error
}

// kind is a syntax of text settings: parse checks a value and returns it
// as the server keeps it.
type kind struct {
	name   string
	parse  func(string) (string, error)
	secret bool // may hold a password
}

var (
	// path is a file or folder; whether it can be used shows when it is
	// opened at start.
	path = kind{name: "path", parse: func(s string) (string, error) { return s, nil }}
	// hostPort is a listen address; the port may be 0 or a service name,
	// as net.Listen takes them.
	hostPort = kind{name: "host:port", parse: func(s string) (string, error) {
		if _, _, err := net.SplitHostPort(s); err != nil {
			return "", fmt.Errorf("want host:port: %w", err)
		}
		return s, nil
	}}
	metricsAddr = kind{name: "host:port or off", parse: func(s string) (string, error) {
		if s == "" || strings.EqualFold(s, "off") {
			return "", nil
		}
		return hostPort.parse(s)
	}}
	publicURL = kind{name: "http(s) URL", parse: func(s string) (string, error) {
		if s == "" {
			return "", nil
		}
		if u, err := url.Parse(s); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return "", errors.New("want http(s)://host")
		}
		return s, nil
	}}
	// postgres is read as pgx reads it when it connects, without connecting.
	postgres = kind{name: "PostgreSQL URL", secret: true, parse: func(s string) (string, error) {
		if s == "" {
			return "", nil
		}
		if _, err := pgconn.ParseConfig(s); err != nil {
			return "", err
		}
		return s, nil
	}}
	logOrigin = kind{name: "origin", parse: func(s string) (string, error) {
		if s == "" || strings.ContainsAny(s, " \t\n+") || !utf8.ValidString(s) || len(s) > 100 {
			return "", errors.New("want one word of at most 100 bytes, without + (e.g. dankyu.events/registry)")
		}
		return s, nil
	}}
	logFormat = kind{name: "text or json", parse: func(s string) (string, error) {
		if s != "text" && s != "json" {
			return "", errors.New("want text or json")
		}
		return s, nil
	}}
	kyuList = kind{name: "kyu grades, e.g. 1,2,5k; none", parse: func(s string) (string, error) {
		if _, err := parsePrintedKyu(s); err != nil {
			return "", err
		}
		return s, nil
	}}
	rateLimit = kind{name: "count/duration or off", parse: func(s string) (string, error) {
		if _, err := ratelimit.ParseLimit(s); err != nil {
			return "", err
		}
		return s, nil
	}}
	proxies = kind{name: "CIDRs, comma-separated", parse: func(s string) (string, error) {
		if _, err := ratelimit.ParseProxies(s); err != nil {
			return "", err
		}
		return s, nil
	}}
)

// passwords finds the password of a PostgreSQL URL or key=value string.
var passwords = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(password\s*=\s*)(?:'(?:[^'\\]|\\.)*'|\S+)`),
	regexp.MustCompile(`(://[^:/@\s]*:)[^@\s]*(@)`),
}

// redact is s as messages and -h may show it.
func (k kind) redact(s string) string {
	if k.secret {
		for _, re := range passwords {
			s = re.ReplaceAllString(s, "${1}xxxxx$2")
		}
	}
	return s
}

type textSetting struct {
	p *string
	k kind
}

func text(k kind, field func(*Config) *string) func(*Config) setting {
	return func(c *Config) setting { return &textSetting{field(c), k} }
}

func (t *textSetting) Set(s string) error {
	v, err := t.k.parse(s)
	if err == nil {
		*t.p = v
	}
	return err
}

func (t *textSetting) String() string {
	if t == nil || t.p == nil {
		return ""
	}
	return t.k.redact(*t.p)
}

func (t *textSetting) check() error            { _, err := t.k.parse(*t.p); return err }
func (t *textSetting) syntax() string          { return t.k.name }
func (t *textSetting) display(s string) string { return strconv.Quote(t.k.redact(s)) }

// durationSetting is a Go duration (90s, 12h, 168h: there is no d); every
// duration of the server must be positive.
type durationSetting struct{ p *time.Duration }

func duration(field func(*Config) *time.Duration) func(*Config) setting {
	return func(c *Config) setting { return &durationSetting{field(c)} }
}

func (d *durationSetting) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if err := positive(v); err != nil {
		return err
	}
	*d.p = v
	return nil
}

func positive(d time.Duration) error {
	if d <= 0 {
		return errors.New("want a positive duration")
	}
	return nil
}

func (d *durationSetting) String() string {
	if d == nil || d.p == nil {
		return ""
	}
	return d.p.String()
}

func (d *durationSetting) check() error            { return positive(*d.p) }
func (d *durationSetting) syntax() string          { return "duration" }
func (d *durationSetting) display(s string) string { return strconv.Quote(s) }

// boolSetting is true or false; a bare flag is true.
type boolSetting struct{ p *bool }

func boolean(field func(*Config) *bool) func(*Config) setting {
	return func(c *Config) setting { return &boolSetting{field(c)} }
}

func (b *boolSetting) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true or false")
	}
	*b.p = v
	return nil
}

// IsBoolFlag lets the flag stand alone (--log-key-rotate).
func (b *boolSetting) IsBoolFlag() bool { return true }

func (b *boolSetting) String() string {
	if b == nil || b.p == nil {
		return ""
	}
	return strconv.FormatBool(*b.p)
}

func (b *boolSetting) check() error            { return nil }
func (b *boolSetting) syntax() string          { return "true or false" }
func (b *boolSetting) display(s string) string { return strconv.Quote(s) }

type countSetting struct {
	p        *int
	min, max int
}

func count(min, max int, field func(*Config) *int) func(*Config) setting {
	return func(c *Config) setting { return &countSetting{field(c), min, max} }
}

func (n *countSetting) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want a whole number from %d to %d", n.min, n.max)
	}
	*n.p = v
	return n.check()
}

func (n *countSetting) check() error {
	if *n.p < n.min || *n.p > n.max {
		return fmt.Errorf("want %d to %d", n.min, n.max)
	}
	return nil
}

func (n *countSetting) String() string {
	if n == nil || n.p == nil {
		return ""
	}
	return strconv.Itoa(*n.p)
}

func (n *countSetting) syntax() string          { return fmt.Sprintf("%d to %d", n.min, n.max) }
func (n *countSetting) display(s string) string { return strconv.Quote(s) }

// listSetting is a repeatable flag, a comma-separated variable. The flags
// replace the variable's list rather than add to it, as every other flag
// replaces its variable.
type listSetting struct {
	p       *[]string
	k       kind
	flagged bool
}

func list(k kind, field func(*Config) *[]string) func(*Config) setting {
	return func(c *Config) setting { return &listSetting{p: field(c), k: k} }
}

func (l *listSetting) Set(s string) error {
	v, err := l.k.parse(s)
	if err != nil {
		return err
	}
	if !l.flagged {
		*l.p, l.flagged = nil, true
	}
	*l.p = append(*l.p, v)
	return nil
}

func (l *listSetting) setEnv(s string) error {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := l.k.parse(f)
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	*l.p = out
	return nil
}

func (l *listSetting) check() error {
	for _, s := range *l.p {
		if _, err := l.k.parse(s); err != nil {
			return err
		}
	}
	return nil
}

func (l *listSetting) String() string {
	if l == nil || l.p == nil {
		return ""
	}
	out := make([]string, len(*l.p))
	for i, s := range *l.p {
		out[i] = l.k.redact(s)
	}
	return strings.Join(out, ",")
}

func (l *listSetting) syntax() string          { return l.k.name + "s" }
func (l *listSetting) display(s string) string { return strconv.Quote(l.k.redact(s)) }

// configDoc is docs/configuration.md, made from the table.
func configDoc() string {
	var b strings.Builder
	b.WriteString(`# Configuration of dankyud

<!-- Made from the option table in internal/server/options.go by
     go generate ./internal/server (TestConfigurationDoc fails when it is stale). Do not edit. -->

Every setting of the server is a flag and an environment variable. A flag
beats its variable, which beats the default; an empty variable counts as
unset. A variable is read by the same parser as its flag: one that parser
refuses stops the server at start with a message naming the variable and its
value (a password in a PostgreSQL URL shown as xxxxx), as a bad flag does.
Durations are Go durations (90s, 12h, 168h; there is no d) and must be
positive. ` + "`dankyud -h`" + ` prints the same list.
`)
	for _, g := range groups {
		fmt.Fprintf(&b, "\n## %s\n\n| flag | environment | value | default | meaning |\n| --- | --- | --- | --- | --- |\n", g)
		for _, o := range options {
			if o.group != g {
				continue
			}
			def := "(none)"
			if o.def != "" {
				def = "`" + o.def + "`"
			}
			fmt.Fprintf(&b, "| `--%s` | `%s` | %s | %s | %s |\n", o.flag, o.env, mdCell(o.value(&Config{}).syntax()), def, mdCell(o.help))
		}
	}
	b.WriteString(`
Not a flag: PG_BINDIR names the folder of initdb and pg_ctl for the
embedded cluster (else PATH, ` + "`pg_config --bindir`, `/usr/lib/postgresql/*/bin`" + `).
`)
	return b.String()
}

// mdCell escapes what would end a Markdown table cell or open a tag.
func mdCell(s string) string { return strings.NewReplacer("|", `\|`, "<", "&lt;").Replace(s) }
