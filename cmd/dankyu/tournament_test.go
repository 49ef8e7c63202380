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
	os.WriteFile(bad, []byte("; EV[x]\n 1 Doe John 2D FR Club 2+/b0\n 2 Roe Ann 3K FR Club 1x/w0\n"), 0o644)
	code, _, errOut := runCmd("import", "--dry-run", "--json", bad)
	if code != 1 || !strings.Contains(errOut, "line 3") {
		t.Fatalf("malformed file: exit %d %q", code, errOut)
	}
	if code, _, _ := runCmd("import", "--dry-run", "--format", "xls", bad); code != 2 {
		t.Fatalf("unknown format: exit %d", code)
	}
}
