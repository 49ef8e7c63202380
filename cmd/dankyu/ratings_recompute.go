package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/dankyu/dankyu/ratings/book"
)

// ratingsRecompute rebuilds every rating of the registry from the games of
// its finished events, in time order, as the system (the event log records
// the operating-system user who ran it).
func ratingsRecompute(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("ratings recompute", flag.ContinueOnError)
	fs.SetOutput(stderr)
	store, _, closeDB, err := openRegistry(ctx, fs, args, getenv, stderr, func() error {
		if fs.NArg() > 0 {
			return usageError("ratings recompute takes no arguments")
		}
		return nil
	})
	if err != nil {
		return err
	}
	defer closeDB()
	start := time.Now()
	run, err := book.New(store).Recompute(ctx, cliActor(), "")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "recomputed run %d: %d events, %d games, %d players in %s\n",
		run.ID, run.Events, run.Games, run.Players, time.Since(start).Round(time.Millisecond))
	return nil
}
