package kit

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

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
// in runs between them, in one write. A tag other than a or form is not
// decoded (its name alone is read), so a page costs a scan, not a parse.
func keepLang(dst io.Writer, src []byte, lang string) error {
	out := make([]byte, 0, len(src)+len(src)/16)
	z := html.NewTokenizer(bytes.NewReader(src))
	pos := 0 // src[pos:] is not yet written
	off := 0 // where the current token starts: tokens tile src, each its Raw
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				return z.Err()
			}
			out = append(out, src[pos:]...)
			_, err := dst.Write(out)
			return err
		}
		start, n := off, len(z.Raw())
		off += n
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if !hasAttr || (string(name) != "a" && string(name) != "form") {
			continue
		}
		raw := src[start : start+n]
		tok := html.Token{Type: tt, Data: string(name)}
		for more := true; more; {
			var k, v []byte
			k, v, more = z.TagAttr()
			tok.Attr = append(tok.Attr, html.Attribute{Key: string(k), Val: string(v)})
		}
		changed, hidden := false, false
		if tok.Data == "a" {
			changed = withLang(tok.Attr, "href", lang)
		} else {
			get := true
			for _, a := range tok.Attr {
				if a.Key == "method" && !strings.EqualFold(a.Val, "get") {
					get = false
				}
			}
			if get {
				hidden = ownPath(attr(tok.Attr, "action"))
			} else {
				changed = withLang(tok.Attr, "action", lang)
			}
		}
		if !changed && !hidden {
			continue
		}
		out = append(out, src[pos:start]...)
		if changed {
			out = append(out, tok.String()...)
		} else {
			out = append(out, raw...)
		}
		if hidden {
			out = append(out, `<input type="hidden" name="lang" value="`+html.EscapeString(lang)+`"/>`...)
		}
		pos = start + n
	}
}

func attr(as []html.Attribute, key string) string {
	for _, a := range as {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
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
		if a.Key != key || !ownPath(a.Val) {
			continue
		}
		link, frag, _ := strings.Cut(a.Val, "#")
		p, q, _ := strings.Cut(link, "?")
		if strings.HasPrefix(q, "lang=") || strings.Contains(q, "&lang=") {
			return false
		}
		if q != "" {
			q += "&"
		}
		v := p + "?" + q + "lang=" + lang
		if frag != "" {
			v += "#" + frag
		}
		as[i].Val = v
		return true
	}
	return false
}

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
