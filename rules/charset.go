package rules

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/simplifiedchinese"
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

// charsetEncoding finds the decoder for a CA value; nil means UTF-8.
func charsetEncoding(ca string) (encoding.Encoding, error) {
	n := normalizeCharset(ca)
	switch {
	case n == "" || n == "utf-8" || n == "utf8":
		return nil, nil
	case strings.HasPrefix(n, "gb") || n == "cp936" || n == "euc-cn":
		return simplifiedchinese.GB18030, nil // superset of GB2312 and GBK
	}
	e, err := htmlindex.Get(n)
	if err != nil {
		e, err = htmlindex.Get(strings.ReplaceAll(n, "-", ""))
	}
	if err != nil {
		return nil, &RecordError{Code: RecordCharset, Property: "CA", Value: quote(ca)}
	}
	return e, nil
}

// decodeTree converts every value of a game tree to UTF-8 from the charset
// its root names. Without CA, valid UTF-8 stays; anything else is read as
// GB18030.
func decodeTree(root *Node) error {
	ca, _ := root.Get("CA")
	enc, err := charsetEncoding(ca)
	if err != nil {
		return err
	}
	if enc == nil && !allUTF8(root) {
		// No charset, or UTF-8 declared but not kept: Chinese records are GB18030.
		enc = simplifiedchinese.GB18030
	}
	if enc == nil {
		return nil
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
	return walk(root)
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
