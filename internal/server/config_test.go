package server

import (
	"flag"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite docs/configuration.md from the option table")

// newFlagSet is the server's flag set, quiet: the tests read the errors.
func newFlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("dankyud", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

const docPath = "../../docs/configuration.md"

// TestConfigurationDoc: the committed document is the one the table makes
// (go generate ./internal/server rewrites it).
func TestConfigurationDoc(t *testing.T) {
	want := configDoc()
	if *update {
		if err := os.WriteFile(docPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is stale: run go generate ./internal/server", docPath)
	}
	for _, o := range options {
		if !strings.Contains(want, "`"+o.env+"`") {
			t.Errorf("the document lacks %s", o.env)
		}
	}
}

// garbage is, for every variable of the table, a value that cannot work.
var garbage = map[string]string{
	"DANKYU_GRPC_ADDR":                "9090",
	"DANKYU_HTTP_ADDR":                "localhost",
	"DANKYU_PUBLIC_URL":               "dankyu.example",
	"DANKYU_CACHE_MAX_AGE":            "60",
	"DANKYU_CACHE_STALE_IF_ERROR":     "-1h",
	"DANKYU_CACHE_PURGE_URL":          "varnish:6081",
	"DANKYU_METRICS_LISTEN":           "on",
	"DANKYU_DATABASE_URL":             "postgres://%zz",
	"DANKYU_MIGRATION_URL":            "localhost:5432",
	"DANKYU_DB_CHECK_INTERVAL":        "2",
	"DANKYU_REPLICAS":                 "two",
	"DANKYU_REPLICA_URL":              "host=/a, postgres://u:pw@h:99999/db",
	"DANKYU_REPLICA_MAX_LAG":          "-5s",
	"DANKYU_REPLICA_CHECK_INTERVAL":   "0s",
	"DANKYU_LOG_FORMAT":               "xml",
	"DANKYU_SHUTDOWN_TIMEOUT":         "soon",
	"DANKYU_NOTICE_PERIOD":            "7d",
	"DANKYU_PRINTED_KYU":              "1,31",
	"DANKYU_SWEEP_INTERVAL":           "1 minute",
	"DANKYU_OBJECTION_OVERDUE":        "3d",
	"DANKYU_OBJECTION_DEADLINE":       "14d",
	"DANKYU_SESSION_TTL":              "1d",
	"DANKYU_FORM_TTL":                 "2hours",
	"DANKYU_HTTP_READ_TIMEOUT":        "0",
	"DANKYU_HTTP_WRITE_TIMEOUT":       "60",
	"DANKYU_HTTP_IDLE_TIMEOUT":        "-1s",
	"DANKYU_RATE_VERIFY":              "60 per minute",
	"DANKYU_RATE_OBJECTION":           "5/0s",
	"DANKYU_RATE_LOGIN":               "-1/1m",
	"DANKYU_RATE_ADJUDICATE":          "30/min",
	"DANKYU_TRUSTED_PROXIES":          "10.0.0.0/33",
	"DANKYU_GRPC_IN_FLIGHT":           "-1",
	"DANKYU_GRPC_IN_FLIGHT_SIGNED_IN": "many",
	"DANKYU_IDEMPOTENCY_TTL":          "1w",
	"DANKYU_MIN_FREE_SPACE":           "512MB",
	"DANKYU_LOG_ORIGIN":               "two words",
	"DANKYU_LOG_CHECK_INTERVAL":       "every minute",
	"DANKYU_LOG_CHECKPOINT_REFRESH":   "1 hour",
	"DANKYU_LOG_KEY_ROTATE":           "maybe",
	"DANKYU_WEBHOOK_PRIVATE_NETWORKS": "sometimes",
}

// anyString are the variables every value of which is a path the server
// may use: whether it works shows only when the server opens it at start
// (the data folder and the log key are created then; a missing font is
// warned about and only disables certificate PDFs).
var anyString = map[string]string{
	"DANKYU_DATA_DIR":  "a folder, created on first start",
	"DANKYU_LOG_KEY":   "a file, created on first start",
	"DANKYU_LOG_HEAD":  "a file, written as the server signs",
	"DANKYU_CERT_FONT": "a file, checked and warned about at start",
}

// TestEveryVariableRefused sets each variable of the table in turn to
// garbage and expects the configuration to be refused with a message
// naming the variable and its value, however valid the flags are.
func TestEveryVariableRefused(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range options {
		seen[o.env] = true
		bad, ok := garbage[o.env]
		if !ok {
			if _, free := anyString[o.env]; !free {
				t.Errorf("%s has no garbage to test it with and is not listed as taking any string", o.env)
			}
			continue
		}
		t.Run(o.env, func(t *testing.T) {
			for _, args := range [][]string{nil, {"--" + o.flag, o.def}} {
				if o.def == "" && args != nil {
					continue
				}
				fs := newFlagSet()
				_, err := ParseConfig(fs, args, func(k string) string {
					if k == o.env {
						return bad
					}
					return ""
				})
				if err == nil {
					t.Fatalf("%s=%q with flags %q accepted", o.env, bad, args)
				}
				shown := o.value(&Config{}).display(bad)
				if !strings.Contains(err.Error(), o.env+"="+shown) {
					t.Fatalf("%s=%q: error %q does not name the variable and its value", o.env, bad, err)
				}
			}
		})
	}
	for env := range garbage {
		if !seen[env] {
			t.Errorf("garbage for %s, which is not in the table", env)
		}
	}
	for env := range anyString {
		if !seen[env] {
			t.Errorf("%s listed as taking any string is not in the table", env)
		}
	}
}

// TestDefaultsValid: with nothing set, the table's defaults parse and
// validate together.
func TestDefaultsValid(t *testing.T) {
	c, err := ParseConfig(newFlagSet(), nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if c.SessionTTL != 12*time.Hour || c.GRPCAddr != "127.0.0.1:9090" || c.Scale.MetricsListen != "127.0.0.1:9464" || c.PrintedKyu != "1,2,5,10,15,20,25" {
		t.Fatalf("defaults %+v", c)
	}
}

// TestPrecedence: a flag beats its variable, which beats the default; a
// repeated flag replaces a list variable.
func TestPrecedence(t *testing.T) {
	env := map[string]string{"DANKYU_SESSION_TTL": "3h", "DANKYU_FORM_TTL": "20m", "DANKYU_DATABASE_URL": "host=/p",
		"DANKYU_REPLICA_URL": "host=/a, host=/b", "DANKYU_METRICS_LISTEN": "off", "DANKYU_PRINTED_KYU": "none"}
	for _, tt := range []struct {
		args     []string
		session  time.Duration
		replicas string
	}{
		{nil, 3 * time.Hour, "host=/a;host=/b"},
		{[]string{"--session-ttl", "90m", "--replica-url", "host=/c", "--replica-url", "host=/d"}, 90 * time.Minute, "host=/c;host=/d"},
	} {
		c, err := ParseConfig(newFlagSet(), tt.args, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if c.SessionTTL != tt.session || c.FormTTL != 20*time.Minute || c.HTTPReadTimeout != 30*time.Second ||
			strings.Join(c.Scale.ReplicaURLs, ";") != tt.replicas || c.Scale.MetricsListen != "" {
			t.Errorf("%q: session %s form %s read %s replicas %q metrics %q", tt.args, c.SessionTTL, c.FormTTL,
				c.HTTPReadTimeout, c.Scale.ReplicaURLs, c.Scale.MetricsListen)
		}
		if kyu, err := c.printedKyu(); err != nil || len(kyu) != 0 {
			t.Errorf("printed kyu none: %v %v", kyu, err)
		}
	}
}

// TestConfigErrorsHidePasswords: a refused PostgreSQL URL is named without
// its password, in both of its spellings.
func TestConfigErrorsHidePasswords(t *testing.T) {
	for _, v := range []string{"postgres://dankyu:s3cret@db:99999/dankyu", "host=db port=x password=s3cret", "host=db port=x password='s3 cret'"} {
		_, err := ParseConfig(newFlagSet(), nil, func(k string) string {
			if k == "DANKYU_DATABASE_URL" {
				return v
			}
			return ""
		})
		if err == nil || strings.Contains(err.Error(), "s3") || !strings.Contains(err.Error(), "DANKYU_DATABASE_URL=") {
			t.Errorf("%s: %v", v, err)
		}
	}
}

// TestValidateChecksFields: a Config built in code goes through the same
// parsers as flags and variables.
func TestValidateChecksFields(t *testing.T) {
	var c Config
	if err := c.BindFlags(newFlagSet(), func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	c.SessionTTL, c.RateLogin, c.Scale.Replicas = 0, "lots", 17
	err := c.Validate()
	for _, want := range []string{`--session-ttl "0s": want a positive duration`, `--rate-login "lots"`, `--replicas "17": want 0 to 16`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want %s", err, strconv.Quote(want))
		}
	}
}

func TestUnknownVariables(t *testing.T) {
	got := UnknownVariables([]string{"DANKYU_SESSION_TTL=1h", "DANKYU_SESION_TTL=1h", "PATH=/bin", "DANKYU_DATA_DIR=", "DANKYU_NOTICEPERIOD"})
	if strings.Join(got, ",") != "DANKYU_SESION_TTL,DANKYU_NOTICEPERIOD" {
		t.Fatalf("unknown %q", got)
	}
}
