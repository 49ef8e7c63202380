package web_test

import (
	"bytes"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/web"
)

// lockedBuffer is a log the server's goroutines write to.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestAccessLog: every portal request is one log line with its method,
// path, status, duration and kind of actor, never the query, the token or
// an identity number.
func TestAccessLog(t *testing.T) {
	var buf lockedBuffer
	e := newPortalEnvLogging(t, func(*ledger.Store) web.Options { return web.Options{} }, slog.New(slog.NewTextHandler(&buf, nil)))
	agencyTok, _ := e.tokens(t)
	c := client(t)
	e.signIn(t, c, agencyTok)
	fetch(t, c, "GET", e.srv.URL+"/workspace", nil)
	get(t, e.srv.URL+"/players?name=11010519491231002X")
	get(t, e.srv.URL+"/nope")
	fetch(t, c, "POST", e.srv.URL+"/workspace/players", url.Values{"identity_number": {"11010519491231002X"}})
	log := buf.String()
	for _, want := range []string{
		`msg=http method=GET path=/workspace status=200`,
		`msg=http method=GET path=/players status=200`,
		`msg=http method=GET path=/nope status=404`,
		`msg=http method=POST path=/login status=303`,
		`msg=http method=POST path=/workspace/players status=403`, // no form token
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	lines := strings.Split(log, "\n")
	for _, l := range lines {
		if strings.Contains(l, "path=/workspace ") && !strings.Contains(l, "actor=agency") {
			t.Errorf("workspace request without its actor: %s", l)
		}
		if strings.Contains(l, "path=/players ") && !strings.Contains(l, "actor=public") {
			t.Errorf("public request: %s", l)
		}
		if strings.Contains(l, "msg=http") && !strings.Contains(l, "took=") {
			t.Errorf("no duration: %s", l)
		}
	}
	for _, secret := range []string{agencyTok, "11010519491231002X", "name="} {
		if strings.Contains(log, secret) {
			t.Errorf("the log holds %q", secret)
		}
	}
}
