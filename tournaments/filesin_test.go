package tournaments

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/dankyu/dankyu/registry"
)

// turkishLocale rewrites an OpenGotha file's game and bye keys as
// OpenGotha computes them under a Turkish locale: name and first name run
// together, spaces removed, upper-cased by Turkish rules (i → İ).
func turkishLocale(t *testing.T, data []byte) ([]byte, int) {
	t.Helper()
	attr := func(tag, name string) string {
		m := regexp.MustCompile(`\s` + name + `="([^"]*)"`).FindStringSubmatch(tag)
		if m == nil {
			return ""
		}
		return m[1]
	}
	turkish := map[string]string{}
	dotted := 0
	for _, tag := range regexp.MustCompile(`<Player [^>]*>`).FindAll(data, -1) {
		nf := attr(string(tag), "name") + attr(string(tag), "firstName")
		k := strings.ToUpperSpecial(unicode.TurkishCase, strings.ReplaceAll(nf, " ", ""))
		turkish[ogKey(nf)] = k
		if strings.ContainsRune(k, 'İ') {
			dotted++
		}
	}
	out := regexp.MustCompile(`(blackPlayer|whitePlayer|player)="([^"]*)"`).ReplaceAllFunc(data, func(m []byte) []byte {
		name, val, _ := strings.Cut(string(m), "=")
		k, ok := turkish[ogKey(strings.Trim(val, `"`))]
		if !ok {
			t.Fatalf("no player for key %s", val)
		}
		return []byte(name + `="` + k + `"`)
	})
	return out, dotted
}

// TestTurkishLocaleKeys: the Bogazici file as OpenGotha writes it under a
// Turkish locale (keys such as NEMLİOGLUMETE_RİZA) holds the same games
// and byes as the file written under another locale.
func TestTurkishLocaleKeys(t *testing.T) {
	orig, err := os.ReadFile("testdata/real/bogazici2024.xml")
	if err != nil {
		t.Fatal(err)
	}
	tr, dotted := turkishLocale(t, orig)
	if dotted < 10 || len(regexp.MustCompile(`(blackPlayer|whitePlayer)="[^"]*İ`).FindAll(tr, -1)) < 10 {
		t.Fatalf("the Turkish file has %d dotted keys", dotted)
	}
	a, err := Import(orig, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Import(tr, "")
	if err != nil {
		t.Fatalf("the Turkish-locale file is refused: %v", err)
	}
	if !reflect.DeepEqual(gameSet(a), gameSet(b)) || !reflect.DeepEqual(a.Byes, b.Byes) || len(b.Players) != 39 {
		t.Fatalf("Turkish file: %d players, %d games, byes %v; want those of the file: %d, %d, %v", len(b.Players), len(b.Games), b.Byes, len(a.Players), len(a.Games), a.Byes)
	}
}

// TestLooseKeysStayExact: folding finds a player only when one player
// folds to the key; namesakes but for an accent are told apart exactly.
func TestLooseKeysStayExact(t *testing.T) {
	x := `<Tournament dataVersion="201"><Players>` +
		`<Player name="Müller" firstName="Jan" rank="1D"/><Player name="Muller" firstName="Jan" rank="2D"/><Player name="Straße" firstName="Işık" rank="3K"/>` +
		`</Players><Games>` +
		`<Game blackPlayer="MULLERJAN" whitePlayer="STRASSEIŞIK" roundNumber="1" result="RESULT_BLACKWINS" tableNumber="1"/>` +
		`<Game blackPlayer="MÙLLERJAN" whitePlayer="STRASSEIŞIK" roundNumber="2" result="RESULT_BLACKWINS" tableNumber="1"/>` +
		`</Games></Tournament>`
	_, err := ParseOpenGotha([]byte(x))
	var fe *FormatError
	// MULLERJAN is Muller Jan's key exactly; MÙLLERJAN folds to both namesakes and names neither
	if !errors.As(err, &fe) || fe.Reason != ReasonFileGamePlayers || fe.Line != 1 || !strings.Contains(err.Error(), "MÙLLERJAN") {
		t.Fatalf("got %v, want the round-2 game refused as naming no one player", err)
	}
	imp, err := ParseOpenGotha([]byte(strings.Replace(x, `<Player name="Muller" firstName="Jan" rank="2D"/>`, "", 1)))
	if err != nil || len(imp.Games) != 2 || imp.Games[1].Black != imp.Games[0].Black {
		t.Fatalf("with one Ali: %v %+v", err, imp)
	}
}

// TestEveryByeKept: two byes in one round, in OpenGotha's file and in
// pairgoth's of the same event, are both kept (they were one).
func TestEveryByeKept(t *testing.T) {
	x, y := load(t, "made/twobyes2024.xml"), load(t, "made/twobyes2024.tour")
	for _, imp := range []*Imported{x, y} {
		s, err := imp.Summarize()
		if err != nil {
			t.Fatal(err)
		}
		if s.Players != 6 || s.Byes != 2 || s.Games != 5 || s.Rounds != 2 {
			t.Fatalf("%s: %d players, %d byes, %d games; want 6, 2, 5", imp.Format, s.Players, s.Byes, s.Games)
		}
		if len(s.Warnings) != 0 {
			t.Fatalf("%s warns %v", imp.Format, s.Warnings)
		}
	}
	if !reflect.DeepEqual(x.Byes, y.Byes) || !reflect.DeepEqual(gameSet(x), gameSet(y)) {
		t.Fatalf("byes %v and %v", x.Byes, y.Byes)
	}
}

// TestOtherProgramsRefused: a file of another program with OpenGotha's root
// element, or any XML that is not OpenGotha's, is refused with a code
// naming the program and version found; a file with nothing played too.
func TestOtherProgramsRefused(t *testing.T) {
	mm, err := os.ReadFile("testdata/made/macmahon310.xml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, data, code, program, version string
	}{
		{"MacMahon 3.10's file", string(mm), "FILE_OTHER_PROGRAM", "MacMahon", "3.10"},
		{"named in the root's attributes", `<Tournament application="MacMahon" version="3.10"><Players/></Tournament>`, "FILE_OTHER_PROGRAM", "MacMahon", "3.10"},
		{"named in a comment", "<?xml version=\"1.0\"?>\n<!-- Created by MacMahon 3.10 -->\n<Tournament><Name>x</Name></Tournament>", "FILE_OTHER_PROGRAM", "MacMahon", "3.10"},
		{"another root", `<SwissTournament><Player name="a"/></SwissTournament>`, "FILE_NOT_OPENGOTHA", "", ""},
		{"a Tournament that is not OpenGotha's", "<Tournament>\n<Name>x</Name><Player><Name>a</Name></Player></Tournament>", "FILE_NOT_OPENGOTHA", "", ""},
		{"OpenGotha with nobody playing", `<Tournament dataVersion="201"><Players><Player name="A" firstName="a" rank="1D"/></Players><Games/></Tournament>`, "FILE_NO_GAMES", "", ""},
		{"JSON that is no pairgoth tournament", `{"event": {"name": "x"}, "rounds": []}`, "FILE_NO_GAMES", "", ""},
	}
	for _, tt := range tests {
		imp, err := Import([]byte(tt.data), "")
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Reason.Code() != tt.code {
			t.Errorf("%s: got %v (%+v), want %s", tt.name, err, imp, tt.code)
			continue
		}
		r := fe.Refusal()
		if r.Param("program") != tt.program || r.Param("version") != tt.version && tt.program != "" {
			t.Errorf("%s: program %q version %q, want %q %q", tt.name, r.Param("program"), r.Param("version"), tt.program, tt.version)
		}
		if tt.program != "" && !strings.Contains(err.Error(), tt.program+" (version "+tt.version+")") {
			t.Errorf("%s: %v does not name the program", tt.name, err)
		}
	}
	// OpenGotha's own files naming their version are read (its version attributes are its own)
	for _, f := range []string{"real/egc2013.xml", "real/toulouse2024.xml", "real/lyon2017.xml"} {
		load(t, f)
	}
}

func warningCodes(imp *Imported) map[string][]Warning {
	m := map[string][]Warning{}
	for _, w := range imp.Warnings {
		m[w.Code] = append(m[w.Code], w)
	}
	return m
}

// TestPlaceholderByes: a Chinese club's weekly event gives byes through a
// player named 轮空: warned (by name), and once confirmed, his games are
// byes of his opponents, nobody rates them and he is not ranked.
func TestPlaceholderByes(t *testing.T) {
	imp := load(t, "made/clubweekly2025.h9")
	ws := warningCodes(imp)["IMPORT_PLACEHOLDER_NAME"]
	if len(ws) != 1 || ws[0].Player != 4 || ws[0].Line != 16 || ws[0].Params["name"] != "轮空" || !strings.Contains(ws[0].MsgZH, "轮空") {
		t.Fatalf("placeholder warnings %+v", imp.Warnings)
	}
	conf, err := imp.ConfirmByePlayers([]int{ws[0].Player})
	if err != nil {
		t.Fatal(err)
	}
	s, err := conf.Summarize()
	if err != nil {
		t.Fatal(err)
	}
	if s.Players != 3 || s.Games != 3 || s.Byes != 3 || s.NotPlayed != 0 || s.PlayedRated != 3 {
		t.Fatalf("confirmed: %+v", s)
	}
	for _, p := range s.Standings {
		if p.Name == "轮空" {
			t.Fatalf("the placeholder is ranked: %+v", s.Standings)
		}
	}
	if s.Standings[0].Name != "张 三" || s.Standings[0].Points != 6 {
		t.Fatalf("standings %+v", s.Standings)
	}
	// by behaviour: the same player under a real-looking name
	data, _ := os.ReadFile("testdata/made/clubweekly2025.h9")
	other, err := Import(bytes.Replace(data, []byte("轮空  "), []byte("赵 六"), 1), "")
	if err != nil {
		t.Fatal(err)
	}
	if ws := warningCodes(other)["IMPORT_PLACEHOLDER_PLAY"]; len(ws) != 1 || ws[0].Player != 4 || ws[0].Params["games"] != "3" {
		t.Fatalf("behaviour: %+v", other.Warnings)
	}
	if _, err := imp.ConfirmByePlayers([]int{9}); err == nil {
		t.Fatal("a player not in the file confirmed as a bye")
	}
}

// TestImportWarnings: dates reversed or years long, a game by a player
// marked absent, a double default and a player in two games of a round
// are each warned with a code, its facts and the line.
func TestImportWarnings(t *testing.T) {
	og := func(begin, end, games string, part string) string {
		return `<Tournament dataVersion="201"><Players>` + "\n" +
			`<Player name="A" firstName="a" rank="1D" participating="` + part + `"/>` + "\n" +
			`<Player name="B" firstName="b" rank="1D"/>` + "\n" + `<Player name="C" firstName="c" rank="1D"/>` + "\n" +
			`<Player name="D" firstName="d" rank="1D"/>` + "\n" + `</Players><Games>` + "\n" + games + `</Games>` + "\n" +
			`<TournamentParameterSet><GeneralParameterSet name="w" beginDate="` + begin + `" endDate="` + end + `"/></TournamentParameterSet></Tournament>`
	}
	plain := `<Game blackPlayer="AA" whitePlayer="BB" roundNumber="1" result="RESULT_BLACKWINS"/>` + "\n" +
		`<Game blackPlayer="CC" whitePlayer="DD" roundNumber="1" result="RESULT_WHITEWINS"/>` + "\n"
	tests := []struct {
		name, data, code string
		line             int
		params           map[string]string
	}{
		{"end before start", og("2024-05-20", "2024-05-18", plain, "11"), "IMPORT_DATES_REVERSED", 10, map[string]string{"start": "2024-05-20", "end": "2024-05-18"}},
		{"twenty years", og("2004-05-18", "2024-05-18", plain, "11"), "IMPORT_DATES_LONG", 10, map[string]string{"days": "7306"}},
		{"not a date", og("2024-02-30", "2024-03-01", plain, "11"), "IMPORT_DATE_UNREADABLE", 10, map[string]string{"date": "2024-02-30"}},
		{"absent but played", og("2024-05-18", "2024-05-18", plain, "01"), "IMPORT_ABSENT_PLAYED", 7, map[string]string{"round": "1", "name": "A a", "opponent": "B b"}},
		{"both lost by default", og("2024-05-18", "2024-05-18", plain+`<Game blackPlayer="AA" whitePlayer="CC" roundNumber="2" result="RESULT_BOTHLOSE_BYDEF"/>`+"\n", "11"),
			"IMPORT_BOTH_LOST_BY_DEFAULT", 9, map[string]string{"round": "2", "black": "A a", "white": "C c"}},
		{"two games in a round", og("2024-05-18", "2024-05-18", plain+`<Game blackPlayer="AA" whitePlayer="DD" roundNumber="1" result="RESULT_BLACKWINS"/>`+"\n", "11"),
			"IMPORT_PLAYS_TWICE", 9, map[string]string{"round": "1", "name": "A a", "games": "2", "opponents": "B b, D d"}},
	}
	for _, tt := range tests {
		imp, err := Import([]byte(tt.data), "")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		ws := warningCodes(imp)[tt.code]
		if len(ws) == 0 {
			t.Errorf("%s: no %s in %v", tt.name, tt.code, imp.Warnings)
			continue
		}
		w := ws[0]
		for k, v := range tt.params {
			if w.Params[k] != v {
				t.Errorf("%s: %s = %q, want %q (%v)", tt.name, k, w.Params[k], v, w)
			}
		}
		if w.Line != tt.line || w.MsgZH == "" || w.Msg == "" || strings.Contains(w.MsgZH, "{") {
			t.Errorf("%s: %+v, want line %d and both wordings", tt.name, w, tt.line)
		}
	}
	// the double default and the second game are kept, not dropped
	imp, _ := Import([]byte(tests[5].data), "")
	if len(imp.Games) != 3 {
		t.Fatalf("%d games kept of 3", len(imp.Games))
	}
	// a finished event dated after today
	imp, _ = Import([]byte(og("2031-05-18", "2031-05-18", plain, "11")), "")
	imp.CheckDate(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if ws := warningCodes(imp)["IMPORT_DATE_FUTURE"]; len(ws) != 1 || ws[0].Params["today"] != "2026-12-01" {
		t.Fatalf("future date: %v", imp.Warnings)
	}
}

// reportOf is an imported file as the registry would hold it.
func reportOf(imp *Imported) Report {
	r := Report{Event: Event{ID: 7, Name: imp.Name, Venue: imp.Location, Komi: imp.Komi, Rounds: imp.Rounds, System: SwissSystem}}
	r.Event.Start, _ = time.Parse(time.DateOnly, imp.Start)
	r.Event.End, _ = time.Parse(time.DateOnly, imp.End)
	for _, p := range imp.Players {
		rank, _ := registry.ParseRank(p.Rank)
		r.Participants = append(r.Participants, Participant{Number: p.ID, Name: p.Name(), Rank: rank, Country: p.Country, EGDPin: p.EGDPin})
	}
	for round := 1; round <= imp.Rounds; round++ {
		rd := RoundInfo{Round: round}
		for _, g := range imp.Games {
			if g.Round == round {
				rd.Games = append(rd.Games, GameRow{Game: g.Game})
			}
		}
		for _, b := range imp.Byes {
			if b.Round != round {
				continue
			}
			if rd.Bye == 0 {
				rd.Bye, rd.ByePoints = b.Player, b.Points
			} else {
				rd.MoreByes = append(rd.MoreByes, b)
			}
		}
		r.Rounds = append(r.Rounds, rd)
	}
	return r
}

type counts struct {
	Players, Games, Byes, Rounds int
	Results                      map[Result]int
	Pins                         int
}

func countOf(imp *Imported) counts {
	c := counts{Players: len(imp.Players), Games: len(imp.Games), Byes: len(imp.Byes), Rounds: imp.Rounds, Results: map[Result]int{}}
	for _, g := range imp.Games {
		c.Results[g.Result]++
	}
	for _, p := range imp.Players {
		if p.EGDPin != "" {
			c.Pins++
		}
	}
	return c
}

// TestOpenGothaExportRoundTrip: an event written as OpenGotha XML reads
// back with the same players, games, byes, rounds and results (real files,
// two byes in a round among them), and as the same games.
func TestOpenGothaExportRoundTrip(t *testing.T) {
	for _, f := range []string{"real/bogazici2024.xml", "real/egc2013.xml", "real/paris2021.tour", "real/kpmc2003.h", "made/twobyes2024.xml", "TournoiChinois.xml"} {
		imp := load(t, f)
		var buf bytes.Buffer
		ct, name, err := Export(&buf, reportOf(imp), "opengotha")
		if err != nil || ct != "application/xml; charset=utf-8" || name != "tournament-7.xml" {
			t.Fatalf("%s: %v %s %s", f, err, ct, name)
		}
		back, err := Import(buf.Bytes(), "")
		if err != nil {
			t.Fatalf("%s: the export is not read back: %v", f, err)
		}
		if back.Format != "opengotha" || !reflect.DeepEqual(countOf(imp), countOf(back)) {
			t.Fatalf("%s: %+v read back as %+v", f, countOf(imp), countOf(back))
		}
		if !reflect.DeepEqual(gameSet(imp), gameSet(back)) {
			t.Fatalf("%s: the games read back differ", f)
		}
		if !reflect.DeepEqual(imp.Byes, back.Byes) {
			t.Fatalf("%s: byes %v read back as %v", f, imp.Byes, back.Byes)
		}
	}
}

// TestOpenGothaExportHostile: namesakes get keys of their own as OpenGotha
// needs, names with markup or line breaks stay one attribute, names of one
// character get the first name OpenGotha requires.
func TestOpenGothaExportHostile(t *testing.T) {
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	r := Report{Event: Event{ID: 3, Name: `杯"/><Player name="x`, Venue: "北京\n", Start: day, End: day, Rounds: 1}}
	for i, n := range []string{"王磊", "王磊", "Wang Lei", `<b>"&'`, "李", "A\r\nB"} {
		r.Participants = append(r.Participants, Participant{Number: i + 1, Name: n, Rank: registry.Rank(i - 2)})
	}
	r.Rounds = []RoundInfo{{Round: 1, Games: []GameRow{
		{Game: Game{Round: 1, Board: 1, Black: 1, White: 2, Result: BlackWins}},
		{Game: Game{Round: 1, Board: 2, Black: 3, White: 4, Result: WhiteForfeit}},
		{Game: Game{Round: 1, Board: 3, Black: 5, White: 6, Result: Draw}},
	}}}
	var buf bytes.Buffer
	if err := WriteOpenGotha(&buf, r); err != nil {
		t.Fatal(err)
	}
	back, err := Import(buf.Bytes(), "opengotha")
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(back.Players) != 6 || len(back.Games) != 3 || back.Name != r.Event.Name || back.Games[1].Result != WhiteForfeit {
		t.Fatalf("read back %+v", back)
	}
	var names []string
	for _, p := range back.Players {
		names = append(names, p.Name())
	}
	if !slices.Contains(names, "王 磊 #2") || !slices.Contains(names, "李 -") || !slices.Contains(names, "A B") {
		t.Fatalf("names %q", names)
	}
}

// FuzzOpenGothaExport: whatever the names, the export reads back whole.
func FuzzOpenGothaExport(f *testing.F) {
	f.Add("王磊", "Wang Lei", "杯")
	f.Add("<\x00>", "\"", "]]>")
	f.Fuzz(func(t *testing.T, a, b, event string) {
		day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		r := Report{Event: Event{ID: 1, Name: event, Start: day, End: day, Rounds: 1},
			Participants: []Participant{{Number: 1, Name: a}, {Number: 2, Name: b}},
			Rounds:       []RoundInfo{{Round: 1, Games: []GameRow{{Game: Game{Round: 1, Board: 1, Black: 1, White: 2, Result: BlackWins}}}}}}
		var buf bytes.Buffer
		if err := WriteOpenGotha(&buf, r); err != nil {
			t.Fatal(err)
		}
		back, err := Import(buf.Bytes(), "opengotha")
		if err != nil || len(back.Players) != 2 || len(back.Games) != 1 {
			t.Fatalf("%q %q: %v %+v\n%s", a, b, err, back, buf.String())
		}
	})
}
