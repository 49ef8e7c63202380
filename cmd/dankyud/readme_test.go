package main_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/pgcluster"
)

// workedExample reads the README's worked example: the server's flags (its
// first block, `go run ./cmd/dankyud …`) and the shell blocks after it.
func workedExample(t *testing.T) (flags []string, script string) {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "## Worked example")
	j := strings.Index(s, "### Errors")
	if i < 0 || j < i {
		t.Fatal("README has no worked example before its Errors section")
	}
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(s[i:j], -1)
	if len(blocks) < 3 {
		t.Fatalf("worked example: %d shell blocks", len(blocks))
	}
	server := strings.TrimSpace(blocks[0][1])
	const run = "go run ./cmd/dankyud"
	if !strings.HasPrefix(server, run) {
		t.Fatalf("the first block does not start the server: %q", server)
	}
	for _, b := range blocks[1:] {
		script += b[1] + "\n"
	}
	return strings.Fields(strings.TrimPrefix(server, run)), script
}

// TestREADMEWorkedExample runs the README's worked example as written,
// against a server started as it says (on free ports, which replace
// 9090 and 8080 in the text): a 1-dan certificate issued on approval and a
// 4-dan one after its notice period both verify.
func TestREADMEWorkedExample(t *testing.T) {
	if testing.Short() {
		t.Skip("the worked example takes over a minute (its notice period)")
	}
	if _, err := pgcluster.FindBinaries(); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed by the worked example: %v", tool, err)
		}
	}
	flags, script := workedExample(t)
	server, _ := build(t)
	dataDir, err := os.MkdirTemp("", "dkr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = mustCluster(t, dataDir).Stop(context.Background(), true, true)
		os.RemoveAll(dataDir)
	})
	r := startWith(t, server, dataDir, flags...)
	script = strings.NewReplacer("127.0.0.1:9090", r.grpc, "127.0.0.1:8080", r.http).Replace(script)
	root, _ := filepath.Abs("../..")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "DANKYU_DATA_DIR="+dataDir, "DANKYU_DATABASE_URL=", "DANKYU_LOG_KEY=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the worked example fails: %v\n%s\nserver:\n%s", err, out, r.log)
	}
	yy := time.Now().In(time.FixedZone("CST", 8*3600)).Format("06")
	for _, n := range []string{"110" + yy + "0001", "110" + yy + "0002"} {
		if !regexp.MustCompile(`(?s)"number": "` + n + `".*?"verdict": "VERDICT_VALID"`).Match(out) {
			t.Errorf("certificate %s does not verify valid:\n%s", n, out)
		}
	}
}
