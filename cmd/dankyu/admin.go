package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/user"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/internal/server"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// cliActor is who the event log records for changes made with this tool:
// the operating-system user who ran it.
func cliActor() ledger.Actor {
	name := "cli"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = "cli:" + u.Username
	}
	return ledger.Actor{Kind: ledger.SystemActor, Name: name}
}

// databaseFlags registers --data-dir on fs; the returned func, called
// after parsing, says where the database is (the environment's URLs first).
func databaseFlags(fs *flag.FlagSet, getenv func(string) string) func() server.DatabaseSource {
	def := getenv("DANKYU_DATA_DIR")
	if def == "" {
		def = "./.dankyu"
	}
	dataDir := fs.String("data-dir", def, "embedded cluster folder (DANKYU_DATA_DIR)")
	return func() server.DatabaseSource {
		return server.DatabaseSource{URL: getenv("DANKYU_DATABASE_URL"), MigrationURL: getenv("DANKYU_MIGRATION_URL"), DataDir: *dataDir}
	}
}

// openRegistry opens the configured database; the returned func closes it
// (and stops an embedded cluster only if this command started it).
// check, when not nil, validates the parsed flags before the database opens.
func openRegistry(ctx context.Context, fs *flag.FlagSet, args []string, getenv func(string) string, stderr io.Writer, check func() error) (*ledger.Store, *registry.Service, func(), error) {
	source := databaseFlags(fs, getenv)
	if err := fs.Parse(args); err != nil {
		return nil, nil, nil, usageError(err.Error())
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, nil, nil, err
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := server.OpenDatabase(ctx, source(), false, log)
	if err != nil {
		return nil, nil, nil, err
	}
	store := ledger.New(db.Pool, time.Now, log)
	return store, registry.New(store), func() { _ = db.Close(context.Background()) }, nil
}

func tokenCmd(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		return usageError("usage: dankyu token create|revoke|list")
	}
	fs := flag.NewFlagSet("token "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	switch args[0] {
	case "create":
		agency := fs.String("agency", "", "3-digit province prefix of the agency")
		staff := fs.String("staff", "", "name of the staff member")
		_, reg, closeDB, err := openRegistry(ctx, fs, args[1:], getenv, stderr, func() error {
			if (*agency == "") == (*staff == "") {
				return usageError("token create: give exactly one of --agency PREFIX or --staff NAME")
			}
			return nil
		})
		if err != nil {
			return err
		}
		defer closeDB()
		kind := ledger.StaffActor
		if *agency != "" {
			kind = ledger.AgencyActor
		}
		tok, info, err := reg.CreateToken(ctx, cliActor(), kind, *agency, *staff)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, tok)
		fmt.Fprintf(stderr, "token %d created; it is shown only this once\n", info.ID)
		return nil
	case "revoke":
		var id int64
		_, reg, closeDB, err := openRegistry(ctx, fs, args[1:], getenv, stderr, func() error {
			if fs.NArg() != 1 {
				return usageError("usage: dankyu token revoke ID")
			}
			var err error
			if id, err = strconv.ParseInt(fs.Arg(0), 10, 64); err != nil {
				return usageError(fmt.Sprintf("token revoke: %q is not a token number (see dankyu token list)", fs.Arg(0)))
			}
			return nil
		})
		if err != nil {
			return err
		}
		defer closeDB()
		if err := reg.RevokeToken(ctx, cliActor(), id); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "token %d revoked\n", id)
		return nil
	case "list":
		_, reg, closeDB, err := openRegistry(ctx, fs, args[1:], getenv, stderr, nil)
		if err != nil {
			return err
		}
		defer closeDB()
		ts, err := reg.ListTokens(ctx)
		if err != nil {
			return err
		}
		for _, t := range ts {
			who := "staff:" + t.StaffName
			if t.Kind == ledger.AgencyActor {
				who = "agency:" + t.Agency
			}
			state := "active"
			if t.RevokedAt != nil {
				state = "revoked " + t.RevokedAt.Format(time.RFC3339)
			}
			fmt.Fprintf(stdout, "%d\t%s\t%s\t%s\n", t.ID, who, t.CreatedAt.Format(time.RFC3339), state)
		}
		return nil
	}
	return usageError(fmt.Sprintf("token: unknown subcommand %q (create, revoke, list)", args[0]))
}

func logCmd(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 || (args[0] != "verify" && args[0] != "checkpoint") {
		return usageError("usage: dankyu log verify [--checkpoint FILE] | dankyu log checkpoint")
	}
	fs := flag.NewFlagSet("log "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	logKey := fs.String("log-key", getenv("DANKYU_LOG_KEY"), "event log signing key file; default <data-dir>/log.key (DANKYU_LOG_KEY)")
	checkpoint := ""
	if args[0] == "verify" {
		fs.StringVar(&checkpoint, "checkpoint", "", "a checkpoint saved outside the database (from dankyu log checkpoint or /log/checkpoint)")
	}
	var dataDir string
	store, _, closeDB, err := openRegistry(ctx, fs, args[1:], getenv, stderr, func() error {
		dataDir = fs.Lookup("data-dir").Value.String()
		return nil
	})
	if err != nil {
		return err
	}
	defer closeDB()
	var skey, vkey string
	if args[0] == "checkpoint" || checkpoint != "" {
		if skey, vkey, err = server.LoadLogKey(server.LogKeyPath(*logKey, dataDir)); err != nil {
			return err
		}
	}
	if args[0] == "checkpoint" {
		signer, err := ledger.NewTreeSigner(store.DB(), skey, vkey)
		if err != nil {
			return err
		}
		msg, err := signer.Checkpoint(ctx)
		if err != nil {
			return err
		}
		_, err = stdout.Write(msg)
		return err
	}
	if checkpoint == "" {
		n, err := ledger.VerifyLog(ctx, store.DB())
		var broken *ledger.BrokenLink
		if errors.As(err, &broken) {
			return fmt.Errorf("event log broken after %d good rows: %w", n, err)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "event log intact: %d rows verified\n", n)
		return nil
	}
	msg, err := os.ReadFile(checkpoint)
	if err != nil {
		return fmt.Errorf("read checkpoint: %w", err)
	}
	tree, err := ledger.OpenCheckpoint(msg, vkey)
	if err != nil {
		return fmt.Errorf("%s: %w", checkpoint, err)
	}
	n, err := ledger.VerifyCheckpoint(ctx, store.DB(), tree)
	var (
		broken   *ledger.BrokenLink
		mismatch *ledger.TreeMismatch
	)
	switch {
	case errors.As(err, &broken):
		return fmt.Errorf("event log broken after %d good rows: %w", n, err)
	case errors.As(err, &mismatch):
		return fmt.Errorf("event log does not match the checkpoint of %d rows: %w", tree.N, err)
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "event log intact: %d rows verified, consistent with the checkpoint of %d rows\n", n, tree.N)
	return nil
}
