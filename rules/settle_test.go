package rules

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// passes matches a pass move, to make a record end as Fox's do: a count
// result, no passes.
var passes = regexp.MustCompile(`;\s*[BW]\[(tt)?\]`)

// Published in docs/rules.md: of the shared corpus's 49 real counted games
// with dead stones on the board, the engine settled without being told the
// dead stones decides this many and defers the rest, as recorded (two
// passes) and with the passes taken out; it contradicts none.
const (
	settledAsRecorded    = 21
	settledWithoutPasses = 19
	corpusCounted        = 49
)

// TestSettlingNeverContradictsTheRecord adjudicates every real counted game
// of the corpus without its dead stones, as recorded and ending without
// passes, and the real Fox records: a winner the engine states is always
// the recorded one, and the figures are the published ones.
func TestSettlingNeverContradictsTheRecord(t *testing.T) {
	for _, strip := range []bool{false, true} {
		decided, deferred := 0, 0
		for _, e := range loadManifest(t) {
			if e.Category != "real-dead-stones" {
				continue
			}
			data, err := os.ReadFile(filepath.Join("testdata/corpus", e.File))
			if err != nil {
				t.Fatal(err)
			}
			if strip {
				data = passes.ReplaceAll(data, []byte(";C[]"))
			}
			rs, err := AdjudicateSGF(data, e.File, Options{BoardOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			r := rs[0]
			if r.Settlement == nil {
				t.Fatalf("%s: a count without dead stones was not settled", e.File)
			}
			switch {
			case r.Winner == "" && r.Settlement.Kind == Deferred:
				deferred++
			case r.Winner != *e.Winner:
				t.Errorf("%s (passes removed: %v): engine says %s (%s), the record %s %+v", e.File, strip, r.Winner, r.Result, *e.Winner, r.Settlement)
			default:
				decided++
			}
		}
		want := settledAsRecorded
		if strip {
			want = settledWithoutPasses
		}
		if decided+deferred != corpusCounted || decided != want {
			t.Errorf("passes removed %v: decided %d, deferred %d; the published figure is %d of %d", strip, decided, deferred, want, corpusCounted)
		}
		t.Logf("passes removed %v: decided %d, deferred %d, contradicted 0", strip, decided, deferred)
	}
}

// foxMade is a real record's game as Fox writes it: cut before the two
// passes that end it, with Fox's header (KM in hundredths of stones, a
// count result in stones, AP[foxwq]).
func foxMade(t *testing.T, file, km, re string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/corpus/" + file)
	if err != nil {
		t.Fatal(err)
	}
	ends := passes.FindAllIndex(data, -1)
	cut := ends[len(ends)-2][0]
	rec := append([]byte(nil), data[:cut]...)
	for range openTrees(rec) {
		rec = append(rec, ')')
	}
	rec = regexp.MustCompile(`KM\[[^\]]*\]`).ReplaceAll(rec, []byte("KM["+km+"]"))
	rec = regexp.MustCompile(`RE\[[^\]]*\]`).ReplaceAll(rec, []byte("RE["+re+"]"))
	rec = regexp.MustCompile(`RU\[[^\]]*\]`).ReplaceAll(rec, []byte("RU[Chinese]AP[GNU Go:3.8]AP[foxwq]"))
	return string(rec)
}

// TestFoxCountWithoutPassesGivesNoWrongWinner is the finding: Fox
// records (Chinese rules, a count result, no passes) whose dead stones are
// still on the board. Made from real positions whose dead stones are
// known: counted as the stones lie, both go to black; the engine finds
// white's win in one and defers the other, and never says black.
func TestFoxCountWithoutPassesGivesNoWrongWinner(t *testing.T) {
	for _, tt := range []struct {
		file, km, re string
		komi         float64
		winner       string // "" deferred
	}{
		// W+0.5 with two dead black stones; as the stones lie, B+9.5
		{"games/dead-stones/gnugo-kgs_tournament11_GNU-CrazyStone.sgf", "375", "W+0.25", 7.5, "W"},
		// W+29.5 with 30 dead stones; as the stones lie, B+9.5
		{"games/dead-stones/gnugo-dublin2.sgf", "325", "W+14.75", 6.5, ""},
	} {
		// BoardOnly: the program that wrote the record played its moves.
		r := adjudicateString(t, foxMade(t, tt.file, tt.km, tt.re), Options{BoardOnly: true})
		if r.End != EndAgreement || r.Komi != tt.komi {
			t.Fatalf("%s: end %s komi %v, want agreement and %v", tt.file, r.End, r.Komi, tt.komi)
		}
		if r.Winner != tt.winner {
			t.Errorf("%s: got %q %s, want %q: %v", tt.file, r.Winner, r.Result, tt.winner, r.Notes)
		}
		if tt.winner == "" && (r.Settlement.Kind != Deferred || !strings.Contains(strings.Join(r.Notes, "\n"), "deferred")) {
			t.Errorf("%s: the deferral is not said: %v", tt.file, r.Notes)
		}
	}
}

// TestRealFoxRecordAgrees replays a real Fox 9×9 record (public, see
// testdata/records/README.md): RE[W+3.25] is 3¼ stones, 6.5 points, the
// count it ends with (two white moves in a row: Fox leaves a pass out).
func TestRealFoxRecordAgrees(t *testing.T) {
	data, err := os.ReadFile("testdata/records/fox-9x9-2025-02-23.sgf")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := AdjudicateSGF(data, "fox", Options{BoardOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0]; r.Winner != "W" || r.MarginPoints != -6.5 || r.Komi != 7.5 {
		t.Errorf("got %s %v komi %v, want W by 6.5 points (3¼ stones) with komi 7.5", r.Winner, r.MarginPoints, r.Komi)
	}
}

// TestDeferredWhenUndecidable: a position whose only groups are in a
// fight nobody finished is not counted as if every stone lived.
func TestDeferredWhenUndecidable(t *testing.T) {
	// 9×9: a white group of three stones with two liberties inside black's
	// framework that is itself open; the record claims a count.
	sgf := "(;SZ[9]KM[7.5]RE[W+0.5];B[cc];W[gg];B[cg];W[gc];B[ee];W[ef];B[fe];W[df])"
	r := adjudicateString(t, sgf, Options{})
	if r.Winner != "" || r.Settlement == nil || r.Settlement.Kind != Deferred || r.Result != "?" {
		t.Fatalf("got %q %s %+v, want the count deferred", r.Winner, r.Result, r.Settlement)
	}
}

// openTrees counts the game trees open at the end of a cut record (values
// skipped).
func openTrees(data []byte) int {
	n, inValue := 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inValue && c == '\\':
			i++
		case inValue:
			inValue = c != ']'
		case c == '[':
			inValue = true
		case c == '(':
			n++
		case c == ')':
			n--
		}
	}
	return n
}
