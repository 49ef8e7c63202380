package audit

import (
	"encoding/json"
	"math"

	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// A round's pairing is the largest payload the pass reads whole (a
// national year holds some 60 000 of them, 735 000 pairs), and its
// reflective decode was a sixth of the pass. readPairing decodes the form
// the tournaments service writes (encoding/json's output of the payload
// types: known keys in their exact case, plain integers, booleans) by
// hand, and anything else through encoding/json, so the two cannot
// disagree: an unknown, repeated or differently cased key, a null, a
// float, an escape, any doubt, and the hand decoder gives up.
// FuzzReadPairing checks it against encoding/json.

// readPairing is the round and pairs of a tournament.round_paired
// (playoff false) or tournament.playoff_paired payload. The pairs are
// appended to buf[:0] when decoded by hand.
func readPairing(p []byte, playoff bool, buf []tournaments.Pairing) (round int, pairs []tournaments.Pairing, err error) {
	if r, ps, ok := quickPairing(p, playoff, buf[:0]); ok {
		return r, ps, nil
	}
	if playoff {
		var v tournaments.PlayoffPairedPayload
		err = json.Unmarshal(p, &v)
		return v.Round, v.Pairs, err
	}
	var v tournaments.RoundPairedPayload
	err = json.Unmarshal(p, &v)
	return v.Round, v.Pairs, err
}

// quickPairing is readPairing's hand decoder (ok false: let encoding/json decide).
func quickPairing(p []byte, playoff bool, buf []tournaments.Pairing) (round int, pairs []tournaments.Pairing, ok bool) {
	d := strictJSON{p: p}
	var seen [5]bool // bye, pairs, round, seed, together
	pairs = buf
	ok = d.object(func(key []byte) bool {
		k := -1
		switch string(key) { // no copy: a switch on constants
		case "pairs":
			k = 1
		case "round":
			k = 2
		case "bye":
			k = 0
		case "seed":
			k = 3
		case "together":
			k = 4
		}
		if playoff && k != 1 && k != 2 {
			return false // not a key of the playoff's payload
		}
		if k < 0 || seen[k] {
			return false
		}
		seen[k] = true
		switch k {
		case 1:
			var ok bool
			pairs, ok = d.pairs(pairs)
			return ok
		case 2:
			var ok bool
			round, ok = d.intField()
			return ok
		case 4:
			_, ok := d.pairs(nil)
			return ok
		}
		if k == 0 { // bye is an int, seed an int64
			_, ok := d.intField()
			return ok
		}
		_, ok := d.int()
		return ok
	})
	if !ok || d.skip() != len(p) {
		return 0, nil, false
	}
	if !seen[1] {
		pairs = nil // encoding/json leaves an absent slice nil
	}
	return round, pairs, true
}

// strictJSON reads the plain subset of JSON quickPairing accepts; each
// method reports false on anything outside it.
type strictJSON struct {
	p []byte
	i int
}

// skip skips white space and returns the position.
func (d *strictJSON) skip() int {
	d.i = skipSpace(d.p, d.i)
	return d.i
}

func (d *strictJSON) byte(c byte) bool {
	if d.skip() < len(d.p) && d.p[d.i] == c {
		d.i++
		return true
	}
	return false
}

// key reads an object's key and its colon: a string without escapes.
func (d *strictJSON) key() ([]byte, bool) {
	if !d.byte('"') {
		return nil, false
	}
	start := d.i
	for d.i < len(d.p) {
		switch c := d.p[d.i]; {
		case c == '"':
			k := d.p[start:d.i]
			d.i++
			return k, d.byte(':')
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
		d.i++
	}
	return nil, false
}

// object reads {"key": value, ...}, value read by field (false: give up).
func (d *strictJSON) object(field func(key []byte) bool) bool {
	if !d.byte('{') {
		return false
	}
	if d.byte('}') {
		return true
	}
	for {
		k, ok := d.key()
		if !ok || !field(k) {
			return false
		}
		if d.byte('}') {
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// int reads an integer in JSON's form (no leading zero, no fraction or
// exponent) that an int64 holds.
func (d *strictJSON) int() (int64, bool) {
	j := d.skip()
	neg := j < len(d.p) && d.p[j] == '-'
	if neg {
		j++
	}
	digits := j
	var u uint64
	for j < len(d.p) && d.p[j] >= '0' && d.p[j] <= '9' {
		u = u*10 + uint64(d.p[j]-'0')
		j++
	}
	// 19 digits cannot overflow a uint64; an int64 is checked below
	if j == digits || j-digits > 19 || (d.p[digits] == '0' && j-digits > 1) {
		return 0, false
	}
	if j < len(d.p) && (d.p[j] == '.' || d.p[j] == 'e' || d.p[j] == 'E') {
		return 0, false
	}
	d.i = j
	switch {
	case !neg && u <= math.MaxInt64:
		return int64(u), true
	case neg && u <= 1<<63:
		return int64(-u), true // -(1<<63) wraps to itself: math.MinInt64
	}
	return 0, false
}

// intField is int for a field of Go type int (false: out of its range).
func (d *strictJSON) intField() (int, bool) {
	n, ok := d.int()
	return int(n), ok && int64(int(n)) == n
}

// bool reads true or false.
func (d *strictJSON) bool() (v, ok bool) {
	d.skip()
	rest := d.p[d.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		d.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		d.i += 5
		return false, true
	}
	return false, false
}

// pairs reads an array of pairings, appending them to buf.
func (d *strictJSON) pairs(buf []tournaments.Pairing) ([]tournaments.Pairing, bool) {
	if !d.byte('[') {
		return nil, false
	}
	if buf == nil {
		buf = []tournaments.Pairing{} // encoding/json: [] is an empty slice, not nil
	}
	if d.byte(']') {
		return buf, true
	}
	for {
		var pr tournaments.Pairing
		var seen [3]bool
		ok := d.object(func(key []byte) bool {
			k := -1
			switch string(key) {
			case "Black":
				k = 0
			case "White":
				k = 1
			case "Nigiri":
				k = 2
			}
			if k < 0 || seen[k] {
				return false
			}
			seen[k] = true
			if k == 2 {
				v, ok := d.bool()
				pr.Nigiri = v
				return ok
			}
			n, ok := d.intField()
			if k == 0 {
				pr.Black = n
			} else {
				pr.White = n
			}
			return ok
		})
		if !ok {
			return nil, false
		}
		buf = append(buf, pr)
		if d.byte(']') {
			return buf, true
		}
		if !d.byte(',') {
			return nil, false
		}
	}
}

// rank is registry.ParseRank of a raw string value (payload.quoted),
// remembered by its text: the log repeats a few dozen ranks a million
// times, and ParseRank narrows full-width characters first (a transform
// per call).
func (f *facts) rank(v []byte) (registry.Rank, error) {
	t, plain := plainText(v)
	if plain {
		if r, ok := f.ranks[string(t)]; ok { // no copy for a lookup
			return r.rank, r.err
		}
	}
	r, err := registry.ParseRank(text(v))
	if plain && len(f.ranks) < 256 {
		if f.ranks == nil {
			f.ranks = map[string]parsedRank{}
		}
		f.ranks[string(t)] = parsedRank{r, err}
	}
	return r, err
}

// province is the index of a province's agency (prefixOfProvince) from a
// raw string value, found without copying its text.
func (f *facts) province(v []byte) uint8 {
	if t, ok := plainText(v); ok {
		return f.provinceIdx[string(t)]
	}
	return f.prefixOfProvince(text(v))
}

// parsedRank is a remembered registry.ParseRank.
type parsedRank struct {
	rank registry.Rank
	err  error
}
