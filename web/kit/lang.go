package kit

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Lang is a portal language: zh-CN first, English on request.
type Lang = ledger.Lang

const (
	Chinese = ledger.Chinese
	English = ledger.English
)

// LangFrom picks the language: ?lang= first, then the lang cookie, then
// Accept-Language, then Chinese. A page for the public keeps its language
// in its URL (the links it shows carry ?lang=: keepLang), so that one URL
// is one page a cache may keep; ?lang= is remembered in a cookie only on an
// answer that is private anyway (rememberLang): a signed-in user's, a
// page with a form (the sign-in page among them), a post.
func LangFrom(w http.ResponseWriter, r *http.Request) Lang {
	if l, ok := URLLang(r); ok {
		return l
	}
	if c, err := r.Cookie("lang"); err == nil {
		switch Lang(c.Value) {
		case English:
			return English
		case Chinese:
			return Chinese
		}
	}
	if l, ok := AcceptLang(r.Header.Get("Accept-Language")); ok {
		return l
	}
	return Chinese
}

// rememberLang keeps the language the URL names in a cookie.
func rememberLang(w http.ResponseWriter, l Lang) {
	http.SetCookie(w, &http.Cookie{Name: "lang", Value: string(l), Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds()), SameSite: http.SameSiteLaxMode})
}

// URLLang is the language the request's URL names (?lang=zh-CN or en; zh
// is read as zh-CN), if it names one.
func URLLang(r *http.Request) (Lang, bool) {
	switch v := r.URL.Query().Get("lang"); Lang(v) {
	case English:
		return English, true
	case Chinese, "zh":
		return Chinese, true
	}
	return "", false
}

// signedIn says whether the request carries a session cookie: enough to
// keep its answer out of shared caches (whether the session is still
// good is the page's business).
func signedIn(r *http.Request) bool {
	c, err := r.Cookie(sessionCookie)
	return err == nil && c.Value != ""
}

// maxAcceptLanguage bounds the header read: a browser sends a few dozen
// bytes; the rest of a longer one is left unread.
const maxAcceptLanguage = 256

// AcceptLang is the portal language an Accept-Language header prefers, if
// it prefers one of the two: its first language (by weight) that is some
// Chinese (zh-TW and zh-HK read as Chinese, the only Chinese the portal
// has) or some English.
func AcceptLang(h string) (Lang, bool) {
	if len(h) > maxAcceptLanguage {
		h = h[:maxAcceptLanguage]
		if i := strings.LastIndexByte(h, ','); i >= 0 {
			h = h[:i]
		}
	}
	tags, _, err := language.ParseAcceptLanguage(h)
	if err != nil {
		return "", false
	}
	for _, t := range tags {
		switch base, _ := t.Base(); base.String() {
		case "zh":
			return Chinese, true
		case "en":
			return English, true
		}
	}
	return "", false
}

// OtherLang is the language the page's switch leads to.
func OtherLang(l Lang) string {
	if l == English {
		return string(Chinese)
	}
	return string(English)
}

// ProvinceName is a province's name in the language.
func ProvinceName(l Lang, p registry.Province) string {
	if l == English {
		return p.NameEN
	}
	return p.NameZH
}

// ProvinceOf is the name of the province of the code, else the code.
func ProvinceOf(l Lang, code string) string {
	p, ok := registry.ProvinceByCode(code)
	if !ok {
		return code
	}
	return ProvinceName(l, p)
}

// RankName is a rank in the language; "—" for none.
func RankName(l Lang, r registry.Rank) string {
	if r == registry.NoRank {
		return "—"
	}
	if l == English {
		return r.English()
	}
	return r.Chinese()
}

// Count is n followed by the word of key in the page's language, in its
// plural form: English says "1 player found" (key_one) and "2 players
// found" (key); Chinese has one form (its key_one is the same word).
func (p Page) Count(n int64, key string) string {
	word := p.T[key]
	if n == 1 {
		if one, ok := p.T[key+"_one"]; ok {
			word = one
		}
	}
	return strconv.FormatInt(n, 10) + " " + word
}
