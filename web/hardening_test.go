package web_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/tournaments"
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

// TestResultFormCountsAreBounded: the results form's board count is the
// round's, and counts of other forms fit the registry's numbers; larger
// ones are refused with a reason, not looped over or stored.
func TestResultFormCountsAreBounded(t *testing.T) {
	e := newPortalEnv(t)
	ctx := context.Background()
	bj := fixture.Agency("110")
	agencyTok, _ := e.tokens(t)
	ev, err := e.ts.CreateEvent(ctx, bj, "", tournaments.EventInput{Name: "上限", Start: "2026-11-28", Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 4; i++ {
		pl := fixture.Player(t, e.reg, "110", fmt.Sprintf("棋手%d", i), "1d", "1990-01-01", 10+i)
		if _, err := e.ts.AddParticipant(ctx, bj, "", ev.ID, tournaments.ParticipantInput{PlayerID: pl.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.ts.PairNextRound(ctx, bj, "", ev.ID); err != nil { // two boards
		t.Fatal(err)
	}
	open, err := e.ts.CreateEvent(ctx, bj, "", tournaments.EventInput{Name: "未开始", Start: "2026-12-12", Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	c := client(t)
	u := e.srv.URL
	_, page, _ := fetch(t, c, "GET", u+"/login?lang=en", nil)
	if code, _, _ := fetch(t, c, "POST", u+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {agencyTok}}); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	tests := []struct {
		name string
		id   int64
		path string
		form url.Values
		code int
		want string
	}{
		{"one board too many", ev.ID, "/rounds/1/results", url.Values{"boards": {"3"}}, 400, "round 1 has 2 boards; the form sends 3."},
		{"the largest int64", ev.ID, "/rounds/1/results", url.Values{"boards": {"9223372036854775807"}}, 400, "Boards: must be between"},
		{"negative", ev.ID, "/rounds/1/results", url.Values{"boards": {"-1"}}, 400, "round 1 has 2 boards; the form sends -1."},
		{"a round not paired", ev.ID, "/rounds/7/results", url.Values{"boards": {"1"}}, 400, "round 7 has 0 boards; the form sends 1."},
		{"the round's boards", ev.ID, "/rounds/1/results", url.Values{"boards": {"2"}, "result_1": {"black"}}, 303, ""},
		{"a huge team board", open.ID, "/participants", url.Values{"guest_name": {"客"}, "board": {"99999999999"}}, 400, "must be between"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// each post its page's token: a state-changing post uses its token up
			_, page, _ := fetch(t, c, "GET", fmt.Sprintf("%s/tournaments/%d", u, tt.id), nil)
			tt.form.Set("csrf", csrfOf(t, page))
			code, body, _ := fetch(t, c, "POST", fmt.Sprintf("%s/tournaments/%d%s", u, tt.id, tt.path), tt.form)
			if code != tt.code || !strings.Contains(body, tt.want) {
				t.Errorf("POST %s = %d, want %d with %q; page: %.300s", tt.path, code, tt.code, tt.want, errorText(body))
			}
		})
	}
}

// errorText is the refusal shown on a page, for failure messages.
func errorText(body string) string {
	if i := strings.Index(body, `data-testid="form-error"`); i >= 0 {
		return body[i:]
	}
	return body
}

// TestBadTextOnThePortal: NUL or 1 MB in a form's text is a refusal in the
// page's language naming the field, not an error page.
func TestBadTextOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	c := client(t)
	u := e.srv.URL
	_, page, _ := fetch(t, c, "GET", u+"/login?lang=en", nil)
	if code, _, _ := fetch(t, c, "POST", u+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {agencyTok}}); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	_, page, _ = fetch(t, c, "GET", u+"/workspace", nil)
	csrf := csrfOf(t, page)
	event := url.Values{"csrf": {csrf}, "name": {"杯"}, "start": {"2026-12-12"}, "level": {"city"}, "system": {"round_robin"}}
	tests := []struct {
		name, field, value, want string
	}{
		{"NUL in the venue", "venue", "北京\x00", "Venue: contains characters that cannot be kept"},
		{"broken UTF-8 in the name", "name", "杯\xff", "Name: contains characters that cannot be kept"},
		{"a venue of 1 MB", "venue", strings.Repeat("长", 1<<20/3), "Venue: is longer than 200 characters."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			form := url.Values{}
			for k, v := range event {
				form[k] = v
			}
			form.Set(tt.field, tt.value)
			code, body, _ := fetch(t, c, "POST", u+"/workspace/tournaments", form)
			if code != http.StatusBadRequest || !strings.Contains(body, tt.want) {
				t.Errorf("POST /workspace/tournaments = %d, want 400 with %q; page: %.300s", code, tt.want, errorText(body))
			}
		})
	}
}
