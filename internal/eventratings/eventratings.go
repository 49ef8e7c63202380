// Package eventratings connects tournaments to the ratings book at the
// entry point: a finishing event is rated in its finishing transaction.
// Tournaments does not import the book, nor the book the finishing code.
package eventratings

import (
	"context"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
)

// Book rates finished events in the ratings book.
type Book struct{ Book *book.Book }

// RateEventTx rates the event's games in tx.
func (b Book) RateEventTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, tournament int64) error {
	_, err := b.Book.RateEventTx(ctx, tx, now, actor, tournament)
	return err
}

// CurrentRatingTx reads a player's current rating in q, for ordering team
// boards (tournaments.RatingReader).
func (b Book) CurrentRatingTx(ctx context.Context, q ledger.Querier, playerID int64) (float64, bool, error) {
	return b.Book.CurrentRating(ctx, q, playerID)
}
