package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/web/kit"
)

// TestVerifyPageWritesItsLinks: the verification page writes its links
// with the language its URL names itself (kit.RenderLinked, no rewriting
// after): every one of its own links and its GET form carry it, exactly
// as the rewriting would have made them, whatever the answer (valid with
// its receipts, reissued with the new number's link, revoked, unknown,
// malformed, the empty form); without a language in the URL, none does.
func TestVerifyPageWritesItsLinks(t *testing.T) {
	e := newLogPortal(t)
	ctx := context.Background()
	fixture.Stock(t, e.cs, "110", e.clock.Now().In(ledger.ChinaTime).Year(), 10, 10)
	valid := e.issueOneDan(t, fixture.Player(t, e.reg, "110", "丙一", "", "1990-01-01", 70).ID)
	old := e.issueOneDan(t, fixture.Player(t, e.reg, "110", "丙二", "", "1990-01-02", 71).ID)
	if _, err := e.cs.Reissue(ctx, fixture.Staff, "", old.Number, "遗失补发"); err != nil {
		t.Fatal(err)
	}
	revoked := e.issueOneDan(t, fixture.Player(t, e.reg, "110", "丙三", "", "1990-01-03", 72).ID)
	if _, err := e.cs.Revoke(ctx, fixture.Staff, "", revoked.Number, "弄虚作假"); err != nil {
		t.Fatal(err)
	}
	page := func(path string) []byte {
		t.Helper()
		resp, err := http.Get(e.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		return []byte(readAll(resp))
	}
	for _, l := range []kit.Lang{kit.English, kit.Chinese} {
		for _, q := range []string{"number=" + valid.Number, "number=" + valid.Number + "&name=" + url.QueryEscape("丙一"), "number=" + old.Number,
			"number=" + revoked.Number, "number=110269999", "number=12345", ""} {
			path := "/verify?" + q + "&lang=" + string(l)
			got := page(path)
			if !kit.KeepsLang(got, l) {
				t.Errorf("%s: a link or form without the language:\n%s", path, got)
			}
			for _, want := range []string{`href="/verify/batch?lang=` + string(l) + `"`, `<input type="hidden" name="lang" value="` + string(l) + `"`} {
				if !strings.Contains(string(got), want) {
					t.Errorf("%s: lacks %s", path, want)
				}
			}
			if q == "number="+valid.Number && !strings.Contains(string(got), `/log/inclusion?index=`) {
				t.Errorf("%s: no receipts", path)
			}
			if q == "number="+old.Number && !strings.Contains(string(got), `href="/verify?number=`) {
				t.Errorf("%s: no link to the new number", path)
			}
		}
	}
	// the check fails a page that does not keep the language
	if got := page("/verify?number=" + valid.Number); kit.KeepsLang(got, kit.English) {
		t.Errorf("/verify without a language: its links keep one")
	}
}
