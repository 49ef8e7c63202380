package rules

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
)

func TestParseSGF(t *testing.T) {
	in := `(;FF[4]GM[1]SZ[9]C[a \] b \\ c\
d]AB[aa:bb][ee]
;B[cc];W[]
(;B[dd]C[main])
(;B[ee]C[variation]))
(;SZ[19];B[pd])`
	trees, err := ParseSGF([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(trees) != 2 {
		t.Fatalf("%d game trees, want 2", len(trees))
	}
	root := trees[0]
	if c, _ := root.Get("C"); c != `a ] b \ cd` {
		t.Fatalf("escaped comment = %q", c)
	}
	g, err := GameFromTree(root)
	if err != nil {
		t.Fatal(err)
	}
	var setup, moves []string
	for _, s := range g.Steps {
		switch s.Kind {
		case SetupStep:
			setup = append(setup, SGFPoint(s.At))
		case MoveStep:
			m := s.Color.String() + SGFPoint(s.At)
			if s.Pass {
				m = s.Color.String() + "pass"
			}
			moves = append(moves, m)
		}
	}
	if strings.Join(setup, " ") != "aa ba ab bb ee" {
		t.Errorf("compressed setup = %v", setup)
	}
	if strings.Join(moves, " ") != "Bcc Wpass Bdd" {
		t.Errorf("main line = %v", moves)
	}
}

func TestParseSGFErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		want   string
	}{
		{"", 0, "expected '('"},
		{"  x", 2, "expected '('"},
		{"(", 1, "expected ';'"},
		{"(;B[aa]", 7, "expected ')'"},
		{"(;B[aa", 3, "expected ']'"},
		{"(;B", 3, "expected '['"},
		{"(;B[aa](;W[bb]);B[cc])", 15, "after a variation"},
		{"(;B[aa]x)", 7, "property identifier"},
		{"(;B[aa]1)", 7, "expected ';', '(' or ')'"},
	}
	for _, tt := range tests {
		_, err := ParseSGF([]byte(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.offset || !strings.Contains(se.Msg, tt.want) {
			t.Errorf("ParseSGF(%q) = %v; want offset %d and %q", tt.in, err, tt.offset, tt.want)
		}
	}
}

func TestLeadingTextAndBOM(t *testing.T) {
	for _, in := range []string{"\xef\xbb\xbf(;SZ[9];B[ee])", "Subject: a game\n\n(;SZ[9];B[ee])", "\n (;SZ[9];B[ee])\n"} {
		trees, err := ParseSGF([]byte(in))
		if err != nil || len(trees) != 1 {
			t.Errorf("ParseSGF(%q) = %v", in, err)
		}
	}
}

func TestPassAsTT(t *testing.T) {
	for _, tt := range []struct {
		sgf  string
		pass bool
	}{{"(;SZ[19];B[tt])", true}, {"(;SZ[19];B[])", true}, {"(;SZ[21];B[tt])", false}} {
		trees, err := ParseSGF([]byte(tt.sgf))
		if err != nil {
			t.Fatal(err)
		}
		g, err := GameFromTree(trees[0])
		if err != nil {
			t.Fatal(err)
		}
		if g.Steps[0].Pass != tt.pass {
			t.Errorf("%s: pass = %v", tt.sgf, g.Steps[0].Pass)
		}
	}
}

// gbkWithTrail finds a GBK character whose second byte is the given ASCII
// byte (']' or '\'): the case that breaks a lexer that reads byte by byte.
func gbkWithTrail(t *testing.T, trail byte) (string, []byte) {
	t.Helper()
	enc := simplifiedchinese.GBK.NewEncoder()
	for r := rune(0x4E00); r < 0x9FA5; r++ {
		b, err := enc.Bytes([]byte(string(r)))
		if err == nil && len(b) == 2 && b[1] == trail {
			return string(r), b
		}
	}
	t.Fatalf("no GBK character ends in %q", trail)
	return "", nil
}

func TestGBKNames(t *testing.T) {
	enc := simplifiedchinese.GBK.NewEncoder()
	name, _ := enc.Bytes([]byte("古力"))
	bracket, bracketBytes := gbkWithTrail(t, ']')
	backslash, backslashBytes := gbkWithTrail(t, '\\')
	for _, ca := range []string{"CA[gb2312]", "CA[GBK]", ""} {
		var in bytes.Buffer
		in.WriteString("(;FF[4]" + ca + "SZ[19]PB[")
		in.Write(name)
		in.WriteString("]PW[")
		in.Write(bracketBytes)
		in.Write(backslashBytes)
		in.WriteString("]RE[B+R];B[pd])")
		trees, err := ParseSGF(in.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", ca, err)
		}
		g, err := GameFromTree(trees[0])
		if err != nil {
			t.Fatal(err)
		}
		if g.PlayerBlack != "古力" || g.PlayerWhite != bracket+backslash {
			t.Errorf("%s: PB %q PW %q", ca, g.PlayerBlack, g.PlayerWhite)
		}
	}
}

func TestWriteSGFRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/*/*/*.sgf")
	if len(files) < 300 {
		t.Fatalf("found %d corpus files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		trees, err := ParseSGF(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out := WriteSGF(trees)
		again, err := ParseSGF(out)
		if err != nil {
			t.Fatalf("%s: reading what we wrote: %v", f, err)
		}
		if !bytes.Equal(WriteSGF(again), out) {
			t.Fatalf("%s: write → parse → write differs", f)
		}
	}
}

func FuzzParseSGF(f *testing.F) {
	for _, s := range []string{
		"(;FF[4]SZ[9];B[aa];W[bb])",
		`(;C[\]\\]AB[aa:cc](;B[dd])(;W[ee]))`,
		"(;SZ[19]KM[7.5]HA[2]AB[pd][dp];W[qq];B[tt])",
		"(;CA[GBK]PB[\xb9\xc5\xc1\xa6])",
		"(;B[])(;W[])",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		trees, err := ParseSGF(data)
		if err != nil {
			var se *SyntaxError
			if errors.As(err, &se) && (se.Offset < 0 || se.Offset > len(data)) {
				t.Fatalf("error offset %d outside the input of %d bytes", se.Offset, len(data))
			}
			return
		}
		out := WriteSGF(trees)
		again, err := ParseSGF(out)
		if err != nil {
			t.Fatalf("cannot read what we wrote: %v\n%s", err, out)
		}
		if !bytes.Equal(WriteSGF(again), out) {
			t.Fatalf("parse → write → parse is not stable:\n%s\n%s", out, WriteSGF(again))
		}
		for _, tr := range trees {
			if g, err := GameFromTree(tr); err == nil {
				_, _ = Adjudicate(g, Options{}) // must not panic
			}
		}
	})
}
