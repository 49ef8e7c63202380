package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestRecoveryTarget reads the forms --to accepts as the same instant and
// refuses a time without its zone (read in the machine's zone, it would
// restore to another moment than the one meant).
func TestRecoveryTarget(t *testing.T) {
	want := time.Date(2026, 12, 2, 6, 3, 0, 0, time.UTC)
	for _, s := range []string{"2026-12-02 14:03:00+08", "2026-12-02 14:03:00+08:00", "2026-12-02T06:03:00Z",
		"2026-12-02 06:03+00", "2026-12-02T14:03+08:00", " 2026-12-02 06:03:00.000Z "} {
		got, err := parseRecoveryTarget(s)
		if err != nil || !got.Equal(want) {
			t.Errorf("%q: %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "2026-12-02 14:03:00", "14:03", "yesterday", "1999-12-31T23:59:59Z", strings.Repeat("9", 100)} {
		if got, err := parseRecoveryTarget(s); err == nil {
			t.Errorf("%q accepted as %v", s, got)
		}
	}
}

// TestPITRRestoreNeedsItsFlags: a restore without a moment, a folder or a
// checkpoint, or with a moment without its zone, is a usage error before
// anything is touched.
func TestPITRRestoreNeedsItsFlags(t *testing.T) {
	env := func(string) string { return "" }
	for _, args := range [][]string{
		{"pitr", "restore", "--repo", "/nonexistent", "--into", "/nonexistent/x", "--checkpoint", "c"},
		{"pitr", "restore", "--repo", "/nonexistent", "--to", "2026-12-02 14:03:00", "--into", "/nonexistent/x", "--checkpoint", "c"},
		{"pitr", "setup"},
		{"cluster", "init"},
	} {
		var out, errb bytes.Buffer
		if code := run(t.Context(), args, &out, &errb, env); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)\n%s", args, code, errb.String())
		}
	}
}

// FuzzRecoveryTarget: whatever --to holds, reading it ends at once, and
// what it accepts is a time of the years a registry can have.
func FuzzRecoveryTarget(f *testing.F) {
	for _, s := range []string{"2026-12-02 14:03:00+08", "2026-12-02T06:03:00Z", "2026-12-02 06:03+00", "0000-00-00 00:00:00+99", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseRecoveryTarget(s)
		if err != nil {
			return
		}
		if got.Year() < 2000 || got.Year() > 9999 {
			t.Fatalf("%q accepted as %v", s, got)
		}
	})
}
