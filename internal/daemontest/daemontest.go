// Package daemontest runs the built server and CLI as a test would meet
// them on a machine: binaries compiled from this module, a server on free
// ports, clients certifying players under load. It serves the tests of
// cmd/dankyud and internal/drills; nothing else imports it.
package daemontest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"
)

// Binaries are the server and the CLI built once for a test binary: the
// first test to ask builds them, the others reuse them (linking both takes
// seconds a test need not spend again). Remove them in TestMain.
type Binaries struct {
	once        sync.Once
	dir         string
	server, cli string
	err         error
}

// Get builds the binaries on first use and returns their paths.
func (b *Binaries) Get(t testing.TB) (server, cli string) {
	t.Helper()
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "dankyu-bin-"); b.err != nil {
			return
		}
		b.server, b.cli = filepath.Join(b.dir, "dankyud"), filepath.Join(b.dir, "dankyu")
		for out, pkg := range map[string]string{b.server: "github.com/dankyu/dankyu/cmd/dankyud", b.cli: "github.com/dankyu/dankyu/cmd/dankyu"} {
			if out, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
				b.err = fmt.Errorf("build %s: %v\n%s", pkg, err, out)
				return
			}
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.server, b.cli
}

// Remove deletes the built binaries.
func (b *Binaries) Remove() {
	if b.dir != "" {
		_ = os.RemoveAll(b.dir)
	}
}

// Embedded is the environment of the embedded cluster in dataDir.
func Embedded(dataDir string) []string {
	return []string{"DANKYU_DATA_DIR=" + dataDir, "DANKYU_DATABASE_URL=", "DANKYU_MIGRATION_URL="}
}

// Server is a running server process.
type Server struct {
	GRPC, HTTP string  // the addresses it serves on (HTTP without scheme)
	Log        *Buffer // its standard error so far
	cmd        *exec.Cmd
	done       chan struct{} // closed when stderr reaches EOF
}

// Buffer is a server's log, written by the reader goroutine.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) add(line string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.WriteString(line + "\n")
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var servingRe = regexp.MustCompile(`dankyu serving"? grpc=(\S+) http=http://(\S+)/`)

// Start runs bin on free ports with env added to the process's and flags
// after the address flags, and waits until it serves.
func Start(t testing.TB, bin string, env []string, flags ...string) *Server {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--grpc-addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0"}, flags...)...)
	cmd.Env = append(os.Environ(), env...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	s := &Server{cmd: cmd, Log: &Buffer{}, done: make(chan struct{})}
	found := make(chan []string, 1)
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			s.Log.add(sc.Text())
			if m := servingRe.FindStringSubmatch(sc.Text()); m != nil {
				found <- m
			}
		}
	}()
	select {
	case m := <-found:
		s.GRPC, s.HTTP = m[1], m[2]
	case <-s.done:
		_ = cmd.Wait()
		t.Fatalf("server exited before serving:\n%s", s.Log)
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("server not serving within 2 min:\n%s", s.Log)
	}
	return s
}

// Stop sends sig, waits until the process has closed its log and exited,
// and returns how it exited.
func (s *Server) Stop(sig os.Signal) error {
	if err := s.cmd.Process.Signal(sig); err != nil {
		return fmt.Errorf("signal %v: %w", sig, err)
	}
	<-s.done
	return s.cmd.Wait()
}

// Kill kills the process at once (kill -9) and waits until it is gone.
func (s *Server) Kill(t testing.TB) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-s.done
	_ = s.cmd.Wait() // "signal: killed", as asked
}

// RunCLI runs the CLI with env added to the process's, and returns its
// output (stdout then stderr).
func RunCLI(t testing.TB, cli string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(cli, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return strings.TrimSpace(out.String() + errb.String()), err
}

// Bearer is ctx carrying tok as the gRPC bearer token.
func Bearer(ctx context.Context, tok string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+tok)
}

// HTTPGet fetches url and returns the status and the body.
func HTTPGet(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Missing lists the numbers of want that are not in have.
func Missing(want, have []string) []string {
	in := make(map[string]bool, len(have))
	for _, n := range have {
		in[n] = true
	}
	var out []string
	for _, n := range want {
		if !in[n] {
			out = append(out, n)
		}
	}
	return out
}

// AssertGapless checks that each series (province prefix and year: the
// first 5 digits) of 9-digit numbers runs 0001, 0002, … without a hole.
func AssertGapless(t testing.TB, numbers []string) {
	t.Helper()
	series := map[string][]int{}
	for _, n := range numbers {
		if len(n) != 9 {
			continue
		}
		s, err := strconv.Atoi(n[5:])
		if err != nil {
			t.Fatalf("certificate number %q", n)
		}
		series[n[:5]] = append(series[n[:5]], s)
	}
	for key, serials := range series {
		slices.Sort(serials)
		for i, s := range serials {
			if s != i+1 {
				t.Fatalf("series %s: serial %04d where %04d was due (%d numbers)", key, s, i+1, len(serials))
			}
		}
	}
}
