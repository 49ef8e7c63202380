package main

import (
	"context"
	"fmt"
	"log/slog"
	"text/tabwriter"
	"time"

	"github.com/dankyu/dankyu/internal/pgcluster"
)

// clusterDir parses the cluster commands' one flag, --dir.
func clusterDir(c *call, args []string, ports *[3]int) (string, error) {
	fs := c.flags()
	dir := fs.String("dir", "", "the formation's folder (monitor, node1, node2 and pg_autoctl's state)")
	if ports != nil {
		fs.IntVar(&ports[0], "monitor-port", 0, "the monitor's port on 127.0.0.1 (0: a free one)")
		fs.IntVar(&ports[1], "port1", 0, "node1's port (0: a free one)")
		fs.IntVar(&ports[2], "port2", 0, "node2's port (0: a free one)")
	}
	if err := c.parse(fs, args); err != nil {
		return "", err
	}
	if *dir == "" {
		return "", usageError("--dir is required")
	}
	if fs.NArg() > 0 {
		return "", usageError(fmt.Sprintf("unexpected arguments %q", fs.Args()))
	}
	return *dir, nil
}

func (c *call) warnLog() *slog.Logger {
	return slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// printURLs prints what the server is started with, as lines a shell
// can eval (the URLs hold & and ?).
func printURLs(c *call, f *pgcluster.Formation) {
	fmt.Fprintf(c.stdout, "export DANKYU_DATABASE_URL='%s'\n", f.URL(pgcluster.FormationServerRole))
	fmt.Fprintf(c.stdout, "export DANKYU_MIGRATION_URL='%s'\n", f.URL(pgcluster.FormationOwnerRole))
}

// clusterInit runs `dankyu cluster init --dir D`.
func clusterInit(ctx context.Context, c *call, args []string) error {
	var ports [3]int
	dir, err := clusterDir(c, args, &ports)
	if err != nil {
		return err
	}
	f, err := pgcluster.InitFormation(ctx, dir, ports, c.warnLog())
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "formation running in %s: monitor on 127.0.0.1:%d, node1 (primary) on %d, node2 (synchronous secondary) on %d\n",
		f.Dir, f.Ports[0], f.Ports[1], f.Ports[2])
	printURLs(c, f)
	return nil
}

// clusterStart runs `dankyu cluster start --dir D`.
func clusterStart(ctx context.Context, c *call, args []string) error {
	dir, err := clusterDir(c, args, nil)
	if err != nil {
		return err
	}
	f, err := pgcluster.OpenFormation(dir, c.warnLog())
	if err != nil {
		return err
	}
	if err := f.Start(ctx); err != nil {
		return err
	}
	printURLs(c, f)
	return nil
}

// clusterStop runs `dankyu cluster stop --dir D`.
func clusterStop(ctx context.Context, c *call, args []string) error {
	dir, err := clusterDir(c, args, nil)
	if err != nil {
		return err
	}
	f, err := pgcluster.OpenFormation(dir, c.warnLog())
	if err != nil {
		return err
	}
	if err := f.Stop(ctx); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "formation in %s stopped\n", f.Dir)
	return nil
}

// clusterStatus runs `dankyu cluster status --dir D`: each node as the
// monitor sees it, and the URLs.
func clusterStatus(ctx context.Context, c *call, args []string) error {
	dir, err := clusterDir(c, args, nil)
	if err != nil {
		return err
	}
	f, err := pgcluster.OpenFormation(dir, c.warnLog())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	states, err := f.States(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NODE\tNAME\tADDRESS\tREPORTED\tASSIGNED")
	for _, s := range states {
		fmt.Fprintf(tw, "%d\t%s\t127.0.0.1:%d\t%s\t%s\n", s.ID, s.Name, s.Port, s.Reported, s.Goal)
	}
	tw.Flush()
	printURLs(c, f)
	return nil
}
