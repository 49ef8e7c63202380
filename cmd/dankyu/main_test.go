package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

func TestIDCheckJSON(t *testing.T) {
	var out, errb bytes.Buffer
	ids := []string{"11010519491231002X", "110105194912310021", "1101051949", "99010519491231002X", "11010519490231002X"}
	code := run(context.Background(), append([]string{"idcheck", "--json"}, ids...), &out, &errb, func(string) string { return "" })
	if code != 1 {
		t.Fatalf("exit %d with invalid numbers, want 1", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(ids) {
		t.Fatalf("%d lines for %d numbers:\n%s", len(lines), len(ids), out.String())
	}
	want := []struct {
		valid  bool
		reason string
	}{{true, ""}, {false, "check digit"}, {false, "length"}, {false, "region"}, {false, "date"}}
	for i, line := range lines {
		var got struct {
			ID     string `json:"id"`
			Valid  bool   `json:"valid"`
			Reason string `json:"reason"`
		}
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d is not JSON: %v", i, err)
		}
		if got.ID != ids[i] || got.Valid != want[i].valid || !strings.HasPrefix(got.Reason, want[i].reason) {
			t.Errorf("line %d = %+v, want valid=%v reason starting %q", i, got, want[i].valid, want[i].reason)
		}
	}
}

func TestIDCheckAllValidExitsZero(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"idcheck", "11010519491231002x"}, &out, &errb, func(string) string { return "" }); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	if !strings.Contains(out.String(), "valid") {
		t.Fatalf("output %q", out.String())
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"frobnicate"}, {"idcheck"}, {"token"}, {"log", "truncate"}} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb, func(string) string { return "" }); code != 2 {
			t.Errorf("dankyu %v: exit %d, want 2 (usage)", args, code)
		}
	}
}

func TestTokenCreateNeedsExactlyOneKind(t *testing.T) {
	for _, args := range [][]string{{"token", "create"}, {"token", "create", "--agency", "110", "--staff", "li"}, {"token", "revoke", "x"}} {
		var out, errb bytes.Buffer
		// No database is reachable here: a usage error must come before any connection.
		getenv := func(k string) string {
			if k == "DANKYU_DATABASE_URL" {
				return "host=/nonexistent dbname=x"
			}
			return ""
		}
		if code := run(context.Background(), args, &out, &errb, getenv); code != 2 {
			t.Errorf("dankyu %v: exit %d (%s), want 2", args, code, errb.String())
		}
	}
}

func TestAdjudicateJSON(t *testing.T) {
	const corpus = "../../rules/testdata/corpus/"
	var out, errb bytes.Buffer
	args := []string{"adjudicate", "--json", corpus + "games/resign19/yenw-R_7-1-4_Dolbaram_vs_FineArt.SGF",
		"--dead", "be,bg,bj,cd,cj,ck,dc,dg,di,dn,eh,en,fn,gj,ib,ic,jb,ni,ob,pb,pc,pd,pf,qe,qf,qg,qh,qi,re,ri",
		corpus + "games/dead-stones/gnugo-dublin2.sgf"}
	if code := run(context.Background(), args, &out, &errb, func(string) string { return "" }); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one line per game:\n%s", out.String())
	}
	var resigned, counted map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &resigned); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &counted); err != nil {
		t.Fatal(err)
	}
	if resigned["winner"] != "W" || resigned["end"] != "resignation" || resigned["result"] != "W+R" || resigned["margin_points"] != 0.0 {
		t.Errorf("resigned game: %v", resigned)
	}
	if counted["winner"] != "W" || counted["margin_points"] != -29.5 || counted["end"] != "passes" || counted["result_zh"] != "白胜14又3/4子" {
		t.Errorf("counted game: %v", counted)
	}
	for _, key := range []string{"file", "black_area", "white_area", "moves", "illegal_moves", "unsettled"} {
		if _, ok := counted[key]; !ok {
			t.Errorf("JSON lacks %q", key)
		}
	}
}

func TestAdjudicateStdinAndErrors(t *testing.T) {
	adjudicate := func(args []string, stdin io.Reader, out, errb *bytes.Buffer) int {
		c := &call{stdin: stdin, stdout: out, stderr: errb, getenv: func(string) string { return "" }}
		return c.dispatch(context.Background(), commands(), append([]string{"adjudicate"}, args...))
	}
	var out, errb bytes.Buffer
	code := adjudicate([]string{"--json", "-"}, strings.NewReader("(;SZ[9]KM[7.5];B[ee];W[];B[])"), &out, &errb)
	if code != 0 || !strings.Contains(out.String(), `"winner":"B"`) || !strings.Contains(out.String(), `"file":"-"`) {
		t.Fatalf("stdin: exit %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	code = adjudicate([]string{"-", "missing.sgf"}, strings.NewReader("(;SZ[9];B[ee]"), &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "byte 13") || !strings.Contains(errb.String(), "missing.sgf") {
		t.Fatalf("unreadable records: exit %d, stderr %q", code, errb.String())
	}
	for _, args := range [][]string{{"--rules", "go", "x.sgf"}, {"--komi", "lots", "x.sgf"}, {"--ko", "never", "x.sgf"}, {"--warnings", "X3", "x.sgf"}, {}} {
		if code := adjudicate(args, strings.NewReader(""), &out, &errb); code != 2 {
			t.Errorf("adjudicate %v: exit %d, want 2", args, code)
		}
	}
}

// leaves are the runnable commands of the table, by their full names.
func leaves(prefix string, table []*command) []string {
	var out []string
	for _, cmd := range table {
		name := strings.TrimSpace(prefix + " " + cmd.name)
		switch {
		case cmd.subs != nil:
			out = append(out, leaves(name, cmd.subs)...)
		case cmd.run != nil:
			out = append(out, name)
		}
	}
	return out
}

// TestHelpFromTable: dankyu help lists every command of the table, and
// each command answers -h with its usage and flags before it touches a
// database (none is reachable here) or a file.
func TestHelpFromTable(t *testing.T) {
	getenv := func(k string) string {
		if k == "DANKYU_DATABASE_URL" {
			return "host=/nonexistent dbname=x"
		}
		return ""
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"help"}, &out, &errb, getenv); code != 0 {
		t.Fatalf("help: exit %d %s", code, errb.String())
	}
	list := out.String()
	names := leaves("", commands())
	if len(names) < 15 {
		t.Fatalf("only %d commands in the table: %q", len(names), names)
	}
	for _, name := range names {
		if !strings.Contains(list, "\n  "+name+" ") && !strings.Contains(list, "\n  "+name+"\n") {
			t.Errorf("help does not list %q", name)
		}
		for _, help := range [][]string{append(strings.Fields(name), "-h"), append([]string{"help"}, strings.Fields(name)...)} {
			out.Reset()
			errb.Reset()
			if code := run(context.Background(), help, &out, &errb, getenv); code != 0 || !strings.HasPrefix(out.String(), "usage: dankyu "+name) {
				t.Errorf("dankyu %s: exit %d\n%s%s", strings.Join(help, " "), code, out.String(), errb.String())
			}
		}
	}
}

// TestErrorPrintedOnce: a failing command's error reaches standard error
// once, named after the command, with exit status 1.
func TestErrorPrintedOnce(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"import", "--dry-run", "no-such-file.h9"}, &out, &errb, func(string) string { return "" })
	if code != 1 || strings.Count(errb.String(), "no-such-file.h9") != 1 || !strings.HasPrefix(errb.String(), "dankyu import: ") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}
