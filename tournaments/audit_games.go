package tournaments

import (
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
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

// MoveDigest is the digest of one recorded game's move sequence.
type MoveDigest struct {
	Tournament   int64
	Round, Board int
	Moves        int      // moves in the main line
	Digest       [32]byte // SHA-256 of the moves, colour and point, in order
}

// RecordDigests returns, for every game of the given tournaments that has
// an SGF record, the digest of its move sequence (the headers, names and
// comments left out, so that two games with the same moves match whatever
// their headers say), in one query.
func RecordDigests(ctx context.Context, q ledger.Querier, ids []int64) ([]MoveDigest, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, `SELECT tournament_id, round, board, record FROM tournament_games
		WHERE tournament_id = ANY($1) AND record <> ''`, ids)
	if err != nil {
		return nil, fmt.Errorf("game records: %w", err)
	}
	var (
		out    []MoveDigest
		d      MoveDigest
		record []byte
		buf    []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&d.Tournament, &d.Round, &d.Board, &record}, func() error {
		d.Moves, buf = appendMoves(buf[:0], record)
		d.Digest = sha256.Sum256(buf)
		out = append(out, d)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("game records: %w", err)
	}
	return out, nil
}

// MovesDigest reads the moves of an SGF record (each node's B[..] or W[..]
// right after its ';') and returns how many there are and the SHA-256 of
// their sequence.
func MovesDigest(sgf []byte) (int, [32]byte) {
	n, buf := appendMoves(nil, sgf)
	return n, sha256.Sum256(buf)
}

// appendMoves appends to buf each move of sgf as its colour, its point and
// a ';', and returns how many moves there were.
func appendMoves(buf, sgf []byte) (int, []byte) {
	n := 0
	space := func(i int) int {
		for i < len(sgf) && (sgf[i] == ' ' || sgf[i] == '\n' || sgf[i] == '\r' || sgf[i] == '\t') {
			i++
		}
		return i
	}
	inValue := false
	for i := 0; i < len(sgf); i++ {
		c := sgf[i]
		if inValue {
			switch c {
			case '\\':
				i++
			case ']':
				inValue = false
			}
			continue
		}
		switch c {
		case '[':
			inValue = true
			continue
		case ';':
		default:
			continue
		}
		j := space(i + 1)
		if j >= len(sgf) || (sgf[j] != 'B' && sgf[j] != 'W') {
			continue
		}
		colour := sgf[j]
		k := space(j + 1)
		if k >= len(sgf) || sgf[k] != '[' {
			continue
		}
		end := k + 1
		for end < len(sgf) && sgf[end] != ']' {
			end++
		}
		if end >= len(sgf) {
			break
		}
		buf = append(buf, colour)
		buf = append(buf, sgf[k+1:end]...)
		buf = append(buf, ';')
		n++
		i = end
	}
	return n, buf
}
