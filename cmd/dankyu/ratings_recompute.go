package main

import (
	"context"
	"fmt"
	"time"

	"github.com/dankyu/dankyu/ratings/book"
)

// ratingsRecompute rebuilds every rating of the registry from the games of
// its finished events, in time order, as the system (the event log records
// the operating-system user who ran it).
func ratingsRecompute(ctx context.Context, c *call, args []string) error {
	fs := c.flags()
	store, _, closeDB, err := openRegistry(ctx, c, fs, args, func() error {
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
	fmt.Fprintf(c.stdout, "recomputed run %d: %d events, %d games, %d players in %s\n",
		run.ID, run.Events, run.Games, run.Players, time.Since(start).Round(time.Millisecond))
	return nil
}
