package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/ratings/book"
)

func readGamesFile(path string) (*ratings.Games, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gs, err := ratings.ReadGames(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return gs, nil
}

func modelByName(name string) (ratings.Model, error) {
	var names []string
	for _, m := range ratings.Models() {
		if m.Name == name {
			return m, nil
		}
		names = append(names, m.Name)
	}
	return ratings.Model{}, fmt.Errorf("system %q: want one of %s", name, strings.Join(names, ", "))
}

// ratingsPredict replays a games file offline and writes each game's
// prediction before its result is used.
func ratingsPredict(_ context.Context, c *call, args []string) error {
	fs := c.flags()
	games := fs.String("games", "", "games file (columns of games.csv)")
	batchName := fs.String("batch", "game", "game: update after each game; round: after each (event, round, date)")
	system := fs.String("system", "bayes", "bayes (ours), rankonly, gor2021, elo, glicko2 or whr")
	splitName := fs.String("split", "", "predict only this split's games, tuned on its training part (default: every row, default parameters)")
	budget := fs.Int("budget", 150, "tuning replays per system (with --split)")
	out := fs.String("out", "", "prediction file: game_index,p_black")
	if err := c.parse(fs, args); err != nil {
		return err
	}
	batch, err := ratings.ParseBatch(*batchName)
	if err == nil && (*games == "" || *out == "") {
		err = fmt.Errorf("--games and --out are required")
	}
	var model ratings.Model
	if err == nil {
		model, err = modelByName(*system)
	}
	if err != nil {
		return usageError(err.Error())
	}
	gs, err := readGamesFile(*games)
	if err != nil {
		return err
	}
	rows := make([]int, len(gs.Games))
	for i := range rows {
		rows[i] = i
	}
	part := ratings.Part{Rows: rows, Games: gs.Games, Cut: len(gs.Games)}
	var x []float64
	for _, p := range model.Params {
		x = append(x, p.Init)
	}
	if *splitName != "" {
		sp, err := ratings.SplitByName(*splitName)
		if err == nil {
			part, err = sp.Select(gs)
		}
		if err != nil {
			return err
		}
		x = ratings.Tune(model, part.Games[:part.Cut], len(gs.Players), ratings.MedianFirstRank(part.Games[:part.Cut], len(gs.Players)), batch, *budget)
	}
	unknown := ratings.MedianFirstRank(part.Games[:part.Cut], len(gs.Players))
	p := ratings.Replay(part.Games, model.New(x, len(gs.Players), unknown), batch)
	if err := writePredictions(*out, part.Rows, p); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%d predictions by %s %s (batch %s) in %s\n", len(p), model.Name, formatParams(model, x), batch, *out)
	return nil
}

func writePredictions(path string, rows []int, p []float64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "game_index,p_black")
	for i, r := range rows {
		w.WriteString(strconv.Itoa(r))
		w.WriteByte(',')
		w.WriteString(strconv.FormatFloat(p[i], 'f', 6, 64))
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func formatParams(m ratings.Model, x []float64) string {
	var parts []string
	for i, p := range m.Params {
		parts = append(parts, fmt.Sprintf("%s=%.4g", p.Name, x[i]))
	}
	return strings.Join(parts, " ")
}

// ratingsEval scores every rating system on the splits of a games file.
func ratingsEval(_ context.Context, c *call, args []string) error {
	fs := c.flags()
	games := fs.String("games", "", "games file (columns of games.csv)")
	batchName := fs.String("batch", "game", "game or round")
	splitNames := fs.String("split", "", "comma-separated splits (kgs, aga, egc, tygem); default every split with games in the file")
	budget := fs.Int("budget", 150, "tuning replays per system")
	systems := fs.String("systems", "", "comma-separated systems to score (default all; ours first)")
	boot := fs.Int("bootstrap", 1000, "paired bootstrap resamples")
	markdown := fs.Bool("markdown", false, "print Markdown tables")
	if err := c.parse(fs, args); err != nil {
		return err
	}
	batch, err := ratings.ParseBatch(*batchName)
	if err == nil && *games == "" {
		err = fmt.Errorf("--games is required")
	}
	var splits []ratings.Split
	if err == nil && *splitNames != "" {
		for _, n := range strings.Split(*splitNames, ",") {
			sp, e := ratings.SplitByName(strings.TrimSpace(n))
			if e != nil {
				err = e
				break
			}
			splits = append(splits, sp)
		}
	}
	if err != nil {
		return usageError(err.Error())
	}
	gs, err := readGamesFile(*games)
	if err != nil {
		return err
	}
	explicit := splits != nil
	if !explicit {
		splits = ratings.Splits()
	}
	models := ratings.Models()
	if *systems != "" {
		var picked []ratings.Model
		for _, n := range strings.Split(*systems, ",") {
			m, err := modelByName(strings.TrimSpace(n))
			if err != nil {
				return usageError(err.Error())
			}
			picked = append(picked, m)
		}
		models = picked
	}
	done := 0
	for _, sp := range splits {
		part, err := sp.Select(gs)
		if err != nil {
			if explicit {
				return err
			}
			continue
		}
		rep, err := ratings.Evaluate(part, len(gs.Players), batch, models, *budget)
		if err != nil {
			return fmt.Errorf("split %s: %w", sp.Name, err)
		}
		rep.Split = sp.Name
		printReport(c.stdout, rep, models, *boot, *markdown)
		done++
	}
	if done == 0 {
		return fmt.Errorf("no split has games in %s", *games)
	}
	return nil
}

func printReport(w io.Writer, rep *ratings.Report, models []ratings.Model, boot int, markdown bool) {
	fmt.Fprintf(w, "\nsplit %s (batch %s): %d training games, %d evaluation games; unknown rank starts at %.0f GoR\n\n",
		rep.Split, rep.Batch, rep.Train, rep.Eval, rep.Unknown)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	sep, end := "\t", "\t\n"
	if markdown {
		sep, end = " | ", " |\n"
		fmt.Fprint(w, "| system | train log-loss | train Brier | train acc. | train slope | eval log-loss | eval Brier | eval acc. | eval slope | tuned parameters |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	} else {
		fmt.Fprint(tw, "system\ttrain ll\tBrier\tacc\tslope\teval ll\tBrier\tacc\tslope\t\n")
	}
	modelOf := func(name string) ratings.Model {
		for _, m := range models {
			if m.Name == name {
				return m
			}
		}
		return ratings.Model{}
	}
	for _, r := range rep.Results {
		m := r.Train
		e := r.Eval
		line := strings.Join([]string{resultName(r, modelOf(r.Model)),
			fmt.Sprintf("%.4f", m.LogLoss), fmt.Sprintf("%.4f", m.Brier), fmt.Sprintf("%.3f", m.Accuracy), fmt.Sprintf("%.3f", m.Slope),
			fmt.Sprintf("%.4f", e.LogLoss), fmt.Sprintf("%.4f", e.Brier), fmt.Sprintf("%.3f", e.Accuracy), fmt.Sprintf("%.3f", e.Slope)}, sep)
		if markdown {
			fmt.Fprint(w, "| "+line+sep+formatParams(modelOf(r.Model), r.Params)+end)
		} else {
			fmt.Fprint(tw, line+end)
		}
	}
	tw.Flush()
	if !markdown {
		fmt.Fprintln(w)
		for _, r := range rep.Results {
			if len(r.Params) > 0 {
				fmt.Fprintf(w, "  %s: %s\n", resultName(r, modelOf(r.Model)), formatParams(modelOf(r.Model), r.Params))
			}
		}
	}
	if len(rep.Results) < 2 || rep.Eval == 0 {
		return
	}
	ours := 0
	for i, r := range rep.Results {
		if r.Model == rep.Results[0].Model && r.Tuned {
			ours = i
		}
	}
	fmt.Fprintf(w, "\nlog-loss of %s minus each (evaluation part, paired bootstrap 95%% interval, %d resamples):\n",
		resultName(rep.Results[ours], modelOf(rep.Results[ours].Model)), boot)
	for i, r := range rep.Results {
		if i == ours {
			continue
		}
		iv := ratings.PairedBootstrap(rep.Results[ours].Losses, r.Losses, boot, 1)
		fmt.Fprintf(w, "  vs %-16s %+.4f [%+.4f, %+.4f]\n", resultName(r, modelOf(r.Model)), iv.Mean, iv.Lo, iv.Hi)
	}
}

// resultName marks our system's untuned row: "bayes (default)".
func resultName(r ratings.Result, m ratings.Model) string {
	if !r.Tuned && len(m.Params) > 0 {
		return r.Model + " (default)"
	}
	return r.Model
}

// ratingsTune tunes our system on the earlier games of any games file and
// scores it on the later ones (by date or by fraction): no game is
// predicted with parameters tuned on it.
func ratingsTune(ctx context.Context, c *call, args []string) error {
	if i := slices.Index(args, "--registry"); i >= 0 {
		return ratingsTuneRegistry(ctx, c, slices.Delete(slices.Clone(args), i, i+1))
	}
	fs := c.flags()
	games := fs.String("games", "", "games file (columns of games.csv)")
	batchName := fs.String("batch", "game", "game or round")
	from := fs.String("eval-from", "", "evaluation part: games on or after this date (YYYY-MM-DD)")
	frac := fs.Float64("eval-frac", 0, "evaluation part: the last fraction of the games (0 < F < 1)")
	budget := fs.Int("budget", 150, "tuning replays")
	if err := c.parse(fs, args); err != nil {
		return err
	}
	batch, err := ratings.ParseBatch(*batchName)
	switch {
	case err != nil:
	case *games == "":
		err = fmt.Errorf("--games is required")
	case (*from == "") == (*frac == 0):
		err = fmt.Errorf("give one of --eval-from DATE or --eval-frac F")
	case *frac != 0 && !(*frac > 0 && *frac < 1):
		err = fmt.Errorf("--eval-frac %v: want 0 < F < 1", *frac)
	case *budget < 1 || *budget > 10000:
		err = fmt.Errorf("--budget %d: want 1..10000", *budget)
	}
	var day time.Time
	if err == nil && *from != "" {
		if day, err = time.Parse(time.DateOnly, *from); err != nil {
			err = fmt.Errorf("--eval-from %q: want YYYY-MM-DD", *from)
		}
	}
	if err != nil {
		return usageError(err.Error())
	}
	gs, err := readGamesFile(*games)
	if err != nil {
		return err
	}
	for i := 1; i < len(gs.Games); i++ {
		if gs.Games[i].Day < gs.Games[i-1].Day {
			return fmt.Errorf("%s: row %d is dated before row %d: a history to tune on must be in time order", *games, i, i-1)
		}
	}
	cut := ratings.CutAtFraction(gs.Games, *frac, batch)
	if *from != "" {
		cut = ratings.CutAtDay(gs.Games, int32(day.Unix()/86400))
	}
	m := ratings.Models()[0]
	t, err := ratings.TuneHistory(m, gs.Games, cut, len(gs.Players), batch, *budget)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "tuned %s on %d games, scored on the %d after (batch %s)\n", m.Name, t.Train, t.EvalGames, batch)
	fmt.Fprintf(c.stdout, "  defaults: %s\n  tuned:    %s\n", formatParams(m, ratings.Defaults(m)), formatParams(m, t.Params))
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "evaluation part\tlog-loss\tBrier\tacc\tslope\t\n")
	for _, r := range []struct {
		name string
		m    ratings.Metrics
	}{{m.Name + " (default)", t.Default}, {m.Name + " (tuned)", t.Tuned}, {"rankonly", t.RankOnly}} {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%.3f\t%.3f\t\n", r.name, r.m.LogLoss, r.m.Brier, r.m.Accuracy, r.m.Slope)
	}
	return tw.Flush()
}

// ratingsTuneRegistry tunes the registry's parameters on its own finished
// games, stores them as a new version and recomputes every rating.
func ratingsTuneRegistry(ctx context.Context, c *call, args []string) error {
	fs := c.flags()
	frac := fs.Float64("eval-frac", 0.3, "evaluation part: the last fraction of the games (whole rounds)")
	budget := fs.Int("budget", 150, "tuning replays")
	store, _, closeDB, err := openRegistry(ctx, c, fs, args, func() error {
		if fs.NArg() > 0 {
			return usageError("ratings tune --registry takes no arguments")
		}
		return nil
	})
	if err != nil {
		return err
	}
	defer closeDB()
	p, err := book.New(store).Tune(ctx, cliActor(), "", book.TuneRequest{EvalFrac: *frac, Budget: *budget})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "rating parameters version %d: %s\n  tuned on %d games, scored on the %d after: log-loss %.4f with the defaults, %.4f tuned, %.4f rank-only; every rating recomputed\n",
		p.Version, formatParams(ratings.Models()[0], ratings.BayesVector(p.Bayes)),
		p.TrainGames, p.EvalGames, p.DefaultLogLoss, p.TunedLogLoss, p.RankOnlyLogLoss)
	return nil
}
