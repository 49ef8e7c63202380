package referee_test

import (
	"bytes"
	"runtime"
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
			_, err := referee.Adjudicate(referee.Request{SGF: tt.sgf})
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
	if _, err := referee.Adjudicate(referee.Request{SGF: sgf}); err != nil {
		t.Fatal(err)
	}
}
