package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/dankyu/dankyu/internal/server"
)

// backup runs `dankyu backup --out FILE` on PostgreSQL's own pg_dump.
func backup(ctx context.Context, c *call, args []string) error {
	return backupOrRestore(ctx, c, "out", args)
}

// restore runs `dankyu restore --in FILE` on PostgreSQL's own pg_restore.
func restore(ctx context.Context, c *call, args []string) error {
	return backupOrRestore(ctx, c, "in", args)
}

func backupOrRestore(ctx context.Context, c *call, fileFlag string, args []string) error {
	fs := c.flags()
	source := databaseFlags(fs, c.getenv)
	file := fs.String(fileFlag, "", "the backup file (pg_dump custom format)")
	if err := c.parse(fs, args); err != nil {
		return err
	}
	if *file == "" {
		return usageError("--" + fileFlag + " is required")
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Sprintf("unexpected arguments %q", fs.Args()))
	}
	src := source()
	stdout := c.stdout
	log := slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if fileFlag == "out" {
		if err := server.Backup(ctx, src, *file, log); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "backed up to %s\n", *file)
		fmt.Fprintf(c.stderr, "warning: %s holds personal data (every player's full identity number and birth date): "+
			"it is readable by its owner only (mode %04o); keep it so, off shared folders and mail, and delete it when no longer needed\n",
			*file, server.BackupMode)
		return nil
	}
	if err := server.Restore(ctx, src, *file, log); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %s; check it with: dankyu log verify --checkpoint FILE\n", *file)
	return nil
}
