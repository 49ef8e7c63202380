package book

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// Certificate is what the evidence needs of a certificate; the audit reads
// certificates from certs and passes them in, so the book does not depend
// on certification.
type Certificate struct {
	Number    string
	PlayerID  int64
	Rank      registry.Rank
	IssueDate time.Time
}

// Evidence is the rating evidence on one certificate.
type Evidence struct {
	Certificate
	// AtIssue is the holder's rating after his last rated event on or
	// before the issue date; YearLater after his last event up to a year
	// after it, when he played one after the issue. Nil when none.
	AtIssue, YearLater *Point
	// Off is how many grades the certified rank lies outside the 95 %
	// interval of the estimate (0 inside), the larger of the two dates.
	Off float64
	// Flag: Off is more than the margin the audit set.
	Flag bool
	// Behind are the rated events up to a year after the issue, oldest
	// first: the games behind the estimates (PlayerGames reads them).
	Behind []Point
}

// CertificateEvidence returns, for each certificate, its holder's rating
// and rank estimate at issue and a year later, and flags it when the
// certified rank lies more than margin grades outside the estimate's 95 %
// interval (rating ± 1.96 sd). Certificates of unrated holders come back
// with no points and no flag. For the audit (滥发证书/弄虚作假 evidence).
func (b *Book) CertificateEvidence(ctx context.Context, cs []Certificate, margin float64) ([]Evidence, error) {
	histories := map[int64][]Point{}
	out := make([]Evidence, 0, len(cs))
	for _, c := range cs {
		hs, ok := histories[c.PlayerID]
		if !ok {
			r, err := b.PlayerRating(ctx, c.PlayerID)
			if err != nil && !errors.Is(err, ledger.ErrNotFound) {
				return nil, err
			}
			hs = r.History
			histories[c.PlayerID] = hs
		}
		out = append(out, evidenceOf(c, hs, margin))
	}
	return out, nil
}

// evidenceOf reads one certificate's evidence from its holder's history
// (oldest first by event date).
func evidenceOf(c Certificate, hs []Point, margin float64) Evidence {
	ev := Evidence{Certificate: c}
	issued := dateOnly(c.IssueDate)
	later := issued.AddDate(1, 0, 0)
	for i := range hs {
		h := &hs[i]
		switch {
		case !h.Date.After(issued):
			if ev.AtIssue == nil || !h.Date.Before(ev.AtIssue.Date) {
				ev.AtIssue = h
			}
		case !h.Date.After(later):
			if ev.YearLater == nil || !h.Date.Before(ev.YearLater.Date) {
				ev.YearLater = h
			}
		default:
			continue
		}
		ev.Behind = append(ev.Behind, *h)
	}
	slices.SortStableFunc(ev.Behind, func(a, b Point) int { return a.Date.Compare(b.Date) })
	g := ratings.GradeGoR(int(c.Rank))
	for _, p := range []*Point{ev.AtIssue, ev.YearLater} {
		if p != nil {
			ev.Off = max(ev.Off, gradesOutside(g, p.Rating, p.SD))
		}
	}
	ev.Flag = ev.Off > margin
	return ev
}

// gradesOutside is how many grades (100 GoR) rank r lies outside
// mean ± 1.96 sd; 0 inside.
func gradesOutside(r, mean, sd float64) float64 {
	lo, hi := mean-1.96*sd, mean+1.96*sd
	return math.Max(0, math.Max(r-hi, lo-r)) / 100
}

func dateOnly(t time.Time) time.Time {
	t = t.In(ledger.ChinaTime)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// PlayerGames returns a registered player's rated games in the given
// events (the games behind an estimate), in rating order.
func (b *Book) PlayerGames(ctx context.Context, playerID int64, events []int64) ([]tournaments.RatingGame, error) {
	var out []tournaments.RatingGame
	for _, id := range events {
		gs, err := tournaments.FinishedRatingGames(ctx, b.store.DB(), id)
		if err != nil {
			return nil, err
		}
		for _, g := range gs {
			if g.Black.PlayerID == playerID || g.White.PlayerID == playerID {
				out = append(out, g)
			}
		}
	}
	return out, nil
}
