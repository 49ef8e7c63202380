package server_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dankyu/dankyu/internal/server"
)

// TestLogKeyCreatedOnceAndKept: the first start creates the key readable by
// its owner only; later starts read the same key, never a new one.
func TestLogKeyCreatedOnceAndKept(t *testing.T) {
	dir := t.TempDir()
	path := server.LogKeyPath("", dir)
	if path != filepath.Join(dir, "log.key") {
		t.Fatalf("default key path %s", path)
	}
	if got := server.LogKeyPath("/etc/dankyu/key", dir); got != "/etc/dankyu/key" {
		t.Fatalf("set key path %s", got)
	}
	s1, v1, err := server.LoadLogKey(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode: %v %v", fi, err)
	}
	s2, v2, err := server.LoadLogKey(path)
	if err != nil || s1 != s2 || v1 != v2 {
		t.Fatalf("second load gave another key: %v", err)
	}
	if err := os.WriteFile(path, []byte("garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := server.LoadLogKey(path); err == nil {
		t.Fatal("a damaged key file was accepted")
	}
}
