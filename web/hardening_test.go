package web_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
)

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// bigUpload is a multipart body with one small field and a file part of n
// bytes, streamed so the test holds none of it.
func bigUpload(n int64) (io.Reader, string) {
	var head, tail bytes.Buffer
	mw := multipart.NewWriter(&head)
	_ = mw.WriteField("token", "nope")
	_, _ = mw.CreateFormFile("upload", "big.bin")
	tail.WriteString("\r\n--" + mw.Boundary() + "--\r\n")
	return io.MultiReader(&head, io.LimitReader(zeros{}, n), &tail), mw.FormDataContentType()
}

// TestUploadsLeaveNoTempFiles: a POST with a file part larger than the
// portal keeps in memory leaves nothing in the temp folder, whatever the
// route does with it.
func TestUploadsLeaveNoTempFiles(t *testing.T) {
	e := newPortalEnv(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // os.TempDir, where multipart spills, reads it at each call
	for _, path := range []string{"/login", "/notices/999999/objections", "/workspace/applications", "/adjudicate"} {
		body, ctype := bigUpload(40 << 20) // above net/http's 32 MB in memory
		req := httptest.NewRequest(http.MethodPost, path, body)
		req.Header.Set("Content-Type", ctype)
		rec := httptest.NewRecorder()
		e.srv.Config.Handler.ServeHTTP(rec, req)
		if rec.Code < 300 || rec.Code >= 500 {
			t.Errorf("POST %s = %d, want a refusal", path, rec.Code)
		}
		left, err := os.ReadDir(tmp)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range left {
			t.Errorf("POST %s left %s in the temp folder", path, f.Name())
			_ = os.Remove(tmp + "/" + f.Name())
		}
	}
}

// TestLanguageSwitchStaysOnSite: the language link of any page, the 404
// page of a crafted path included, is a path of this site.
func TestLanguageSwitchStaysOnSite(t *testing.T) {
	srv, _ := newPortal(t)
	link := regexp.MustCompile(`<a href="([^"]*)" data-testid="lang-switch"`)
	tests := []struct{ path, want string }{
		{"/%5Cevil.example", "/?lang=en"},
		{"/%5C%5Cevil.example/x", "/?lang=en"},
		{"//evil.example/", "/evil.example?lang=en"},
		{"/%2F%2Fevil.example", "/evil.example?lang=en"},
		{"/agencies", "/agencies?lang=en"},
		{"/players?name=%E5%B0%8F", "/players?lang=en&amp;name=%E5%B0%8F"},
	}
	for _, tt := range tests {
		_, body := get(t, srv.URL+tt.path)
		m := link.FindStringSubmatch(body)
		if m == nil {
			t.Errorf("GET %s: no language link", tt.path)
			continue
		}
		if m[1] != tt.want || !strings.HasPrefix(m[1], "/") || strings.HasPrefix(m[1], "//") || strings.Contains(m[1], `\`) {
			t.Errorf("GET %s: language link %q, want %q", tt.path, m[1], tt.want)
		}
	}
}
