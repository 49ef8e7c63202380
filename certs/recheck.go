package certs

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// ReviewEvidenceFailed is why a certificate is flagged (or an open
// application withdrawn) when the results of the event it rests on changed
// and a re-check of its evidence against the event's published rules, or
// the national list, no longer holds.
var ReviewEvidenceFailed = ledger.NewReason(ledger.Precondition, "REVIEW_EVIDENCE_FAILED",
	"赛事 {event} 的成绩或认可已变更（{reason}）：复核后该申请所依据的成绩已达不到规则。",
	"event {event} changed ({reason}): on re-checking, the result the application rests on no longer meets the rules.")

// RecheckEventTx re-checks, in the caller's transaction, every application
// resting on event (tournament, 6 and 7 dan; open or issued) after its
// results or its listing changed for reason: one whose evidence no longer
// holds is withdrawn if open, its certificate flagged for staff if issued
// (as a withdrawn appraisal's is). Certificates already flagged are left as
// they are. It returns how many it withdrew or flagged.
func (s *Service) RecheckEventTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, event int64, reason string) (int, error) {
	rows, err := tx.Query(ctx, `SELECT a.id FROM applications a WHERE a.event_id = $1 AND (a.status IN ('applied', 'on_notice')
		OR a.status = 'issued' AND EXISTS (SELECT 1 FROM certificates c WHERE c.application_id = a.id AND c.status = 'valid' AND c.review = ''))
		ORDER BY a.id`, event)
	if err != nil {
		return 0, ledger.PgErr(err, "applications resting on the event")
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return 0, ledger.PgErr(err, "applications resting on the event")
	}
	params := map[string]string{"event": strconv.FormatInt(event, 10), "reason": reason}
	n := 0
	for _, id := range ids {
		c, err := s.RecheckEvidence(ctx, tx, id)
		if err != nil {
			return n, err
		}
		if c.Holds {
			continue
		}
		done, _, err := s.withdrawBasis(ctx, tx, now, actor, id, ReviewEvidenceFailed.Code(), params)
		if err != nil {
			return n, err
		}
		if done != BasisClosed {
			n++
		}
	}
	return n, nil
}
