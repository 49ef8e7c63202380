// Command dankyu is the registry's command-line tool: offline ID checks,
// token administration, event-log verification, game adjudication,
// pairing tables, tournament-file checks and rating evaluation.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// command is one command of the tool, or a group of them (token, log,
// ratings, generate) when it has subs.
type command struct {
	name  string
	args  string // its flags and arguments, as usage shows them
	short string // what it does, for dankyu help
	run   func(ctx context.Context, c *call, args []string) error
	subs  []*command
}

// commands is the tool's table of commands, in the order help lists them.
func commands() []*command {
	return []*command{
		{name: "idcheck", args: "[--json] ID...", short: "check resident ID numbers offline", run: idcheck},
		{name: "token", short: "API tokens", subs: []*command{
			{name: "create", args: "--agency PREFIX | --staff NAME", short: "print a new API token (shown once)", run: tokenCreate},
			{name: "revoke", args: "ID", short: "revoke a token by its number", run: tokenRevoke},
			{name: "list", short: "list tokens (never the tokens themselves)", run: tokenList},
		}},
		{name: "log", short: "the event log", subs: []*command{
			{name: "verify", args: "[--checkpoint FILE]", short: "walk the event log's hash chain; with a saved\ncheckpoint, also catch deleted or recomputed rows", run: logVerify},
			{name: "checkpoint", short: "print the signed tree head of the event log (save it elsewhere)", run: logCheckpoint},
			{name: "certificate", args: "--server URL [--key FILE] [--checkpoint FILE] NUMBER",
				short: "check a certificate's verification against the public log,\nwith the portal's public endpoints only", run: logCertificate},
		}},
		{name: "certificate", short: "printed certificates", subs: []*command{
			{name: "verify-offline", args: "--key FILE [--server URL] QR-TEXT | -",
				short: "check a printed certificate's QR code with the log's key, offline;\nwith --server, also its current status through the log", run: certificateVerifyOffline},
		}},
		{name: "backup", args: "--out FILE", short: "a consistent backup while the server runs (pg_dump)", run: backup},
		{name: "restore", args: "--in FILE", short: "load a backup into a fresh data folder or empty database", run: restore},
		{name: "pitr", short: "point-in-time recovery of the embedded cluster with pgBackRest", subs: []*command{
			{name: "setup", args: "--repo DIR", short: "turn on continuous WAL archiving into DIR and take a first full backup", run: pitrSetup},
			{name: "backup", args: "--repo DIR [--type full|diff|incr]", short: "a backup into the repository (schedule one daily)", run: pitrBackup},
			{name: "archive", args: "--repo DIR", short: "close the current WAL segment and wait until it is archived", run: pitrArchive},
			{name: "restore", args: "--repo DIR --to TIME --into NEWDIR --checkpoint FILE",
				short: "the cluster as it was at TIME in a fresh data folder, migrated,\nits log verified against the checkpoint", run: pitrRestore},
		}},
		{name: "cluster", short: "a pg_auto_failover formation on this machine (monitor, primary, synchronous secondary)", subs: []*command{
			{name: "init", args: "--dir DIR [--monitor-port P] [--port1 P] [--port2 P]", short: "create and start the formation; print the multi-host URLs", run: clusterInit},
			{name: "start", args: "--dir DIR", short: "start the formation's monitor and nodes", run: clusterStart},
			{name: "stop", args: "--dir DIR", short: "stop the nodes, then the monitor", run: clusterStop},
			{name: "status", args: "--dir DIR", short: "each node's state as the monitor sees it, and the URLs", run: clusterStatus},
		}},
		{name: "adjudicate", args: "[flags] FILE.sgf...", short: "replay and count game records (see adjudicate -h)", run: adjudicate},
		{name: "pairings", args: "--system S --players N [--json]", short: "print a round-robin (Berger) or knockout table", run: pairings},
		{name: "import", args: "--dry-run [--format F] [--json] FILE", short: "check an EGD h-file, OpenGotha XML or pairgoth file offline", run: importDryRun},
		{name: "ratings", short: "rating systems and the registry's ratings", subs: []*command{
			{name: "predict", args: "--games FILE [--batch game|round] [--system S] [--split S] --out PRED.csv", short: "P(black wins) for each game before its result is used", run: ratingsPredict},
			{name: "eval", args: "--games FILE [--batch game|round] [--split S,...] [--budget N] [--markdown]", short: "log-loss, Brier, accuracy, calibration of every system per split", run: ratingsEval},
			{name: "tune", args: "--games FILE (--eval-from DATE | --eval-frac F) [--batch game|round] [--budget N] | --registry [--eval-frac F] [--data-dir DIR]", short: "tune our system on the earlier games of any history (or the registry's, stored as a new version), score it on the later", run: ratingsTune},
			{name: "recompute", args: "[--data-dir DIR]", short: "rebuild every rating of the registry from its finished events", run: ratingsRecompute},
		}},
		{name: "generate", short: "data sets", subs: []*command{
			{name: "national", args: "[--years Y] [--seed N] [--scale small|national] [--anomaly KIND[=AGENCY][:SIZE]]... [--manifest FILE] [--dump FILE]",
				short: "fill a fresh database with a national data set (see docs/national-data.md)", run: generateNational},
		}},
		{name: "help", args: "[command]", short: "this list, or the usage of one command"},
	}
}

// call is what a command runs with: its full name, the streams and the
// environment.
type call struct {
	name           string // e.g. "token create"
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// flags is a flag set of the command that prints nothing: run reports a
// mistake once, and -h as help.
func (c *call) flags() *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses the command's flags: a mistake is a usageError, -h a
// helpRequest.
func (c *call) parse(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return helpRequest{fs}
	}
	if err != nil {
		return usageError(err.Error())
	}
	return nil
}

// usageError is a mistake in the command line itself (exit status 2).
type usageError string

func (e usageError) Error() string { return string(e) }

// helpRequest is -h: the command's usage and flags go to standard output.
type helpRequest struct{ fs *flag.FlagSet }

func (helpRequest) Error() string { return "help requested" }

const footer = `
Commands that use the database read DANKYU_DATABASE_URL, or else use the
embedded cluster in --data-dir (DANKYU_DATA_DIR, default ./.dankyu).
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// run executes one command and returns the exit status: 0, 1 when it
// failed, 2 when the command line is wrong. Its error is printed here, once.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	c := &call{stdin: os.Stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	return c.dispatch(ctx, commands(), args)
}

// dispatch finds the command args name in table, descending into groups,
// and runs it.
func (c *call) dispatch(ctx context.Context, table []*command, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, usage(c.name, table))
		return 2
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		return c.help(ctx, table, args[1:])
	}
	cmd := find(table, args[0])
	if cmd == nil {
		fmt.Fprintf(c.stderr, "%s: unknown command %q\n\n%s", strings.TrimSpace("dankyu "+c.name), args[0], usage(c.name, table))
		return 2
	}
	c.name = strings.TrimSpace(c.name + " " + cmd.name)
	if cmd.subs != nil {
		return c.dispatch(ctx, cmd.subs, args[1:])
	}
	err := cmd.run(ctx, c, args[1:])
	var help helpRequest
	switch {
	case err == nil:
		return 0
	case errors.As(err, &help):
		fmt.Fprintf(c.stdout, "usage: dankyu %s %s\n\n%s\n", c.name, cmd.args, cmd.short)
		if hasFlags(help.fs) {
			fmt.Fprintln(c.stdout, "\nflags:")
			help.fs.SetOutput(c.stdout)
			help.fs.PrintDefaults()
		}
		return 0
	}
	fmt.Fprintf(c.stderr, "dankyu %s: %v\n", c.name, err)
	if _, ok := err.(usageError); ok {
		fmt.Fprintf(c.stderr, "usage: dankyu %s %s\n", c.name, cmd.args)
		return 2
	}
	return 1
}

// help prints the commands of table, or the usage and flags of the one
// args names (as its -h does).
func (c *call) help(ctx context.Context, table []*command, args []string) int {
	for len(args) > 0 {
		cmd := find(table, args[0])
		if cmd == nil {
			fmt.Fprintf(c.stderr, "dankyu help: unknown command %q\n", strings.Join(args, " "))
			return 2
		}
		if cmd.run == nil && cmd.subs == nil { // help itself
			fmt.Fprintf(c.stdout, "usage: dankyu %s %s\n\n%s\n", cmd.name, cmd.args, cmd.short)
			return 0
		}
		if cmd.subs == nil {
			return c.dispatch(ctx, table, []string{cmd.name, "-h"})
		}
		c.name = strings.TrimSpace(c.name + " " + cmd.name)
		table, args = cmd.subs, args[1:]
	}
	fmt.Fprint(c.stdout, usage(c.name, table))
	return 0
}

func find(table []*command, name string) *command {
	for _, cmd := range table {
		if cmd.name == name {
			return cmd
		}
	}
	return nil
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// usage lists the commands of table under the group prefix, each with its
// arguments and what it does, groups expanded.
func usage(prefix string, table []*command) string {
	type line struct{ use, short string }
	var lines []line
	var walk func(prefix string, table []*command)
	walk = func(prefix string, table []*command) {
		for _, cmd := range table {
			name := strings.TrimSpace(prefix + " " + cmd.name)
			if cmd.subs != nil {
				walk(name, cmd.subs)
				continue
			}
			lines = append(lines, line{strings.TrimSpace(name + " " + cmd.args), cmd.short})
		}
	}
	walk(prefix, table)
	const col = 47 // where the descriptions start; a longer usage gets a line of its own
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s <command> [flags] [args]\n\ncommands:\n", strings.TrimSpace("dankyu "+prefix))
	for _, l := range lines {
		short := strings.ReplaceAll(l.short, "\n", "\n"+strings.Repeat(" ", col))
		if len(l.use) <= col-4 {
			fmt.Fprintf(&b, "  %-*s%s\n", col-2, l.use, short)
		} else {
			fmt.Fprintf(&b, "  %s\n%s%s\n", l.use, strings.Repeat(" ", col), short)
		}
	}
	b.WriteString(footer)
	return b.String()
}
