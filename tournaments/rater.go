package tournaments

import (
	"context"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// Rater rates a finished event's games (FinishedRatingGames) for the
// ratings of its players; the ratings book implements it, wired at the
// entry point (internal/eventratings), so tournaments does not import it.
//
// It runs inside the finishing transaction, not after it: finishing an
// event and the ratings it moves are one change, one set of events in the
// log, and there is never a finished event left unrated by a crash between
// two transactions. The cost is small (one event's players) and the book
// serialises rating updates with a transaction lock; a refusal of the
// rater fails the finish, which may then be retried.
type Rater interface {
	RateEventTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, tournament int64) error
}

// Option configures the service.
type Option func(*Service)

// WithRater rates every event as it finishes.
func WithRater(r Rater) Option { return func(s *Service) { s.rater = r } }
