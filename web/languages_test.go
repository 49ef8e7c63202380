package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/net/html"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/tournaments"
)

// latinTerms are the Latin words a Chinese page may hold: names of
// formats, tools and programs, and abbreviations Chinese writes so too.
var latinTerms = map[string]bool{
	"dankyu": true, "PDF": true, "SGF": true, "sgf": true, "CSV": true, "csv": true, "Excel": true, "xlsx": true, "QR": true,
	"ID": true, "Ctrl": true, "apt": true, "get": true, "install": true, "fonts": true, "droid": true, "fallback": true,
	"cert": true, "font": true, "TrueType": true, "Tromp": true, "Taylor": true, "AGA": true, "OpenGotha": true,
	"pairgoth": true, "EGD": true, "GTP": true, "CN": true, "XLSX": true, "UTF": true, "GBK": true, "RFC": true,
	"zip": true, "dd": true /* an SGF point in an example */, "token": true, "create": true, /* the command dankyu token create */
	"GoR": true /* the EGD's rating scale */, "PIN": true, /* the EGD PIN */
	"JSON": true, /* a batch verification's answer format */
}

var latinWord = regexp.MustCompile(`[A-Za-z]{2,}`)

// interfaceText is a page's text and its worded attributes, without what
// is marked as data of another language (a lang attribute) and without
// code, pictures and form values.
func interfaceText(t *testing.T, page string, lang string) []string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "code", "script", "style", "svg", "textarea", "pre", "title": // the title carries the page's data
				return
			}
			for _, a := range n.Attr {
				switch a.Key {
				case "lang": // data, in whatever language it was written
					if n.Data != "html" {
						return
					}
				case "placeholder", "title", "aria-label", "alt":
					out = append(out, a.Val)
				}
			}
		}
		if n.Type == html.TextNode && strings.TrimSpace(n.Data) != "" {
			out = append(out, strings.TrimSpace(n.Data))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// otherLanguage finds the interface strings of a page in the other
// language: Chinese characters on an English page, English words on a
// Chinese one.
func otherLanguage(texts []string, lang string) []string {
	var bad []string
	for _, s := range texts {
		if lang == "en" {
			if strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
				bad = append(bad, s)
			}
			continue
		}
		for _, w := range latinWord.FindAllString(s, -1) {
			if !latinTerms[w] {
				bad = append(bad, s)
				break
			}
		}
	}
	return bad
}

// TestEveryPageInOneLanguage renders every page of the portal, as the
// public, an agency and staff, in Chinese and in English, and fails on an
// interface string of the other language. Data (names of people, agencies
// and events, typed text) is marked with its lang attribute and left out.
func TestEveryPageInOneLanguage(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	ctx := context.Background()
	agencyTok, staffTok := e.tokens(t)
	c1 := e.issueOneDan(t, e.player.ID)
	bj := fixture.Agency("110")
	four := fixture.Player(t, e.reg, "110", "李四", "3d", "1985-06-01", 1)
	app, err := e.cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: four.ID, TargetRank: "4d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "4d", four.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if app, err = e.cs.Approve(ctx, bj, "", app.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: app.NoticeID, Name: "赵六", Contact: "139", Reason: "代下", Address: "10.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	ev, err := e.ts.CreateEvent(ctx, bj, "", tournaments.EventInput{Name: "北京市段位赛", Start: "2026-11-28", Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"甲", "乙"} {
		pl := fixture.Player(t, e.reg, "110", name, "1d", "1990-01-01", 10+i)
		if _, err := e.ts.AddParticipant(ctx, bj, "", ev.ID, tournaments.ParticipantInput{PlayerID: pl.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.ts.PairNextRound(ctx, bj, "", ev.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.RecordResult(ctx, bj, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "black", SGF: koRecord}); err != nil {
		t.Fatal(err) // the record gives no winner: flagged for review
	}
	tour := fmt.Sprintf("/tournaments/%d", ev.ID)
	public := []string{"/", "/agencies", "/players", "/players?name=" + url.QueryEscape("王"), fmt.Sprintf("/players/%d", e.player.ID),
		"/notices", fmt.Sprintf("/notices/%d", app.NoticeID), "/verify", "/verify?number=" + c1.Number, "/verify?number=12",
		"/verify/batch", "/login", "/adjudicate", "/statistics", "/tournaments", tour, tour + "/rounds/1/boards/1",
		tour + "/rounds/1/boards/1?move=2", "/nope"}
	agencyPages := []string{"/workspace", "/workspace/players", "/workspace/players/new", fmt.Sprintf("/workspace/players/%d/edit", e.player.ID),
		"/workspace/apply?name=" + url.QueryEscape("王"), "/workspace/apply?name=" + url.QueryEscape("无"), "/certificates/" + c1.Number,
		"/workspace/import", "/workspace/reissue", "/workspace/revoke/confirm?number=" + c1.Number + "&reason=" + url.QueryEscape("冒名"),
		tour + "/finish/confirm", tour}
	staffPages := []string{"/workspace", "/workspace/agencies", "/workspace/tokens", "/workspace/agencies/110/suspend/confirm?reason=x",
		"/workspace/tokens/1/revoke/confirm", "/workspace/institution-keys", "/workspace/statistics", "/certificates/" + c1.Number}
	agency, staff := client(t), client(t)
	e.signIn(t, agency, agencyTok)
	e.signIn(t, staff, staffTok)
	type visit struct {
		who  string
		c    *http.Client
		path string
	}
	var visits []visit
	for _, p := range public {
		visits = append(visits, visit{"public", client(t), p})
	}
	for _, p := range agencyPages {
		visits = append(visits, visit{"agency", agency, p})
	}
	for _, p := range staffPages {
		visits = append(visits, visit{"staff", staff, p})
	}
	for _, lang := range []string{"zh-CN", "en"} {
		// answers to forms: a referee's result, a refused player form
		posts := []struct {
			who  string
			c    *http.Client
			path string
			form url.Values
		}{
			{"public", client(t), "/adjudicate", url.Values{"sgf_text": {koRecord}}},
			{"public", client(t), "/adjudicate", url.Values{"sgf_text": {"(;SZ[5]KM[0]AB[ca][cb][cc][cd][ce]AW[aa];B[];W[])"}, "dead": {"aa"}}},
			{"agency", agency, "/workspace/players", url.Values{"name": {"某"}, "gender": {"M"}, "birth_date": {"1990-05-01"},
				"identity_kind": {"resident_id"}, "identity_number": {"110105199005010027"}, "province_code": {"11"}}},
		}
		for _, ps := range posts {
			_, form, _ := fetch(t, ps.c, "GET", e.srv.URL+"/workspace/players/new?lang="+lang, nil)
			if ps.who != "public" {
				ps.form.Set("csrf", csrfOf(t, form))
			}
			_, page, _ := fetch(t, ps.c, "POST", e.srv.URL+ps.path+"?lang="+lang, ps.form)
			for _, s := range otherLanguage(interfaceText(t, page, lang), lang) {
				t.Errorf("%s answer to POST %s shows %q", lang, ps.path, s)
			}
		}

		for _, v := range visits {
			sep := "?"
			if strings.Contains(v.path, "?") {
				sep = "&"
			}
			code, page, _ := fetch(t, v.c, "GET", e.srv.URL+v.path+sep+"lang="+lang, nil)
			if code >= 500 {
				t.Errorf("%s %s %s: %d", lang, v.who, v.path, code)
				continue
			}
			if !strings.Contains(page, `<html lang="`+lang+`"`) {
				t.Errorf("%s %s %s: not a page in %s", lang, v.who, v.path, lang)
				continue
			}
			for _, s := range otherLanguage(interfaceText(t, page, lang), lang) {
				t.Errorf("%s page %s (%s) shows %q", lang, v.path, v.who, s)
			}
		}
	}
}
