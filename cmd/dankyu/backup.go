package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/dankyu/dankyu/internal/server"
)

// backupCmd runs `dankyu backup --out FILE` and `dankyu restore --in FILE`
// on PostgreSQL's own pg_dump and pg_restore.
func backupCmd(ctx context.Context, name string, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	source := databaseFlags(fs, getenv)
	file := fs.String(map[string]string{"backup": "out", "restore": "in"}[name], "", "the backup file (pg_dump custom format)")
	if err := fs.Parse(args); err != nil {
		return usageError(err.Error())
	}
	if *file == "" || fs.NArg() > 0 {
		return usageError(fmt.Sprintf("usage: dankyu backup --out FILE | dankyu restore --in FILE (got %s %v)", name, args))
	}
	src := source()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if name == "backup" {
		if err := server.Backup(ctx, src, *file, log); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "backed up to %s\n", *file)
		return nil
	}
	if err := server.Restore(ctx, src, *file, log); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %s; check it with: dankyu log verify --checkpoint FILE\n", *file)
	return nil
}
