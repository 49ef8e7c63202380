package certs

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
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

// Why a certificate is flagged for review (certificates.review_code and
// review_params; review keeps the English wording, all there is for flags
// from before codes). Declared as a reason so that the catalogue and the
// checks of both languages hold it; it is not returned as a refusal.
var ReviewBasisVoided = ledger.NewReason(ledger.Precondition, "REVIEW_BASIS_VOIDED",
	"比赛 {event} 有成绩被取消（{reason}）：现为 {wins} 胜，达标须 {threshold} 胜。",
	"tournament {event}: a result was voided ({reason}); {wins} wins, threshold {threshold}")

// VoidedBasis says why an application's basis no longer holds: a result
// of tournament Event was voided (Reason, as given for the void), which
// leaves the player Wins wins, below the Threshold of his group.
type VoidedBasis struct {
	Event     int64
	Reason    string
	Wins      int
	Threshold int
}

// params are the basis's parameters of ReviewBasisVoided.
func (b VoidedBasis) params() map[string]string {
	return map[string]string{"event": strconv.FormatInt(b.Event, 10), "reason": b.Reason,
		"wins": strconv.Itoa(b.Wins), "threshold": strconv.Itoa(b.Threshold)}
}

// ReviewMessage words why a certificate is flagged for review, from its
// stored code and parameters, in the language; "" for an unknown code.
func ReviewMessage(code string, params map[string]string, l ledger.Lang) string {
	var r *ledger.Reason
	switch code {
	case ReviewBasisVoided.Code():
		r = ReviewBasisVoided
	case ReviewAppraisalWithdrawn.Code():
		r = ReviewAppraisalWithdrawn
	case ReviewEvidenceFailed.Code():
		r = ReviewEvidenceFailed
	default:
		return ""
	}
	ps := make([]ledger.Param, 0, len(params))
	for _, name := range slices.Sorted(maps.Keys(params)) {
		ps = append(ps, ledger.Value(name, params[name]))
	}
	return r.With(ps...).Message(l)
}

// WithdrawBasisTx takes back an application whose basis no longer holds —
// a tournament result voided for an arranged game (2002 rules, art. 23).
// One still open is rejected with the reason (a notice it is on fails); an
// issued certificate is not revoked here but flagged for staff, who revoke
// it as they revoke any other. It runs in the caller's transaction.
func (s *Service) WithdrawBasisTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, id int64, why VoidedBasis) (string, error) {
	done, _, err := s.withdrawBasis(ctx, tx, now, actor, id, ReviewBasisVoided.Code(), why.params())
	return done, err
}

// withdrawBasis takes back application id whose basis fell away, for the
// review code and its parameters (ReviewMessage words them): one still
// open is rejected, an issued certificate flagged. It returns what it did
// and the numbers of the certificates flagged.
func (s *Service) withdrawBasis(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, id int64, code string, params map[string]string) (string, []string, error) {
	app, err := applicationTx(ctx, tx, id)
	if err != nil {
		return "", nil, err
	}
	reason := ReviewMessage(code, params, ledger.English) // the text columns' wording
	switch app.Status {
	case AppApplied, AppOnNotice:
		if err := closeApplication(ctx, tx, now, actor, app, reason, reason); err != nil {
			return "", nil, err
		}
		return BasisWithdrawn, nil, ledger.Append(ctx, tx, now, actor, "application", appID(id),
			ApplicationWithdrawnPayload{Reason: reason, ReasonCode: code, ReasonParams: params, Was: app.Status})
	case AppIssued:
		// lock the application's certificates first, then flag in a
		// statement of its own: its fresh snapshot sees a reissue that
		// committed while the lock was awaited (one UPDATE would find only
		// the old, reissued row and flag nothing)
		if _, err := tx.Exec(ctx, `SELECT id FROM certificates WHERE application_id = $1 FOR UPDATE`, id); err != nil {
			return "", nil, ledger.PgErr(err, "lock the application's certificates")
		}
		rows, err := tx.Query(ctx, `UPDATE certificates SET review = $2, review_code = $3, review_params = $4
			WHERE application_id = $1 AND status = 'valid' RETURNING coalesce(number, '')`, id, reason, code, params)
		if err != nil {
			return "", nil, ledger.PgErr(err, "flag certificate for review")
		}
		numbers, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return "", nil, ledger.PgErr(err, "flag certificate for review")
		}
		if len(numbers) == 0 {
			return BasisClosed, nil, nil // revoked meanwhile
		}
		// the event names the certificate flagged: after a reissue, the new number
		for _, n := range numbers {
			if err := ledger.Append(ctx, tx, now, actor, "certificate", n,
				CertificateReviewRequestedPayload{Application: id, Reason: reason, ReasonCode: code, ReasonParams: params}); err != nil {
				return "", nil, err
			}
		}
		return BasisFlagged, numbers, nil
	}
	return BasisClosed, nil, nil
}

// Review is a valid certificate flagged because its basis was voided.
type Review struct {
	Number        string
	PlayerID      int64
	PlayerName    string
	Rank          registry.Rank
	IssuingPrefix string
	// Code and Params say why its basis fell away (ReasonText words them);
	// Reason is the English wording, all there is for flags from before
	// codes.
	Code   string
	Params map[string]string
	Reason string
}

// ReasonText is why the certificate is flagged, in the language: worded
// from its code, or as stored for a flag from before codes.
func (r Review) ReasonText(l ledger.Lang) string {
	if t := ReviewMessage(r.Code, r.Params, l); t != "" {
		return t
	}
	return r.Reason
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
	rows, err := s.db.Query(ctx, `SELECT coalesce(number, ''), player_id, holder_name, rank, issuing_prefix, review_code, review_params, review
		FROM certificates WHERE review <> '' AND status = 'valid' ORDER BY id LIMIT $1`, MaxReviews)
	if err != nil {
		return nil, fmt.Errorf("certificates for review: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Review, error) {
		var v Review
		err := r.Scan(&v.Number, &v.PlayerID, &v.PlayerName, &v.Rank, &v.IssuingPrefix, &v.Code, &v.Params, &v.Reason)
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
		if _, err := tx.Exec(ctx, `UPDATE certificates SET review = '', review_code = '', review_params = '{}' WHERE id = $1`, c.ID); err != nil {
			return Certificate{}, ledger.PgErr(err, "keep certificate")
		}
		return c, ledger.Append(ctx, tx, now, actor, "certificate", c.Number,
			CertificateReviewKeptPayload{FlaggedFor: flagged, Note: note})
	})
}
