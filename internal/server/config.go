// Package server wires the registry, the gRPC services and the web portal
// into one process over one database.
package server

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"strings"
	"time"
)

// Config is everything the server can be told; each field has a flag and a
// DANKYU_* environment variable.
type Config struct {
	GRPCAddr        string
	HTTPAddr        string
	DataDir         string
	DatabaseURL     string
	ShutdownTimeout time.Duration
	LogFormat       string
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
	fs.StringVar(&c.DatabaseURL, "database-url", env("DANKYU_DATABASE_URL", ""), "PostgreSQL URL; empty runs the embedded cluster (DANKYU_DATABASE_URL)")
	fs.StringVar(&c.LogFormat, "log-format", env("DANKYU_LOG_FORMAT", "text"), "log format: text or json (DANKYU_LOG_FORMAT)")
	d, err := time.ParseDuration(env("DANKYU_SHUTDOWN_TIMEOUT", "15s"))
	if err != nil {
		d = 15 * time.Second
	}
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", d, "how long to drain requests on shutdown (DANKYU_SHUTDOWN_TIMEOUT)")
}

// Validate reports the first setting that cannot work.
func (c *Config) Validate() error {
	var errs []error
	for name, addr := range map[string]string{"grpc-addr": c.GRPCAddr, "http-addr": c.HTTPAddr} {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			errs = append(errs, fmt.Errorf("--%s %q: want host:port: %w", name, addr, err))
		}
	}
	if c.DatabaseURL == "" && strings.TrimSpace(c.DataDir) == "" {
		errs = append(errs, errors.New("--data-dir is empty and no --database-url is set"))
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		errs = append(errs, fmt.Errorf("--log-format %q: want text or json", c.LogFormat))
	}
	if c.ShutdownTimeout <= 0 {
		errs = append(errs, fmt.Errorf("--shutdown-timeout %s: want a positive duration", c.ShutdownTimeout))
	}
	return errors.Join(errs...)
}
