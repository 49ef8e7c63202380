package tournaments

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

func load(t *testing.T, file string) *Imported {
	t.Helper()
	b, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := Import(b, "")
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return imp
}

func parse(t *testing.T, data string) *Imported {
	t.Helper()
	imp, err := ParseH9([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return imp
}

// gameSet is a file's games by round and the players' names, cut to the
// 30 characters OpenGotha's h9 export keeps of a name.
func gameSet(imp *Imported) map[string]bool {
	name := func(id int) string {
		r := []rune(imp.Players[id-1].Name())
		return strings.TrimSpace(string(r[:min(len(r), 30)]))
	}
	m := map[string]bool{}
	for _, g := range imp.Games {
		m[fmt.Sprintf("%d %s–%s %s %v", g.Round, name(g.Black), name(g.White), g.Result, g.Default)] = true
	}
	return m
}

// TestH9AndOpenGothaAgree imports the same event from its h-file and its
// OpenGotha XML: the same players, games and standings.
func TestH9AndOpenGothaAgree(t *testing.T) {
	h := load(t, "TestPartEtLic.h9")
	x := load(t, "TestPartEtLic.xml")
	if h.Format != "h9" || x.Format != "opengotha" {
		t.Fatalf("formats %s, %s", h.Format, x.Format)
	}
	hs, err := h.Summarize()
	if err != nil {
		t.Fatal(err)
	}
	xs, err := x.Summarize()
	if err != nil {
		t.Fatal(err)
	}
	if hs.Players != 22 || hs.Rounds != 4 || hs.Games != 31 || hs.Byes != 0 {
		t.Fatalf("h9: %d players, %d rounds, %d games, %d byes; want 22, 4, 31, 0", hs.Players, hs.Rounds, hs.Games, hs.Byes)
	}
	if xs.Players != hs.Players || xs.Rounds != hs.Rounds || xs.Games != hs.Games || xs.Byes != hs.Byes {
		t.Fatalf("xml: %+v\nh9: %+v", xs, hs)
	}
	if !reflect.DeepEqual(hs.Standings, xs.Standings) {
		a, _ := json.Marshal(hs.Standings)
		b, _ := json.Marshal(xs.Standings)
		t.Fatalf("standings differ:\nh9  %s\nxml %s", a, b)
	}
	// the h-file's Latin-1 names arrive as UTF-8
	if h.Encoding != "Windows-1252" || !hasPlayer(h, "Rousseau Jérémy") {
		t.Fatalf("Rousseau Jérémy not read from the Windows-1252 h-file (read as %s)", h.Encoding)
	}
	if !reflect.DeepEqual(gameSet(h), gameSet(x)) {
		t.Fatal("the two files hold different games")
	}
}

func hasPlayer(imp *Imported, name string) bool {
	for _, p := range imp.Players {
		if p.Name() == name {
			return true
		}
	}
	return false
}

func TestOpenGothaChineseNames(t *testing.T) {
	x := load(t, "TournoiChinois.xml")
	s, err := x.Summarize()
	if err != nil {
		t.Fatal(err)
	}
	if s.Games != 12 || s.Rounds < 1 || s.Players == 0 {
		t.Fatalf("summary %+v", s)
	}
	if !hasPlayer(x, "高 传德") {
		t.Fatalf("Chinese names not read: %v", x.Players)
	}
	var both int
	for _, g := range x.Games {
		if g.Result == BothWin {
			both++
		}
	}
	if both != 1 {
		t.Fatalf("%d both-win games, want 1", both)
	}
}

func TestCdFO2020Imports(t *testing.T) {
	x := load(t, "CdFO2020.xml")
	s, _ := x.Summarize()
	if s.Rounds != 7 || s.Games != 77 {
		t.Fatalf("summary: %d rounds, %d games", s.Rounds, s.Games)
	}
}

// TestH9Variants reads forms the EGF format allows beyond OpenGotha's
// export: comments after a semicolon, colour without handicap, no colour,
// half-point placement columns, places with a dot, free wins and half byes.
func TestH9Variants(t *testing.T) {
	imp := parse(t, "; EV[Variants] ; a comment\n"+
		"1. Doe John   5d  DE Berl  2.5  3+/w  2=    0+  ; leader\n"+
		"2. Roe Ann    3k  FR Pari  1.5  0=    1=    3-/b2\n"+
		"3. Poe Ed     10k NL Amst  1    1-/b  0-    2+/w2\n")
	s, _ := imp.Summarize()
	if s.Name != "Variants" || s.Players != 3 || s.Games != 3 || s.Byes != 2 || s.HalfByes != 1 || s.Rounds != 3 {
		t.Fatalf("summary %+v", s)
	}
	var draw, hcp bool
	for _, g := range imp.Games {
		if g.Round == 2 && g.Result == Draw {
			draw = true
		}
		if g.Round == 3 && g.Handicap == 2 && g.Black == 2 && g.Result == WhiteWins {
			hcp = true
		}
	}
	if !draw || !hcp {
		t.Fatalf("games %+v", imp.Games)
	}
	if s.Standings[0].Name != "Doe John" || s.Standings[0].Points != 5 || s.Jigo != 1 {
		t.Fatalf("summary %+v", s)
	}
}

// TestH9Layouts reads the layouts real programs and people write: each case
// asserts the games, defaults and byes read, and that nothing was warned.
func TestH9Layouts(t *testing.T) {
	tests := []struct {
		name                        string
		data                        string
		games, defaults, byes, jigo int
		want                        string // one game that must be read: "round black-white result"
	}{
		{"OpenGotha default win `2+!w0` and `!b`",
			" 1 A B 2D FR Cl  4 0 0   2+!w0  3+/b0\n 2 C D 2D FR Cl  2 0 0   1-!b0  0+\n 3 E F 1D FR Cl  0 0 0   0-     1-/w0\n",
			2, 1, 1, 0, "1 C D–A B white_forfeit"},
		{"uncertain SOS `408?` and tie markers `358=` `4=` in placement columns",
			" 1 A B 2D FR Cl  4 358= 3=  2+/w0  3+/b0\n 2 C D 2D FR Cl  2 408? 3=  1-/b0  4+/w0\n 3 E F 1D FR Cl  0 12   0   4=/b0  1-/w0\n 4 G H 1D FR Cl  1 12=  4=  3=/w0  2-/b0\n",
			4, 0, 0, 1, "1 E F–G H draw"},
		{"tab-separated hand-made table, no colours, bare place numbers",
			"1\tDoe John\t5d\tDE\t2+\t3+\n2\tRoe Ann\t3k\tFR\t1-\t0\n3\tPoe Ed\t10k\tNL\t0\t1-\n",
			2, 0, 0, 0, "1 Doe John–Roe Ann black"},
		{"`57-!` loss by default, `0+!` free win, `3+/b0!` trailing mark",
			" 1 A B 2D 2-!   3+/b0!  0+!\n 2 C D 2D 1+!   0-      3+/b0\n 3 E F 1D 0-    1-/w0!  2-/w0\n",
			3, 2, 1, 0, "2 A B–E F black_forfeit"},
		{"MacMahon program layout: place, name, rank, club, MM, S, SOS, SSOS, results without colours, PINs",
			";Pl  Name   Rank Club MM S SOS SSOS 1. 2.\n  1 Playah One 3d NL Hilv 29 2 59 152  2+  3+ |11111111\n  2 Gamer Two 5d DE Sie 28 1 60 140  1-  0= |22222222\n  3 Fella Three 1d DE HH 27 0 58 147  0-  1- |33333333\n",
			2, 0, 1, 0, "2 Playah One–Fella Three black"},
		{"tied places written 2= and 2-3",
			"1 A B 2D  2+/w0 3+/b0 0-\n2= C D 2D  1-/b0 0- 3+/w0\n2-3 E F 2D  0-  1-/w0  2-/b0\n",
			3, 0, 0, 0, "3 E F–C D white"},
		{"free round written 0=0, `?` for no game",
			" 1 A B 2D  2+/w0  0=0\n 2 C D 2D  1-/b0  ?\n",
			1, 0, 1, 0, "1 C D–A B white"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imp := parse(t, tt.data)
			s, err := imp.Summarize()
			if err != nil {
				t.Fatal(err)
			}
			if s.Games != tt.games || s.DefaultWins != tt.defaults || s.Byes != tt.byes || s.Jigo != tt.jigo {
				t.Fatalf("%d games, %d default wins, %d byes, %d jigo; want %d, %d, %d, %d", s.Games, s.DefaultWins, s.Byes, s.Jigo, tt.games, tt.defaults, tt.byes, tt.jigo)
			}
			if len(s.Warnings) != 0 {
				t.Fatalf("warnings %v", s.Warnings)
			}
			got := map[string]bool{}
			for _, g := range imp.Games {
				got[fmt.Sprintf("%d %s–%s %s", g.Round, imp.Players[g.Black-1].Name(), imp.Players[g.White-1].Name(), g.Result)] = true
			}
			if !got[tt.want] {
				t.Fatalf("no game %q in %v", tt.want, got)
			}
		})
	}
}

// TestH9PinsKept: the EGD PIN after | is kept, digits only.
func TestH9PinsKept(t *testing.T) {
	imp := parse(t, " 1 A B 2D FR  2+/w0 |12850431\n 2 C D 3K FR  1-/b0 |  10633920  \n")
	if imp.Players[0].EGDPin != "12850431" || imp.Players[1].EGDPin != "10633920" {
		t.Fatalf("pins %q %q", imp.Players[0].EGDPin, imp.Players[1].EGDPin)
	}
}

// TestQuestionableCellsWarn: a questionable cell is read, with a warning
// naming its line and column and the reading taken.
func TestQuestionableCellsWarn(t *testing.T) {
	tests := []struct {
		name         string
		data         string
		line, column int
		cell, msg    string
		want         string // the game read: "round black-white result"
	}{
		{"rank with its letter cut off", " 1 Doe John 10 FR Club 2+/b0\n 2 Roe Ann 15k FR Club 1-/w0\n",
			1, 13, "10", "read as 10K", "1 Doe John–Roe Ann black"},
		{"one-sided game", " 1 Doe John 2D FR Club 2+/b0\n 2 Roe Ann 3K FR Club 0-\n",
			1, 24, "2+/b0", "read from this row alone", "1 Doe John–Roe Ann black"},
		{"results disagree", " 1 Doe John 2D FR Club 2+/b0\n 2 Roe Ann 3K FR Club 1=/w0\n",
			2, 23, "1=/w0", "read as line 1 says", "1 Doe John–Roe Ann black"},
		{"bare opponent number", " 1 Doe John 2D 2 3+\n 2 Roe Ann 3K 1+/w0 0\n 3 Poe Ed 1K 0 1-\n",
			1, 16, "2", "no result sign: read from the opponent's row (+)", "1 Doe John–Roe Ann white"},
		{"unknown result on one side", " 1 Doe John 2D 2+/b0\n 2 Roe Ann 3K 1?/w0\n",
			2, 15, "1?/w0", "took -", "1 Doe John–Roe Ann black"},
		{"a cell that is not a round entry", " 1 Doe John 2D 2+/b0 3x 2-/w0\n 2 Roe Ann 3K 1-/w0 0 1+/b0\n",
			1, 22, "3x", "read as no game", "1 Doe John–Roe Ann black"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imp := parse(t, tt.data)
			found := false
			for _, w := range imp.Warnings {
				if w.Line == tt.line && w.Column == tt.column && w.Cell == tt.cell && strings.Contains(w.Msg, tt.msg) {
					found = true
				}
			}
			if !found {
				t.Fatalf("no warning on line %d column %d (%q) saying %q: %v", tt.line, tt.column, tt.cell, tt.msg, imp.Warnings)
			}
			if g := imp.Games[0]; fmt.Sprintf("%d %s–%s %s", g.Round, imp.Players[g.Black-1].Name(), imp.Players[g.White-1].Name(), g.Result) != tt.want {
				t.Fatalf("read %+v, want %s", g, tt.want)
			}
		})
	}
}

func TestHeaderKomiUnreadable(t *testing.T) {
	imp := parse(t, "; KM[six and a half]\n 1 A B 2D 2+/w0\n 2 C D 2D 1-/b0\n")
	if len(imp.Games) != 1 || len(imp.Warnings) != 1 || imp.Warnings[0].Line != 1 || !strings.Contains(imp.Warnings[0].Msg, "komi") {
		t.Fatalf("games %d, warnings %v", len(imp.Games), imp.Warnings)
	}
}

func TestHeaderRoundCountDiffers(t *testing.T) {
	imp := parse(t, "; Pl Name Rk 1. 2. 3.\n 1 A B 2D 2+/w0 2-/b0\n 2 C D 2D 1-/b0 1+/w0\n")
	if imp.Rounds != 2 || len(imp.Games) != 2 || len(imp.Warnings) != 1 || imp.Warnings[0].Line != 1 || !strings.Contains(imp.Warnings[0].Msg, "names 3 rounds") {
		t.Fatalf("rounds %d, games %d, warnings %v", imp.Rounds, len(imp.Games), imp.Warnings)
	}
}

func TestMalformedFilesNameTheLine(t *testing.T) {
	tests := []struct {
		name, data string
		line       int
	}{
		{"no rank", "; EV[x]\n 1 Doe John FR Club 0 2+/b0\n", 2},
		{"opponent out of range", " 1 Doe John 2D FR Club 9+/b0\n", 1},
		{"opponent names someone else", " 1 A B 2D 2+/b0\n 2 C D 2D 3+/b0\n 3 E F 2D 1-/w0\n", 1},
		{"only a PIN", "; EV[x]\n\n |12345678\n", 3},
		{"no players", "; EV[x]\n; nothing\n", 2},
		{"xml unknown player", "<Tournament>\n<Players>\n</Players>\n<Games>\n<Game blackPlayer=\"A\" whitePlayer=\"B\" roundNumber=\"1\" result=\"RESULT_BLACKWINS\"/>\n</Games></Tournament>", 5},
		{"xml broken", "<Tournament>\n<Players>\n<Player name=\"a\"\n", 4},
		{"pairgoth broken", "{\n\"name\": \"x\",\n\"players\": [\n{\"id\": 1,,}\n]}", 4},
		{"pairgoth unknown player", "{\"name\": \"x\",\n\"players\": [{\"id\": 1, \"name\": \"A\", \"rank\": 0}],\n\"games\": [[\n{\"id\": 7, \"t\": 1, \"w\": 1, \"b\": 5, \"r\": \"b\"}\n]]}", 4},
		{"pairgoth team event", "{\"type\": \"TEAM2\",\n\"name\": \"x\"}", 1},
	}
	for _, tt := range tests {
		_, err := Import([]byte(tt.data), "")
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Line != tt.line {
			t.Errorf("%s: %v, want an error on line %d", tt.name, err, tt.line)
		}
	}
}

// TestRealFiles imports real events written by OpenGotha (XML and its h9
// export, 3.34 to 3.52), pairgoth, the MacMahon program and by hand, 1979
// to 2026: see testdata/real/README.md. Questionable cells in them (ranks
// cut to a number, contradicting colours, a header naming fewer rounds)
// are warned, with the reading taken; the clean files warn of nothing.
func TestRealFiles(t *testing.T) {
	tests := []struct {
		file, format, program, encoding string
		players, rounds, games          int
		defaults, notPlayed, byes, pins int
		warnings                        int
		firstWarning                    string
		player                          string // a name that must be read right
	}{
		{"egc2013.h9", "h9", "OpenGotha 3.45.01", "UTF-8", 594, 10, 2259, 33, 33, 1420, 0, 0, "", "Fan Hui"},
		{"egc2013.xml", "opengotha", "OpenGotha 3.45.1", "UTF-8", 594, 10, 2259, 33, 33, 2, 535, 0, "", "Fan Hui"},
		{"veterans2015.h9", "h9", "OpenGotha 3.42", "Windows-1252", 14, 5, 35, 0, 0, 0, 0, 0, "", "Lamôle Laurent"},
		{"lyon2017.xml", "opengotha", "", "UTF-8", 23, 5, 39, 0, 0, 0, 0, 0, "", ""},
		{"levallois2018.h9", "h9", "OpenGotha 3.45.04", "Windows-1252", 7, 4, 9, 0, 0, 0, 0, 0, "", "le Galiard Jean-François"},
		{"levallois2018.xml", "opengotha", "OpenGotha 3.45.1", "UTF-8", 7, 4, 9, 0, 0, 0, 0, 0, "", ""},
		{"confucius2018.xml", "opengotha", "OpenGotha 3.47.5", "UTF-8", 64, 7, 196, 0, 0, 0, 59, 0, "", ""},
		{"frioul2018.xml", "opengotha", "OpenGotha 3.46.2", "UTF-8", 56, 4, 99, 0, 0, 0, 4, 0, "", ""},
		{"frioul2018.tour", "pairgoth", "pairgoth", "UTF-8", 56, 4, 99, 0, 0, 0, 0, 0, "", ""},
		{"juvisy2019.h9", "h9", "OpenGotha 3.49.03", "Windows-1252", 19, 4, 36, 0, 0, 4, 0, 0, "", "Burq François"},
		{"juvisy2019.xml", "opengotha", "OpenGotha 3.48.5", "UTF-8", 19, 4, 36, 0, 0, 0, 1, 0, "", "Burq François"},
		{"istanbul2020.h9", "h9", "OpenGotha 3.50.01", "UTF-8", 4, 3, 6, 0, 0, 0, 0, 0, "", "Celebican Barkin"},
		{"vieuxdragons2020.xml", "opengotha", "OpenGotha 3.51", "UTF-8", 42, 5, 101, 0, 0, 1, 0, 0, "", ""},
		{"paris2021.tour", "pairgoth", "pairgoth", "UTF-8", 175, 6, 458, 0, 0, 0, 0, 0, "", ""},
		{"grenoble2024.tour", "pairgoth", "pairgoth", "UTF-8", 157, 5, 319, 0, 1, 0, 0, 0, "", ""},
		{"toulouse2024.xml", "opengotha", "OpenGotha 3.51.02", "UTF-8", 38, 6, 105, 0, 0, 0, 11, 0, "", ""},
		{"bogazici2024.xml", "opengotha", "OpenGotha 3.52.03", "UTF-8 (BOM)", 39, 2, 38, 0, 0, 2, 34, 0, "", "Kose Dogac"},
		{"bogazici2024.tour", "pairgoth", "pairgoth", "UTF-8", 39, 2, 38, 0, 0, 2, 34, 0, "", "Kose Dogac"},
		{"kpmc2024.xml", "opengotha", "OpenGotha 3.52.03", "UTF-8 (BOM)", 60, 2, 59, 0, 29, 0, 0, 0, "", ""},
		{"chinois2020-gbk.h9", "h9", "OpenGotha 3.49.06", "GBK", 24, 1, 12, 0, 1, 0, 0, 0, "", "高 传德"},
		// the World Amateur Go Championship, the Korea Prime Minister Cup and
		// Polish championships from the Honte archive: hand-made tables,
		// the MacMahon program's layout, EGD submissions, OpenGotha exports
		{"wagc1979.h", "h9", "", "UTF-8", 30, 5, 34, 0, 0, 0, 0, 0, "", "Nie Weiping"},
		{"wagc1981.h", "h9", "", "UTF-8", 32, 6, 60, 1, 1, 0, 0, 0, "", "Mattern Jurgen"},
		{"wagc1996.h", "h9", "", "UTF-8", 46, 8, 184, 0, 0, 0, 46, 0, "", "Liu Jun"},
		{"kpmc2003.h", "h9", "", "UTF-8", 58, 8, 178, 0, 0, 0, 0, 1, "line 12: the header names 6 rounds, the lines have 8 round columns: read 8", "Hiraoka Satoshi"},
		{"mpj2002.h", "h9", "", "UTF-8", 20, 5, 50, 0, 0, 0, 20, 0, "", "Lubos Anna"},
		{"amp2006.h", "h9", "", "UTF-8", 25, 6, 66, 0, 0, 18, 25, 3, `line 31, column 29 ("11"): rank without k, d or p: read as 11K`, "Chwedyna Kamil"},
		{"kpmc2006.h", "h9", "", "UTF-8", 66, 8, 264, 0, 0, 0, 66, 0, "", "U Tong-ha"},
		{"mpj2012u12.h", "h9", "", "UTF-8", 6, 5, 15, 0, 0, 0, 2, 1, `line 13, column 69 ("4-/w"): round 3: both rows say w: read as line 11 says`, ""},
		{"kpmc2016.h", "h9", "", "UTF-8", 54, 6, 162, 0, 0, 0, 54, 0, "", "Yang Rundong"},
		{"kpmc2020.h", "h9", "OpenGotha 3.52.03", "UTF-8", 61, 8, 105, 0, 0, 19, 61, 0, "", "Ma Tianfang"},
		{"wagc2024.h", "h9", "", "UTF-8", 60, 8, 240, 0, 0, 0, 60, 0, "", "Bai Baoxiang"},
		// its header dates the event 2025-07-19 to 2025-06-20: warned
		{"mpk2025.h", "h9", "OpenGotha Custom 3.52.03", "UTF-8", 12, 4, 21, 1, 1, 6, 12, 1, "line 5: the event ends on 2025-06-20, before it starts on 2025-07-19.", "Szychowiak Marianna"},
		{"mpj2025.h", "h9", "", "UTF-8", 12, 5, 29, 0, 0, 2, 12, 0, "", "Tyrala Michal"},
		{"mpj2026.h", "h9", "", "UTF-8", 13, 5, 28, 0, 0, 9, 13, 0, "", "Karpenko Yaroslav"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			imp := load(t, "real/"+tt.file)
			s, err := imp.Summarize()
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != tt.format || s.Program != tt.program || s.Encoding != tt.encoding {
				t.Errorf("read as %s by %q in %s; want %s by %q in %s", s.Format, s.Program, s.Encoding, tt.format, tt.program, tt.encoding)
			}
			if s.Players != tt.players || s.Rounds != tt.rounds || s.Games != tt.games {
				t.Errorf("%d players, %d rounds, %d games; want %d, %d, %d", s.Players, s.Rounds, s.Games, tt.players, tt.rounds, tt.games)
			}
			if s.DefaultWins != tt.defaults || s.NotPlayed != tt.notPlayed || s.Byes != tt.byes || s.EGDPins != tt.pins {
				t.Errorf("%d default wins, %d not played, %d byes, %d PINs; want %d, %d, %d, %d", s.DefaultWins, s.NotPlayed, s.Byes, s.EGDPins, tt.defaults, tt.notPlayed, tt.byes, tt.pins)
			}
			if s.PlayedRated+s.PlayedUnrated+s.NotPlayed != s.Games {
				t.Errorf("played %d + %d and not played %d do not add up to %d games", s.PlayedRated, s.PlayedUnrated, s.NotPlayed, s.Games)
			}
			if len(s.Warnings) != tt.warnings || (tt.warnings > 0 && s.Warnings[0].String() != tt.firstWarning) {
				t.Errorf("warnings %v; want %d, the first %q", s.Warnings, tt.warnings, tt.firstWarning)
			}
			if tt.player != "" && !hasPlayer(imp, tt.player) {
				t.Errorf("no player %q", tt.player)
			}
		})
	}
}

func fullByes(imp *Imported) int {
	n := 0
	for _, b := range imp.Byes {
		if b.Points == WinPoints {
			n++
		}
	}
	return n
}

// TestSameEventAcrossFormats: files of one event written by different
// programs, or by one program in two formats, hold the same games.
func TestSameEventAcrossFormats(t *testing.T) {
	for _, pair := range [][2]string{
		{"egc2013.h9", "egc2013.xml"},
		{"levallois2018.h9", "levallois2018.xml"},
		{"juvisy2019.h9", "juvisy2019.xml"},
		{"frioul2018.xml", "frioul2018.tour"},
		{"bogazici2024.xml", "bogazici2024.tour"},
	} {
		x, y := load(t, "real/"+pair[0]), load(t, "real/"+pair[1])
		// h-files write OpenGotha's absent rounds as half-point byes (0=);
		// the byes worth a win are the same in both
		if fx, fy := fullByes(x), fullByes(y); fx != fy {
			t.Errorf("%s has %d byes worth a win, %s %d", pair[0], fx, pair[1], fy)
		}
		a, b := gameSet(x), gameSet(y)
		if !reflect.DeepEqual(a, b) {
			var only []string
			for k := range a {
				if !b[k] {
					only = append(only, k)
				}
			}
			t.Errorf("%s and %s differ: %d and %d games, e.g. only in the first: %.5v", pair[0], pair[1], len(a), len(b), only)
		}
	}
}

func TestEncodings(t *testing.T) {
	cyr := "; EV[Кубок Москвы]\n 1 Иванов Пётр 2D RU Msk 2+/w0\n 2 Сидоров Иван 1K RU Msk 1-/b0\n"
	cp1251, _ := charmap.Windows1251.NewEncoder().String(cyr)
	latin1, _ := charmap.Windows1252.NewEncoder().String(" 1 Noël Rémy 2K FR 92Le 2+/w0\n 2 Lamôle Laurent 4K FR 31Pi 1-/b0\n")
	tests := []struct {
		name, data, enc, want, used, event string
	}{
		{"UTF-8 with Cyrillic headers", cyr, "", "Иванов Пётр", "UTF-8", "Кубок Москвы"},
		{"UTF-8 with a BOM", "\ufeff" + cyr, "", "Иванов Пётр", "UTF-8 (BOM)", "Кубок Москвы"},
		{"Windows-1251 chosen", cp1251, "windows-1251", "Сидоров Иван", "windows-1251", "Кубок Москвы"},
		{"Latin-1 detected", latin1, "", "Noël Rémy", "Windows-1252", ""},
		{"Latin-1 chosen", latin1, "latin1", "Lamôle Laurent", "Windows-1252", ""},
	}
	for _, tt := range tests {
		imp, err := Read([]byte(tt.data), ReadOptions{Encoding: tt.enc})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if imp.Encoding != tt.used || !hasPlayer(imp, tt.want) || imp.Name != tt.event {
			t.Errorf("%s: read as %s, event %q, players %v", tt.name, imp.Encoding, imp.Name, imp.Players)
		}
	}
	ogLatin1, _ := charmap.Windows1252.NewEncoder().String(`<Tournament><Players><Player name="Noël" firstName="Rémy" rank="2K"/>` +
		`<Player name="Lamôle" firstName="Laurent" rank="4K"/></Players><Games>` +
		`<Game blackPlayer="NOËLRÉMY" whitePlayer="LAMÔLELAURENT" roundNumber="1" result="RESULT_BLACKWINS"/></Games></Tournament>`)
	for _, og := range []struct{ data, enc string }{
		{`<?xml version="1.0" encoding="ISO-8859-1"?>` + ogLatin1, ""}, // declared
		{ogLatin1, "latin1"}, // chosen, not declared
	} {
		imp, err := Read([]byte(og.data), ReadOptions{Encoding: og.enc})
		if err != nil || imp.Encoding != "Windows-1252" || !hasPlayer(imp, "Noël Rémy") || len(imp.Games) != 1 {
			t.Errorf("Latin-1 OpenGotha file (encoding %q): %v %+v", og.enc, err, imp)
		}
	}
	if _, err := Read([]byte(latin1), ReadOptions{Encoding: "utf-8"}); err == nil {
		t.Error("Latin-1 bytes read as UTF-8 when UTF-8 was chosen")
	}
	if _, err := Read([]byte(cyr), ReadOptions{Encoding: "klingon"}); err == nil {
		t.Error("an unknown encoding was accepted")
	}
}

// TestGameKinds: default wins, double defaults and jigo are kept apart from
// played games.
func TestGameKinds(t *testing.T) {
	x := "<Tournament><Players>" +
		`<Player name="A" firstName="a" rank="1D"/><Player name="B" firstName="b" rank="1D"/>` +
		`<Player name="C" firstName="c" rank="1D"/><Player name="D" firstName="d" rank="1D"/>` +
		"</Players><Games>" +
		`<Game blackPlayer="AA" whitePlayer="BB" roundNumber="1" result="RESULT_EQUAL"/>` +
		`<Game blackPlayer="CC" whitePlayer="DD" roundNumber="1" result="RESULT_BLACKWINS_BYDEF"/>` +
		`<Game blackPlayer="AA" whitePlayer="CC" roundNumber="2" result="RESULT_BOTHLOSE_BYDEF"/>` +
		`<Game blackPlayer="BB" whitePlayer="DD" roundNumber="2" result="RESULT_BOTHWIN"/>` +
		"</Games></Tournament>"
	imp, err := ParseOpenGotha([]byte(x))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := imp.Summarize()
	if s.PlayedRated != 1 || s.Jigo != 1 || s.PlayedUnrated != 1 || s.NotPlayed != 2 || s.DefaultWins != 1 || s.DoubleDefaults != 1 {
		t.Fatalf("summary %+v", s)
	}
}

func fuzzSeeds(f *testing.F, files ...string) {
	for _, name := range files {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// checkImported: what any reader returns can be ranked, and its games and
// warnings point inside the file; what it refuses is a coded FormatError
// with a line, quoting little of the file.
func checkImported(t *testing.T, imp *Imported, err error) {
	if err != nil {
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Reason == nil {
			t.Fatalf("a refusal without a code: %v", err)
		}
		if fe.Line < 1 {
			t.Fatalf("error without a line: %v", err)
		}
		for _, p := range fe.Params {
			if utf8.RuneCountInString(p.Value) > maxEcho+1 {
				t.Fatalf("%s quotes %d characters", fe.Reason.Code(), utf8.RuneCountInString(p.Value))
			}
		}
		return
	}
	if _, err := imp.Summarize(); err != nil {
		t.Fatalf("imported but cannot rank: %v", err)
	}
	for _, g := range imp.Games {
		if g.Black < 1 || g.White < 1 || g.Black > len(imp.Players) || g.White > len(imp.Players) || g.Black == g.White || g.Round < 1 {
			t.Fatalf("game %+v outside the field of %d", g, len(imp.Players))
		}
	}
	for _, w := range imp.Warnings {
		if w.Line < 1 {
			t.Fatalf("warning without a line: %v", w)
		}
	}
}

// FuzzImport: no tournament file panics the readers, whatever its format.
func FuzzImport(f *testing.F) {
	fuzzSeeds(f, "real/istanbul2020.h9")
	f.Add([]byte(ogQuirks))
	f.Add([]byte(pgSmall))
	f.Add([]byte(" 1 Doe John 2D FR Club 2+/b0\n 2 Roe Ann 3K FR Club 1-/w0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		imp, err := Import(data, "")
		checkImported(t, imp, err)
	})
}

func FuzzH9(f *testing.F) {
	fuzzSeeds(f, "real/veterans2015.h9", "real/istanbul2020.h9", "real/juvisy2019.h9", "real/chinois2020-gbk.h9")
	f.Add([]byte(" 1 A B 2D FR Cl  4 358= 4=  2+!w0  3+/b0\n 2 C D 10 FR Cl  2 408? 4=  1-!b0  0+!\n 3 E F 1D 0 1-/w0 |123\n"))
	f.Add([]byte("1\tDoe John\t5d\tDE\t2+\t3\n2\tRoe Ann\t3k\tFR\t1-\t?\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		imp, err := Read(data, ReadOptions{Format: "h9"})
		checkImported(t, imp, err)
	})
}

// ogQuirks has what OpenGotha 3.52 writes: a BOM, a newline in egfPin, a
// <ByePlayer> wrapper and a bye key in another case.
const ogQuirks = "\ufeff<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Tournament fullVersionNumber=\"3.52.03\"><Players>\n" +
	"<Player name=\"Kose\" firstName=\"Dogac\" rank=\"3D\" egfPin=\"14825052\n\"/>\n<Player name=\"Guney\" firstName=\"Mete\" rank=\"1K\"/>\n" +
	"<Player name=\"Ak\" firstName=\"Can Ali\" rank=\"2K\"/>\n</Players><Games>\n" +
	"<Game blackPlayer=\"KOSEDOGAC\" whitePlayer=\"AK_CAN_ALI\" roundNumber=\"1\" result=\"RESULT_WHITEWINS_BYDEF\" handicap=\"0\"/>\n" +
	"</Games><ByePlayer>\n<ByePlayer player=\"GuneyMete\" roundNumber=\"1\"/>\n</ByePlayer>" +
	"<TournamentParameterSet><GeneralParameterSet name=\"q\" komi=\"6.5\" genNBW2ValueBye=\"2\"/></TournamentParameterSet></Tournament>\n"

func TestOpenGothaQuirks(t *testing.T) {
	imp, err := ParseOpenGotha([]byte(ogQuirks))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := imp.Summarize()
	if s.Encoding != "UTF-8 (BOM)" || s.Program != "OpenGotha 3.52.03" || s.Games != 1 || s.DefaultWins != 1 || s.Byes != 1 || s.EGDPins != 1 || imp.Players[0].EGDPin != "14825052" {
		t.Fatalf("summary %+v, players %+v", s, imp.Players)
	}
	if imp.Byes[0].Player != 2 || imp.Players[1].Name() != "Guney Mete" {
		t.Fatalf("bye %+v to %+v", imp.Byes, imp.Players)
	}
}

func FuzzOpenGotha(f *testing.F) {
	// small seeds: the fuzzer mutates little of a large file in 30 s
	f.Add([]byte(ogQuirks))
	f.Fuzz(func(t *testing.T, data []byte) {
		imp, err := Read(data, ReadOptions{Format: "opengotha"})
		checkImported(t, imp, err)
	})
}

const pgSmall = `{"name":"x","players":[{"id":1,"name":"A","rank":-3,"egf":"123\n"},{"id":2,"name":"B","rank":2},{"id":3,"name":"C","rank":0}],` +
	`"games":[[{"id":1,"t":1,"w":1,"b":2,"r":"="},{"id":2,"t":0,"w":0,"b":3,"r":"b"}],[{"id":3,"t":1,"w":3,"b":1,"h":2,"r":"#"}]]}`

func FuzzPairgoth(f *testing.F) {
	f.Add([]byte(pgSmall))
	f.Fuzz(func(t *testing.T, data []byte) {
		imp, err := Read(data, ReadOptions{Format: "pairgoth"})
		checkImported(t, imp, err)
	})
}

// TestImportBounds: a file over the byte bound is refused unread, and one
// with more players than an import takes is refused after reading, with
// the count and the bound in the message; one at the bound is read.
func TestImportBounds(t *testing.T) {
	field := func(n int) []byte {
		var b strings.Builder
		b.WriteString("; EV[Bounds]\n")
		for i := 1; i <= n; i++ {
			opp, res, col := i+1, "+", "w"
			if i%2 == 0 {
				opp, res, col = i-1, "-", "b"
			}
			fmt.Fprintf(&b, "%d. P%d Q  5k CN Bj  %s  %d%s/%s\n", i, i, map[string]string{"+": "1", "-": "0"}[res], opp, res, col)
		}
		return []byte(b.String())
	}
	if imp, err := Import(field(MaxImportPlayers), "h9"); err != nil || len(imp.Players) != MaxImportPlayers {
		t.Fatalf("a field at the bound: %v", err)
	}
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"too many players", field(MaxImportPlayers + 2), fmt.Sprintf("%d players: at most %d", MaxImportPlayers+2, MaxImportPlayers)},
		{"too many bytes", append([]byte("; EV[x]\n"), make([]byte, MaxImportBytes)...), fmt.Sprintf("at most %d are read", MaxImportBytes)},
	} {
		_, err := Import(tt.data, "")
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want a format error saying %q", tt.name, err, tt.want)
		}
	}
}
