package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
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
func openRegistry(ctx context.Context, c *call, fs *flag.FlagSet, args []string, check func() error) (*ledger.Store, *registry.Service, func(), error) {
	source := databaseFlags(fs, c.getenv)
	if err := c.parse(fs, args); err != nil {
		return nil, nil, nil, err
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, nil, nil, err
		}
	}
	log := slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := server.OpenDatabase(ctx, source(), false, log)
	if err != nil {
		return nil, nil, nil, err
	}
	store := ledger.New(db.Pool, time.Now, log)
	return store, registry.New(store), func() { _ = db.Close(context.Background()) }, nil
}

// tokenCreate prints a new API token of an agency or a staff member.
func tokenCreate(ctx context.Context, c *call, args []string) error {
	fs := c.flags()
	agency := fs.String("agency", "", "3-digit province prefix of the agency")
	staff := fs.String("staff", "", "name of the staff member")
	_, reg, closeDB, err := openRegistry(ctx, c, fs, args, func() error {
		if (*agency == "") == (*staff == "") {
			return usageError("give exactly one of --agency PREFIX or --staff NAME")
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
	fmt.Fprintln(c.stdout, tok)
	fmt.Fprintf(c.stderr, "token %d created; it is shown only this once\n", info.ID)
	return nil
}

// tokenRevoke revokes a token by its number.
func tokenRevoke(ctx context.Context, c *call, args []string) error {
	fs := c.flags()
	var id int64
	_, reg, closeDB, err := openRegistry(ctx, c, fs, args, func() error {
		if fs.NArg() != 1 {
			return usageError("want one token number")
		}
		var err error
		if id, err = strconv.ParseInt(fs.Arg(0), 10, 64); err != nil {
			return usageError(fmt.Sprintf("%q is not a token number (see dankyu token list)", fs.Arg(0)))
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
	fmt.Fprintf(c.stdout, "token %d revoked\n", id)
	return nil
}

// tokenList lists the tokens, never the tokens themselves.
func tokenList(ctx context.Context, c *call, args []string) error {
	fs := c.flags()
	_, reg, closeDB, err := openRegistry(ctx, c, fs, args, nil)
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
		fmt.Fprintf(c.stdout, "%d\t%s\t%s\t%s\n", t.ID, who, t.CreatedAt.Format(time.RFC3339), state)
	}
	return nil
}

// logVerify walks the event log's hash chain, and with a checkpoint
// checks the log is consistent with it.
func logVerify(ctx context.Context, c *call, args []string) error {
	return logCmd(ctx, c, "verify", args)
}

// logCheckpoint prints the signed tree head of the event log.
func logCheckpoint(ctx context.Context, c *call, args []string) error {
	return logCmd(ctx, c, "checkpoint", args)
}

func logCmd(ctx context.Context, c *call, mode string, args []string) error {
	fs := c.flags()
	logKey := fs.String("log-key", c.getenv("DANKYU_LOG_KEY"), "event log signing key file; default <data-dir>/log.key (DANKYU_LOG_KEY)")
	origin := fs.String("log-origin", cmp.Or(c.getenv("DANKYU_LOG_ORIGIN"), ledger.DefaultOrigin), "the log's name in its checkpoints (DANKYU_LOG_ORIGIN)")
	checkpoint := ""
	if mode == "verify" {
		fs.StringVar(&checkpoint, "checkpoint", "", "a checkpoint saved outside the database (from dankyu log checkpoint or /log/checkpoint)")
	}
	var dataDir string
	stdout := c.stdout
	store, _, closeDB, err := openRegistry(ctx, c, fs, args, func() error {
		dataDir = fs.Lookup("data-dir").Value.String()
		return nil
	})
	if err != nil {
		return err
	}
	defer closeDB()
	var skey, vkey string
	if mode == "checkpoint" || checkpoint != "" {
		if skey, vkey, err = cliLogKey(ctx, store, server.LogKeyPath(*logKey, dataDir), *origin); err != nil {
			return err
		}
	}
	if mode == "checkpoint" {
		// signed, not published: the server's witness keeps what it publishes
		notary, err := ledger.NewNotary(skey, vkey, ledger.NotaryOptions{Origin: *origin, Now: store.Now})
		if err != nil {
			return err
		}
		msg, err := notary.Signer(store.DB(), true).Checkpoint(ctx)
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

// cliLogKey reads the log's key; on an empty log (before the server's
// first start) it makes it, as the server would. A key missing from a log
// with events is never replaced here: the server's --log-key-rotate does
// that, and logs it.
func cliLogKey(ctx context.Context, store *ledger.Store, path, origin string) (string, string, error) {
	skey, vkey, err := server.LoadLogKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return skey, vkey, err
	}
	any, herr := ledger.HasEvents(ctx, store.DB())
	if herr != nil {
		return "", "", herr
	}
	if any {
		return "", "", ledger.ReasonLogKeyMissing.New("path", path, "head", server.LogHeadPath("", path))
	}
	return server.CreateLogKey(path, origin)
}
