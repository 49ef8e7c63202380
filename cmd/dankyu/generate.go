package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/internal/nationaldata"
	"github.com/dankyu/dankyu/internal/server"
)

// anomalyFlags collects repeated --anomaly flags.
type anomalyFlags []nationaldata.Anomaly

func (a *anomalyFlags) String() string { return fmt.Sprint(*a) }

func (a *anomalyFlags) Set(s string) error {
	an, err := nationaldata.ParseAnomaly(s)
	if err != nil {
		return err
	}
	*a = append(*a, an)
	return nil
}

// generateNational runs `dankyu generate national`: it plans a national data set
// from a seed, loads it into the (fresh) database and prints the manifest of
// what was planted. With --dump FILE it saves the loaded database to FILE
// (pg_dump), or, when FILE already exists, restores it instead of generating.
func generateNational(ctx context.Context, c *call, args []string) error {
	stdout, stderr := c.stdout, c.stderr
	fl := c.flags()
	source := databaseFlags(fl, c.getenv)
	years := fl.String("years", "", "audit years, e.g. 2026 or 2025,2026 (default: the current year)")
	seed := fl.Uint64("seed", 1, "the seed: the same seed and flags give the same data")
	scale := fl.String("scale", "small", "small (tests: a few thousand players) or national (≥ 300 000 players)")
	var anomalies anomalyFlags
	fl.Var(&anomalies, "anomaly", "plant an anomaly in the last year: overissue|forfeits|inactive|birthdates|lateresults[=AGENCY][:SIZE] (repeatable)")
	manifestFile := fl.String("manifest", "", "write the manifest (JSON) to this file as well as to standard output")
	dump := fl.String("dump", "", "save the loaded database to FILE; when FILE exists, restore it instead of generating")
	realistic := fl.Bool("realistic", false, "regional circuits, agencies of different habits and a naturally idle agency")
	plant := fl.Bool("plant", false, "after the load, plant the abuses of issue 23 through the services (implies --realistic)")
	if err := c.parse(fl, args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return usageError(fmt.Sprintf("unexpected arguments %q", fl.Args()))
	}
	opts := nationaldata.Options{Seed: *seed, Scale: nationaldata.Scale(*scale), Anomalies: anomalies, Realistic: *realistic || *plant}
	if *years == "" {
		opts.Years = []int{time.Now().Year()}
	}
	for _, y := range strings.Split(*years, ",") {
		if strings.TrimSpace(y) == "" {
			continue
		}
		v, err := strconv.Atoi(strings.TrimSpace(y))
		if err != nil {
			return usageError(fmt.Sprintf("--years %q: want years such as 2025,2026", *years))
		}
		opts.Years = append(opts.Years, v)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	src := source()
	if *dump != "" {
		if _, err := os.Stat(*dump); err == nil {
			return restoreDump(ctx, src, *dump, opts, *plant, *manifestFile, stdout, stderr, log)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	began := time.Now()
	plan, err := nationaldata.Build(opts)
	if err != nil {
		return usageError(err.Error())
	}
	planned := time.Since(began)
	db, err := server.OpenAsOwner(ctx, src, log)
	if err != nil {
		return err
	}
	defer db.Close(context.Background())
	m, err := nationaldata.Load(ctx, db.Pool, plan)
	if err != nil {
		return err
	}
	if *plant {
		if err := nationaldata.PlantAbuses(ctx, db.Pool, plan, &m); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "generated in %s (planned in %s, loaded in %s): %d players, %d certificates, %d events, %d games, %d log rows\n",
		time.Since(began).Round(time.Second), planned.Round(time.Millisecond), (time.Since(began) - planned).Round(time.Second),
		m.Counts["players"], m.Counts["certificates"], m.Counts["tournaments"], m.Counts["games"], m.Counts["log_events"])
	if *dump != "" {
		if err := server.Backup(ctx, src, *dump, log); err != nil {
			return err
		}
		if err := writeManifest(*dump+".manifest.json", m); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "saved to %s (and its manifest to %s.manifest.json)\n", *dump, *dump)
	}
	return printManifest(m, *manifestFile, stdout)
}

// restoreDump loads a saved data set, after checking it was made with the
// same options.
func restoreDump(ctx context.Context, src server.DatabaseSource, dump string, opts nationaldata.Options, plant bool, manifestFile string,
	stdout, stderr io.Writer, log *slog.Logger) error {
	raw, err := os.ReadFile(dump + ".manifest.json")
	if err != nil {
		return fmt.Errorf("the dump %s has no manifest beside it: %w", dump, err)
	}
	var m nationaldata.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("manifest of %s: %w", dump, err)
	}
	if err := m.Matches(opts); err != nil {
		return fmt.Errorf("the dump %s is not what was asked (%w): remove it to generate anew", dump, err)
	}
	if plant != (len(m.Plants) > 0) {
		return fmt.Errorf("the dump %s is not what was asked (plants: %v, asked %v): remove it to generate anew", dump, len(m.Plants) > 0, plant)
	}
	began := time.Now()
	if err := server.Restore(ctx, src, dump, log); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "restored %s in %s\n", dump, time.Since(began).Round(time.Second))
	return printManifest(m, manifestFile, stdout)
}

func writeManifest(file string, m nationaldata.Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}

func printManifest(m nationaldata.Manifest, file string, stdout io.Writer) error {
	if file != "" {
		if err := writeManifest(file, m); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", b)
	return err
}
