package rules

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
)

// normalizeCharset turns CA spellings seen in the wild ("UTF8", "ISO8859_1",
// "GB2312") into a WHATWG label.
func normalizeCharset(ca string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(ca)), "_", "-")
}

// doubleByteCharset reports whether the charset's second bytes may be ASCII
// ']' or '\', so the lexer must step over character pairs.
func doubleByteCharset(ca string) bool {
	n := normalizeCharset(ca)
	return strings.HasPrefix(n, "gb") || strings.Contains(n, "936") || strings.Contains(n, "big5") ||
		strings.Contains(n, "shift") || strings.Contains(n, "sjis") || strings.Contains(n, "932")
}

// charsetEncoding finds the decoder for a CA value; nil means UTF-8. Every
// WHATWG label is understood as written (ks_c_5601-1987, shift_jis,
// x-sjis, csbig5…), then the spellings seen in the wild ("UTF8",
// "ISO8859_1").
func charsetEncoding(ca string) (encoding.Encoding, error) {
	n := normalizeCharset(ca)
	switch {
	case n == "" || n == "utf-8" || n == "utf8":
		return nil, nil
	case strings.HasPrefix(n, "gb") || n == "cp936" || n == "euc-cn":
		return simplifiedchinese.GB18030, nil // superset of GB2312 and GBK
	}
	for _, label := range []string{strings.ToLower(strings.TrimSpace(ca)), n, strings.ReplaceAll(n, "-", "")} {
		if e, err := htmlindex.Get(label); err == nil {
			if e == encoding.Replacement { // a label WHATWG maps to nothing readable
				break
			}
			if e == unicode.UTF8 {
				return nil, nil
			}
			return e, nil
		}
	}
	return nil, &RecordError{Code: RecordCharset, Property: "CA", Value: quote(ca)}
}

// WarningCode names something a person should check in an adjudication
// that did not stop it.
type WarningCode string

// WarnCharsetGuessed: the record names no charset, and its bytes read as
// text in more than one of the charsets records are written in.
const WarnCharsetGuessed WarningCode = "charset_guessed"

// Warning is a coded warning with its facts.
type Warning struct {
	Code WarningCode `json:"code"`
	// Charset is the charset chosen, Others the other ones the bytes read
	// plausibly in (WarnCharsetGuessed).
	Charset string   `json:"charset,omitempty"`
	Others  []string `json:"others,omitempty"`
}

// A candidate charset for a record without CA.
type candidate struct {
	name string
	enc  encoding.Encoding
	// common reports whether a two-byte character lies in the charset's
	// block of frequent characters (GB2312 level 1, Big5's frequent
	// Hanzi, Shift_JIS kana and level-1 kanji, KS X 1001 Hangul).
	common func(lead, trail byte) bool
	// words are characters records in the charset's language write most
	// (result words, ranks, events, common surnames): a hit is evidence
	// the decoding is the right one.
	words string
}

// candidates are tried in this order; ties go to the earlier (a Chinese
// registry reads GB18030 first).
var candidates = []candidate{
	{"GB18030", simplifiedchinese.GB18030, func(l, t byte) bool { return l >= 0xB0 && l <= 0xD7 && t >= 0xA1 && t <= 0xFE },
		"黑白胜负和中盘目子段级届杯赛围棋国手冠军王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗郑梁谢宋唐许韩"},
	{"Big5", traditionalchinese.Big5, func(l, t byte) bool {
		return l >= 0xA4 && l <= 0xC6 && (t >= 0x40 && t <= 0x7E || t >= 0xA1 && t <= 0xFE)
	}, "黑白勝負和中盤目子段級屆盃杯賽圍棋國手冠軍王李張劉陳楊黃趙吳周徐孫馬朱胡郭何林羅鄭梁謝宋唐許韓"},
	{"Shift_JIS", japanese.ShiftJIS, func(l, t byte) bool {
		return l == 0x82 && t >= 0x9F && t <= 0xF1 || l == 0x83 && t >= 0x40 && t <= 0x96 || l >= 0x88 && l <= 0x98 && t >= 0x40 && t <= 0xFC
	}, "黒白勝負中押目半段級戦杯棋聖名人本因坊王座碁のはをにがとでしたいうかす山田中村井藤本"},
	{"EUC-KR", korean.EUCKR, func(l, t byte) bool { return l >= 0xB0 && l <= 0xC8 && t >= 0xA1 && t <= 0xFE },
		"흑백승패불계반집단급전배기국수명인왕위김이박최정조강윤장임한오서신권황안송류홍"},
}

// guessCharset chooses, for the text of a record without CA that is not
// UTF-8, among GB18030, Big5, Shift_JIS and EUC-KR: a charset is possible
// when every byte decodes (no replacement character, and for GB18030 no
// four-byte sequence, which real names and comments never need) and
// plausible when most two-byte characters fall in its block of frequent
// characters; the charset whose decoding holds most of its language's
// frequent words (results, ranks, surnames) wins. It returns the choice and a warning when another charset is
// also plausible, or none is.
func guessCharset(text []string) (encoding.Encoding, *Warning) {
	type scored struct {
		c     candidate
		share float64
		hits  int
	}
	var ok []scored
	for _, c := range candidates {
		pairs, common, hits, valid := 0, 0, 0, true
		for _, v := range text {
			out, err := c.enc.NewDecoder().String(v)
			if err != nil || strings.ContainsRune(out, utf8.RuneError) {
				valid = false
				break
			}
			for _, r := range out {
				if r >= 0x80 && strings.ContainsRune(c.words, r) {
					hits++
				}
			}
			for i := 0; i < len(v); i++ {
				if v[i] < 0x80 {
					continue
				}
				if c.name == "Shift_JIS" && v[i] >= 0xA1 && v[i] <= 0xDF { // half-width katakana: one byte
					continue
				}
				if i+1 >= len(v) {
					break
				}
				if c.name == "GB18030" && v[i+1] >= 0x30 && v[i+1] <= 0x39 {
					valid = false // a four-byte sequence
					break
				}
				pairs++
				if c.common(v[i], v[i+1]) {
					common++
				}
				i++
			}
		}
		if valid && pairs > 0 {
			ok = append(ok, scored{c, float64(common) / float64(pairs), hits})
		}
	}
	if len(ok) == 0 {
		return simplifiedchinese.GB18030, &Warning{Code: WarnCharsetGuessed, Charset: "GB18030"}
	}
	// the most frequent words first, then the larger share of frequent characters
	best := 0
	for i, s := range ok {
		if s.hits > ok[best].hits || s.hits == ok[best].hits && s.share > ok[best].share {
			best = i
		}
	}
	const plausible = 0.5 // half the characters frequent ones: text, not noise
	w := &Warning{Code: WarnCharsetGuessed, Charset: ok[best].c.name, Others: []string{}}
	for i, s := range ok {
		if i != best && s.share >= plausible && s.hits >= ok[best].hits {
			w.Others = append(w.Others, s.c.name)
		}
	}
	if ok[best].share >= plausible && len(w.Others) == 0 {
		return ok[best].c.enc, nil
	}
	return ok[best].c.enc, w
}

// decodeTree converts every value of a game tree to UTF-8 from the charset
// its root names. Without CA, valid UTF-8 stays; anything else is read in
// the charset guessCharset chooses, with a warning when it is unsure.
// UTF-8 declared but not kept is read as GB18030, as before.
func decodeTree(root *Node) (*Warning, error) {
	ca, hasCA := root.Get("CA")
	enc, err := charsetEncoding(ca)
	if err != nil {
		return nil, err
	}
	var warn *Warning
	switch {
	case enc != nil || allUTF8(root):
	case hasCA && strings.TrimSpace(ca) != "":
		enc = simplifiedchinese.GB18030
	default:
		enc, warn = guessCharset(nonASCII(root))
	}
	if enc == nil {
		return warn, nil
	}
	dec := enc.NewDecoder()
	var walk func(n *Node) error
	walk = func(n *Node) error {
		for {
			for i := range n.Props {
				for j, v := range n.Props[i].Values {
					if isASCII(v) {
						continue
					}
					out, err := dec.String(v)
					if err != nil {
						out = strings.ToValidUTF8(v, "\uFFFD")
					}
					n.Props[i].Values[j] = out
				}
			}
			if len(n.Children) != 1 {
				break
			}
			n = n.Children[0] // iterate the long main line instead of recursing
		}
		for _, c := range n.Children {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	return warn, walk(root)
}

// nonASCII collects a tree's values that are not ASCII (at most a few
// hundred: enough to judge a charset, bounded work).
func nonASCII(root *Node) []string {
	var out []string
	var walk func(n *Node)
	walk = func(n *Node) {
		for len(out) < 256 {
			for _, p := range n.Props {
				for _, v := range p.Values {
					if !isASCII(v) {
						out = append(out, v)
					}
				}
			}
			if len(n.Children) != 1 {
				break
			}
			n = n.Children[0]
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(root)
	return out
}

func allUTF8(root *Node) bool {
	ok := true
	var walk func(n *Node)
	walk = func(n *Node) {
		for ok {
			for _, p := range n.Props {
				for _, v := range p.Values {
					ok = ok && utf8.ValidString(v)
				}
			}
			if len(n.Children) != 1 {
				break
			}
			n = n.Children[0]
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(root)
	return ok
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
