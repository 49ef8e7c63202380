package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/dankyu/dankyu/ledger"
)

// payload reads the top-level fields of an event's JSON object without
// decoding the rest: the audit reads a few fields of every row of the log,
// and a reflective decode of each was most of its time. Nested values are
// returned raw; strings with escapes are decoded by encoding/json. It is a
// value of fixed size, the wanted keys beside their raw values, so that
// reading 1.5 million rows allocates nothing per row for it.
type payload struct {
	n    int
	keys [maxWanted]string
	vals [maxWanted][]byte
}

// maxWanted bounds the keys one read asks for.
const maxWanted = 10

// get is the raw value of key (nil when absent or not asked for).
func (p *payload) get(key string) []byte {
	for i := range p.n {
		if p.keys[i] == key {
			return p.vals[i]
		}
	}
	return nil
}

var errPayload = errors.New("event payload is not a JSON object")

// readPayload returns the raw values of the wanted top-level keys of p, the
// payload of an event of type T (the producer's payload type). T is not
// used here: it names, for internal/archtest, the type whose JSON keys the
// wanted keys must be, and the payload's getters (str, int, bool, pair)
// must ask for wanted keys only.
func readPayload[T ledger.Payload](p []byte, want ...string) (payload, error) {
	return scanPayload(p, want...)
}

// scanPayload returns the raw values of the wanted top-level keys of p.
func scanPayload(p []byte, want ...string) (payload, error) {
	var out payload
	if len(want) > maxWanted {
		return out, fmt.Errorf("%d payload keys asked for, at most %d", len(want), maxWanted)
	}
	out.n = copy(out.keys[:], want)
	i := skipSpace(p, 0)
	if i >= len(p) || p[i] != '{' {
		return out, errPayload
	}
	i = skipSpace(p, i+1)
	if i < len(p) && p[i] == '}' {
		return out, nil
	}
	for {
		if i >= len(p) || p[i] != '"' {
			return out, errPayload
		}
		end, err := skipString(p, i)
		if err != nil {
			return out, err
		}
		raw := p[i+1 : end-1]
		var escaped string
		if bytes.IndexByte(raw, '\\') >= 0 {
			var ok bool
			if escaped, ok = unquote(p[i:end]); !ok {
				return out, errPayload
			}
			raw = nil
		}
		i = skipSpace(p, end)
		if i >= len(p) || p[i] != ':' {
			return out, errPayload
		}
		i = skipSpace(p, i+1)
		vend, err := skipValue(p, i)
		if err != nil {
			return out, err
		}
		for k := range out.n {
			// string(raw) in a comparison copies nothing
			if (raw != nil && string(raw) == out.keys[k]) || (raw == nil && escaped == out.keys[k]) {
				out.vals[k] = p[i:vend]
			}
		}
		i = skipSpace(p, vend)
		if i >= len(p) {
			return out, errPayload
		}
		if p[i] == '}' {
			return out, nil
		}
		if p[i] != ',' {
			return out, errPayload
		}
		i = skipSpace(p, i+1)
	}
}

// unquote decodes a JSON string with escapes. It is a function of its own
// so that the string encoding/json decodes into goes to the heap only when
// a key has escapes: declared in scanPayload's loop, it went there for
// every key of every row (a third of the pass's time in the collector).
//
//go:noinline
func unquote(quoted []byte) (string, bool) {
	var s string
	if json.Unmarshal(quoted, &s) != nil {
		return "", false
	}
	return s, true
}

func skipSpace(p []byte, i int) int {
	for i < len(p) && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at p[i] == '"'.
func skipString(p []byte, i int) (int, error) {
	for j := i + 1; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errPayload
}

// skipValue returns the index after the value starting at p[i].
func skipValue(p []byte, i int) (int, error) {
	if i >= len(p) {
		return 0, errPayload
	}
	switch p[i] {
	case '"':
		return skipString(p, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(p); j++ {
			switch p[j] {
			case '"':
				end, err := skipString(p, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errPayload
	}
	j := i
	for j < len(p) && p[j] != ',' && p[j] != '}' && p[j] != ']' && p[j] != ' ' && p[j] != '\n' && p[j] != '\t' && p[j] != '\r' {
		j++
	}
	if j == i {
		return 0, errPayload
	}
	return j, nil
}

// str is a string field ("" when absent or null).
func (p *payload) str(key string) string { return text(p.get(key)) }

// quoted is the raw JSON value of a string field, quotes and escapes
// included (nil when absent): what the pass looks up in a table of texts
// seen (ranks, results, provinces) without copying it to a string first.
// text reads it as str would.
func (p *payload) quoted(key string) []byte { return p.get(key) }

// text is a raw value as str reads it ("" when not a string).
func text(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		s, _ := unquote(v)
		return s
	}
	return string(inner)
}

// plainText is the text of a raw string value without escapes, in its
// bytes (ok false: not a string, or escaped).
func plainText(v []byte) ([]byte, bool) {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
		return nil, false
	}
	return v[1 : len(v)-1], true
}

// int is an integer field (0 when absent, null or not an integer).
func (p *payload) int(key string) int64 {
	v := p.get(key)
	if n, ok := plainInt(v); ok {
		return n
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		if f, ferr := strconv.ParseFloat(string(v), 64); ferr == nil {
			return int64(f)
		}
		return 0
	}
	return n
}

// plainInt reads a short run of decimal digits, with an optional minus
// sign, without converting it to a string (ok false: anything else).
func plainInt(v []byte) (int64, bool) {
	neg := len(v) > 0 && v[0] == '-'
	d := v
	if neg {
		d = v[1:]
	}
	if len(d) == 0 || len(d) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
