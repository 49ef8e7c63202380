package tournaments

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/rules"
)

// GameFacts is one game as the table holds it, for the audit's reading of
// imported events (whose import logs no per-game rows).
type GameFacts struct {
	Tournament                   int64
	Round, Board                 int
	Black, White                 int // participant numbers
	Result                       string
	BlackWarnings, WhiteWarnings int
	Flagged                      bool
}

// GamesOf returns the games of the given tournaments, in one query. The
// audit calls it for imported events only: an import writes its games once,
// in the transaction that logs tournament.imported, without a per-game row
// in the log, and nothing but RecordResult changes such a row afterwards
// (which logs a tournament.result event the audit reads from the log). So
// for an event imported before an audit's event-log position the rows read
// now are the rows at that position, unless a result of one of its games
// was recorded after the position: that change is itself logged, and a
// recomputation of the snapshot then reports the difference.
func GamesOf(ctx context.Context, q ledger.Querier, ids []int64) ([]GameFacts, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, `SELECT tournament_id, round, board, black, white, result, black_warnings, white_warnings, flagged
		FROM tournament_games WHERE tournament_id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("games of %d tournaments: %w", len(ids), err)
	}
	var (
		out []GameFacts
		g   GameFacts
	)
	_, err = pgx.ForEachRow(rows, []any{&g.Tournament, &g.Round, &g.Board, &g.Black, &g.White, &g.Result, &g.BlackWarnings, &g.WhiteWarnings, &g.Flagged}, func() error {
		out = append(out, g)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("games of %d tournaments: %w", len(ids), err)
	}
	return out, nil
}

// MovesDigest reads the moves of an SGF record's main line (each node's
// B[..] or W[..], wherever it stands among the node's properties) and
// returns how many there are and the SHA-256 of their sequence.
func MovesDigest(sgf []byte) (int, [32]byte) {
	n, buf := appendMoves(nil, sgf)
	return n, sha256.Sum256(buf)
}

// appendMoves appends to buf each move of sgf's main line as its colour,
// its point and a ';', and returns how many moves there were. The main
// line is everything up to the first ')' outside a value: a game tree's
// first variation comes before its siblings, and each ends with a ')', so
// the first one closed ends the main line. A scan, not a parse: the audit
// reads thousands of records and needs only this.
func appendMoves(buf, sgf []byte) (int, []byte) {
	// as the rules engine reads a record: text before the first game tree
	// is skipped, and a record that is not UTF-8 is read as GB18030 (or
	// another double-byte charset), whose second bytes may be ']' or '\\'
	start := 0
	if bytes.HasPrefix(sgf, []byte("\xef\xbb\xbf")) {
		start = 3
	}
	for start < len(sgf) && (sgf[start] == ' ' || sgf[start] == '\t' || sgf[start] == '\n' || sgf[start] == '\r' || sgf[start] == '\v' || sgf[start] == '\f') {
		start++
	}
	if start < len(sgf) && sgf[start] != '(' {
		i := bytes.Index(sgf[start:], []byte("(;"))
		if i < 0 {
			return 0, buf
		}
		start += i
	}
	dbcs := rules.DoubleByteRecord(sgf)
	n := 0
	var (
		ident   [8]byte // the property being read (upper-case letters only, as FF[3] allows lower-case ones)
		identN  int
		prop    byte // 'B' or 'W' while reading that property's values, else 0
		first   bool // the next value is the property's first
		started bool // inside the first game tree
	)
	for i := start; i < len(sgf); i++ {
		c := sgf[i]
		switch {
		case c == '[':
			if identN > 0 {
				prop, first = 0, true
				if identN == 1 && (ident[0] == 'B' || ident[0] == 'W') {
					prop = ident[0]
				}
				identN = 0
			}
			end := i + 1
			for end < len(sgf) && sgf[end] != ']' {
				if sgf[end] == '\\' || (dbcs && sgf[end] >= 0x81 && sgf[end] != 0xFF) {
					end++
				}
				end++
			}
			if end >= len(sgf) {
				return n, buf // cut short inside a value
			}
			if prop != 0 && first {
				buf = append(buf, prop)
				buf = append(buf, sgf[i+1:end]...)
				buf = append(buf, ';')
				n++
			}
			first = false
			i = end
		case c == '(':
			started = true
		case c == ')':
			if started {
				return n, buf
			}
		case c == ';':
			identN, prop = 0, 0
		case c >= 'A' && c <= 'Z':
			if identN < len(ident) {
				ident[identN] = c
			}
			identN++
		}
	}
	return n, buf
}

// RecordMoves is one recorded game's main line as points, for the audit's
// comparison of records up to the board's symmetries and the colours.
type RecordMoves struct {
	Tournament   int64
	Round, Board int
	Size         int     // the board's size (SZ, 19 when absent)
	Points       []int16 // each move's point, y·Size + x; -1 a pass (colours left out)
}

// RecordPoints returns, for every game of the given tournaments that has an
// SGF record, its main line's moves as points, in one query.
func RecordPoints(ctx context.Context, q ledger.Querier, ids []int64) ([]RecordMoves, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, `SELECT tournament_id, round, board, record FROM tournament_games
		WHERE tournament_id = ANY($1) AND record <> ''`, ids)
	if err != nil {
		return nil, fmt.Errorf("game records: %w", err)
	}
	var (
		out    []RecordMoves
		d      RecordMoves
		record []byte
		buf    []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&d.Tournament, &d.Round, &d.Board, &record}, func() error {
		x := d
		x.Size, x.Points, buf = MovePoints(buf[:0], record)
		out = append(out, x)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("game records: %w", err)
	}
	return out, nil
}

// MovePoints reads the board size and the moves of an SGF record's main
// line as points (y·size + x; -1 for a pass or a point off the board),
// colours left out; buf is scratch space, returned for reuse.
func MovePoints(buf, sgf []byte) (int, []int16, []byte) {
	size := 19
	if i := bytes.Index(sgf, []byte("SZ[")); i >= 0 {
		n := 0
		for j := i + 3; j < len(sgf) && sgf[j] >= '0' && sgf[j] <= '9' && n < 100; j++ {
			n = n*10 + int(sgf[j]-'0')
		}
		if n >= 2 && n <= 52 {
			size = n
		}
	}
	_, buf = appendMoves(buf, sgf)
	var pts []int16
	for i := 0; i < len(buf); {
		end := bytes.IndexByte(buf[i:], ';')
		if end < 0 {
			break
		}
		v := buf[i+1 : i+end] // after the colour
		p := int16(-1)
		if len(v) == 2 {
			x, y := coord(v[0]), coord(v[1])
			if x >= 0 && y >= 0 && x < size && y < size {
				p = int16(y*size + x)
			}
		}
		pts = append(pts, p)
		i += end + 1
	}
	return size, pts, buf
}

// coord is an SGF coordinate letter's number (a–z 0–25, A–Z 26–51), -1 otherwise.
func coord(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 26
	}
	return -1
}
