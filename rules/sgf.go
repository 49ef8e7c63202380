package rules

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Property is one SGF property with its values, unescaped and decoded to UTF-8.
type Property struct {
	ID     string
	Values []string
}

// Node is one SGF node; its first child continues the main line.
type Node struct {
	Props    []Property
	Children []*Node
}

// Get returns the first value of property id, and whether it is present.
func (n *Node) Get(id string) (string, bool) {
	for _, p := range n.Props {
		if p.ID == id && len(p.Values) > 0 {
			return p.Values[0], true
		}
	}
	return "", false
}

// All returns every value of property id.
func (n *Node) All(id string) []string {
	var out []string
	for _, p := range n.Props {
		if p.ID == id {
			out = append(out, p.Values...)
		}
	}
	return out
}

// MaxNesting bounds nested variations so hostile input cannot exhaust the stack.
const MaxNesting = 10000

// MaxRecordBytes bounds one game record anyone submits (the largest real
// records are tens of kilobytes); every transport refuses larger ones.
const MaxRecordBytes = 1 << 20

// ParseSGF reads an SGF collection: one or more game trees. Text is decoded
// from the charset named by the root's CA property (any WHATWG label:
// GB2312/GBK/GB18030, Big5, Shift_JIS, EUC-KR, Latin-1, UTF-8…); without
// CA, UTF-8 when the bytes are valid UTF-8, else the one of GB18030, Big5,
// Shift_JIS and EUC-KR the bytes read plausibly in (see guessCharset).
func ParseSGF(data []byte) ([]*Node, error) {
	trees, _, err := ParseSGFWarnings(data)
	return trees, err
}

// ParseSGFWarnings is ParseSGF that also returns each game tree's warnings
// (a charset guessed without CA).
func ParseSGFWarnings(data []byte) ([]*Node, [][]Warning, error) {
	p := &parser{data: data, dbcs: DoubleByteRecord(data)}
	var trees []*Node
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) { // a UTF-8 byte-order mark
		p.pos = 3
	}
	p.skipSpace()
	// Text before the first game tree (mail headers, notes) is skipped.
	if p.pos < len(p.data) && p.data[p.pos] != '(' {
		if i := bytes.Index(p.data[p.pos:], []byte("(;")); i > 0 {
			p.pos += i
		}
	}
	for p.pos < len(p.data) {
		if p.data[p.pos] != '(' {
			if len(trees) > 0 {
				break // trailing text after the last game tree is ignored, as FF[4] allows
			}
			return nil, nil, p.fail(SyntaxOpenTree)
		}
		if len(trees) >= MaxGames {
			return nil, nil, &LimitError{What: LimitGames, Max: MaxGames}
		}
		t, err := p.tree(0)
		if err != nil {
			return nil, nil, err
		}
		trees = append(trees, t)
		p.skipSpace()
	}
	if len(trees) == 0 {
		return nil, nil, p.fail(SyntaxOpenTree)
	}
	warnings := make([][]Warning, len(trees))
	for i, t := range trees {
		w, err := decodeTree(t)
		if err != nil {
			return nil, nil, &GameError{Game: i + 1, Err: err}
		}
		if w != nil {
			warnings[i] = []Warning{*w}
		}
	}
	return trees, warnings, nil
}

type parser struct {
	data []byte
	pos  int
	dbcs bool // lead bytes ≥ 0x81 take the next byte with them (GBK, Big5, Shift_JIS)
	// What the record has used of the caps (limits.go).
	nodes, variations, values int
}

// count books one more of what against its cap.
func count(n *int, max int, what Limit) error {
	if *n++; *n > max {
		return &LimitError{What: what, Max: max}
	}
	return nil
}

// fail is a syntax error at the parser's position, naming what was found
// there: the whole character when a valid UTF-8 one starts there (a
// full-width "；" is one character, not its first byte), else the byte.
func (p *parser) fail(code SyntaxCode) *SyntaxError {
	e := &SyntaxError{Offset: p.pos, Code: code}
	if p.pos < len(p.data) {
		r, n := utf8.DecodeRune(p.data[p.pos:])
		if r == utf8.RuneError {
			n = 1
		}
		e.Found = string(p.data[p.pos : p.pos+n])
	}
	return e
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			p.pos++
		default:
			return
		}
	}
}

// tree parses "(" Sequence GameTree* ")" into its first node.
func (p *parser) tree(depth int) (*Node, error) {
	if depth > MaxNesting {
		return nil, p.fail(SyntaxNesting)
	}
	if err := count(&p.variations, MaxVariations, LimitVariations); err != nil {
		return nil, err
	}
	p.pos++ // '('
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != ';' {
		return nil, p.fail(SyntaxFirstNode)
	}
	var first, last *Node
	inVariations := false // after a variation only more variations or ')' may follow
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.fail(SyntaxCloseTree)
		}
		switch p.data[p.pos] {
		case ';':
			if inVariations {
				return nil, p.fail(SyntaxAfterVariation)
			}
			n, err := p.node()
			if err != nil {
				return nil, err
			}
			if first == nil {
				first = n
			} else {
				last.Children = append(last.Children, n)
			}
			last = n
		case '(':
			sub, err := p.tree(depth + 1)
			if err != nil {
				return nil, err
			}
			last.Children = append(last.Children, sub)
			inVariations = true
		case ')':
			p.pos++
			return first, nil
		default:
			return nil, p.fail(SyntaxNodeOrTree)
		}
	}
}

// node parses ";" Property*.
func (p *parser) node() (*Node, error) {
	if err := count(&p.nodes, MaxNodes, LimitNodes); err != nil {
		return nil, err
	}
	p.pos++ // ';'
	n := &Node{}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return n, nil
		}
		c := p.data[p.pos]
		if !isLetter(c) {
			return n, nil
		}
		start := p.pos
		var id []byte
		for p.pos < len(p.data) && isLetter(p.data[p.pos]) {
			// FF[3] allowed lower-case letters in identifiers (e.g. "AddBlack"): keep the capitals.
			if c := p.data[p.pos]; c >= 'A' && c <= 'Z' {
				id = append(id, c)
			}
			p.pos++
		}
		if len(id) == 0 {
			p.pos = start
			return nil, p.fail(SyntaxPropertyID)
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '[' {
			e := p.fail(SyntaxPropertyValue)
			e.Property = quote(string(id))
			return nil, e
		}
		prop := Property{ID: string(id)}
		for p.pos < len(p.data) && p.data[p.pos] == '[' {
			if err := count(&p.values, MaxPropertyValues, LimitValues); err != nil {
				return nil, err
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			prop.Values = append(prop.Values, v)
			p.skipSpace()
		}
		n.Props = append(n.Props, prop)
	}
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// value parses "[" ... "]", removing escapes and soft line breaks. The
// result is still in the record's charset.
func (p *parser) value() (string, error) {
	start := p.pos
	p.pos++ // '['
	var buf []byte
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case p.dbcs && c >= 0x81 && c != 0xFF && p.pos+1 < len(p.data):
			buf = append(buf, c, p.data[p.pos+1])
			p.pos += 2
		case c == '\\':
			p.pos++
			if p.pos >= len(p.data) {
				continue
			}
			switch p.data[p.pos] {
			case '\n': // soft line break
				p.pos++
				if p.pos < len(p.data) && p.data[p.pos] == '\r' {
					p.pos++
				}
			case '\r':
				p.pos++
				if p.pos < len(p.data) && p.data[p.pos] == '\n' {
					p.pos++
				}
			default:
				buf = append(buf, p.data[p.pos])
				p.pos++
			}
		case c == ']':
			p.pos++
			return string(buf), nil
		default:
			buf = append(buf, c)
			p.pos++
		}
	}
	p.pos = start
	e := p.fail(SyntaxCloseValue)
	e.Found = "" // the offset is where the value opened; the input ended
	return "", e
}

// DoubleByteRecord reports whether a record is read in a double-byte
// charset (its CA names GB2312/GBK/GB18030, Big5 or Shift_JIS, or it has
// no CA and is not UTF-8): then a byte from 0x81 to 0xFE leads a pair whose
// second byte may be ']' or '\'. Scanners of records use it to read them
// as the parser does.
func DoubleByteRecord(data []byte) bool {
	ca := sniffCharset(data)
	return doubleByteCharset(ca) || (ca == "" && !utf8.Valid(data))
}

// sniffCharset finds the CA value of the first node without a full parse.
func sniffCharset(data []byte) string {
	i := bytes.Index(data, []byte("CA["))
	if i < 0 || i > 4096 {
		return ""
	}
	j := bytes.IndexByte(data[i+3:], ']')
	if j < 0 {
		return ""
	}
	return string(data[i+3 : i+3+j])
}

// WriteSGF writes game trees as FF[4] text in UTF-8. Text values are
// escaped; a CA property, if any, is rewritten to UTF-8.
func WriteSGF(trees []*Node) []byte {
	var b bytes.Buffer
	for _, t := range trees {
		writeTree(&b, t, true)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func writeTree(b *bytes.Buffer, n *Node, root bool) {
	b.WriteByte('(')
	for {
		b.WriteByte(';')
		for _, p := range n.Props {
			b.WriteString(p.ID)
			for _, v := range p.Values {
				if root && p.ID == "CA" {
					v = "UTF-8"
				}
				b.WriteByte('[')
				b.WriteString(escapeValue(v))
				b.WriteByte(']')
			}
		}
		root = false
		if len(n.Children) != 1 {
			break
		}
		n = n.Children[0]
	}
	for _, c := range n.Children {
		writeTree(b, c, false)
	}
	b.WriteByte(')')
}

func escapeValue(v string) string {
	if !strings.ContainsAny(v, `]\`) && utf8.ValidString(v) {
		return v
	}
	var sb strings.Builder
	for _, r := range strings.ToValidUTF8(v, "\uFFFD") {
		if r == ']' || r == '\\' {
			sb.WriteByte('\\')
		}
		sb.WriteRune(r)
	}
	return sb.String()
}
