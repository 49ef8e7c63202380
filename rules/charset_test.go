package rules

import (
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// encoded writes a record's text in a charset, as the program that made
// it did.
func encoded(t *testing.T, enc encoding.Encoding, s string) string {
	t.Helper()
	out, err := enc.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCharsetLabels: every WHATWG label in CA is read, EUC-KR's
// ks_c_5601-1987 (refused as unknown before) among them.
func TestCharsetLabels(t *testing.T) {
	for _, tt := range []struct {
		ca  string
		enc encoding.Encoding
		pb  string
	}{
		{"ks_c_5601-1987", korean.EUCKR, "이창호"},
		{"EUC-KR", korean.EUCKR, "조훈현"},
		{"windows-949", korean.EUCKR, "이세돌"},
		{"x-sjis", japanese.ShiftJIS, "井山裕太"},
		{"csbig5", traditionalchinese.Big5, "聶衛平"},
		{"GB2312", simplifiedchinese.GBK, "聂卫平"},
	} {
		sgf := "(;GM[1]FF[4]CA[" + tt.ca + "]SZ[9]PB[" + encoded(t, tt.enc, tt.pb) + "]PW[x];B[ee])"
		trees, err := ParseSGF([]byte(sgf))
		if err != nil {
			t.Errorf("CA[%s]: %v", tt.ca, err)
			continue
		}
		if pb, _ := trees[0].Get("PB"); pb != tt.pb {
			t.Errorf("CA[%s]: PB %q, want %q", tt.ca, pb, tt.pb)
		}
	}
	if _, err := ParseSGF([]byte("(;CA[klingon]SZ[9];B[ee])")); err == nil {
		t.Error("an unknown charset must be refused")
	}
}

// TestCharsetWithoutCA: a record without CA in Shift_JIS, Big5 or EUC-KR
// is read in its charset (all were read as GB18030 before), GB18030 stays
// GB18030, and bytes that read plausibly two ways get a warning.
func TestCharsetWithoutCA(t *testing.T) {
	for _, tt := range []struct {
		enc            encoding.Encoding
		pb, pw, ev, re string
	}{
		{japanese.ShiftJIS, "井山裕太", "一力遼", "第49期棋聖戦", "黒の中押し勝ち"},
		{traditionalchinese.Big5, "周俊勳", "林至涵", "第十屆應氏盃", "黑中盤勝"},
		{korean.EUCKR, "이창호", "조훈현", "국수전", "흑 불계승"},
		{simplifiedchinese.GB18030, "柯洁", "聂卫平", "第十八届全国围棋个人赛", "黑中盘胜"},
	} {
		sgf := "(;GM[1]FF[4]SZ[9]PB[" + encoded(t, tt.enc, tt.pb) + "]PW[" + encoded(t, tt.enc, tt.pw) +
			"]EV[" + encoded(t, tt.enc, tt.ev) + "]C[" + encoded(t, tt.enc, tt.re) + "];B[ee])"
		rs, err := AdjudicateSGF([]byte(sgf), "x", Options{})
		if err != nil {
			t.Fatal(err)
		}
		trees, _, _ := ParseSGFWarnings([]byte(sgf))
		if pb, _ := trees[0].Get("PB"); pb != tt.pb {
			t.Errorf("%s: PB %q, want %q", tt.pb, pb, tt.pb)
		}
		if len(rs[0].Warnings) != 0 {
			t.Errorf("%s: unexpected warning %+v", tt.pb, rs[0].Warnings)
		}
	}
	// Two Hangul syllables that are also two frequent-block Hanzi in GB2312,
	// and none of either language's frequent words: unsure.
	sgf := "(;SZ[9]PB[" + encoded(t, korean.EUCKR, "가나") + "];B[ee])"
	rs, err := AdjudicateSGF([]byte(sgf), "x", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := rs[0].Warnings; len(w) != 1 || w[0].Code != WarnCharsetGuessed || len(w[0].Others) == 0 {
		t.Errorf("warnings %+v, want a charset guessed with the other candidates named", w)
	}
}

// TestKomiInHundredths: Fox writes komi in hundredths; KM[750] is 7.5
// points (it was read as 750), wherever the value or the server says so.
func TestKomiInHundredths(t *testing.T) {
	for _, tt := range []struct {
		root string
		want float64
	}{
		{"KM[750]RU[Chinese]AP[GNU Go:3.8]AP[foxwq]", 7.5},
		{"KM[650]RU[Japanese]AP[GNU Go:3.8]AP[foxwq]", 6.5},
		{"KM[375]RU[Chinese]AP[foxwq]", 7.5},
		{"KM[50]AP[foxwq]", 0.5},
		{"KM[0]HA[2]AP[foxwq]", 0},
		{"KM[750]", 7.5},  // no komi in points is 100 or more
		{"KM[50]", 50},    // a number of points, from no hundredths server
		{"KM[7.50]", 7.5}, // points written with decimals
		{"KM[98]", 98},    // not a whole number of quarters in hundredths
		{"KM[101]", 101},  // nor this
	} {
		r := adjudicateString(t, "(;SZ[9]"+tt.root+";B[];W[])", Options{AllAlive: true})
		if r.Komi != tt.want {
			t.Errorf("%s: komi %v, want %v (%v)", tt.root, r.Komi, tt.want, r.Notes)
		}
	}
}
