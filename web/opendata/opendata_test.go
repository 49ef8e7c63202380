package opendata_test

import (
	"context"
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/eventratings"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
	"github.com/dankyu/dankyu/web/opendata"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

// env is a portal with its open data over a database holding the
// statistics' data set (notices, certificates, a revocation) and two rated
// round robins in Beijing, one of whose players is a minor.
type env struct {
	srv    *httptest.Server
	store  *ledger.Store
	clock  *fixture.Clock
	reg    *registry.Service
	cs     *certs.Service
	ts     *tournaments.Service
	book   *book.Book
	adults []registry.Player // the rated adults of the round robins
	minor  registry.Player
	pinned registry.Player // holds an EGD PIN
	accent registry.Player // a stated Latin name with letters outside Latin-1
	events []int64
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clock := fixture.TodayClock(t)
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	b := book.New(store)
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs}, tournaments.WithRater(eventratings.Book{Book: b}))
	fixture.StatisticsData(t, reg, cs, ts, clock)
	e := &env{store: store, clock: clock, reg: reg, cs: cs, ts: ts, book: b}

	now := clock.Now()
	names := []string{"张伟", "欧阳修", "单雄信", "李娜"}
	var entrants []tournaments.ParticipantInput
	for i, n := range names {
		p := fixture.Player(t, reg, "110", n, "2d", "1980-03-04", 900+i)
		e.adults = append(e.adults, p)
		entrants = append(entrants, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	e.minor = fixture.Player(t, reg, "110", "小明", "1d", fixture.BirthDate(now, 12), 950)
	entrants = append(entrants, tournaments.ParticipantInput{PlayerID: e.minor.ID})
	agency := fixture.Agency("110")
	if e.pinned, err = reg.SetExternalID(ctx, agency, "", e.adults[0].ID, "egd", "12345678"); err != nil {
		t.Fatal(err)
	}
	if e.accent, err = reg.SetLatinName(ctx, agency, "", e.adults[3].ID, "Lǐ Nà-Ōu"); err != nil {
		t.Fatal(err)
	}
	// the minor holds a PIN too: it must not show anywhere
	if _, err := reg.SetExternalID(ctx, agency, "", e.minor.ID, "egd", "87654321"); err != nil {
		t.Fatal(err)
	}
	day := now.In(ledger.ChinaTime).Format(time.DateOnly)
	e.events = append(e.events, fixture.RoundRobin(t, ts, "开放数据一", day, entrants, fixture.LowerWins))
	e.events = append(e.events, fixture.RoundRobin(t, ts, "开放数据二", day, entrants[:4], func(r, bl, wh int) string { return fixture.LowerWins(r, wh, bl) }))
	for i, p := range e.adults {
		if e.adults[i], err = reg.GetPlayer(ctx, p.ID); err != nil {
			t.Fatal(err)
		}
	}
	e.pinned, e.accent = e.adults[0], e.adults[3]

	h, err := web.New(ctx, store, reg, cs, ts, slog.New(slog.DiscardHandler), web.Options{Ratings: b,
		OpenData: &opendata.Sources{Log: opendata.StoreLog{Store: store}, Ratings: b, Players: reg, Certs: cs, Tournaments: ts}})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = httptest.NewServer(h)
	t.Cleanup(e.srv.Close)
	return e
}

// get fetches a path with the request's headers; it returns the response
// with its body read.
func (e *env) get(t *testing.T, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp, b
}

func (e *env) ok(t *testing.T, path string) (*http.Response, []byte) {
	t.Helper()
	resp, b := e.get(t, path)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	return resp, b
}

// rated is the players the book rates, by registry number.
func (e *env) rated(t *testing.T) map[int64]book.Listed {
	t.Helper()
	out := map[int64]book.Listed{}
	page, err := e.book.ListedPage(context.Background(), "", book.ListCursor{}, book.MaxListedPage)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range page {
		out[x.PlayerID] = x
	}
	return out
}

// TestRatingListReadByImporters: the EGD-format list is read whole by
// OpenGotha's and pairgoth's rules, every rated adult comes back with his
// PIN column, Latin name, province club, grade and rating, the minor is
// not there, and the PIN column holds the EGD PIN where the registry has
// one and 9 + the registry number elsewhere.
func TestRatingListReadByImporters(t *testing.T) {
	e := newEnv(t)
	resp, data := e.ok(t, "/data/ratings.txt")
	ct := resp.Header.Get("Content-Type")
	ogDate, og, err := readOpenGotha(data)
	if err != nil {
		t.Fatalf("OpenGotha's rules: %v", err)
	}
	pgDate, pg, err := readPairgoth(data, ct)
	if err != nil {
		t.Fatalf("pairgoth's rules: %v", err)
	}
	today := e.clock.Now().In(ledger.ChinaTime)
	if want := today.Format("02 Jan 2006"); ogDate != want || pgDate.Format("02 Jan 2006") != want {
		t.Errorf("publication date: OpenGotha %q, pairgoth %v; want %s", ogDate, pgDate, want)
	}
	rated := e.rated(t)
	var want []int64 // the adults the book rates, every one of them in both
	for id := range rated {
		p, err := e.reg.GetPlayer(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if registry.AgeOn(p.BirthDate, e.clock.Now()) >= registry.AdultAge {
			want = append(want, id)
		}
	}
	if len(want) < len(e.adults) {
		t.Fatalf("the book rates %d adults, want at least the %d of the round robins", len(want), len(e.adults))
	}
	if len(og) != len(want) || len(pg) != len(want) {
		t.Fatalf("OpenGotha read %d players, pairgoth %d; want the %d rated adults", len(og), len(pg), len(want))
	}
	byPin := map[string]ratedPlayer{}
	for i := range og {
		if og[i].PIN != pg[i].PIN || og[i].Name != pg[i].Name || og[i].Rating != pg[i].Rating || og[i].Club != pg[i].Club {
			t.Errorf("line %d: OpenGotha reads %+v, pairgoth %+v", i, og[i], pg[i])
		}
		if og[i].FirstName != pg[i].FirstName && !(pg[i].FirstName == "" && og[i].FirstName == "x") {
			t.Errorf("line %d: first names %q and %q", i, og[i].FirstName, pg[i].FirstName)
		}
		if _, dup := byPin[og[i].PIN]; dup {
			t.Errorf("PIN %s twice", og[i].PIN)
		}
		byPin[og[i].PIN] = og[i]
		if i > 0 && og[i].Rating > og[i-1].Rating {
			t.Errorf("line %d: rating %d after %d: want strongest first", i, og[i].Rating, og[i-1].Rating)
		}
	}
	for _, id := range want {
		p, _ := e.reg.GetPlayer(context.Background(), id)
		pin := fmt.Sprintf("9%07d", id)
		if v := p.ExternalIDs["egd"]; v != "" {
			pin = v
		}
		got, ok := byPin[pin]
		if !ok {
			t.Errorf("%s (%d): no line with PIN %s", p.Name, id, pin)
			continue
		}
		x := rated[id]
		if got.Rating != int(x.Rating.Rating+0.5) && got.Rating != int(x.Rating.Rating-0.5) {
			t.Errorf("%s: rating %d, book %.2f", p.Name, got.Rating, x.Rating.Rating)
		}
		prov, _ := registry.ProvinceByCode(p.ProvinceCode)
		if got.Country != "CN" || got.Club != prov.ISOCode() {
			t.Errorf("%s: country %q club %q, want CN %s", p.Name, got.Country, got.Club, prov.ISOCode())
		}
		if g, _ := registry.ParseRank(got.Grade); g != p.PlayingRank() {
			t.Errorf("%s: grade %q, want %s", p.Name, got.Grade, p.PlayingRank())
		}
	}
	if got := byPin["12345678"]; got.Name != "Zhang" || got.FirstName != "Wei" {
		t.Errorf("张伟 with his EGD PIN: %+v, want Zhang Wei", got)
	}
	if got := byPin[fmt.Sprintf("9%07d", e.adults[1].ID)]; got.Name != "Ouyang" || got.FirstName != "Xiu" {
		t.Errorf("欧阳修: %+v, want the compound surname Ouyang, Xiu", got)
	}
	if got := byPin[fmt.Sprintf("9%07d", e.accent.ID)]; got.Name != "Li" || got.FirstName != "Nà-Ou" {
		t.Errorf("the stated name Lǐ Nà-Ōu: %+v, want Li Nà-Ou (Latin-1 kept, other accents folded)", got)
	}
	if _, ok := byPin["87654321"]; ok {
		t.Error("the minor's PIN is in the list")
	}
	if _, ok := byPin[fmt.Sprintf("9%07d", e.minor.ID)]; ok {
		t.Error("the minor is in the list")
	}
	if _, ok := rated[e.minor.ID]; !ok {
		t.Fatal("the book does not rate the minor: the test would prove nothing")
	}

	// the province's list: the same Beijing players; another province's has none of them
	_, bj := e.ok(t, "/data/provinces/11/ratings.txt")
	_, bjp, err := readOpenGotha(bj)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range bjp {
		if x.Club != "BJ" {
			t.Errorf("Beijing's list holds %+v", x)
		}
	}
	if len(bjp) < len(e.adults) {
		t.Errorf("Beijing's list: %d players, want at least %d", len(bjp), len(e.adults))
	}
	if resp, _ := e.get(t, "/data/provinces/99/ratings.txt"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown province: %d, want 404", resp.StatusCode)
	}
}

// readCSV reads a CSV answer whole, checking its type.
func readCSV(t *testing.T, resp *http.Response, data []byte) [][]string {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv; charset=utf-8") {
		t.Errorf("content type %q", ct)
	}
	rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	if err != nil {
		t.Fatalf("CSV: %v", err)
	}
	return rows
}

// column finds a column of a CSV header.
func column(t *testing.T, header []string, name string) int {
	t.Helper()
	for i, h := range header {
		if h == name {
			return i
		}
	}
	t.Fatalf("no column %q in %v", name, header)
	return -1
}

// TestRatingListCSV: the CSV carries every rated adult by registry number
// with his registered and Latin names, PIN and ids, rank and rating, and
// neither the minor nor his PIN nor any birth date or ID number.
func TestRatingListCSV(t *testing.T) {
	e := newEnv(t)
	resp, data := e.ok(t, "/data/ratings.csv")
	rows := readCSV(t, resp, data)
	h := rows[0]
	reg, name, latin, pin, ids, rating := column(t, h, "registry_number"), column(t, h, "name"), column(t, h, "latin_name"),
		column(t, h, "egd_pin"), column(t, h, "external_ids"), column(t, h, "rating")
	byID := map[int64][]string{}
	for _, r := range rows[1:] {
		id, err := strconv.ParseInt(r[reg], 10, 64)
		if err != nil {
			t.Fatalf("registry number %q", r[reg])
		}
		byID[id] = r
	}
	rated := e.rated(t)
	for _, p := range e.adults {
		r, ok := byID[p.ID]
		if !ok {
			t.Errorf("%s is not in the CSV", p.Name)
			continue
		}
		if r[name] != p.Name || r[latin] != p.LatinOf() {
			t.Errorf("%s: names %q %q, want %q %q", p.Name, r[name], r[latin], p.Name, p.LatinOf())
		}
		if want := strconv.FormatFloat(rated[p.ID].Rating.Rating, 'f', 1, 64); r[rating] != want {
			t.Errorf("%s: rating %s, want %s", p.Name, r[rating], want)
		}
	}
	if r := byID[e.pinned.ID]; r[pin] != "12345678" || r[ids] != "egd:12345678" {
		t.Errorf("the PIN holder: pin %q ids %q", r[pin], r[ids])
	}
	if r := byID[e.accent.ID]; r[latin] != "Lǐ Nà-Ōu" {
		t.Errorf("the stated Latin name as stated: %q", r[latin])
	}
	if _, ok := byID[e.minor.ID]; ok {
		t.Error("the minor is in the CSV")
	}
	for _, secret := range []string{"87654321", e.minor.Name, e.adults[0].IDNumber, "1980-03-04", "1980"} {
		if strings.Contains(string(data), secret) {
			t.Errorf("the CSV holds %q", secret)
		}
	}
	// the public search hides the minor too: the rule the files follow
	page, err := e.reg.SearchPlayers(context.Background(), ledger.Actor{Kind: ledger.Public}, registry.PlayerQuery{Name: e.minor.Name})
	if err != nil || len(page.Players) != 0 {
		t.Errorf("the public search of the minor: %v, %v; want nobody", page.Players, err)
	}
}

// TestMinorTurningAdultJoinsTheList: the files follow the search's age
// rule as the date moves: on his 18th birthday (Beijing) the player is
// listed, and the list's ETag changes with the date though the log did
// not.
func TestMinorTurningAdultJoinsTheList(t *testing.T) {
	e := newEnv(t)
	resp, data := e.ok(t, "/data/ratings.csv")
	if strings.Contains(string(data), e.minor.Name) {
		t.Fatal("the minor is listed")
	}
	tag := resp.Header.Get("ETag")
	e.clock.Set(e.minor.BirthDate.AddDate(registry.AdultAge, 0, 0).Add(-8*time.Hour + time.Minute)) // 00:01 in Beijing
	resp, data = e.ok(t, "/data/ratings.csv")
	if !strings.Contains(string(data), e.minor.Name) {
		t.Error("on his 18th birthday the player is not listed")
	}
	if resp.Header.Get("ETag") == tag {
		t.Error("the ETag did not change with the date")
	}
	if resp, _ := e.get(t, "/data/ratings.csv", "If-None-Match", tag); resp.StatusCode != http.StatusOK {
		t.Errorf("yesterday's tag: %d, want 200", resp.StatusCode)
	}
}

// TestHistoryTournamentsStatistics: a player's history file holds his
// page's rated events; the tournaments file every event; the statistics
// file the certificates the public statistics count, by year.
func TestHistoryTournamentsStatistics(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	p := e.adults[1]
	rt, err := e.book.PlayerRating(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	resp, data := e.ok(t, "/data/players/"+strconv.FormatInt(p.ID, 10)+"/ratings.csv")
	rows := readCSV(t, resp, data)
	if len(rows)-1 != len(rt.History) || len(rt.History) < 2 {
		t.Fatalf("history: %d rows, the book %d events", len(rows)-1, len(rt.History))
	}
	ev := column(t, rows[0], "tournament")
	for i, h := range rt.History {
		if rows[i+1][ev] != strconv.FormatInt(h.Tournament, 10) {
			t.Errorf("history row %d: event %s, want %d", i, rows[i+1][ev], h.Tournament)
		}
	}
	// the minor's page shows his rating history, so does his file
	resp, data = e.ok(t, "/data/players/"+strconv.FormatInt(e.minor.ID, 10)+"/ratings.csv")
	if rows := readCSV(t, resp, data); len(rows) != 2 || strings.Contains(string(data), "87654321") {
		t.Errorf("the minor's history: %v", rows)
	}
	for _, path := range []string{"/data/players/999999/ratings.csv", "/data/players/x/ratings.csv"} {
		if resp, _ := e.get(t, path); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, resp.StatusCode)
		}
	}

	resp, data = e.ok(t, "/data/tournaments.csv")
	rows = readCSV(t, resp, data)
	ids := map[string]bool{}
	for _, r := range rows[1:] {
		ids[r[0]] = true
	}
	for _, id := range e.events {
		if !ids[strconv.FormatInt(id, 10)] {
			t.Errorf("event %d is not in tournaments.csv", id)
		}
	}
	all, err := e.ts.ListEvents(ctx, "", 200)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows)-1 != len(all) {
		t.Errorf("tournaments.csv: %d rows, %d events", len(rows)-1, len(all))
	}

	resp, data = e.ok(t, "/data/statistics/certificates.csv")
	rows = readCSV(t, resp, data)
	st, err := e.cs.Statistics(ctx, ledger.Actor{Kind: ledger.Public}, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	perYear := map[string]int{}
	perRank := map[string]int{}
	year, rank, n := column(t, rows[0], "year"), column(t, rows[0], "rank"), column(t, rows[0], "certificates")
	for _, r := range rows[1:] {
		c, _ := strconv.Atoi(r[n])
		perYear[r[year]] += c
		if r[year] == strconv.Itoa(st.Year) {
			perRank[r[rank]] += c
		}
	}
	for _, y := range st.Years {
		if perYear[strconv.Itoa(y.Year)] != y.Certificates {
			t.Errorf("%d: %d certificates in the file, %d in the statistics", y.Year, perYear[strconv.Itoa(y.Year)], y.Certificates)
		}
	}
	for _, r := range st.Ranks {
		if perRank[r.Rank.String()] != r.Certificates {
			t.Errorf("%s: %d in the file, %d in the statistics", r.Rank, perRank[r.Rank.String()], r.Certificates)
		}
	}
	if len(st.Years) == 0 {
		t.Fatal("no certificates: the test would prove nothing")
	}
}

// The paths of every file and feed.
var allPaths = []string{"/data/ratings.txt", "/data/ratings.csv", "/data/provinces/11/ratings.txt", "/data/provinces/11/ratings.csv",
	"/data/players/%d/ratings.csv", "/data/tournaments.csv", "/data/statistics/certificates.csv", "/data/notices.atom",
	"/data/provinces/11/notices.atom", "/data/revocations.atom"}

// TestConditionalGet: every file answers with an ETag, a Last-Modified
// and the license's Link; a request with the tag (If-None-Match) or the
// date (If-Modified-Since) is answered 304 with no body; after a change
// (a player registered) the tag is another and the old one gets the file.
func TestConditionalGet(t *testing.T) {
	e := newEnv(t)
	type seen struct{ tag, modified string }
	first := map[string]seen{}
	for _, p := range allPaths {
		path := strings.ReplaceAll(p, "%d", strconv.FormatInt(e.adults[0].ID, 10))
		resp, _ := e.ok(t, path)
		tag, mod := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
		if !strings.HasPrefix(tag, `"`) || mod == "" {
			t.Fatalf("%s: ETag %q, Last-Modified %q", path, tag, mod)
		}
		if _, err := http.ParseTime(mod); err != nil {
			t.Errorf("%s: Last-Modified %q: %v", path, mod, err)
		}
		if l := resp.Header.Get("Link"); !strings.Contains(l, opendata.LicenseURL) || !strings.Contains(l, `rel="license"`) {
			t.Errorf("%s: Link %q names no license", path, l)
		}
		for _, cond := range [][]string{{"If-None-Match", tag}, {"If-None-Match", `"x", W/` + tag}, {"If-Modified-Since", mod}} {
			resp, body := e.get(t, path, cond...)
			if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
				t.Errorf("%s with %s: %d and %d bytes, want 304 and none", path, cond[0], resp.StatusCode, len(body))
			}
			if resp.Header.Get("ETag") != tag {
				t.Errorf("%s: the 304's ETag %q, want %q", path, resp.Header.Get("ETag"), tag)
			}
		}
		// a tag that is not ours, or an older date, gets the file
		old, _ := http.ParseTime(mod)
		for _, cond := range [][]string{{"If-None-Match", `"od1-0"`}, {"If-Modified-Since", old.Add(-time.Second).Format(http.TimeFormat)}} {
			if resp, _ := e.get(t, path, cond...); resp.StatusCode != http.StatusOK {
				t.Errorf("%s with %s %s: %d, want 200", path, cond[0], cond[1], resp.StatusCode)
			}
		}
		first[path] = seen{tag, mod}
	}
	e.clock.Advance(time.Hour)
	fixture.Player(t, e.reg, "110", "新人", "", "1990-01-01", 990)
	for path, s := range first {
		resp, _ := e.get(t, path, "If-None-Match", s.tag)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s after a change: %d with the old tag, want 200", path, resp.StatusCode)
		}
		if resp.Header.Get("ETag") == s.tag || resp.Header.Get("Last-Modified") == s.modified {
			t.Errorf("%s: the validators did not change with the log", path)
		}
	}
}

// The Atom elements the test reads back (RFC 4287).
type atomFeed struct {
	XMLName xml.Name    `xml:"feed"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Rights  string      `xml:"rights"`
	Authors []struct{}  `xml:"author"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr"`
	Href string `xml:"href,attr"`
}

type atomEntry struct {
	ID      string     `xml:"id"`
	Title   string     `xml:"title"`
	Updated string     `xml:"updated"`
	Links   []atomLink `xml:"link"`
	Summary string     `xml:"summary"`
	Authors []struct{} `xml:"author"`
}

// readAtom parses a feed and checks what RFC 4287 requires: the Atom
// namespace; a feed's id (an absolute IRI), title, updated (an RFC 3339
// date) and author (or one in every entry); each entry's id, title,
// updated and a link (the RFC asks an alternate link of an entry without
// content).
func readAtom(t *testing.T, resp *http.Response, data []byte) atomFeed {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/atom+xml") {
		t.Errorf("content type %q", ct)
	}
	var f atomFeed
	if err := xml.Unmarshal(data, &f); err != nil {
		t.Fatalf("Atom: %v", err)
	}
	if f.XMLName.Space != opendata.AtomNS || f.XMLName.Local != "feed" {
		t.Fatalf("root element %v, want {%s}feed", f.XMLName, opendata.AtomNS)
	}
	absolute := func(what, iri string) {
		u, err := url.Parse(iri)
		if err != nil || !u.IsAbs() {
			t.Errorf("%s %q is no absolute IRI", what, iri)
		}
	}
	date := func(what, s string) {
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			t.Errorf("%s %q is no RFC 3339 date: %v", what, s, err)
		}
	}
	absolute("feed id", f.ID)
	date("feed updated", f.Updated)
	if f.Title == "" || !strings.Contains(f.Rights, opendata.License) {
		t.Errorf("feed title %q, rights %q", f.Title, f.Rights)
	}
	self := false
	for _, l := range f.Links {
		self = self || l.Rel == "self"
	}
	if !self {
		t.Error("no self link")
	}
	for _, en := range f.Entries {
		absolute("entry id", en.ID)
		date("entry updated", en.Updated)
		if en.Title == "" {
			t.Errorf("entry %s has no title", en.ID)
		}
		alt := false
		for _, l := range en.Links {
			if l.Rel == "alternate" || l.Rel == "" {
				absolute("entry link", l.Href)
				alt = true
			}
		}
		if !alt {
			t.Errorf("entry %s has no alternate link", en.ID)
		}
		if len(f.Authors) == 0 && len(en.Authors) == 0 {
			t.Errorf("entry %s has no author, nor has the feed", en.ID)
		}
	}
	return f
}

// TestAtomFeeds: the notices' feeds (national, Beijing's) and the
// revocations' validate as Atom, hold the notices the data set published
// (per province only that province's) and the revoked certificate, and
// name no holder in the revocations.
func TestAtomFeeds(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	all, err := e.cs.ListNotices(ctx, certs.NoticeQuery{})
	if err != nil || len(all.Notices) < 3 {
		t.Fatalf("notices: %d, %v; want the data set's", len(all.Notices), err)
	}
	resp, data := e.ok(t, "/data/notices.atom")
	f := readAtom(t, resp, data)
	if len(f.Entries) != len(all.Notices) {
		t.Errorf("national feed: %d entries, %d notices", len(f.Entries), len(all.Notices))
	}
	for i, n := range all.Notices {
		if i < len(f.Entries) && (!strings.HasSuffix(f.Entries[i].ID, "/notices/"+strconv.FormatInt(n.ID, 10)) ||
			!strings.Contains(f.Entries[i].Title, n.PlayerName)) {
			t.Errorf("entry %d: %q %q, want notice %d of %s", i, f.Entries[i].ID, f.Entries[i].Title, n.ID, n.PlayerName)
		}
	}
	resp, data = e.ok(t, "/data/provinces/11/notices.atom")
	bj := readAtom(t, resp, data)
	want := 0
	for _, n := range all.Notices {
		if n.ProvinceCode == "11" {
			want++
		}
	}
	if len(bj.Entries) != want || want == len(all.Notices) || want == 0 {
		t.Errorf("Beijing's feed: %d entries, want its %d of %d", len(bj.Entries), want, len(all.Notices))
	}
	if resp, _ := e.get(t, "/data/provinces/xx/notices.atom"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown province's feed: %d", resp.StatusCode)
	}

	resp, data = e.ok(t, "/data/revocations.atom")
	rv := readAtom(t, resp, data)
	var revoked []string
	err = ledger.ScanEvents(ctx, e.store.DB(), 1<<62, time.Time{}, func(ev ledger.LoggedEvent) error {
		if ev.Action == "certificate.revoked" {
			revoked = append(revoked, ev.EntityID)
		}
		return nil
	})
	if err != nil || len(revoked) == 0 {
		t.Fatalf("revocations: %v, %v", revoked, err)
	}
	if len(rv.Entries) != len(revoked) {
		t.Fatalf("revocations feed: %d entries, %d revocations", len(rv.Entries), len(revoked))
	}
	if !strings.Contains(rv.Entries[0].Title, revoked[0]) || !strings.Contains(rv.Entries[0].Summary, "弄虚作假") {
		t.Errorf("revocation entry: %q %q", rv.Entries[0].Title, rv.Entries[0].Summary)
	}
	if strings.Contains(string(data), "周五") {
		t.Error("the revocations feed names the holder")
	}
}
