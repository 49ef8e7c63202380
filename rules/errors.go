package rules

import (
	"fmt"
	"strconv"
)

// The engine's errors are codes with the facts of the problem (an offset,
// a property, the value refused), never a sentence meant for a person: the
// engine knows no language, and its callers (the referee) word each code
// per language. Error() is English for logs and the command line.

// maxQuote bounds a value an error keeps from the record: records may be a
// megabyte, and errors are shown and logged.
const maxQuote = 40

// quote is at most maxQuote bytes of s, with "…" when cut.
func quote(s string) string {
	if len(s) <= maxQuote {
		return s
	}
	return s[:maxQuote] + "…"
}

// SyntaxCode names what the SGF parser expected where it stopped.
type SyntaxCode string

// The syntax errors of an SGF collection.
const (
	SyntaxOpenTree       SyntaxCode = "open_tree"       // '(' to open a game tree
	SyntaxFirstNode      SyntaxCode = "first_node"      // ';' to start a game tree's first node
	SyntaxCloseTree      SyntaxCode = "close_tree"      // ')' to close a game tree: the input ended
	SyntaxAfterVariation SyntaxCode = "after_variation" // '(' or ')' after a variation, not ';'
	SyntaxNodeOrTree     SyntaxCode = "node_or_tree"    // ';', '(' or ')'
	SyntaxPropertyID     SyntaxCode = "property_id"     // a property identifier in capital letters
	SyntaxPropertyValue  SyntaxCode = "property_value"  // '[' after a property identifier
	SyntaxCloseValue     SyntaxCode = "close_value"     // ']' to close a value: the input ended
	SyntaxNesting        SyntaxCode = "nesting"         // variations nested deeper than MaxNesting
)

// SyntaxError is malformed SGF: where (a byte offset into the input), what
// was expected there, and what was found.
type SyntaxError struct {
	Offset int
	Code   SyntaxCode
	// Found is the byte at Offset, "" at the end of the input.
	Found string
	// Property is the identifier whose value is missing (SyntaxPropertyValue).
	Property string
}

func (e *SyntaxError) Error() string {
	found := "end of input"
	if e.Found != "" {
		found = strconv.Quote(e.Found)
	}
	var msg string
	switch e.Code {
	case SyntaxOpenTree:
		msg = "expected '(' to open a game tree, found " + found
	case SyntaxFirstNode:
		msg = "expected ';' to start the first node of a game tree, found " + found
	case SyntaxCloseTree:
		msg = "expected ')' to close the game tree, found " + found
	case SyntaxAfterVariation:
		msg = "expected '(' or ')' after a variation, found " + found
	case SyntaxNodeOrTree:
		msg = "expected ';', '(' or ')', found " + found
	case SyntaxPropertyID:
		msg = "expected a property identifier in capital letters, found " + found
	case SyntaxPropertyValue:
		msg = "expected '[' after property " + e.Property + ", found " + found
	case SyntaxCloseValue:
		msg = "expected ']' to close the value opened here, found " + found
	case SyntaxNesting:
		msg = fmt.Sprintf("variations nested deeper than %d", MaxNesting)
	default:
		msg = string(e.Code)
	}
	return fmt.Sprintf("sgf: byte %d: %s", e.Offset, msg)
}

// RecordCode names what a game's properties get wrong.
type RecordCode string

// The problems of a game's properties.
const (
	RecordBoardSize      RecordCode = "board_size"      // SZ is not a size from 2 to MaxSize
	RecordKomi           RecordCode = "komi"            // KM is not a number
	RecordHandicap       RecordCode = "handicap"        // HA is not a number of stones (0–81)
	RecordPoint          RecordCode = "point"           // a point of a move or a point list is not two letters
	RecordCharset        RecordCode = "charset"         // CA names no charset known
	RecordHandicapPoints RecordCode = "handicap_points" // the board size has no standard handicap points
	RecordHandicapStones RecordCode = "handicap_stones" // the handicap cannot be placed on standard points (2–9)
)

// RecordError is a property of a game the engine cannot play from.
type RecordError struct {
	Code     RecordCode
	Property string // SZ, KM, HA, CA, or the property of the point (B, W, AB, TB …)
	Value    string // the value refused, at most 40 bytes
	Size     int    // the board's size (RecordHandicapPoints, RecordHandicapStones)
	Handicap int    // the stones to place (RecordHandicapPoints, RecordHandicapStones)
}

func (e *RecordError) Error() string {
	switch e.Code {
	case RecordBoardSize:
		return fmt.Sprintf("SZ[%s]: want a board size from 2 to %d", e.Value, MaxSize)
	case RecordKomi:
		return fmt.Sprintf("KM[%s]: want a number such as 7.5", e.Value)
	case RecordHandicap:
		return fmt.Sprintf("HA[%s]: want a number of handicap stones", e.Value)
	case RecordPoint:
		return fmt.Sprintf("%s: point %q: want two letters such as dd", e.Property, e.Value)
	case RecordCharset:
		return fmt.Sprintf("unknown charset CA[%s]", e.Value)
	case RecordHandicapPoints:
		return fmt.Sprintf("no standard handicap points on %d×%d: the record must place the stones", e.Size, e.Size)
	case RecordHandicapStones:
		return fmt.Sprintf("handicap %d: want 2 to 9 stones", e.Handicap)
	}
	return string(e.Code)
}

// PointError is a point typed by a person (a dead stone) that is not one:
// unreadable, or off the board.
type PointError struct {
	Value    string // as typed, at most 40 bytes
	OffBoard bool   // readable, but off a board of Size
	Size     int
}

func (e *PointError) Error() string {
	if e.OffBoard {
		return fmt.Sprintf("point %s is off a %d×%d board", e.Value, e.Size, e.Size)
	}
	return fmt.Sprintf("point %q: want GTP coordinates such as D4 or Q16 (no letter I), or SGF letters such as dd", e.Value)
}

// GameError is a problem of one game of a collection.
type GameError struct {
	Game int // from 1
	Err  error
}

func (e *GameError) Error() string { return fmt.Sprintf("game %d: %v", e.Game, e.Err) }
func (e *GameError) Unwrap() error { return e.Err }

// ofProperty names the property of a point a RecordError refuses (the
// point parsers do not know it); other errors pass as they are.
func ofProperty(err error, id string) error {
	if re, ok := err.(*RecordError); ok && re.Property == "" {
		re.Property = id
	}
	return err
}
