package audit

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/ratings/book"
)

// Ratings is what the rating indicator needs of the ratings book
// (*book.Book has it): each certificate's rating evidence, flagged when the
// certified rank lies more than margin grades outside the estimate.
type Ratings interface {
	CertificateEvidence(ctx context.Context, cs []book.Certificate, margin float64) ([]book.Evidence, error)
}

// RatingDefinition is the rating indicator, in the scorecard when the audit
// has the ratings. Its value is not reproducible from the snapshot's
// event-log position (ratings are recomputed), so VerifyYear skips it.
func RatingDefinition() Definition {
	return Definition{KeyRankOutsideRating, Overissue, seedOverissue, "证书段位超出持证人等级分估计区间的段位证书比例",
		"share of dan certificates whose rank lies outside the holder's rating estimate", "share",
		Threshold{Relative: true, Pooled: true, Amber: 2, Red: 3, RedZ: 4, MinCount: 5, Floor: 0.05, AbsAmberCount: 3, AbsRedCount: 8}}
}

// rating is the rating source and margin of one computation (nil: none).
type rating struct {
	src    Ratings
	margin float64
}

func (s *Service) rating() rating { return rating{s.cfg.Ratings, s.cfg.RatingMargin} }

// rate measures the rating indicator over the dan certificates of the
// period, one call to the book for all agencies.
func (f *facts) rate(ctx context.Context, rt rating) error {
	if rt.src == nil || !f.needs(KeyRankOutsideRating) {
		return nil
	}
	var cs []book.Certificate
	var its []Item
	var issuers []string
	for _, agency := range f.agencies {
		for _, c := range f.dan[agency] {
			d, _ := time.Parse(time.DateOnly, c.issueDate)
			cs = append(cs, book.Certificate{Number: c.number, PlayerID: c.player, Rank: c.rank, IssueDate: d})
			its = append(its, c.item)
			issuers = append(issuers, agency)
		}
		f.m(agency, KeyRankOutsideRating).base = int64(len(f.dan[agency]))
	}
	if len(cs) == 0 {
		return nil
	}
	ev, err := rt.src.CertificateEvidence(ctx, cs, rt.margin)
	if err != nil {
		return fmt.Errorf("rating evidence of %d certificates: %w", len(cs), err)
	}
	for i, e := range ev {
		if i >= len(its) || !e.Flag {
			continue
		}
		it := its[i]
		it.Note = strconv.FormatFloat(e.Off, 'f', 1, 64) + " grades outside the rating estimate"
		f.count(issuers[i], KeyRankOutsideRating, it)
	}
	return nil
}
