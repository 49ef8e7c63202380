package tournaments

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"
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
	found := false
	for _, p := range h.Players {
		if p.Name() == "Rousseau Jérémy" {
			found = true
		}
	}
	if !found {
		t.Fatal("Rousseau Jérémy not read from the Windows-1252 h-file")
	}
	// same games: by round and the players' names
	type key struct {
		round        int
		black, white string
		result       Result
	}
	set := func(imp *Imported) map[key]bool {
		m := map[key]bool{}
		for _, g := range imp.Games {
			m[key{g.Round, imp.Players[g.Black-1].Name(), imp.Players[g.White-1].Name(), g.Result}] = true
		}
		return m
	}
	if !reflect.DeepEqual(set(h), set(x)) {
		t.Fatal("the two files hold different games")
	}
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
	names := map[string]bool{}
	for _, p := range x.Players {
		names[p.Name()] = true
	}
	if !names["高 传德"] {
		t.Fatalf("Chinese names not read: %v", names)
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
	data := "; EV[Variants] ; a comment\n" +
		"1. Doe John   5d  DE Berl  2.5  3+/w  2=    0+  ; leader\n" +
		"2. Roe Ann    3k  FR Pari  1.5  0=    1=    3-/b2\n" +
		"3. Poe Ed     10k NL Amst  1    1-/b  0-    2+/w2\n"
	imp, err := ParseH9([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := imp.Summarize()
	if s.Name != "Variants" || s.Players != 3 || s.Games != 3 || s.Byes != 2 || s.Rounds != 3 {
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
	if s.Standings[0].Name != "Doe John" || s.Standings[0].Points != 5 {
		t.Fatalf("standings %+v", s.Standings)
	}
}

func TestMalformedFilesNameTheLine(t *testing.T) {
	tests := []struct {
		name, data string
		line       int
	}{
		{"no rank", "; EV[x]\n 1 Doe John FR Club 0 2+/b0\n", 2},
		{"bad entry", "; EV[x]\n 1 Doe John 2D FR Club 2+/b0\n 2 Roe Ann 3K FR Club 1x/w0\n", 3},
		{"one-sided game", " 1 Doe John 2D FR Club 2+/b0\n 2 Roe Ann 3K FR Club 0-\n", 1},
		{"opponent out of range", " 1 Doe John 2D FR Club 9+/b0\n", 1},
		{"results disagree", " 1 Doe John 2D FR Club 2+/b0\n 2 Roe Ann 3K FR Club 1=/w0\n 3 X Y 1K FR C 0-\n", 1},
		{"xml unknown player", "<Tournament>\n<Players>\n</Players>\n<Games>\n<Game blackPlayer=\"A\" whitePlayer=\"B\" roundNumber=\"1\" result=\"RESULT_BLACKWINS\"/>\n</Games></Tournament>", 5},
		{"xml broken", "<Tournament>\n<Players>\n<Player name=\"a\"\n", 4},
	}
	for _, tt := range tests {
		_, err := Import([]byte(tt.data), "")
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Line != tt.line {
			t.Errorf("%s: %v, want an error on line %d", tt.name, err, tt.line)
		}
	}
}

// FuzzImport: no tournament file panics the readers.
func FuzzImport(f *testing.F) {
	for _, name := range []string{"TestPartEtLic.h9", "TournoiChinois.xml"} {
		b, _ := os.ReadFile("testdata/" + name)
		f.Add(b)
	}
	f.Add([]byte(" 1 Doe John 2D FR Club 2+/b0\n 2 Roe Ann 3K FR Club 1-/w0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		imp, err := Import(data, "")
		if err != nil {
			return
		}
		if _, err := imp.Summarize(); err != nil {
			t.Fatalf("imported but cannot rank: %v", err)
		}
	})
}
