package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/rules"
)

// adjudicate replays and counts each file; it fails when a file could not
// be read, after counting the others.
func adjudicate(_ context.Context, c *call, args []string) error {
	fs := c.flags()
	rulesFlag := fs.String("rules", "", "rule set: chinese, japanese, ing, tromp-taylor or aga; default: Chinese (AGA compensation for RU[AGA] records)")
	komiFlag := fs.String("komi", "", "replace the record's komi (points)")
	koFlag := fs.String("ko", "positional", "repetition rule: positional, situational or simple")
	warnFlag := fs.String("warnings", "", "referee's warnings, e.g. B1 or B1,W2")
	strict := fs.Bool("strict", false, "reject a record at its first illegal move")
	fromMarkup := fs.Bool("dead-from-markup", false, "with no --dead, take dead stones from the record's TB/TW markup")
	allAlive := fs.Bool("all-alive", false, "with no --dead, count every stone as alive instead of settling the position (servers that make players capture dead stones, e.g. CGOS)")
	asJSON := fs.Bool("json", false, "one JSON object per game")
	var dead []string
	fs.Func("dead", "dead stones, GTP (D4) or SGF (dd), comma-separated; repeatable", func(v string) error {
		dead = append(dead, rules.SplitPoints(v)...)
		return nil
	})
	files, err := parseInterleaved(c, fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError("no game records (FILE.sgf, or - for standard input)")
	}
	opt := rules.Options{Dead: dead, Strict: *strict, DeadFromMarkup: *fromMarkup, AllAlive: *allAlive}
	if opt.Rules, err = rules.ParseRuleSet(*rulesFlag); err != nil {
		return usageError("--" + err.Error())
	}
	if opt.Komi, err = rules.ParseKomi(*komiFlag); err != nil {
		return usageError("--" + err.Error())
	}
	ko, ok := map[string]rules.KoRule{"positional": rules.PositionalSuperko, "situational": rules.SituationalSuperko, "simple": rules.SimpleKo}[*koFlag]
	if !ok {
		return usageError(fmt.Sprintf("--ko %q: want positional, situational or simple", *koFlag))
	}
	opt.Ko = &ko
	if opt.Warnings, err = parseWarnings(*warnFlag); err != nil {
		return usageError(err.Error())
	}

	enc := json.NewEncoder(c.stdout)
	enc.SetEscapeHTML(false)
	var unread []error
	for _, name := range files {
		var data []byte
		if name == "-" {
			data, err = io.ReadAll(c.stdin)
		} else {
			data, err = os.ReadFile(name)
		}
		if err != nil {
			unread = append(unread, err)
			continue
		}
		results, err := rules.AdjudicateSGF(data, name, opt)
		if err != nil {
			unread = append(unread, fmt.Errorf("%s: %w", name, err))
			continue
		}
		for _, r := range results {
			if *asJSON {
				_ = enc.Encode(r)
			} else {
				printResult(c.stdout, r)
			}
		}
	}
	return errors.Join(unread...)
}

// parseInterleaved lets flags come before, between and after the files.
func parseInterleaved(c *call, fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := c.parse(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return files, nil
		}
		files = append(files, rest[0])
		args = rest[1:]
	}
}

// parseWarnings reads "B1", "W2", "B1,W2" or "B=1,W=2".
func parseWarnings(s string) ([3]int, error) {
	var w [3]int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(strings.ToUpper(part))
		if part == "" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimPrefix(part[1:], "="))
		if err != nil || n < 0 || (part[0] != 'B' && part[0] != 'W') {
			return w, fmt.Errorf("--warnings %q: want a colour and a count, e.g. B1 or B1,W2", s)
		}
		if part[0] == 'B' {
			w[rules.Black] = n
		} else {
			w[rules.White] = n
		}
	}
	return w, nil
}

func printResult(w io.Writer, r rules.Result) {
	name := r.File
	if r.Game > 0 {
		name += fmt.Sprintf(" (game %d)", r.Game)
	}
	fmt.Fprintf(w, "%s: %s  %s  [%s, %d moves, black %g, white %g, komi %g", name, r.Result, r.ResultZH, r.End, r.Moves, r.BlackArea, r.WhiteArea, r.Komi)
	if r.Compensation != 0 {
		fmt.Fprintf(w, ", handicap %d gives white %g", r.Handicap, r.Compensation)
	}
	fmt.Fprintln(w, "]")
	for _, im := range r.IllegalMoves {
		fmt.Fprintf(w, "  illegal move %d: %s\n", im.Move, im.Reason)
	}
	if st := r.Settlement; st != nil {
		fmt.Fprintf(w, "  settled by rule (no dead stones given): %s; %d dead, %d undecided, margin between %g and %g\n",
			st.Kind, len(st.Dead), len(st.Undecided), st.MarginLow, st.MarginHigh)
	} else if len(r.Unsettled) > 0 {
		fmt.Fprintf(w, "  %d stones are not unconditionally alive: the count needs the players' agreement on dead stones (--dead)\n", len(r.Unsettled))
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w, "  note:", n)
	}
}
