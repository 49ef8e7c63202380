package kit

import (
	"net/http"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Lang is a portal language: zh-CN first, English on request.
type Lang = ledger.Lang

const (
	Chinese = ledger.Chinese
	English = ledger.English
)

// LangFrom picks the language: ?lang= first (remembered in a cookie), then
// the cookie, then Chinese.
func LangFrom(w http.ResponseWriter, r *http.Request) Lang {
	switch Lang(r.URL.Query().Get("lang")) {
	case English:
		http.SetCookie(w, &http.Cookie{Name: "lang", Value: string(English), Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds()), SameSite: http.SameSiteLaxMode})
		return English
	case Chinese:
		http.SetCookie(w, &http.Cookie{Name: "lang", Value: string(Chinese), Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds()), SameSite: http.SameSiteLaxMode})
		return Chinese
	}
	if c, err := r.Cookie("lang"); err == nil && Lang(c.Value) == English {
		return English
	}
	return Chinese
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
