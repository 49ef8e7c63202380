package server_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/fixture"
)

// nginxBinary is the nginx the test runs (.ci/run installs nginx-light).
func nginxBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	t.Fatal("nginx is not installed (apt-get install nginx-light)")
	return ""
}

// freePort is a loopback port nothing listens on (for a moment).
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startNginx runs deploy/nginx/dankyu-cache.conf in front of upstream on
// loopback; it returns the public and the purge addresses.
func startNginx(t *testing.T, upstream string) (public, purge string) {
	t.Helper()
	bin := nginxBinary(t)
	site, err := os.ReadFile("../../deploy/nginx/dankyu-cache.conf")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	public, purge = freePort(t), freePort(t)
	conf := strings.NewReplacer("@CACHE_DIR@", filepath.Join(dir, "cache"), "@UPSTREAM@", upstream,
		"@LISTEN@", public, "@PURGE_LISTEN@", purge, "@REFRESH_SOCKET@", filepath.Join(dir, "refresh.sock")).Replace(string(site))
	if err := os.WriteFile(filepath.Join(dir, "site.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	// the frame a packaged nginx.conf gives: here in a folder of the test's
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;" // the workers write the test's folder
	}
	main := fmt.Sprintf(`%s
daemon off;
worker_processes 1;
pid %[2]s/nginx.pid;
error_log stderr warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path %[2]s/body;
    proxy_temp_path %[2]s/proxy;
    fastcgi_temp_path %[2]s/fastcgi;
    uwsgi_temp_path %[2]s/uwsgi;
    scgi_temp_path %[2]s/scgi;
    include %[2]s/site.conf;
}
`, user, dir)
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	cmd.Stderr = testWriter{t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// TERM: the master stops its workers (a killed master would leave them
	// holding the log pipe); WaitDelay bounds the wait all the same
	cmd.WaitDelay = 5 * time.Second
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", public)
		if err == nil {
			c.Close()
			return public, purge
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx does not listen on %s: %v", public, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestNginxCachesPublicPages: the example cache (deploy/nginx), on
// loopback in front of a real portal, keeps a public page (the second
// asking a HIT, answered while the portal is asked nothing) but never a
// signed-in one, and passes /verify on to be revalidated: 304 with its ETag
// until the certificate is revoked, then the new status; its purge port
// fetches a page afresh.
func TestNginxCachesPublicPages(t *testing.T) {
	e := newReplicaEnvWith(t, time.Second, false)
	number := e.issue(t)
	pu, _ := url.Parse(e.portal.URL)
	public, purge := startNginx(t, pu.Host)
	get := func(addr, path string, hdr map[string]string) (int, string, http.Header) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}

	// a public page: kept, the second asking served from the cache
	page := "/statistics?lang=en"
	if code, _, h := get(public, page, nil); code != http.StatusOK || h.Get("X-Cache-Status") != "MISS" || !strings.HasPrefix(h.Get("Cache-Control"), "public, max-age=") {
		t.Fatalf("first %s: %d, %q, Cache-Control %q", page, code, h.Get("X-Cache-Status"), h.Get("Cache-Control"))
	}
	e.queries.start()
	code, body, h := get(public, page, nil)
	if _, sql := e.queries.stop(); code != http.StatusOK || h.Get("X-Cache-Status") != "HIT" || len(sql) != 0 || !strings.Contains(body, `lang="en"`) {
		t.Fatalf("second %s: %d, %q, portal ran %d statements", page, code, h.Get("X-Cache-Status"), len(sql))
	}
	// signed in (a session cookie): past the cache, never kept
	if _, _, h := get(public, page, map[string]string{"Cookie": "dk_session=x"}); h.Get("X-Cache-Status") != "BYPASS" {
		t.Fatalf("signed in: %q, want BYPASS", h.Get("X-Cache-Status"))
	}
	// a PURGE on the purge port fetches the page afresh and keeps it: the
	// portal is asked again, and the next asking is a HIT of the new copy
	e.queries.start()
	req, _ := http.NewRequest("PURGE", "http://"+purge+page, nil)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, sql := e.queries.stop(); resp.StatusCode != http.StatusOK || resp.Header.Get("X-Cache-Status") != "BYPASS" || len(sql) == 0 {
		t.Fatalf("purge: %d %q, portal ran %d statements", resp.StatusCode, resp.Header.Get("X-Cache-Status"), len(sql))
	}
	if _, _, h := get(public, page, nil); h.Get("X-Cache-Status") != "HIT" {
		t.Fatalf("after the purge: %q, want HIT", h.Get("X-Cache-Status"))
	}
	// the refresh mark from elsewhere than the purge port is no refresh
	if _, _, h := get(public, page, map[string]string{"X-Dankyu-Refresh": "1", "X-Forwarded-For": "127.0.0.1"}); h.Get("X-Cache-Status") != "HIT" {
		t.Fatalf("refresh asked by a client: %q, want HIT", h.Get("X-Cache-Status"))
	}

	// /verify: revalidated with its ETag through the cache
	vpath := "/verify?lang=en&number=" + url.QueryEscape(number)
	code, body, h = get(public, vpath, nil)
	tag := h.Get("ETag")
	if code != http.StatusOK || tag == "" || h.Get("Cache-Control") != "no-cache" || !strings.Contains(body, `data-status="valid"`) {
		t.Fatalf("verify: %d, ETag %q, Cache-Control %q", code, tag, h.Get("Cache-Control"))
	}
	e.issue(t) // the log grows; this certificate's answer does not change
	for range 2 {
		if code, _, _ := get(public, vpath, map[string]string{"If-None-Match": tag}); code != http.StatusNotModified {
			t.Fatalf("verify revalidated before the revocation: %d, want 304", code)
		}
	}
	if _, err := e.cs.Revoke(context.Background(), fixture.Staff, "", number, "测试"); err != nil {
		t.Fatal(err)
	}
	code, body, h = get(public, vpath, map[string]string{"If-None-Match": tag})
	if code != http.StatusOK || !strings.Contains(body, `data-status="revoked"`) || h.Get("ETag") == tag {
		t.Fatalf("verify after the revocation: %d, ETag %q (was %q)", code, h.Get("ETag"), tag)
	}
}
