package main_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/dankyu/dankyu/internal/pgcluster"
)

// workedExample reads the README's worked example, the section from its
// heading to the next: the server's flags (its first block, `go run
// ./cmd/dankyud …`) and the shell blocks after it.
func workedExample(t *testing.T) (flags []string, script string) {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n## Worked example\n")
	if i < 0 {
		t.Fatal("README has no section ## Worked example")
	}
	section := s[i+1:]
	if j := strings.Index(section, "\n## "); j >= 0 {
		section = section[:j]
	}
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(section, -1)
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
	script = strings.NewReplacer("127.0.0.1:9090", r.GRPC, "127.0.0.1:8080", r.HTTP).Replace(script)
	root, _ := filepath.Abs("../..")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "DANKYU_DATA_DIR="+dataDir, "DANKYU_DATABASE_URL=", "DANKYU_LOG_KEY=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the worked example fails: %v\n%s\nserver:\n%s", err, out, r.Log)
	}
	yy := time.Now().In(time.FixedZone("CST", 8*3600)).Format("06")
	for _, n := range []string{"110" + yy + "0001", "110" + yy + "0002"} {
		if !regexp.MustCompile(`(?s)"number": "` + n + `".*?"verdict": "VERDICT_VALID"`).Match(out) {
			t.Errorf("certificate %s does not verify valid:\n%s", n, out)
		}
	}
}

// TestREADMEIsAFrontDoor keeps the README short (the manual is docs/) and
// every link of the README and docs/ pointing at a file and heading that
// exist.
func TestREADMEIsAFrontDoor(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > 200 {
		t.Errorf("README.md has %d lines; keep it under 200 and move the rest to docs/", n)
	}
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) < 5 {
		t.Fatalf("docs/: %v %v", docs, err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, name := range append([]string{"../../README.md"}, docs...) {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(outsideCode(string(b)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := name
			if file != "" {
				path = filepath.Join(filepath.Dir(name), file)
			}
			linked, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s links to %s, which does not exist", name, target)
				continue
			}
			if anchor != "" && !slices.Contains(anchors(string(linked)), anchor) {
				t.Errorf("%s links to %s, which has no heading #%s", name, target, anchor)
			}
		}
	}
}

// outsideCode is Markdown without its fenced code blocks.
func outsideCode(s string) string {
	var out strings.Builder
	fenced := false
	for line := range strings.Lines(s) {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out.WriteString(line)
		}
	}
	return out.String()
}

// anchors are the ids GitHub gives a Markdown file's headings: lower case,
// punctuation dropped, spaces as hyphens, a repeated one numbered.
func anchors(md string) []string {
	var ids []string
	seen := map[string]int{}
	for line := range strings.Lines(outsideCode(md)) {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		id := strings.Map(func(r rune) rune {
			switch {
			case r == ' ':
				return '-'
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				return unicode.ToLower(r)
			}
			return -1
		}, text)
		if n := seen[id]; n > 0 {
			ids = append(ids, id+"-"+strconv.Itoa(n))
		} else {
			ids = append(ids, id)
		}
		seen[id]++
	}
	return ids
}
