package kit

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCountHasEnglishPlurals: "1 player found", "2 players found"; Chinese
// has one form (issue 24: "1 players found").
func TestCountHasEnglishPlurals(t *testing.T) {
	en := Page{Lang: English, T: map[string]string{"results": "players found", "results_one": "player found"}}
	zh := Page{Lang: Chinese, T: map[string]string{"results": "名棋手", "results_one": "名棋手"}}
	for _, tt := range []struct {
		p    Page
		n    int64
		want string
	}{{en, 0, "0 players found"}, {en, 1, "1 player found"}, {en, 2, "2 players found"}, {zh, 1, "1 名棋手"}} {
		if got := tt.p.Count(tt.n, "results"); got != tt.want {
			t.Errorf("Count(%d) in %s = %q, want %q", tt.n, tt.p.Lang, got, tt.want)
		}
	}
}

// TestLangOrder: ?lang= first, then the cookie, then Accept-Language,
// then Chinese.
func TestLangOrder(t *testing.T) {
	for _, tt := range []struct {
		url, cookie, accept string
		want                Lang
	}{
		{"/?lang=en", "zh-CN", "zh-CN", English},
		{"/?lang=zh", "en", "en", Chinese},
		{"/", "en", "zh-CN", English},
		{"/", "", "en-US,en;q=0.9", English},
		{"/", "", "zh-TW,en;q=0.5", Chinese},
		{"/", "", "fr-FR,de", Chinese},
		{"/", "", "", Chinese},
		{"/?lang=xx", "", "en", English},
		{"/", "", strings.Repeat("de;q=0.1,", 100) + "en", Chinese}, // past the bound, unread
	} {
		r := httptest.NewRequest("GET", tt.url, nil)
		if tt.cookie != "" {
			r.Header.Set("Cookie", "lang="+tt.cookie)
		}
		r.Header.Set("Accept-Language", tt.accept)
		w := httptest.NewRecorder()
		if got := LangFrom(w, r); got != tt.want {
			t.Errorf("%s cookie %q Accept-Language %q: %s, want %s", tt.url, tt.cookie, tt.accept, got, tt.want)
		}
		if len(w.Result().Cookies()) != 0 {
			t.Errorf("%s: LangFrom set a cookie", tt.url)
		}
	}
}

// FuzzAcceptLang: any header is read within its bound without failing.
func FuzzAcceptLang(f *testing.F) {
	for _, s := range []string{"en-US,en;q=0.9", "zh-CN,zh;q=0.9,en;q=0.8", "*", ";q=", "en;q=2", strings.Repeat("x-", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		l, ok := AcceptLang(h)
		if ok != (l == English || l == Chinese) {
			t.Fatalf("%q: %q, %v", h, l, ok)
		}
	})
}

// TestKeepLang: the site's links and forms carry the language; other
// hosts, style sheets and links naming a language are left as they were.
func TestKeepLang(t *testing.T) {
	in := `<html><head><link rel="stylesheet" href="/static/site.css"/></head><body>` +
		`<a href="/players">p</a><a href="/players?q=%E5%BC%A0#top">q</a><a href="//evil.example/x">x</a>` +
		`<a href="https://example.org/">o</a><a href="/notices?lang=zh-CN">s</a>` +
		`<form method="get" action="/verify"><input name="number"/></form>` +
		`<form method="post" action="/notices/1/objections"></form><textarea><a href="/raw"></textarea></body></html>`
	var out bytes.Buffer
	if err := keepLang(&out, []byte(in), "en"); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{`href="/static/site.css"`, `<a href="/players?lang=en">`, `<a href="/players?q=%E5%BC%A0&amp;lang=en#top">`,
		`href="//evil.example/x"`, `href="https://example.org/"`, `href="/notices?lang=zh-CN"`,
		`<form method="get" action="/verify"><input type="hidden" name="lang" value="en"/>`,
		`action="/notices/1/objections?lang=en"`, `<textarea><a href="/raw"></textarea>`} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %s:\n%s", want, got)
		}
	}
}

// BenchmarkKeepLang is keepLang over a page of the size of /verify's,
// against copying the same bytes (its floor).
func BenchmarkKeepLang(b *testing.B) {
	var page strings.Builder
	page.WriteString(`<html><head><link rel="stylesheet" href="/static/site.css"/><script>var x = "<a href='/s'>";</script></head><body>`)
	for page.Len() < 4500 {
		page.WriteString(`<div class="row"><span>证书编号</span><a href="/players?q=%E5%BC%A0#top">张三</a><p>text &amp; more</p></div>`)
	}
	page.WriteString(`<form method="get" action="/verify"><input name="number"/></form></body></html>`)
	src := []byte(page.String())
	b.Run("keepLang", func(b *testing.B) {
		for b.Loop() {
			var out bytes.Buffer
			if err := keepLang(&out, src, "en"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("copy", func(b *testing.B) {
		for b.Loop() {
			var out bytes.Buffer
			out.Write(src)
		}
	})
}

// FuzzKeepLang: the scanner never panics on any page, and a page without
// an a or form tag goes out byte for byte as it came.
func FuzzKeepLang(f *testing.F) {
	for _, s := range []string{`<a href="/x">x</a>`, `<form method="get" action="/v"></form>`, `<!-- <a href="/c"> -->`,
		`<script>"<a href='/s'>"</script>`, `<textarea><a href="/raw"></textarea>`, `<a href='/q?x=1#f' class=c>`, `<a href=/u>`, `<a`, `<form action="/p`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, page string) {
		var out bytes.Buffer
		if err := keepLang(&out, []byte(page), "en"); err != nil {
			t.Fatal(err)
		}
		low := strings.ToLower(page)
		if !strings.Contains(low, "<a") && !strings.Contains(low, "<form") && out.String() != page {
			t.Fatalf("changed a page without links: %q → %q", page, out.String())
		}
	})
}

// TestKeepsLang: a page that writes its links with the language (and its
// GET form's field) is left as it is; one link or form without it is not.
func TestKeepsLang(t *testing.T) {
	kept := `<a href="/players?lang=en">p</a><a href="https://example.org/">o</a>` +
		`<form method="get" action="/verify"><input type="hidden" name="lang" value="en"><input name="number"/></form>` +
		`<form method="get" action="/verify/batch"><input type="hidden" name="lang" value="en"/></form>`
	if !KeepsLang([]byte(kept), English) {
		t.Errorf("a page keeping the language is rewritten")
	}
	for _, bad := range []string{`<a href="/players">p</a>`, `<form method="get" action="/verify"><input name="number"/></form>`,
		`<form method="get" action="/verify"><input type="hidden" name="lang" value="zh-CN"></form>`} {
		if KeepsLang([]byte(kept+bad), English) {
			t.Errorf("%s: taken for keeping the language", bad)
		}
	}
	pg := Page{linkLang: English}
	for u, want := range map[string]string{"/log/inclusion?index=3&size=9": "/log/inclusion?index=3&size=9&lang=en", "/": "/?lang=en",
		"/static/site.css": "/static/site.css", "/notices?lang=zh-CN": "/notices?lang=zh-CN", "//evil.example/x": "//evil.example/x"} {
		if got := string(pg.Link(u)); got != want {
			t.Errorf("Link(%q) = %q, want %q", u, got, want)
		}
	}
	if got := (Page{}).Link("/players"); got != "/players" {
		t.Errorf("a page without a language in its URL: Link = %q", got)
	}
}
