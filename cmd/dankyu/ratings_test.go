package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func runRatings(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"ratings"}, args...), &out, &errb, func(string) string { return "" })
	return code, out.String(), errb.String()
}

func TestRatingsPredict(t *testing.T) {
	games := "../../ratings/testdata/aga-700.csv"
	for _, tt := range []struct {
		name string
		args []string
		rows int
	}{
		{"every row, per game", []string{"--batch", "game"}, 700},
		{"every row, per round, GoR", []string{"--batch", "round", "--system", "gor2021"}, 700},
		{"one split", []string{"--split", "aga", "--budget", "5", "--system", "elo"}, 700},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "pred.csv")
			code, stdout, stderr := runRatings(t, append([]string{"predict", "--games", games, "--out", out}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, strconv.Itoa(tt.rows)+" predictions") {
				t.Errorf("stdout %q", stdout)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if lines[0] != "game_index,p_black" || len(lines) != tt.rows+1 {
				t.Fatalf("header %q, %d lines", lines[0], len(lines))
			}
			for i, l := range lines[1:] {
				idx, p, ok := strings.Cut(l, ",")
				v, err := strconv.ParseFloat(p, 64)
				if !ok || idx != strconv.Itoa(i) || err != nil || v <= 0 || v >= 1 {
					t.Fatalf("line %d: %q", i+1, l)
				}
			}
		})
	}
}

func TestRatingsEval(t *testing.T) {
	code, stdout, stderr := runRatings(t, "eval", "--games", "../../ratings/testdata/kgs-split.csv", "--budget", "5", "--bootstrap", "100")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"split kgs (batch game): 1500 training games, 300 evaluation games", "bayes", "gor2021", "elo", "glicko2", "vs gor2021"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, _ = runRatings(t, "eval", "--games", "../../ratings/testdata/kgs-split.csv", "--budget", "1", "--markdown")
	if code != 0 || !strings.Contains(stdout, "| system | train log-loss |") || !strings.Contains(stdout, "| bayes | ") {
		t.Errorf("markdown: exit %d\n%s", code, stdout)
	}
}

func TestRatingsErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("date,event\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no subcommand", nil, 2, "usage"},
		{"unknown subcommand", []string{"plot"}, 2, "unknown command"},
		{"no out", []string{"predict", "--games", bad}, 2, "--out"},
		{"bad batch", []string{"predict", "--games", bad, "--out", "x", "--batch", "day"}, 2, "want game or round"},
		{"bad system", []string{"predict", "--games", bad, "--out", "x", "--system", "trueskill"}, 2, "want one of bayes"},
		{"bad file", []string{"eval", "--games", bad}, 1, "header"},
		{"missing file", []string{"eval", "--games", filepath.Join(dir, "none.csv")}, 1, "no such file"},
		{"bad split", []string{"eval", "--games", bad, "--split", "fox"}, 2, "split \"fox\""},
		{"split absent from file", []string{"eval", "--games", "../../ratings/testdata/kgs-split.csv", "--split", "aga"}, 1, "no games of its population"},
	}
	for _, tt := range tests {
		code, _, stderr := runRatings(t, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", tt.name, code, stderr, tt.code, tt.want)
		}
	}
}

// tune works on any games file, cut by date or by fraction, and says how
// the later games scored with the defaults, tuned and from the ranks alone.
func TestRatingsTune(t *testing.T) {
	games := "../../ratings/testdata/aga-700.csv"
	code, stdout, stderr := runRatings(t, "tune", "--games", games, "--eval-from", "2000-03-01", "--budget", "5", "--batch", "round")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"tuned bayes on ", "defaults: sd0=280", "tuned:    sd0=", "bayes (default)", "bayes (tuned)", "rankonly"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = runRatings(t, "tune", "--games", games, "--eval-frac", "0.25", "--budget", "3")
	if code != 0 || !strings.Contains(stdout, "scored on the 175 after") {
		t.Errorf("--eval-frac 0.25 of 700: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "--games", games}, "one of --eval-from"},
		{[]string{"tune", "--games", games, "--eval-frac", "1.5"}, "0 < F < 1"},
		{[]string{"tune", "--games", games, "--eval-from", "March"}, "YYYY-MM-DD"},
		{[]string{"tune", "--games", games, "--eval-from", "1999-01-01"}, "no games before"},
	} {
		if code, _, stderr := runRatings(t, tt.args...); code == 0 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tt.args, code, stderr, tt.want)
		}
	}
}
