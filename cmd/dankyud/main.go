// Command dankyud is the dankyu registry server: gRPC API and web portal.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/dankyu/dankyu/internal/server"
)

func main() {
	var cfg server.Config
	fs := flag.NewFlagSet("dankyud", flag.ExitOnError)
	cfg.BindFlags(fs, os.Getenv)
	_ = fs.Parse(os.Args[1:])

	var h slog.Handler = slog.NewTextHandler(os.Stderr, nil)
	if cfg.LogFormat == "json" {
		h = slog.NewJSONHandler(os.Stderr, nil)
	}
	log := slog.New(h)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := server.Run(ctx, cfg, log); err != nil {
		fmt.Fprintln(os.Stderr, "dankyud:", err)
		os.Exit(1)
	}
}
