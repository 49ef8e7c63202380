package main_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestBadVariableStopsServer: a variable the server cannot read stops it
// before it touches a database, with a message naming the variable and its
// value (internal/server's TestEveryVariableRefused covers every variable).
func TestBadVariableStopsServer(t *testing.T) {
	server, _ := build(t)
	cmd := exec.Command(server)
	cmd.Env = append(os.Environ(), "DANKYU_DATA_DIR="+t.TempDir(), "DANKYU_SESSION_TTL=1d")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("exit %v, want status 2:\n%s", err, out)
	}
	if want := `DANKYU_SESSION_TTL="1d": time: unknown unit "d"`; !strings.Contains(string(out), want) {
		t.Fatalf("output does not name the variable and its value (%s):\n%s", want, out)
	}
}
