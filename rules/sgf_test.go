package rules

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

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
		in       string
		offset   int
		code     SyntaxCode
		found    string
		property string
		want     string // in the English text for logs
	}{
		{"", 0, SyntaxOpenTree, "", "", "expected '('"},
		{"  x", 2, SyntaxOpenTree, "x", "", "expected '('"},
		{"(", 1, SyntaxFirstNode, "", "", "expected ';'"},
		{"(;B[aa]", 7, SyntaxCloseTree, "", "", "expected ')'"},
		{"(;B[aa", 3, SyntaxCloseValue, "", "", "expected ']'"},
		{"(;B", 3, SyntaxPropertyValue, "", "B", "expected '[' after property B"},
		{"(;B[aa](;W[bb]);B[cc])", 15, SyntaxAfterVariation, ";", "", "after a variation"},
		{"(;B[aa]x)", 7, SyntaxPropertyID, "x", "", "property identifier"},
		{"(;B[aa]1)", 7, SyntaxNodeOrTree, "1", "", "expected ';', '(' or ')'"},
		{"；B[aa]", 0, SyntaxOpenTree, "；", "", "expected '('"}, // a full-width character whole
		{"(;B[aa]\xb9)", 7, SyntaxNodeOrTree, "\xb9", "", "expected ';', '(' or ')'"},
	}
	for _, tt := range tests {
		_, err := ParseSGF([]byte(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.offset || se.Code != tt.code || se.Found != tt.found ||
			se.Property != tt.property || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseSGF(%.20q) = %#v; want offset %d, %s, found %q, property %q", tt.in, err, tt.offset, tt.code, tt.found, tt.property)
		}
	}
}

// TestRecordErrors: a game's properties the engine cannot play from are
// coded errors naming the property and the value (bounded), in which game.
func TestRecordErrors(t *testing.T) {
	long := strings.Repeat("9", 1000)
	tests := []struct {
		sgf      string
		code     RecordCode
		property string
		value    string
		game     int
	}{
		{"(;SZ[1])", RecordBoardSize, "SZ", "1", 1},
		{"(;SZ[" + long + "])", RecordBoardSize, "SZ", long[:maxQuote] + "…", 1},
		{"(;SZ[9])(;KM[lots])", RecordKomi, "KM", "lots", 2},
		{"(;HA[many])", RecordHandicap, "HA", "many", 1},
		{"(;SZ[9];B[e])", RecordPoint, "B", "e", 1},
		{"(;AB[aa:c])", RecordPoint, "AB", "c", 1},
		{"(;CA[klingon])", RecordCharset, "CA", "klingon", 1},
		{"(;SZ[11]HA[4];W[aa])", RecordHandicapPoints, "HA", "4", 1},
		{"(;SZ[19]HA[12];W[aa])", RecordHandicapStones, "HA", "12", 1},
	}
	for _, tt := range tests {
		_, err := AdjudicateSGF([]byte(tt.sgf), "", Options{})
		var re *RecordError
		var ge *GameError
		if !errors.As(err, &re) || re.Code != tt.code || re.Property != tt.property || re.Value != tt.value ||
			!errors.As(err, &ge) || ge.Game != tt.game {
			t.Errorf("%.30s: %#v, want %s of %s[%.10s] in game %d", tt.sgf, err, tt.code, tt.property, tt.value, tt.game)
		}
	}
}

// TestDeadPointErrors: a dead stone typed wrongly is an option error
// holding the point as typed, and the board's size when it is off it.
func TestDeadPointErrors(t *testing.T) {
	for _, tt := range []struct {
		dead     string
		offBoard bool
	}{{"I5", false}, {"abc", false}, {"Z99", true}, {"T19", true}, {"ss", true}, {"k1", true}} {
		_, err := AdjudicateSGF([]byte("(;SZ[9];B[ee])"), "", Options{Dead: []string{tt.dead}})
		var oe *OptionError
		var pe *PointError
		if !errors.As(err, &oe) || oe.Option != "dead" || !errors.As(err, &pe) || pe.Value != tt.dead || pe.OffBoard != tt.offBoard ||
			(tt.offBoard && pe.Size != 9) {
			t.Errorf("dead %s: %#v", tt.dead, err)
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
			checkCoded(t, err)
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
			g, err := GameFromTree(tr)
			if err != nil {
				checkCoded(t, err)
				continue
			}
			if _, err := Adjudicate(g, Options{}); err != nil { // must not panic
				checkCoded(t, err)
			}
		}
	})
}

// checkCoded fails unless err is one of the engine's coded errors, whose
// quoted values are bounded: callers word the code, never the text.
func checkCoded(t *testing.T, err error) {
	t.Helper()
	var se *SyntaxError
	var re *RecordError
	var le *LimitError
	switch {
	case errors.As(err, &se):
		if len(se.Found) > utf8.UTFMax || len(se.Property) > maxQuote+len("…") {
			t.Fatalf("syntax error quotes too much: %#v", se)
		}
	case errors.As(err, &re):
		if len(re.Value) > maxQuote+len("…") || len(re.Property) > 2 {
			t.Fatalf("record error quotes too much: %#v", re)
		}
	case errors.As(err, &le):
	default:
		t.Fatalf("an error without a code: %#v", err)
	}
}

// TestDeadPointsBounded: a dead-stone list names each point once whatever
// it repeats, and one longer than the board has points is refused before
// any of it is read, so the list's length never sets the work.
func TestDeadPointsBounded(t *testing.T) {
	b, err := NewBoard(9)
	if err != nil {
		t.Fatal(err)
	}
	b.Setup(Black, b.At(4, 4))
	b.Setup(Black, b.At(4, 5))
	same := []string{"E5", "e5", "ee", " E5 ", "e05"} // one point, five spellings
	var list []string
	for len(list) < 81 {
		list = append(list, same[len(list)%len(same)])
	}
	list[80] = "aa" // empty
	list[79] = "aa"
	dead, empty, err := deadPoints(b, list)
	if err != nil || len(dead) != 1 || dead[0] != b.At(4, 4) || len(empty) != 1 || empty[0] != "aa" {
		t.Errorf("81 dead stones naming two points: dead %v empty %q err %v", dead, empty, err)
	}
	if c := b.CountArea(append(dead, b.At(4, 5), b.At(4, 4))); c.Removed[Black] != 2 || c.Stones[Black] != 0 {
		t.Errorf("a chain named thrice: %+v", c)
	}

	// "I5" cannot be read: the refusal being the length shows nothing was.
	_, _, err = deadPoints(b, append([]string{"I5"}, list...))
	var oe *OptionError
	var le *LimitError
	if !errors.As(err, &oe) || oe.Option != "dead" || !errors.As(err, &le) || le.What != LimitDeadPoints || le.Max != 81 {
		t.Errorf("82 dead stones on 9×9: %#v", err)
	}
	long := make([]string, 200_000)
	for i := range long {
		long[i] = "E5"
	}
	for _, opt := range []Options{{Dead: long}, {Dead: long, Rules: TrompTaylor}} {
		if _, err := AdjudicateSGF([]byte("(;SZ[9];B[ee];W[];B[];W[])"), "", opt); !errors.As(err, &le) || le.Max != 81 {
			t.Errorf("200 000 dead stones: %v", err)
		}
	}
	g := &Game{Size: 9}
	if _, err := Replay(g, Options{Dead: long}, -1); !errors.As(err, &le) || le.Max != 81 {
		t.Errorf("Replay with 200 000 dead stones: %v", err)
	}
}

// TestAdjudicationStopsWhenCancelled: a done context stops the work with
// its error, before the first game and within a long one.
func TestAdjudicationStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	long := "(;SZ[19]" + strings.Repeat(";B[];W[]", 2*checkEvery) + ")"
	if _, err := AdjudicateSGFContext(ctx, []byte(long), "", Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the first game: %v", err)
	}
	g, err := GameFromTree(mustParse(t, long))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := adjudicate(ctx, g, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled within a game: %v", err)
	}
	if _, err := AdjudicateSGFContext(t.Context(), []byte(long), "", Options{}); err != nil {
		t.Errorf("not cancelled: %v", err)
	}
}

func mustParse(t *testing.T, sgf string) *Node {
	t.Helper()
	trees, err := ParseSGF([]byte(sgf))
	if err != nil || len(trees) != 1 {
		t.Fatalf("ParseSGF: %v", err)
	}
	return trees[0]
}
