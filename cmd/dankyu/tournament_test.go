package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb, func(string) string { return "" })
	return code, out.String(), errb.String()
}

func TestPairingsJSON(t *testing.T) {
	code, out, errOut := runCmd("pairings", "--system", "round-robin", "--players", "6", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// the FIDE handbook's Berger table for six players
	want := `{"rounds":[[[1,6],[2,5],[3,4]],[[6,4],[5,3],[1,2]],[[2,6],[3,1],[4,5]],[[6,5],[1,4],[2,3]],[[3,6],[4,2],[5,1]]]}`
	if strings.TrimSpace(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
	code, out, _ = runCmd("pairings", "--system", "double-round-robin", "--players", "3", "--json")
	var got struct {
		Rounds [][][2]int `json:"rounds"`
		Byes   [][]int    `json:"byes"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
		t.Fatalf("double round robin: %v %s", err, out)
	}
	if len(got.Rounds) != 6 || got.Rounds[3][0] != [2]int{got.Rounds[0][0][1], got.Rounds[0][0][0]} || len(got.Byes) != 6 {
		t.Fatalf("double round robin of 3: %s", out)
	}
	if code, _, errOut := runCmd("pairings", "--players", "1"); code != 2 || !strings.Contains(errOut, "2 to") {
		t.Fatalf("one player: exit %d %s", code, errOut)
	}
}

func TestImportDryRun(t *testing.T) {
	for _, f := range []string{"TestPartEtLic.h9", "TestPartEtLic.xml"} {
		code, out, errOut := runCmd("import", "--dry-run", "--json", filepath.Join("..", "..", "tournaments", "testdata", f))
		if code != 0 {
			t.Fatalf("%s: exit %d %s", f, code, errOut)
		}
		var sum struct {
			Format    string `json:"format"`
			Players   int    `json:"players"`
			Rounds    int    `json:"rounds"`
			Games     int    `json:"games"`
			Byes      int    `json:"byes"`
			Standings []struct {
				Place  int    `json:"place"`
				Name   string `json:"name"`
				Points int    `json:"points"`
			} `json:"standings"`
		}
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatal(err)
		}
		if sum.Players != 22 || sum.Rounds != 4 || sum.Games != 31 || sum.Byes != 0 || len(sum.Standings) != 22 ||
			sum.Standings[0].Name != "Chauvin Robin" || sum.Standings[0].Points != 6 {
			t.Fatalf("%s: %+v", f, sum)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.h9")
	os.WriteFile(bad, []byte("; EV[x]\n 1 Doe John 2D FR Club 2+/b0\n 2 Roe Ann 3K FR Club 3+/w0\n 3 Poe Ed 1K FR Club 1-/b0\n"), 0o644)
	code, _, errOut := runCmd("import", "--dry-run", "--json", bad)
	if code != 1 || !strings.Contains(errOut, "line 2") || !strings.Contains(errOut, "names line") {
		t.Fatalf("a file whose games cannot be known: exit %d %q", code, errOut)
	}
	if code, _, _ := runCmd("import", "--dry-run", "--format", "xls", bad); code != 2 {
		t.Fatalf("unknown format: exit %d", code)
	}
}

// TestImportDryRunReal prints, for real files of several programs, the
// counts the issue asks for: players, rounds, games, default wins, byes and
// the warnings.
func TestImportDryRunReal(t *testing.T) {
	tests := []struct {
		file                                            string
		players, rounds, games, defaults, bye, halfByes int
		encoding                                        string
	}{
		{"egc2013.h9", 594, 10, 2259, 33, 1420, 1418, "UTF-8"},
		{"bogazici2024.xml", 39, 2, 38, 0, 2, 0, "UTF-8 (BOM)"},
		{"bogazici2024.tour", 39, 2, 38, 0, 2, 0, "UTF-8"},
		{"wagc1981.h", 32, 6, 60, 1, 0, 0, "UTF-8"},
		{"chinois2020-gbk.h9", 24, 1, 12, 0, 0, 0, "GBK"},
	}
	for _, tt := range tests {
		code, out, errOut := runCmd("import", "--dry-run", "--json", filepath.Join("..", "..", "tournaments", "testdata", "real", tt.file))
		if code != 0 {
			t.Fatalf("%s: exit %d %s", tt.file, code, errOut)
		}
		var sum struct {
			Players     int               `json:"players"`
			Rounds      int               `json:"rounds"`
			Games       int               `json:"games"`
			DefaultWins int               `json:"default_wins"`
			Byes        int               `json:"byes"`
			HalfByes    int               `json:"half_byes"`
			Encoding    string            `json:"encoding"`
			Warnings    []json.RawMessage `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatal(err)
		}
		if sum.Players != tt.players || sum.Rounds != tt.rounds || sum.Games != tt.games || sum.DefaultWins != tt.defaults ||
			sum.Byes != tt.bye || sum.HalfByes != tt.halfByes || sum.Encoding != tt.encoding || sum.Warnings == nil || len(sum.Warnings) != 0 {
			t.Errorf("%s: %s", tt.file, out)
		}
	}
}

// TestImportDryRunWarnings: a questionable cell is printed with its line,
// column and the reading taken, in JSON and in text; --encoding chooses the charset.
func TestImportDryRunWarnings(t *testing.T) {
	f := filepath.Join(t.TempDir(), "cut.h9")
	os.WriteFile(f, []byte(" 1 Doe John 10 FR Club 2+/b0\n 2 Roe Ann 15k FR Club 1-/w0\n"), 0o644)
	code, out, errOut := runCmd("import", "--dry-run", "--json", f)
	if code != 0 {
		t.Fatalf("exit %d %s", code, errOut)
	}
	var sum struct {
		Warnings []struct {
			Line    int    `json:"line"`
			Column  int    `json:"column"`
			Cell    string `json:"cell"`
			Message string `json:"message"`
		} `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Warnings) != 1 || sum.Warnings[0].Line != 1 || sum.Warnings[0].Column != 13 || sum.Warnings[0].Cell != "10" || !strings.Contains(sum.Warnings[0].Message, "read as 10K") {
		t.Fatalf("warnings %+v", sum.Warnings)
	}
	code, out, _ = runCmd("import", "--dry-run", f)
	if code != 0 || !strings.Contains(out, `warning: line 1, column 13 ("10"): rank without k, d or p: read as 10K`) {
		t.Fatalf("text: exit %d %s", code, out)
	}
	gbk := filepath.Join("..", "..", "tournaments", "testdata", "real", "chinois2020-gbk.h9")
	if code, out, _ := runCmd("import", "--dry-run", "--encoding", "latin1", gbk); code != 0 || strings.Contains(out, "高") {
		t.Fatalf("--encoding latin1 on a GBK file: exit %d, still read as GBK: %.200s", code, out)
	}
	if code, out, _ := runCmd("import", "--dry-run", "--encoding", "gbk", gbk); code != 0 || !strings.Contains(out, "高 传德") {
		t.Fatalf("--encoding gbk: exit %d %.200s", code, out)
	}
}
