package rules

import "fmt"

// Bounds on the work one record may ask for. A record is at most
// MaxRecordBytes, but a compressed point list such as AB[aa:ZZ] expands
// five bytes into 2,704 points, so the bytes alone do not bound memory or
// time. Real records have a few hundred nodes and a few hundred setup
// points; these caps are far above that and far below harm.
const (
	// MaxPropertyPoints is the most points one property may list: four
	// times the largest board's area (lists may repeat points).
	MaxPropertyPoints = 4 * MaxSize * MaxSize
	// MaxRecordPoints is the most points all point lists of a record may
	// expand to.
	MaxRecordPoints = 100_000
	// MaxNodes is the most nodes of a record, over all its games and variations.
	MaxNodes = 100_000
	// MaxVariations is the most game trees and variations of a record.
	MaxVariations = 10_000
	// MaxGames is the most games (top-level game trees) of a collection;
	// each is replayed and counted.
	MaxGames = 1_000
	// MaxPropertyValues is the most property values of a record.
	MaxPropertyValues = 200_000
)

// Limit names what a LimitError counts.
type Limit string

// What the caps count.
const (
	LimitPropertyPoints Limit = "points in one property"
	LimitRecordPoints   Limit = "points in the record"
	LimitNodes          Limit = "nodes"
	LimitVariations     Limit = "variations"
	LimitGames          Limit = "games"
	LimitValues         Limit = "property values"
	LimitDeadPoints     Limit = "dead stones"
)

// LimitError is a record that asks for more work than a cap allows.
type LimitError struct {
	What Limit
	Max  int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("sgf: the record has more than %d %s", e.Max, e.What)
}

// budget counts what one record has used of the caps.
type budget struct {
	points int
}

// take books n more points of one property against the record's cap.
func (b *budget) take(n int) error {
	if n > MaxPropertyPoints {
		return &LimitError{What: LimitPropertyPoints, Max: MaxPropertyPoints}
	}
	if b == nil {
		return nil
	}
	if b.points+n > MaxRecordPoints {
		return &LimitError{What: LimitRecordPoints, Max: MaxRecordPoints}
	}
	b.points += n
	return nil
}
