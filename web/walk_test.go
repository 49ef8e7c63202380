package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/eventratings"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/internal/ratelimit"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// walk24Tokens are the Latin tokens a Chinese page may hold, each because
// Chinese writes it so too: file formats and standards a reader looks for
// by that name (PDF, CSV, SGF, QR, JSON, UTF), bodies and programs known
// by their Latin names (EGD, AGA, GoR — the EGD's rating scale —, gRPC,
// API), the portal's own name (dankyu, the brand link) and units.
var walk24Tokens = map[string]bool{
	"dankyu": true, "PDF": true, "CSV": true, "SGF": true, "QR": true, "JSON": true, "UTF": true,
	"EGD": true, "AGA": true, "GoR": true, "gRPC": true, "API": true, "ID": true, "pt": true, "px": true,
	"zip": true, "Excel": true, "OpenGotha": true, // file formats and programs known by these names
	"CN":    true,                 // the ISO country code, a value of the player's country field
	"Ctrl":  true,                 // the key to press, as printed on keyboards
	"Tromp": true, "Taylor": true, // the authors the Tromp–Taylor rules are named after
	"dd":  true, // an SGF point, the way a record writes it
	"GBK": true, // the Chinese text encoding a paper roster may come in, known by this name
	// the standings' tie-break columns, as the pairing programs and the EGD
	// print them (the crosstable's contents are issue 24c's)
	"SOS": true, "SOSOS": true,
}

var walk24Latin = regexp.MustCompile(`[A-Za-z]{2,}`)

// walk24Env is a portal over one database filled through the services'
// ordinary paths: what the walk's pages show.
type walk24Env struct {
	*portalEnv
	names    []string // names of people, agencies and events, and texts people typed: allowed in either language
	agency   string   // tokens
	staff    string
	notice   int64 // a notice with an upheld objection
	open     int64 // a notice open to objections
	revoked  string
	tourney  int64
	objector string
}

func newWalk24Env(t *testing.T) *walk24Env {
	t.Helper()
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clock := fixture.TodayClock(t)
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	w := &walk24Env{}
	w.names = append(w.names, "北京棋院", "上海棋院")
	if _, err := reg.CreateAgency(ctx, fixture.Staff, "", registry.AgencyInput{Prefix: "110", Name: "北京棋院", Contact: "010-1234"}); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.CreateAgency(ctx, fixture.Staff, "", registry.AgencyInput{Prefix: "310", Name: "上海棋院", Contact: "021-1234"}); err != nil {
		t.Fatal(err)
	}
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	b := book.New(store)
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs}, tournaments.WithRater(eventratings.Book{Book: b}))
	au, err := audit.New(store, reg, audit.Config{})
	if err != nil {
		t.Fatal(err)
	}
	// one objection an hour: the second is refused
	limit := ratelimit.New("objection", ratelimit.Limit{N: 1, Per: time.Hour}, clock.Now, slog.New(slog.DiscardHandler))
	h, err := web.New(ctx, store, reg, cs, ts, slog.New(slog.DiscardHandler), web.Options{Ratings: b, Audit: au,
		Limits: web.Limits{Objection: limit}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	w.portalEnv = &portalEnv{srv: srv, reg: reg, cs: cs, ts: ts, clock: clock, store: store}
	w.stockThisYear(t)
	system := ledger.Actor{Kind: ledger.SystemActor, Name: "test"}
	if w.agency, _, err = reg.CreateToken(ctx, system, ledger.AgencyActor, "110", ""); err != nil {
		t.Fatal(err)
	}
	if w.staff, _, err = reg.CreateToken(ctx, system, ledger.StaffActor, "", "李伟"); err != nil {
		t.Fatal(err)
	}
	w.names = append(w.names, "李伟")
	bj := fixture.Agency("110")

	player := func(name, rank, birth string, seq int) registry.Player {
		w.names = append(w.names, name)
		return fixture.Player(t, reg, "110", name, rank, birth, seq)
	}
	// a dan-grade Swiss event of five (a bye each round) with a 4-dan group
	ev, err := ts.CreateEvent(ctx, bj, "", tournaments.EventInput{Name: "北京市业余围棋段位赛", Start: ts.Today(), Level: "province",
		System: "swiss", Rounds: 2, DanGrade: true, ChiefReferee: "周正", Groups: []tournaments.GroupInput{{Name: "4段组", TargetRank: "4d", MinWins: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	w.names = append(w.names, "北京市业余围棋段位赛", "4段组", "周正")
	w.tourney = ev.ID
	var field []registry.Player
	for i, n := range []string{"张伟", "李明轩", "陈静", "刘洋", "赵敏"} {
		p := player(n, "3d", fmt.Sprintf("199%d-0%d-1%d", i, i+1, i), 20+i)
		field = append(field, p)
		if _, err := ts.AddParticipant(ctx, bj, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Group: "4段组"}); err != nil {
			t.Fatal(err)
		}
	}
	for r := 1; r <= 2; r++ {
		ri, err := ts.PairNextRound(ctx, bj, "", ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range ri.Games {
			if g.White == 0 || g.Black == 0 {
				continue // the bye
			}
			if _, err := ts.RecordResult(ctx, bj, "", ev.ID, tournaments.ResultInput{Round: r, Board: g.Board, Result: fixture.LowerWins(r, g.Black, g.White)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := ts.Finish(ctx, bj, "", ev.ID); err != nil {
		t.Fatal(err)
	}
	// the event filed the applications of those who reached the group's
	// threshold: one approved goes on notice with the group's record
	filed, err := cs.ListApplications(ctx, bj, certs.ApplicationQuery{AgencyPrefix: "110"})
	if err != nil || len(filed) == 0 {
		t.Fatalf("the event filed %v, %v", filed, err)
	}
	if _, err := cs.Approve(ctx, bj, "", filed[0].ID); err != nil {
		t.Fatal(err)
	}

	// a 1-dan certificate, revoked by staff
	young := player("孙小雨", "", "2014-05-05", 40)
	c := w.issueOneDan(t, young.ID)
	if _, err := cs.Revoke(ctx, fixture.Staff, "", c.Number, "冒名顶替"); err != nil {
		t.Fatal(err)
	}
	w.revoked = c.Number
	w.names = append(w.names, "冒名顶替")
	w.issueOneDan(t, player("钱多多", "", "1988-08-08", 41).ID)
	// a 4-dan application on notice, open to objections
	open := player("郑一鸣", "3d", "1986-06-01", 44)
	oa, err := cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: open.ID, TargetRank: "4d", Basis: "tournament", EventID: fixture.Earned(t, ts, "4d", open.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if oa, err = cs.Approve(ctx, bj, "", oa.ID); err != nil {
		t.Fatal(err)
	}
	w.open = oa.NoticeID
	w.player = field[0]

	// a 4-dan application on notice; an objection, upheld
	four := player("李四", "3d", "1985-06-01", 42)
	app, err := cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: four.ID, TargetRank: "4d", Basis: "tournament", EventID: fixture.Earned(t, ts, "4d", four.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if app, err = cs.Approve(ctx, bj, "", app.ID); err != nil {
		t.Fatal(err)
	}
	w.names = append(w.names, "升4d赛", "陪练")
	w.notice = app.NoticeID
	o, err := cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: app.NoticeID, Name: "赵六", Contact: "13900000000", Reason: "比赛由他人代下", Address: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.RuleObjection(ctx, fixture.Staff, "", o.ID, true, "查实代下"); err != nil {
		t.Fatal(err)
	}
	w.names = append(w.names, "赵六", "比赛由他人代下", "查实代下")
	// an application refused by the agency
	five := player("吴九", "", "1992-09-09", 43)
	r, err := cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: five.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, ts, "1d", five.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.Reject(ctx, bj, "", r.ID, "材料不全"); err != nil {
		t.Fatal(err)
	}
	w.names = append(w.names, "材料不全", "升1d赛")
	// a suspension
	today := clock.Now().In(ledger.ChinaTime)
	if _, err := ts.Suspend(ctx, fixture.Staff, "", tournaments.SuspensionInput{PlayerID: field[4].ID, From: today.Format(time.DateOnly),
		To: today.AddDate(0, 6, 0).Format(time.DateOnly), Reason: "赛场违纪"}); err != nil {
		t.Fatal(err)
	}
	w.names = append(w.names, "赛场违纪", "王小明", "区段位赛", "甲组", "10d")
	w.objector = "钱七"
	w.names = append(w.names, w.objector, "看到代下")
	// longest first, so that a name holding another is taken out whole
	sort.Slice(w.names, func(i, j int) bool { return len(w.names[i]) > len(w.names[j]) })
	return w
}

// walk24Text is the script reading what a page says to its reader: its
// text and worded attributes, without code and preformatted data (hashes,
// records), the language switch (named in its own language) and hidden
// inputs.
const walk24Text = `(() => {
  const out = [];
  const skip = new Set(["SCRIPT", "STYLE", "CODE", "PRE", "TEXTAREA", "NOSCRIPT"]);
  const walk = n => {
    if (n.nodeType === 3) { const s = n.data.trim(); if (s) out.push(s); return; }
    if (n.nodeType !== 1 || skip.has(n.tagName) || n.hasAttribute("hreflang")) return;
    for (const a of ["placeholder", "title", "aria-label", "alt"]) if (n.getAttribute(a)) out.push(n.getAttribute(a));
    if (n.tagName === "INPUT" && (n.type === "submit" || n.type === "button") && n.value) out.push(n.value);
    for (const c of n.childNodes) walk(c);
  };
  walk(document.documentElement);
  return out;
})()`

// walk24Overflow is the script finding what does not fit the viewport: the
// page scrolling sideways, elements past its edge outside a box that
// scrolls, and table cells one character wide.
const walk24Overflow = `(() => {
  const vw = window.innerWidth, out = [];
  const name = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "") +
    (el.dataset.testid ? "[" + el.dataset.testid + "]" : "");
  if (document.scrollingElement.scrollWidth > vw) out.push("the page scrolls sideways: " + document.scrollingElement.scrollWidth + " > " + vw);
  const reported = new Set();
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || (r.right <= vw + 1 && r.left >= -1)) continue;
    let p = el.parentElement, boxed = false;
    while (p && p !== document.body) {
      if (reported.has(p)) { boxed = true; break; }
      const ox = getComputedStyle(p).overflowX;
      if (ox === "auto" || ox === "scroll" || ox === "hidden") { boxed = true; break; }
      p = p.parentElement;
    }
    if (boxed) continue;
    reported.add(el);
    out.push(name(el) + " is " + Math.round(r.width) + " px wide, " + Math.round(r.left) + " to " + Math.round(r.right) + ": " + (el.innerText || "").slice(0, 40));
  }
  const cells = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = cells.nextNode(); n; n = cells.nextNode()) {
    const t = n.data.trim();
    if ([...t].length < 3 || !n.parentElement.closest("td, th")) continue;
    const r = document.createRange(); r.selectNodeContents(n);
    const lines = new Set([...r.getClientRects()].map(x => Math.round(x.top))).size;
    if (lines >= 3 && 2 * lines >= [...t].length) out.push("a cell one character a line: " + t.slice(0, 20));
  }
  return out;
})()`

// walk24Links are the page's links to pages of the portal.
const walk24Links = `[...document.querySelectorAll("a[href]")].filter(a => a.origin === location.origin && !a.hasAttribute("hreflang")).map(a => a.pathname + a.search)`

// walk24Status fetches each link as the browser would (its cookies) and
// answers those that fail.
const walk24Status = `(async links => {
  const bad = [];
  for (const l of links) {
    const r = await fetch(l, {redirect: "follow"});
    if (r.status === 404 || r.status >= 500) bad.push(l + ": " + r.status);
  }
  return bad;
})`

// walk24File is a link to a file, not a page.
var walk24File = regexp.MustCompile(`\.(xlsx|pdf|csv|zip|sgf|json|svg|png|h)(\?|$)`)

// walk24Shape is a link with its numbers as N: one page of each shape is
// walked.
var walk24Shape = regexp.MustCompile(`\d+`)

// walk24Under are the pages one level under the navigation the walk opens.
var walk24Under = regexp.MustCompile(`^/(players|tournaments|notices|certificates)/\d+(\?lang=[a-zA-Z-]+)?$|^/verify\?number=|^/workspace/`)

// TestLanguageWalkInChromium walks the portal in Chromium as the public,
// an agency clerk and staff, in Chinese and English, at 1280 px and 390 px:
// every navigation link and the pages one level under them (a player, a
// tournament, a notice, a certificate, the workspace's pages). It fails on
// a word of the other language outside the names the data holds, on a
// page that does not fit a 390 px phone, and on a link to a page answering
// 404 or 500 (issue 24).
func TestLanguageWalkInChromium(t *testing.T) {
	w := newWalk24Env(t)
	ctx := browser(t)
	u := w.srv.URL

	// the rate-limit refusal: past the first objection within the hour,
	// refused in the reader's language
	for _, lang := range []string{"zh-CN", "en"} {
		refused := false
		for range 2 {
			c := client(t)
			_, page, _ := fetch(t, c, "GET", fmt.Sprintf("%s/notices/%d/objections?lang=%s", u, w.open, lang), nil)
			form := url.Values{"csrf": {csrfOf(t, page)}, "name": {w.objector}, "contact": {"13800000000"}, "reason": {"看到代下"}, "idem": {idemOf(page)}}
			code, answer, _ := fetch(t, c, "POST", fmt.Sprintf("%s/notices/%d/objections?lang=%s", u, w.open, lang), form)
			if code == http.StatusTooManyRequests {
				refused = true
				// the quota and its window in words, not "1/1h0m0s"
				if want := map[string]string{"zh-CN": "每小时 1 次", "en": "1 per hour"}[lang]; !strings.Contains(answer, want) {
					t.Errorf("%s: the refusal does not say %q", lang, want)
				}
			}
			if code == http.StatusSeeOther {
				continue // lodged
			}
			w.checkLanguage(t, lang, "objection answer", answer, code)
		}
		if !refused {
			t.Errorf("%s: no objection refused by the limit", lang)
		}
	}

	// the texts the registry stored in English, worded in the reader's language
	for _, tc := range []struct{ lang, path, want string }{
		{"zh-CN", "/notices/1", " 局胜 "}, // the placing in the event's draw
		{"en", "/notices/1", " wins of 2"},
		{"zh-CN", fmt.Sprintf("/notices/%d", w.notice), "第 1 名，1 局胜 1 局"},
		{"en", fmt.Sprintf("/notices/%d", w.notice), "placing 1, 1 wins of 1"},
	} {
		_, page, _ := fetch(t, client(t), "GET", u+tc.path+"?lang="+tc.lang, nil)
		if !strings.Contains(page, tc.want) || strings.Contains(page, "(tournament ") {
			t.Errorf("%s %s lacks %q or shows the stored text", tc.lang, tc.path, tc.want)
		}
	}
	clerk := client(t)
	w.signIn(t, clerk, w.agency)
	for lang, want := range map[string]string{"zh-CN": "异议成立：", "en": "an objection was upheld: "} {
		if _, page, _ := fetch(t, clerk, "GET", u+"/workspace?lang="+lang, nil); !strings.Contains(page, want) {
			t.Errorf("%s workspace lacks %q", lang, want)
		}
	}

	// a refused tournament form: the field a refusal names by its path
	// into the groups is labelled as the reader counts them
	for lang, want := range map[string]string{"zh-CN": "第1组的目标段位：", "en": "group 1&#39;s target rank: "} {
		_, page, _ := fetch(t, clerk, "GET", u+"/workspace?lang="+lang, nil)
		form := url.Values{"csrf": {csrfOf(t, page)}, "name": {"区段位赛"}, "start": {"2026-12-20"}, "level": {"city"}, "system": {"swiss"},
			"rounds": {"3"}, "dan_grade": {"on"}, "group1_name": {"甲组"}, "group1_rank": {"10d"}, "group1_wins": {"3"}}
		code, answer, _ := fetch(t, clerk, "POST", u+"/workspace/tournaments?lang="+lang, form)
		if !strings.Contains(answer, want) || strings.Contains(answer, "groups[0]") {
			t.Errorf("%s refused tournament form (%d) lacks %q", lang, code, want)
		}
		w.checkLanguage(t, lang, "refused tournament form", answer, code)
	}

	// a referee's refusals of broken records, one in GBK bytes
	for _, lang := range []string{"zh-CN", "en"} {
		for _, rec := range []string{"；B[dd]", "\xce\xa7\xc6\xe5(;SZ[9]", "(;SZ[9];B[dd]"} {
			code, answer, _ := fetch(t, client(t), "POST", u+"/adjudicate?lang="+lang, url.Values{"sgf_text": {rec}})
			w.checkLanguage(t, lang, fmt.Sprintf("refused record %q", rec), answer, code)
		}
	}

	var failures []string
	fail := func(format string, args ...any) { failures = append(failures, fmt.Sprintf(format, args...)) }
	checkedLinks := map[string]bool{}
	for _, role := range []string{"public", "clerk", "staff"} {
		switch role {
		case "clerk":
			signInAs(t, w.portalEnv, ctx, w.agency)
		case "staff":
			run(t, ctx, "sign out", chromedp.Navigate(u+"/workspace"), chromedp.Click(css(`[data-testid="logout"]`)), chromedp.WaitVisible(css(`[data-testid="nav-login"]`)))
			signInAs(t, w.portalEnv, ctx, w.staff)
		}
		for _, lang := range []string{"zh-CN", "en"} {
			// the language is chosen once by ?lang=: the public's links
			// carry it on, a signed-in user's cookie keeps it
			start := "/"
			if role != "public" {
				start = "/workspace"
			}
			run(t, ctx, "open "+start, chromedp.Navigate(u+start+"?lang="+lang))
			nav := walk24Eval[[]string](t, ctx, `[...document.querySelectorAll("header a[href]")].filter(a => !a.hasAttribute("hreflang")).map(a => a.pathname + a.search)`)
			queue := slices.Clone(nav)
			// a player who played, his tournament's board, a revoked number
			for _, p := range []string{fmt.Sprintf("/players/%d", w.player.ID), fmt.Sprintf("/tournaments/%d", w.tourney),
				fmt.Sprintf("/tournaments/%d/rounds/1/boards/1", w.tourney), "/verify?number=" + w.revoked, "/notices/1"} {
				if role == "public" { // the public's language is in the URL
					p += map[bool]string{true: "&", false: "?"}[strings.Contains(p, "?")] + "lang=" + lang
				}
				queue = append(queue, p)
			}
			seen := map[string]bool{}
			for _, p := range nav {
				seen[walk24Shape.ReplaceAllString(p, "N")] = true
			}
			for i := 0; i < len(queue); i++ {
				path := queue[i]
				where := fmt.Sprintf("%s %s %s", role, lang, path)
				var texts, links, overflow []string
				var htmlLang string
				step, cancel := context.WithTimeout(ctx, 60*time.Second)
				err := chromedp.Do(step, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(u+path))
				if err == nil {
					htmlLang, err = chromedp.Run(step, chromedp.Evaluate[string](`document.documentElement.lang`))
				}
				if err == nil {
					texts, err = chromedp.Run(step, chromedp.Evaluate[[]string](walk24Text))
				}
				if err == nil {
					links, err = chromedp.Run(step, chromedp.Evaluate[[]string](walk24Links))
				}
				if err == nil {
					err = chromedp.Do(step, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Sleep(50*time.Millisecond))
				}
				if err == nil {
					overflow, err = chromedp.Run(step, chromedp.Evaluate[[]string](walk24Overflow))
				}
				cancel()
				if err != nil {
					fail("%s: %v", where, err)
					continue
				}
				if htmlLang != lang {
					fail("%s: a page in %q", where, htmlLang)
				}
				for _, s := range w.otherLanguage(texts, lang) {
					fail("%s: %q", where, s)
				}
				for _, s := range overflow {
					fail("%s at 390 px: %s", where, s)
				}
				unchecked := []string{}
				for _, l := range links {
					if !checkedLinks[role+l] && !strings.HasPrefix(l, "/logout") {
						checkedLinks[role+l] = true
						unchecked = append(unchecked, l)
					}
					shape := walk24Shape.ReplaceAllString(l, "N")
					if slices.Contains(nav, path) && walk24Under.MatchString(l) && !seen[shape] && !walk24File.MatchString(l) {
						seen[shape] = true
						queue = append(queue, l)
					}
				}
				js, _ := json.Marshal(unchecked)
				step, cancel = context.WithTimeout(ctx, 120*time.Second)
				bad, err := chromedp.Run(step, chromedp.Evaluate[[]string](walk24Status+"("+string(js)+")", chromedp.EvalAwaitPromise))
				cancel()
				if err != nil {
					fail("%s: checking links: %v", where, err)
				}
				for _, b := range bad {
					fail("%s links to %s", where, b)
				}
			}
			if len(queue) < len(nav)+5+3 {
				fail("%s %s: the walk went under the navigation only to %v", role, lang, queue[len(nav)+5:])
			}
		}
	}
	for _, f := range failures {
		t.Error(f)
	}
}

// otherLanguage is the texts holding a word of the other language once the
// names of the data are taken out.
func (w *walk24Env) otherLanguage(texts []string, lang string) []string {
	var bad []string
	for _, s := range texts {
		rest := s
		for _, n := range w.names {
			rest = strings.ReplaceAll(rest, n, " ")
		}
		if lang == "en" {
			if strings.IndexFunc(rest, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
				bad = append(bad, s)
			}
			continue
		}
		for _, word := range walk24Latin.FindAllString(rest, -1) {
			if !walk24Tokens[word] {
				bad = append(bad, s)
				break
			}
		}
	}
	return bad
}

// checkLanguage checks a page fetched without a browser.
func (w *walk24Env) checkLanguage(t *testing.T, lang, what, page string, code int) {
	t.Helper()
	if !strings.Contains(page, `<html lang="`+lang+`"`) {
		t.Errorf("%s %s (%d): not a page in %s", lang, what, code, lang)
	}
	for _, s := range w.otherLanguage(interfaceText(t, page, lang), lang) {
		t.Errorf("%s %s (%d): %q", lang, what, code, s)
	}
}

// walk24Eval is the value of a script on the browser's page.
func walk24Eval[T any](t *testing.T, ctx context.Context, script string) T {
	t.Helper()
	step, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(step, chromedp.Evaluate[T](script))
	if err != nil {
		t.Fatalf("evaluate: %v", err)
	}
	return v
}

// idemOf reads a form's idempotency key out of a page.
func idemOf(page string) string {
	_, rest, _ := strings.Cut(page, `name="idem" value="`)
	v, _, _ := strings.Cut(rest, `"`)
	return v
}
