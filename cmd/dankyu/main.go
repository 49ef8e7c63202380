// Command dankyu is the registry's command-line tool: offline ID checks,
// token administration, event-log verification, game adjudication,
// pairing tables, tournament-file checks and rating evaluation.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `usage: dankyu <command> [flags] [args]

commands:
  idcheck [--json] ID...                       check resident ID numbers offline
  token create --agency PREFIX | --staff NAME  print a new API token (shown once)
  token revoke ID                              revoke a token by its number
  token list                                   list tokens (never the tokens themselves)
  log verify [--checkpoint FILE]               walk the event log's hash chain; with a saved
                                               checkpoint, also catch deleted or recomputed rows
  backup --out FILE                            a consistent backup while the server runs (pg_dump)
  restore --in FILE                            load a backup into a fresh data folder or empty database
  log checkpoint                               print the signed tree head of the event log (save it elsewhere)
  adjudicate [flags] FILE.sgf...               replay and count game records (see adjudicate -h)
  pairings --system S --players N [--json]     print a round-robin (Berger) or knockout table
  import --dry-run [--format F] [--json] FILE  check an EGD h-file, OpenGotha XML or pairgoth file offline
  ratings predict --games FILE --out PRED.csv  P(black wins) for each game before its result is used
  ratings eval --games FILE                    log-loss, Brier, accuracy, calibration of every system per split
  ratings recompute                            rebuild every rating of the registry from its finished events
  generate national [--years Y] [--seed N] [--scale small|national] [--anomaly KIND[=AGENCY][:SIZE]]... [--dump FILE]
                                               fill a fresh database with a national data set (see docs/national-data.md)

Commands that use the database read DANKYU_DATABASE_URL, or else use the
embedded cluster in --data-dir (DANKYU_DATA_DIR, default ./.dankyu).
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// run executes one command and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "idcheck":
		return idcheck(args[1:], stdout, stderr)
	case "token":
		err = tokenCmd(ctx, args[1:], stdout, stderr, getenv)
	case "adjudicate":
		return adjudicate(args[1:], os.Stdin, stdout, stderr)
	case "pairings":
		return pairingsCmd(args[1:], stdout, stderr)
	case "import":
		return importCmd(args[1:], stdout, stderr)
	case "ratings":
		return ratingsCmd(ctx, args[1:], stdout, stderr, getenv)
	case "backup", "restore":
		err = backupCmd(ctx, args[0], args[1:], stdout, stderr, getenv)
	case "generate":
		err = generateCmd(ctx, args[1:], stdout, stderr, getenv)
	case "log":
		err = logCmd(ctx, args[1:], stdout, stderr, getenv)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "dankyu: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "dankyu:", err)
		if _, ok := err.(usageError); ok {
			return 2
		}
		return 1
	}
	return 0
}

// usageError is a mistake in the command line itself.
type usageError string

func (e usageError) Error() string { return string(e) }
