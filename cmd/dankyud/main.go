// Command dankyud is the dankyu registry server: gRPC API and web portal.
// Its settings are flags and DANKYU_* environment variables, listed in
// docs/configuration.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/dankyu/dankyu/internal/server"
)

func main() {
	fs := flag.NewFlagSet("dankyud", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // a mistake is printed once, below
	cfg, err := server.ParseConfig(fs, os.Args[1:], os.Getenv)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(os.Stdout)
		fmt.Println("usage: dankyud [flags]\n\nEvery flag is also an environment variable, named after it; a flag beats its variable.")
		fs.PrintDefaults()
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "dankyud:", err)
		os.Exit(2)
	}

	var h slog.Handler = slog.NewTextHandler(os.Stderr, nil)
	if cfg.LogFormat == "json" {
		h = slog.NewJSONHandler(os.Stderr, nil)
	}
	log := slog.New(h)
	for _, name := range server.UnknownVariables(os.Environ()) {
		log.Warn("not a setting of the server, ignored: misspelt?", "variable", name)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := server.Run(ctx, cfg, log); err != nil {
		fmt.Fprintln(os.Stderr, "dankyud:", err)
		os.Exit(1)
	}
}
