package referee_test

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/referee"
	"github.com/dankyu/dankyu/rules"
)

// record repeats unit after head until the record is about n bytes.
func record(head, unit, tail string, n int) []byte {
	var b bytes.Buffer
	b.WriteString(head)
	for b.Len()+len(unit)+len(tail) <= n {
		b.WriteString(unit)
	}
	b.WriteString(tail)
	return b.Bytes()
}

// TestHostileRecordsAreRefusedCheaply: records whose bytes expand into far
// more work (compressed point lists, masses of nodes, variations, values)
// are refused with RECORD_TOO_BIG, allocating little on the way.
func TestHostileRecordsAreRefusedCheaply(t *testing.T) {
	const mb = rules.MaxRecordBytes
	tests := []struct {
		name string
		sgf  []byte
		what rules.Limit
	}{
		{"small-rectangles-64KB", record("(;SZ[19]AB", "[aa:ss]", ")", 64<<10), rules.LimitPropertyPoints},
		{"rectangles-1MB", record("(;SZ[19]AB", "[aa:ss]", ")", mb), rules.LimitPropertyPoints},
		{"big-rectangles-1MB", record("(;SZ[19]AB", "[aa:ZZ]", ")", mb), rules.LimitPropertyPoints},
		{"rectangle-per-node-1MB", record("(;SZ[19]", ";AE[aa:ss][aa:ss]", ")", mb), rules.LimitRecordPoints},
		{"rectangle-per-game-1MB", record("", "(;AW[aa:ss])", "", mb), rules.LimitGames},
		{"nodes-1MB", record("(;SZ[19]", ";", ")", mb), rules.LimitNodes},
		{"variations-1MB", record("(;SZ[19]", "(;)", ")", mb), rules.LimitVariations},
		{"values-1MB", record("(;SZ[19]C", "[]", ")", mb), rules.LimitValues},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := referee.Adjudicate(t.Context(), referee.Request{SGF: tt.sgf})
			runtime.ReadMemStats(&after)
			if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
				t.Errorf("allocated %d MB for a %d-byte record, want < 64 MB", got>>20, len(tt.sgf))
			}
			e, ok := ledger.AsError(err)
			if !ok || e.Reason != referee.ReasonRecordTooBig || e.Field != "sgf" || e.Param("what") != string(tt.what) {
				t.Fatalf("Adjudicate = %v, want RECORD_TOO_BIG of %s", err, tt.what)
			}
			if !strings.Contains(e.Message(ledger.Chinese), "棋谱过大") {
				t.Errorf("Chinese message %q", e.Message(ledger.Chinese))
			}
		})
	}
}

// TestRealRecordsFitTheCaps: a record the size of a long real game passes.
func TestRealRecordsFitTheCaps(t *testing.T) {
	sgf := record("(;SZ[19]KM[7.5]AB[aa:ss]", ";B[tt];W[tt]", ")", 20<<10)
	if _, err := referee.Adjudicate(t.Context(), referee.Request{SGF: sgf}); err != nil {
		t.Fatal(err)
	}
}

// latinWord is an English word (two Latin letters or more) in a message.
var latinWord = regexp.MustCompile(`[A-Za-z]{2,}`)

var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// TestRecordRefusalsAreCoded feeds records and options the engine cannot
// read and checks the refusal: its code, its field and parameters (the
// offset, the game, the value as given), and a Chinese message with no
// English but what the user typed. Every refusal of an engine error has
// a case here.
func TestRecordRefusalsAreCoded(t *testing.T) {
	long := strings.Repeat("x", 100)
	tests := []struct {
		sgf    string
		dead   string
		want   *ledger.Reason
		field  string
		params map[string]string
	}{
		{"  x", "", referee.ReasonRecordOpenTree, "sgf", map[string]string{"offset": "2", "found": "'x'"}},
		{"(;B[aa])\x01", "", nil, "", nil}, // trailing text after the last game is ignored
		{"(", "", referee.ReasonRecordFirstNode, "sgf", map[string]string{"offset": "1", "found": "end of input"}},
		{"(;SZ[9];B[ee]", "", referee.ReasonRecordCloseTree, "sgf", map[string]string{"offset": "13"}},
		{"(;B[aa](;W[bb]);B[cc])", "", referee.ReasonRecordAfterVariation, "sgf", map[string]string{"offset": "15"}},
		{"(;B[aa]\xb9)", "", referee.ReasonRecordNodeOrTree, "sgf", map[string]string{"offset": "7", "found": "a byte that is not UTF-8 (the file may be in GBK: save it as UTF-8)"}},
		{"；B[aa]", "", referee.ReasonRecordOpenTree, "sgf", map[string]string{"offset": "0", "found": "'；'"}}, // the character whole
		{"(;B[aa]x)", "", referee.ReasonRecordPropertyID, "sgf", map[string]string{"offset": "7", "found": "'x'"}},
		{"(;B;W[aa])", "", referee.ReasonRecordPropertyValue, "sgf", map[string]string{"offset": "3", "property": "B", "found": "';'"}},
		{"(;C[never closed", "", referee.ReasonRecordCloseValue, "sgf", map[string]string{"offset": "3"}},
		{"(;SZ[" + long + "])", "", referee.ReasonRecordBoardSize, "sgf", map[string]string{"game": "1", "value": long[:40] + "…", "max": strconv.Itoa(rules.MaxSize)}},
		{"(;SZ[9])(;KM[seven])", "", referee.ReasonRecordKomi, "sgf", map[string]string{"game": "2", "value": "seven"}},
		{"(;HA[two])", "", referee.ReasonRecordHandicap, "sgf", map[string]string{"game": "1", "value": "two"}},
		{"(;SZ[9];B[abc])", "", referee.ReasonRecordPoint, "sgf", map[string]string{"game": "1", "property": "B", "value": "abc"}},
		{"(;CA[klingon];B[aa])", "", referee.ReasonRecordCharset, "sgf", map[string]string{"game": "1", "value": "klingon"}},
		{"(;SZ[11]HA[3];W[aa])", "", referee.ReasonRecordHandicapPoints, "sgf", map[string]string{"game": "1", "size": "11", "handicap": "3"}},
		{"(;SZ[19]HA[10];W[aa])", "", referee.ReasonRecordHandicapStones, "sgf", map[string]string{"game": "1", "handicap": "10"}},
		{"(;SZ[9];B[ee])", "I5", referee.ReasonDeadPoint, "dead", map[string]string{"value": "I5"}},
		{"(;SZ[9];B[ee])", "Z99", referee.ReasonDeadOffBoard, "dead", map[string]string{"value": "Z99", "size": "9"}},
		{"(;SZ[9];B[ee])", points(9) + ",ee", referee.ReasonDeadTooMany, "dead", map[string]string{"max": "81"}},
		{"(;SZ[9];B[ee])", points(9) + ",E5, E5 ,E5", nil, "", nil}, // repeats are dropped
	}
	for _, tt := range tests {
		req := referee.Request{SGF: []byte(tt.sgf)}
		req.Dead = rules.SplitPoints(tt.dead)
		_, err := referee.Adjudicate(t.Context(), req)
		if tt.want == nil {
			if err != nil {
				t.Errorf("%q: %v", tt.sgf, err)
			}
			continue
		}
		e, ok := ledger.AsError(err)
		if !ok || e.Reason != tt.want || e.Field != tt.field {
			t.Errorf("%.30q: %v, want %s on %s", tt.sgf, err, tt.want.Code(), tt.field)
			continue
		}
		if len(e.Params) != len(tt.params) {
			t.Errorf("%s: parameters %v, want %v", tt.want.Code(), e.Params, tt.params)
		}
		for name, v := range tt.params {
			if got := e.Param(name); got != v {
				t.Errorf("%s: %s = %q, want %q", tt.want.Code(), name, got, v)
			}
		}
		checkChinese(t, e)
	}
}

// checkChinese fails when the Chinese message of e holds an English word
// of its own: the template has none, nor has the rendering once the
// values shown alike in both languages (what the user gave) are taken out.
func checkChinese(t *testing.T, e *ledger.Error) {
	t.Helper()
	if w := latinWord.FindString(placeholder.ReplaceAllString(e.Reason.Template(ledger.Chinese), "")); w != "" {
		t.Errorf("%s: the Chinese template has %q", e.Reason.Code(), w)
	}
	msg := e.Message(ledger.Chinese)
	for _, p := range e.Params {
		if p.ZH == "" {
			msg = strings.ReplaceAll(msg, ledger.Echo(p.Value), "")
		}
	}
	if w := latinWord.FindString(msg); w != "" {
		t.Errorf("%s: the Chinese message %q has %q", e.Reason.Code(), e.Message(ledger.Chinese), w)
	}
}

// points lists every point of a size×size board in GTP coordinates.
func points(size int) string {
	var out []string
	for x := range size {
		for y := 1; y <= size; y++ {
			out = append(out, rules.GTPPoint(rules.Coord{X: x, Y: size - y}, size))
		}
	}
	return strings.Join(out, ",")
}

// TestDeadListsAreBoundedFirst: a list of dead stones too long in bytes,
// or naming more points than the largest board has, is refused before the
// record is read at all (the record here cannot be, so a refusal of it
// would show it was), whatever the list repeats.
func TestDeadListsAreBoundedFirst(t *testing.T) {
	broken := []byte("(;SZ[19];B[")
	same := make([]string, 200_000)
	for i := range same {
		same[i] = "D4"
	}
	distinct := append(strings.Split(points(rules.MaxSize), ","), "aa")
	for _, tt := range []struct {
		name string
		dead []string
		want *ledger.Reason
	}{
		{"200000-repeats", same, referee.ReasonDeadTooLong},
		{"one-long-point", []string{strings.Repeat("D", referee.MaxDeadBytes+1)}, referee.ReasonDeadTooLong},
		{"more-than-the-largest-board", distinct, referee.ReasonDeadTooMany},
	} {
		_, err := referee.Adjudicate(t.Context(), referee.Request{SGF: broken, Dead: tt.dead})
		if e, ok := ledger.AsError(err); !ok || e.Reason != tt.want || e.Field != "dead" {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want.Code())
		}
	}
	if _, err := referee.Adjudicate(t.Context(), referee.Request{SGF: broken, Dead: same[:100]}); !isReason(err, referee.ReasonRecordCloseValue) {
		t.Errorf("100 repeats of one point pass to the record: %v", err)
	}

	if _, err := referee.SplitDead(strings.Repeat("D4,", 200_000)); !isReason(err, referee.ReasonDeadTooLong) {
		t.Errorf("SplitDead of 600 KB: %v", err)
	}
	if d, err := referee.SplitDead("D4, Q16 D4"); err != nil || len(d) != 2 {
		t.Errorf("SplitDead(D4, Q16 D4) = %q, %v", d, err)
	}
}

func isReason(err error, r *ledger.Reason) bool {
	e, ok := ledger.AsError(err)
	return ok && e.Reason == r
}

// TestAdjudicateCancelled: when the client has left, the referee returns
// the context's error, not a refusal of the record.
func TestAdjudicateCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	sgf := record("(;SZ[19]", ";B[tt];W[tt]", ")", 20<<10)
	if _, err := referee.Adjudicate(ctx, referee.Request{SGF: sgf}); !errors.Is(err, context.Canceled) {
		t.Errorf("Adjudicate with a cancelled context = %v", err)
	}
}
