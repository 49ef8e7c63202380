package web_test

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/width"
)

// TestImportAcceptsRegistryNumber (issue 24): the import page asks for the
// registry number (登记号), the number the player's page shows, and reads
// it as typed with full-width digits.
func TestImportAcceptsRegistryNumber(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	c := client(t)
	u := e.srv.URL
	_, page, _ := fetch(t, c, "GET", u+"/login", nil)
	if code, _, _ := fetch(t, c, "POST", u+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {agencyTok}}); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	_, page, _ = fetch(t, c, "GET", u+"/workspace/import", nil)
	data := []byte("; EV[俱乐部赛]\n  1 Someone Else  3D FR Pari  2+/w0\n  2 Robin Guest  1K FR Pari  1-/b0\n")
	post := func(fields map[string]string) (int, string, http.Header) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		for k, v := range fields {
			mw.WriteField(k, v)
		}
		fw, _ := mw.CreateFormFile("file", "club.h9")
		fw.Write(data)
		mw.Close()
		req, _ := http.NewRequest("POST", u+"/workspace/import", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	code, page, _ := post(map[string]string{"csrf": csrfOf(t, page), "idem": "r1", "level": "city"})
	if code != 200 || !strings.Contains(page, `<th>登记号</th>`) || strings.Contains(page, "棋手编号") {
		t.Fatalf("the import page (%d) does not ask for the registry number by its name", code)
	}
	_, pp := get(t, u+"/players/"+strconv.FormatInt(e.player.ID, 10))
	if !strings.Contains(pp, "登记号") {
		t.Fatal("the player's page does not show the registry number by the same name")
	}
	full := width.Widen.String(strconv.FormatInt(e.player.ID, 10))
	code, _, hdr := post(map[string]string{"csrf": csrfOf(t, page), "idem": "r2", "level": "city", "commit": "1", "match_1": full, "guest_2": "on"})
	if code != http.StatusSeeOther || !strings.Contains(hdr.Get("Location"), "ok=imported") {
		t.Fatalf("import with the registry number %q: %d %v", full, code, hdr)
	}
	tid, _ := strconv.ParseInt(strings.TrimPrefix(strings.Split(hdr.Get("Location"), "?")[0], "/tournaments/"), 10, 64)
	ps, err := e.ts.Participants(context.Background(), tid)
	if err != nil || len(ps) != 2 || ps[0].PlayerID != e.player.ID {
		t.Fatalf("participants %+v %v", ps, err)
	}
}
