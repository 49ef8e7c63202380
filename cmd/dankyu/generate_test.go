package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/internal/nationaldata"
	"github.com/dankyu/dankyu/internal/pgtest"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

// TestGenerateNationalDumpAndRestore generates the small set into one
// database with --dump, then runs the same command against an empty
// database, which restores the dump instead of generating; the log of the
// restored database verifies and holds what the manifest says.
func TestGenerateNationalDumpAndRestore(t *testing.T) {
	ctx := context.Background()
	dump := filepath.Join(t.TempDir(), "national.dump")
	args := []string{"generate", "national", "--years", "2026", "--seed", "3", "--scale", "small",
		"--anomaly", "overissue=310:3", "--anomaly", "inactive", "--dump", dump}
	gen := func(url string) (nationaldata.Manifest, string) {
		t.Helper()
		var out, errb bytes.Buffer
		getenv := func(k string) string {
			if k == "DANKYU_DATABASE_URL" {
				return url
			}
			return ""
		}
		if code := run(ctx, args, &out, &errb, getenv); code != 0 {
			t.Fatalf("generate: exit %d: %s", code, errb.String())
		}
		var m nationaldata.Manifest
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("manifest: %v: %s", err, out.String())
		}
		return m, errb.String()
	}
	_, first := harness.NewEmptyDB(t)
	m1, log1 := gen(first)
	if !strings.Contains(log1, "generated in") || m1.Counts["players"] < 3000 || len(m1.Anomalies) != 2 || m1.Anomalies[1].Agency == "" {
		t.Fatalf("generated: %s %+v", log1, m1)
	}
	if _, err := os.Stat(dump + ".manifest.json"); err != nil {
		t.Fatal(err)
	}
	_, second := harness.NewEmptyDB(t)
	m2, log2 := gen(second)
	if !strings.Contains(log2, "restored") || m2.Digest != m1.Digest || m2.Digest == "" {
		t.Fatalf("second run: %s; digests %s, %s", log2, m1.Digest, m2.Digest)
	}
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == "DANKYU_DATABASE_URL" {
			return second
		}
		return ""
	}
	if code := run(ctx, []string{"log", "verify"}, &out, &errb, getenv); code != 0 || !strings.Contains(out.String(), "rows verified") {
		t.Fatalf("log verify of the restored set: %d %s %s", code, out.String(), errb.String())
	}
	// another seed with the dump in place is refused, not restored
	args[5] = "4"
	code := run(ctx, args, &out, &errb, getenv)
	if code == 0 || !strings.Contains(errb.String(), "seed 3") {
		t.Fatalf("a dump of another seed: exit %d: %s", code, errb.String())
	}
}
