package certs

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// What WithdrawBasisTx did with an application whose basis fell away.
const (
	BasisWithdrawn = "withdrawn" // it waited for approval or was on notice: rejected
	BasisFlagged   = "flagged"   // its certificate was issued: flagged for staff to revoke
	BasisClosed    = "closed"    // it was already rejected or failed: nothing to do
)

// WithdrawBasisTx takes back an application whose basis no longer holds —
// a tournament result voided for an arranged game (2002 rules, art. 23).
// One still open is rejected with the reason (a notice it is on fails); an
// issued certificate is not revoked here but flagged for staff, who revoke
// it as they revoke any other. It runs in the caller's transaction.
func (s *Service) WithdrawBasisTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, id int64, reason string) (string, error) {
	app, err := applicationTx(ctx, tx, id)
	if err != nil {
		return "", err
	}
	switch app.Status {
	case AppApplied, AppOnNotice:
		if err := closeApplication(ctx, tx, now, actor, app, reason, reason); err != nil {
			return "", err
		}
		return BasisWithdrawn, ledger.Append(ctx, tx, now, actor, "application", appID(id),
			ApplicationWithdrawnPayload{Reason: reason, Was: app.Status})
	case AppIssued:
		// lock the application's certificates first, then flag in a
		// statement of its own: its fresh snapshot sees a reissue that
		// committed while the lock was awaited (one UPDATE would find only
		// the old, reissued row and flag nothing)
		if _, err := tx.Exec(ctx, `SELECT id FROM certificates WHERE application_id = $1 FOR UPDATE`, id); err != nil {
			return "", ledger.PgErr(err, "lock the application's certificates")
		}
		rows, err := tx.Query(ctx, `UPDATE certificates SET review = $2 WHERE application_id = $1 AND status = 'valid' RETURNING coalesce(number, '')`, id, reason)
		if err != nil {
			return "", ledger.PgErr(err, "flag certificate for review")
		}
		numbers, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return "", ledger.PgErr(err, "flag certificate for review")
		}
		if len(numbers) == 0 {
			return BasisClosed, nil // revoked meanwhile
		}
		// the event names the certificate flagged: after a reissue, the new number
		for _, n := range numbers {
			if err := ledger.Append(ctx, tx, now, actor, "certificate", n,
				CertificateReviewRequestedPayload{Application: id, Reason: reason}); err != nil {
				return "", err
			}
		}
		return BasisFlagged, nil
	}
	return BasisClosed, nil
}

// Review is a valid certificate flagged because its basis was voided.
type Review struct {
	Number        string
	PlayerID      int64
	PlayerName    string
	Rank          registry.Rank
	IssuingPrefix string
	Reason        string // why its basis fell away
}

// MaxReviews bounds the list of flagged certificates: a void flags the
// few certificates of one event; a list longer than this is a backlog to
// work down, oldest first.
const MaxReviews = 1000

// CertificatesForReview lists the certificates flagged for staff to revoke
// (or keep), oldest first, at most MaxReviews.
func (s *Service) CertificatesForReview(ctx context.Context, actor ledger.Actor) ([]Review, error) {
	if err := s.requireStaff(ctx, actor, access.Revoke); err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT coalesce(number, ''), player_id, holder_name, rank, issuing_prefix, review
		FROM certificates WHERE review <> '' AND status = 'valid' ORDER BY id LIMIT $1`, MaxReviews)
	if err != nil {
		return nil, fmt.Errorf("certificates for review: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Review, error) {
		var v Review
		err := r.Scan(&v.Number, &v.PlayerID, &v.PlayerName, &v.Rank, &v.IssuingPrefix, &v.Reason)
		return v, err
	})
}

// KeepCertificate is staff's decision that a flagged certificate stands
// although the result it rested on was voided (the holder qualified
// otherwise, say): the flag is cleared, with the note, in the event log.
// Revoking one is Revoke, as for any other certificate.
func (s *Service) KeepCertificate(ctx context.Context, actor ledger.Actor, key, number, note string) (Certificate, error) {
	if err := s.requireStaff(ctx, actor, access.Revoke); err != nil {
		return Certificate{}, err
	}
	n, err := parseNumberField(number)
	if err != nil {
		return Certificate{}, err
	}
	if note, err = ledger.OptionalText("note", note, maxReason); err != nil {
		return Certificate{}, err
	}
	if note == "" {
		return Certificate{}, ReasonReasonRequired.FieldWith("note", ledger.Words("why", "保留证书须写明理由。", "say why the certificate is kept."))
	}
	return ledger.Mutate(ctx, s.store, actor, key, "KeepCertificate", []any{n.String(), note}, func(tx *ledger.Tx, now time.Time) (Certificate, error) {
		c, err := certTx(ctx, tx, n)
		if err != nil {
			return Certificate{}, err
		}
		var flagged string
		if err := tx.QueryRow(ctx, `SELECT review FROM certificates WHERE id = $1`, c.ID).Scan(&flagged); err != nil {
			return Certificate{}, ledger.PgErr(err, "read review flag")
		}
		if c.Status != CertValid {
			return Certificate{}, ReasonCertificateNotValid.New("number", c.Number, "status", string(c.Status))
		}
		if flagged == "" {
			return Certificate{}, ReasonNotUnderReview.New("number", c.Number)
		}
		if _, err := tx.Exec(ctx, `UPDATE certificates SET review = '' WHERE id = $1`, c.ID); err != nil {
			return Certificate{}, ledger.PgErr(err, "keep certificate")
		}
		return c, ledger.Append(ctx, tx, now, actor, "certificate", c.Number,
			CertificateReviewKeptPayload{FlaggedFor: flagged, Note: note})
	})
}
