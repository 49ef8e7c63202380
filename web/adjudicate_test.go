package web_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"
)

func postRecord(t *testing.T, url string, fields map[string]string, file []byte) (int, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	if file != nil {
		fw, _ := mw.CreateFormFile("sgf", "game.sgf")
		fw.Write(file)
	}
	mw.Close()
	resp, err := http.Post(url+"/adjudicate?lang=en", mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestAdjudicatePage(t *testing.T) {
	srv, _ := newPortal(t)
	dublin, err := os.ReadFile("../rules/testdata/corpus/games/dead-stones/gnugo-dublin2.sgf")
	if err != nil {
		t.Fatal(err)
	}
	dead := "be,bg,bj,cd,cj,ck,dc,dg,di,dn,eh,en,fn,gj,ib,ic,jb,ni,ob,pb,pc,pd,pf,qe,qf,qg,qh,qi,re,ri"
	code, body := postRecord(t, srv.URL, map[string]string{"dead": dead}, dublin)
	if code != 200 || !strings.Contains(body, `data-testid="result">W+29.5<`) || !strings.Contains(body, "two passes") ||
		strings.Contains(body, "白胜") { // an English page words the result in English only
		t.Fatalf("upload: %d\n%s", code, body)
	}
	code, body = postRecord(t, srv.URL, map[string]string{"sgf_text": "(;SZ[9]KM[7.5];B[ee];W[];B[])", "komi": "0.5"}, nil)
	if code != 200 || !strings.Contains(body, "B+80.5") {
		t.Fatalf("pasted record with komi: %d\n%s", code, body)
	}
	for _, tt := range []struct {
		fields map[string]string
		want   string
	}{
		{map[string]string{}, "Upload or paste"},
		{map[string]string{"sgf_text": "(;SZ[9];B[ee]"}, "byte 13"},
		{map[string]string{"sgf_text": "(;SZ[9];B[ee])", "komi": "lots"}, "Komi"},
		{map[string]string{"sgf_text": "(;SZ[9];B[ee])", "rules": "klingon"}, "Rules"},
		{map[string]string{"sgf_text": "(;SZ[9];B[ee])", "dead": "Z99"}, "dead"},
		// refused before the record is read (it cannot be)
		{map[string]string{"sgf_text": "(;SZ[9];B[", "dead": strings.Repeat("D4,", 200_000)}, "at most 2500 bytes"},
	} {
		code, body := postRecord(t, srv.URL, tt.fields, nil)
		if code != 400 || !strings.Contains(body, "form-error") || !strings.Contains(body, tt.want) {
			t.Errorf("%v: %d, want 400 with a form error mentioning %q\n%s", tt.fields, code, tt.want, body[strings.Index(body, "</form>"):])
		}
	}
}

// TestAdjudicateEndLabel: the line that says how the game ended is
// labelled so in both languages (it once took the tournament form's "end"
// date label, 结束).
func TestAdjudicateEndLabel(t *testing.T) {
	srv, _ := newPortal(t)
	for _, tt := range []struct{ lang, want string }{{"zh-CN", "<dt>终局方式</dt>"}, {"en", "<dt>Ended by</dt>"}} {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		_ = mw.WriteField("sgf_text", "(;SZ[9]KM[7.5];B[ee];W[];B[])")
		mw.Close()
		resp, err := http.Post(srv.URL+"/adjudicate?lang="+tt.lang, mw.FormDataContentType(), &body)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(page), tt.want+`<dd data-testid="result-end">`) {
			t.Errorf("%s: %d, want %s before the way the game ended\n%s", tt.lang, resp.StatusCode, tt.want, page)
		}
	}
}

// TestTournamentEndDateLabel: the tournament form's last-day field keeps
// the word "end" of its own (the adjudication page's label is another key).
func TestTournamentEndDateLabel(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	c := client(t)
	e.signIn(t, c, agencyTok)
	for _, tt := range []struct{ lang, want string }{{"zh-CN", "<label>结束 <input type=\"date\" name=\"end\""}, {"en", "<label>End <input type=\"date\" name=\"end\""}} {
		code, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace?lang="+tt.lang, nil)
		if code != 200 || !strings.Contains(page, tt.want) {
			t.Errorf("%s: %d, want %s on the tournament form", tt.lang, code, tt.want)
		}
	}
}
