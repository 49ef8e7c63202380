package ratings

import (
	"encoding/csv"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestParseRank(t *testing.T) {
	tests := []struct {
		in      string
		gor     float64
		known   bool
		wantErr bool
	}{
		{"1d", 2100, true, false},
		{"9d", 2900, true, false},
		{"1k", 2000, true, false},
		{"20k", 100, true, false},
		{"30k", -900, true, false},
		{"35k", -900, true, false}, // floored, as the EGD does
		{"1p", 2700, true, false},
		{"9p", 2940, true, false},
		{"5D", 2500, true, false},
		{"", 0, false, false},
		{"10d", 0, false, true},
		{"0k", 0, false, true},
		{"d", 0, false, true},
		{"3x", 0, false, true},
		{"-3k", 0, false, true},
	}
	for _, tt := range tests {
		r, err := ParseRank(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseRank(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if r.GoR != tt.gor || r.Known != tt.known {
			t.Errorf("ParseRank(%q) = %+v, want GoR %v known %v", tt.in, r, tt.gor, tt.known)
		}
	}
}

func TestReadGames(t *testing.T) {
	const file = Header + "\n" +
		"2008-10-18,tygem,,tygem:brrlf1,\"tygem:Fortune,\",9d,9d,0,6.5,W\n" +
		"2008-10-19,kgs,,kgs:a,tygem:brrlf1,,5p,5,,B\n" +
		"2008-10-19,EGC2013main,3,kgs:a,x,2k,1k,0,0.5,D\n"
	gs, err := ReadGames(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(gs.Games) != 3 {
		t.Fatalf("%d games, want 3", len(gs.Games))
	}
	if got := strings.Join(gs.Players, "|"); got != "tygem:brrlf1|tygem:Fortune,|kgs:a|x" {
		t.Errorf("players %q", got)
	}
	g0, g1, g2 := gs.Games[0], gs.Games[1], gs.Games[2]
	if g0.Black != 0 || g0.White != 1 || g0.Winner != 'W' || g0.Komi != 6.5 || !g0.HasKomi || g0.Score() != 0 {
		t.Errorf("game 0 = %+v", g0)
	}
	if g1.Day != g0.Day+1 || g1.White != 0 || g1.BlackRank.Known || g1.WhiteRank.GoR != 2820 || g1.Handicap != 5 || g1.HasKomi || g1.Score() != 1 {
		t.Errorf("game 1 = %+v", g1)
	}
	if g2.Round != "3" || g2.Event != "EGC2013main" || g2.Score() != 0.5 {
		t.Errorf("game 2 = %+v", g2)
	}
}

func TestReadGamesErrors(t *testing.T) {
	tests := []struct {
		name, file, want string
	}{
		{"empty", "", "empty"},
		{"wrong header", "date,event\n", "header"},
		{"renamed column", strings.Replace(Header, "komi", "komi_pts", 1) + "\n", `column 9 is "komi_pts"`},
		{"short row", Header + "\n2001-01-01,kgs,,a,b,1d,1d,0,6.5\n", "row 0"},
		{"bad date", Header + "\n2001-13-01,kgs,,a,b,1d,1d,0,6.5,B\n", "row 0: date"},
		{"bad rank", Header + "\n2001-01-01,kgs,,a,b,1d,1d,0,6.5,B\n2001-01-01,kgs,,a,b,12x,1d,0,6.5,B\n", "row 1: black_rank"},
		{"self game", Header + "\n2001-01-01,kgs,,a,a,1d,1d,0,6.5,B\n", "plays himself"},
		{"no id", Header + "\n2001-01-01,kgs,,,a,1d,1d,0,6.5,B\n", "black: empty"},
		{"bad handicap", Header + "\n2001-01-01,kgs,,a,b,1d,1d,-1,6.5,B\n", "handicap"},
		{"bad komi", Header + "\n2001-01-01,kgs,,a,b,1d,1d,0,NaN,B\n", "komi"},
		{"bad winner", Header + "\n2001-01-01,kgs,,a,b,1d,1d,0,6.5,X\n", "winner"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadGames(strings.NewReader(tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// The committed subsets parse, and every row becomes a game.
func TestReadTestdata(t *testing.T) {
	for _, name := range []string{"kgs-split.csv", "aga-700.csv", "egc2013-rounds1-3.csv", "tygem-3000.csv"} {
		gs := readTestdata(t, name)
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if rows := strings.Count(string(b), "\n") - 1; len(gs.Games) != rows {
			t.Errorf("%s: %d games from %d rows", name, len(gs.Games), rows)
		}
	}
}

func readTestdata(t testing.TB, name string) *Games {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gs, err := ReadGames(f)
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

func FuzzReadGames(f *testing.F) {
	f.Add(Header + "\n2008-10-18,tygem,,tygem:a,\"tygem:Fortune,\",9d,9d,0,6.5,W\n")
	f.Add(Header + "\n2000-07-19,kgs,,kgs:wolf,kgs:guojuan,1k,5p,5,0.5,W\n2000-07-19,kgs,,kgs:pem,kgs:guojuan,,5p,5,5.5,B\n")
	f.Add(Header + "\n2001-01-01,tourn3,2,a,b,35k,1d,9,-7,D\n")
	f.Add("date,event\n")
	f.Fuzz(func(t *testing.T, file string) {
		gs, err := ReadGames(strings.NewReader(file))
		if err != nil {
			return
		}
		n := int32(len(gs.Players))
		for i, g := range gs.Games {
			if g.Black < 0 || g.Black >= n || g.White < 0 || g.White >= n || g.Black == g.White {
				t.Fatalf("game %d: players %d, %d of %d", i, g.Black, g.White, n)
			}
			if g.Winner != 'B' && g.Winner != 'W' && g.Winner != 'D' {
				t.Fatalf("game %d: winner %q", i, g.Winner)
			}
			for _, r := range []Rank{g.BlackRank, g.WhiteRank} {
				if r.Known && (r.GoR < GoRFloor || r.GoR > 2940) {
					t.Fatalf("game %d: rank GoR %v", i, r.GoR)
				}
			}
			s := StonesToBlack(g.Handicap, g.Komi, g.HasKomi)
			if s != s || s < -9.5 || s > 9.5 {
				t.Fatalf("game %d: advantage %v stones", i, s)
			}
		}
	})
}

// FuzzReadGamesRecords checks the in-place row splitter against
// encoding/csv: the same rows, or both an error.
func FuzzReadGamesRecords(f *testing.F) {
	f.Add("a,b,c\n1,2,3\r\n\n\"x,\"\"y\",,\"multi\nline\"\n")
	f.Add("a,b,c\n1,2\n")
	f.Add("a,b,c\n1,2,3,4\n")
	f.Add("a,b\rc,d\n1,2,3")
	f.Add("a,\"b,c\n")
	f.Add("a,b\"c,d\n")
	f.Fuzz(func(t *testing.T, file string) {
		cr := csv.NewReader(strings.NewReader(file))
		cr.FieldsPerRecord = 3
		rs := newRecords(strings.NewReader(file), 3)
		for row := 0; ; row++ {
			want, werr := cr.Read()
			got, gerr := rs.next()
			if (werr == nil) != (gerr == nil) || errors.Is(werr, io.EOF) != errors.Is(gerr, io.EOF) {
				t.Fatalf("row %d: error %v, encoding/csv %v", row, gerr, werr)
			}
			if werr != nil {
				return
			}
			if !slices.Equal(got, want) {
				t.Fatalf("row %d: %q, encoding/csv %q", row, got, want)
			}
		}
	})
}
