package main

import (
	"bytes"
	"context"
	"encoding/json"
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
