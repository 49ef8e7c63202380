package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackupIsPrivate backs a registry up twice: into a new file, and over
// an old backup left world-readable. Either way the file is its owner's
// alone (0600, whatever the umask), not empty, and the command warns on
// standard error that it holds personal data.
func TestBackupIsPrivate(t *testing.T) {
	_, url := harness.NewDB(t)
	getenv := func(k string) string {
		if k == "DANKYU_DATABASE_URL" {
			return url
		}
		return ""
	}
	dir := t.TempDir()
	fresh, old := filepath.Join(dir, "new.dump"), filepath.Join(dir, "old.dump")
	if err := os.WriteFile(old, []byte("last year's backup"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{fresh, old} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"backup", "--out", file}, &out, &errb, getenv); code != 0 {
			t.Fatalf("backup --out %s: exit %d: %s", file, code, errb.String())
		}
		st, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 || st.Size() < 1000 {
			t.Errorf("backup %s: mode %04o, %d bytes; want 0600 and a dump", filepath.Base(file), st.Mode().Perm(), st.Size())
		}
		if w := errb.String(); !strings.Contains(w, "warning") || !strings.Contains(w, "personal data") || !strings.Contains(w, file) {
			t.Errorf("backup %s: standard error %q does not warn that it holds personal data", filepath.Base(file), w)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*part"))
	if len(left) > 0 {
		t.Errorf("partial files left beside the backups: %v", left)
	}
}
