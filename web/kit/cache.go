package kit

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"golang.org/x/net/html"
)

// Caching. A page the public reads is the same for every anonymous visitor
// of its URL, so a reverse proxy or CDN may keep it: such a page sets no
// cookie (a form token, and its cookie, only on a page that shows a form:
// FormToken), names its language in its URL (?lang=, kept by its links),
// and says how long it may be kept. Anything of a signed-in user, and any
// answer that sets a cookie or carries a form token, is private and never
// stored. docs/operations.md ("A cache in front") has the proxy's side.

// CacheConfig is how long a shared cache may keep the public's pages.
type CacheConfig struct {
	// MaxAge is how long a public page is fresh (default 60 s).
	MaxAge time.Duration
	// StaleIfError is how long past that a cache may still answer with
	// it while the server fails (default 24 h).
	StaleIfError time.Duration
	// Paths are the public pages kept, by path prefix (a whole segment);
	// nil takes PublicCachePaths.
	Paths []string
}

// PublicCachePaths are the pages a shared cache may keep: notices, players,
// tournaments, ratings and statistics. /verify is not among them: it is
// revalidated on every request (no-cache with an ETag), since a kept
// "valid" after a revocation is the one answer the registry must not give.
var PublicCachePaths = []string{"/notices", "/players", "/tournaments", "/ratings", "/statistics"}

func (c CacheConfig) withDefaults() CacheConfig {
	if c.MaxAge <= 0 {
		c.MaxAge = time.Minute
	}
	if c.StaleIfError <= 0 {
		c.StaleIfError = 24 * time.Hour
	}
	if c.Paths == nil {
		c.Paths = PublicCachePaths
	}
	return c
}

// cacheable says whether path is one of the public pages kept.
func (c CacheConfig) cacheable(path string) bool {
	for _, p := range c.Paths {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// publicControl is the Cache-Control of a public page.
func (c CacheConfig) publicControl() string {
	return "public, max-age=" + strconv.Itoa(int(c.MaxAge.Seconds())) + ", stale-if-error=" + strconv.Itoa(int(c.StaleIfError.Seconds()))
}

// Private marks the answer to r as one no shared cache may keep (a page
// with a form token, a visitor's own answer).
func Private(r *http.Request) {
	if memo, _ := r.Context().Value(actorMemoKey{}).(*actorMemo); memo != nil {
		memo.private = true
	}
}

func isPrivate(r *http.Request) bool {
	memo, _ := r.Context().Value(actorMemoKey{}).(*actorMemo)
	return memo != nil && memo.private
}

// cachePolicy sets each GET answer's Cache-Control and Vary as it is
// written: private and never stored when it sets a cookie, carries a form
// token or answers a signed-in user; public for the listed pages; else
// what the handler set (the verification's no-cache). Every answer but a
// static file varies by Cookie (signed in or not), and by Accept-Language
// unless its URL names the language.
//
// An answer that is private anyway remembers the language its URL names in
// a cookie (rememberLang); one a shared cache may keep sets none.
func (s *Site) cachePolicy(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&cacheWriter{ResponseWriter: w, r: r, c: s.cache}, r)
	})
}

type cacheWriter struct {
	http.ResponseWriter
	r       *http.Request
	c       CacheConfig
	decided bool
}

func (cw *cacheWriter) Unwrap() http.ResponseWriter { return cw.ResponseWriter }

func (cw *cacheWriter) WriteHeader(code int) {
	if !cw.decided {
		cw.decided = true
		cw.decide(code)
	}
	cw.ResponseWriter.WriteHeader(code)
}

func (cw *cacheWriter) Write(b []byte) (int, error) {
	if !cw.decided {
		cw.WriteHeader(http.StatusOK)
	}
	return cw.ResponseWriter.Write(b)
}

func (cw *cacheWriter) decide(code int) {
	h, r := cw.Header(), cw.r
	if strings.HasPrefix(r.URL.Path, "/static/") {
		return
	}
	get := r.Method == http.MethodGet || r.Method == http.MethodHead
	private := len(h.Values("Set-Cookie")) > 0 || signedIn(r) || isPrivate(r)
	l, named := URLLang(r)
	if named && (private || !get) {
		rememberLang(cw.ResponseWriter, l)
	}
	if !get {
		return
	}
	vary := "Cookie"
	if !named {
		vary += ", Accept-Language"
	}
	h.Add("Vary", vary)
	switch {
	case private:
		h.Set("Cache-Control", "private, no-store")
	case h.Get("Cache-Control") != "":
	case code == http.StatusOK && cw.c.cacheable(r.URL.Path):
		h.Set("Cache-Control", cw.c.publicControl())
	}
}

// keepLang writes the page src with the language lang kept in its links:
// every link and form of the site's own (a path, not another host) gets
// ?lang=, a GET form a hidden field (its query is replaced on submission).
// Only the tags changed are written anew; the rest goes out as it came,
// in one write. The page is scanned for '<', not tokenized: comments and
// the raw-text elements (script, style, textarea, title, …) are skipped
// to their end, and only an a or form tag is cut out and decoded by the
// HTML tokenizer (tokenizing the whole page was half the CPU of a
// public page asked for in English).
func keepLang(dst io.Writer, src []byte, lang string) error {
	out := make([]byte, 0, len(src)+len(src)/16)
	pos := 0 // src[pos:] is not yet written
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '<')
		if j < 0 {
			break
		}
		i += j
		rest := src[i:]
		if bytes.HasPrefix(rest, []byte("<!--")) {
			k := bytes.Index(rest[4:], []byte("-->"))
			if k < 0 {
				break
			}
			i += 4 + k + 3
			continue
		}
		name := tagName(rest[1:])
		if raw := rawTextEnd(name, rest); raw > 0 {
			i += raw
			continue
		}
		if name != "a" && name != "form" {
			i++
			continue
		}
		end := tagEnd(rest)
		if end < 0 {
			break
		}
		changed, hidden, tag := langTag(rest[:end], lang)
		if changed || hidden {
			out = append(out, src[pos:i]...)
			if changed {
				out = append(out, tag...)
			} else {
				out = append(out, rest[:end]...)
			}
			if hidden && !langField(src[i+end:], lang) {
				out = append(out, `<input type="hidden" name="lang" value="`+html.EscapeString(lang)+`"/>`...)
			}
			pos = i + end
		}
		i += end
	}
	out = append(out, src[pos:]...)
	_, err := dst.Write(out)
	return err
}

// langField says whether b starts with the hidden field of lang that a
// GET form keeping its language has (written by the page: Page.LinkLang).
func langField(b []byte, lang string) bool {
	f := `<input type="hidden" name="lang" value="` + html.EscapeString(lang) + `"`
	if !bytes.HasPrefix(b, []byte(f)) {
		return false
	}
	b = b[len(f):]
	return bytes.HasPrefix(b, []byte(">")) || bytes.HasPrefix(b, []byte("/>"))
}

// KeepsLang reports whether page keeps lang in its own links and GET
// forms already, as keepLang would write them: the check of a page that
// writes its links itself (Page.Link, Site.RenderLinked).
func KeepsLang(page []byte, lang Lang) bool {
	var out bytes.Buffer
	return keepLang(&out, page, string(lang)) == nil && bytes.Equal(out.Bytes(), page)
}

// tagName is the lowered name of the tag whose text (after '<') starts b,
// "" for none (an end tag, a declaration, text).
func tagName(b []byte) string {
	n := 0
	for n < len(b) && (b[n] >= 'a' && b[n] <= 'z' || b[n] >= 'A' && b[n] <= 'Z' || n > 0 && b[n] >= '0' && b[n] <= '9') {
		n++
	}
	if n == 0 || n == len(b) || !(b[n] == ' ' || b[n] == '>' || b[n] == '/' || b[n] == '\t' || b[n] == '\n' || b[n] == '\r' || b[n] == '\f') {
		return ""
	}
	return strings.ToLower(string(b[:n]))
}

// rawTextEnd is, for a raw-text or RCDATA element starting b, the length
// up to the end of its closing tag (whose contents are no tags); 0 for
// any other tag.
func rawTextEnd(name string, b []byte) int {
	switch name {
	case "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript":
	default:
		return 0
	}
	start := tagEnd(b)
	if start < 0 {
		return len(b)
	}
	closing := []byte("</" + name)
	for k := start; k < len(b); {
		j := bytes.Index(b[k:], []byte("</"))
		if j < 0 {
			return len(b)
		}
		k += j
		if len(b)-k >= len(closing) && bytes.EqualFold(b[k:k+len(closing)], closing) {
			if e := bytes.IndexByte(b[k:], '>'); e >= 0 {
				return k + e + 1
			}
			return len(b)
		}
		k += 2
	}
	return len(b)
}

// tagEnd is the length of the start tag starting b, through its '>'
// (quoted attribute values may hold one); -1 when it does not end.
func tagEnd(b []byte) int {
	var quote byte
	for k := 1; k < len(b); k++ {
		switch c := b[k]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return k + 1
		}
	}
	return -1
}

// tagAttr is one attribute of a start tag: its lowered key, its decoded
// value, and where its value stands in the tag (quotes included; start =
// end for none).
type tagAttr struct {
	key, val   string
	start, end int
}

// tagAttrs reads the attributes of the start tag raw (through its '>').
func tagAttrs(raw []byte) []tagAttr {
	var out []tagAttr
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
	k := 1
	for k < len(raw) && !space(raw[k]) && raw[k] != '>' && raw[k] != '/' {
		k++ // the name
	}
	for k < len(raw) {
		for k < len(raw) && (space(raw[k]) || raw[k] == '/') {
			k++
		}
		if k >= len(raw) || raw[k] == '>' {
			break
		}
		ks := k
		for k < len(raw) && !space(raw[k]) && raw[k] != '=' && raw[k] != '>' && !(raw[k] == '/' && k+1 < len(raw) && raw[k+1] == '>') {
			k++
		}
		a := tagAttr{key: strings.ToLower(string(raw[ks:k]))}
		for k < len(raw) && space(raw[k]) {
			k++
		}
		if k < len(raw) && raw[k] == '=' {
			k++
			for k < len(raw) && space(raw[k]) {
				k++
			}
			a.start = k
			if k < len(raw) && (raw[k] == '"' || raw[k] == '\'') {
				q := raw[k]
				e := bytes.IndexByte(raw[k+1:], q)
				if e < 0 {
					e = len(raw) - k - 2
				}
				a.val = html.UnescapeString(string(raw[k+1 : k+1+e]))
				k += e + 2
			} else {
				vs := k
				for k < len(raw) && !space(raw[k]) && raw[k] != '>' {
					k++
				}
				a.val = html.UnescapeString(string(raw[vs:k]))
			}
			a.end = min(k, len(raw))
		}
		out = append(out, a)
	}
	return out
}

// langTag reads one a or form start tag and says whether its link gains
// the language (and the tag as rewritten: only that value changed) or, a
// GET form of the site's, whether it needs the hidden field.
func langTag(raw []byte, lang string) (changed, hidden bool, tag string) {
	attrs := tagAttrs(raw)
	key := "href"
	if n := tagName(raw[1:]); n == "form" {
		get := true
		for _, a := range attrs {
			if a.key == "method" && !strings.EqualFold(a.val, "get") {
				get = false
			}
		}
		if get {
			for _, a := range attrs {
				if a.key == "action" {
					return false, ownPath(a.val), ""
				}
			}
			return false, false, ""
		}
		key = "action"
	}
	for _, a := range attrs {
		if a.key != key {
			continue
		}
		one := []html.Attribute{{Key: a.key, Val: a.val}}
		if a.start == a.end || !withLang(one, key, lang) {
			return false, false, ""
		}
		return true, false, string(raw[:a.start]) + `"` + html.EscapeString(one[0].Val) + `"` + string(raw[a.end:])
	}
	return false, false, ""
}

// ownPath says whether a link leads to a page of the site: a path (not
// another host, not a style sheet).
func ownPath(u string) bool {
	return strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") && !strings.HasPrefix(u, "/static/")
}

// withLang adds lang to the attribute key's link, unless the link is not
// the site's or names a language already.
func withLang(as []html.Attribute, key, lang string) bool {
	for i, a := range as {
		if a.Key != key {
			continue
		}
		v, ok := linkWithLang(a.Val, lang)
		as[i].Val = v
		return ok
	}
	return false
}

// linkWithLang is the link u with lang added (and true), unless it is not
// the site's or names a language already (u as it is, false).
func linkWithLang(u, lang string) (string, bool) {
	if !ownPath(u) {
		return u, false
	}
	link, frag, _ := strings.Cut(u, "#")
	p, q, _ := strings.Cut(link, "?")
	if strings.HasPrefix(q, "lang=") || strings.Contains(q, "&lang=") {
		return u, false
	}
	if q != "" {
		q += "&"
	}
	v := p + "?" + q + "lang=" + lang
	if frag != "" {
		v += "#" + frag
	}
	return v, true
}

// Link is the site's own link u as the page writes it: with the language
// its links keep (as keepLang adds it) when the page's URL names it and
// the public reads it, else as it is.
func (p Page) Link(u string) templ.SafeURL {
	if p.linkLang == "" {
		return templ.SafeURL(u)
	}
	v, _ := linkWithLang(u, string(p.linkLang))
	return templ.SafeURL(v)
}

// LinkLang is the language a GET form of the page keeps in a hidden
// field named lang ("" for none), as keepLang adds it.
func (p Page) LinkLang() Lang { return p.linkLang }

// NoneMatch says whether the request's If-None-Match names tag (weakly
// compared, as a GET's conditional is): the asker's copy is current.
func NoneMatch(r *http.Request, tag string) bool {
	want := strings.TrimPrefix(tag, "W/")
	for _, f := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		f = strings.TrimSpace(f)
		if f == "*" || strings.TrimPrefix(f, "W/") == want {
			return true
		}
	}
	return false
}
