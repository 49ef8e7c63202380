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
)

// TestImportProposalOnThePortal: a file's 王小明 of a Shanghai club is the
// registry's only 王小明 (of Beijing): the import page proposes him with the
// facts side by side (the province differing, the rank agreeing, the ID
// number masked) instead of matching him; the clerk confirms him with the
// radio button and the event comes in with him as its participant.
func TestImportProposalOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	c := client(t)
	u := e.srv.URL
	_, page, _ := fetch(t, c, "GET", u+"/login", nil)
	if code, _, _ := fetch(t, c, "POST", u+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {agencyTok}}); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	_, page, _ = fetch(t, c, "GET", u+"/workspace/import", nil)
	data := []byte("; EV[俱乐部赛]\n  1 王 小明  3D CN 上海  2+/w0\n  2 Robin Guest  1K FR Pari  1-/b0\n")
	post := func(fields map[string]string, file []byte) (int, string, http.Header) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		for k, v := range fields {
			mw.WriteField(k, v)
		}
		if file != nil {
			fw, _ := mw.CreateFormFile("file", "club.h9")
			fw.Write(file)
		}
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
	code, page, _ := post(map[string]string{"csrf": csrfOf(t, page), "idem": "p1", "level": "city"}, data)
	if code != 200 || !strings.Contains(page, `data-testid="import-status">待确认`) || !strings.Contains(page, `data-testid="import-proposal"`) {
		t.Fatalf("proposal: %d\n%.3000s", code, page)
	}
	for _, want := range []string{`data-testid="fact-province" data-agreement="differs"`, `data-testid="fact-rank" data-agreement="agrees"`,
		`data-testid="fact-name" data-agreement="agrees"`, "北京市", "Wang Xiaoming", "1949 · 110"} {
		if !strings.Contains(page, want) {
			t.Errorf("the proposal lacks %q", want)
		}
	}
	if strings.Contains(page, e.player.IDNumber) {
		t.Error("the proposal shows a full identity number")
	}
	id := strconv.FormatInt(e.player.ID, 10)
	code, _, hdr := post(map[string]string{"csrf": csrfOf(t, page), "idem": "p2", "level": "city", "commit": "1", "confirm_1": id,
		"guest_2": "on"}, data)
	if code != http.StatusSeeOther || !strings.Contains(hdr.Get("Location"), "ok=imported") {
		t.Fatalf("import with the proposal confirmed: %d %v", code, hdr)
	}
	tid, _ := strconv.ParseInt(strings.TrimPrefix(strings.Split(hdr.Get("Location"), "?")[0], "/tournaments/"), 10, 64)
	ps, err := e.ts.Participants(context.Background(), tid)
	if err != nil || len(ps) != 2 || ps[0].PlayerID != e.player.ID || ps[1].PlayerID != 0 {
		t.Fatalf("participants %+v %v", ps, err)
	}
}
