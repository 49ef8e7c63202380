package certs

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
)

// maxBulkRuling bounds the objections one bulk ruling names.
const maxBulkRuling = 500

// BulkRuling is what one ruling on many objections of a notice did.
type BulkRuling struct {
	NoticeID int64
	// Dismissed are the objections this ruling dismissed, those folded
	// into the named ones (or they into) included; those already ruled on
	// are left as they were.
	Dismissed []int64
	// CertificateNumber is set when the ruling left nothing open after the
	// period and the certificate was issued.
	CertificateNumber string
}

// RuleObjections dismisses many objections of one notice with one ruling
// (duplicates, abuse), and with each the objections of its fold, so a flood
// costs staff one decision rather than hundreds; past the period with nothing left open, the certificate is
// issued at once. Upholding stays one objection at a time (RuleObjection):
// one upheld objection fails the notice.
func (s *Service) RuleObjections(ctx context.Context, actor ledger.Actor, key string, notice int64, ids []int64, ruling string) (BulkRuling, error) {
	if err := s.requireStaff(ctx, actor, access.RuleObjection); err != nil {
		return BulkRuling{}, err
	}
	ruling, err := ledger.OptionalText("ruling", ruling, maxRuling)
	if err != nil {
		return BulkRuling{}, err
	}
	if ruling == "" {
		return BulkRuling{}, ReasonRulingRequired.OnField("ruling")
	}
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) == 0 || len(ids) > maxBulkRuling {
		return BulkRuling{}, ReasonNoObjectionsNamed.OnField("objection_ids", "max", strconv.Itoa(maxBulkRuling))
	}
	req := []any{notice, ids, ruling}
	return ledger.Mutate(ctx, s.store, actor, key, "RuleObjections", req, func(tx *ledger.Tx, now time.Time) (BulkRuling, error) {
		out := BulkRuling{NoticeID: notice, Dismissed: []int64{}}
		// lock order as RuleObjection: notice, objections, then issuance
		var ends time.Time
		var app int64
		if err := tx.QueryRow(ctx, `SELECT ends_at, application_id FROM notices WHERE id = $1 FOR UPDATE`, notice).Scan(&ends, &app); err != nil {
			return out, ledger.RowErr(err, fmt.Sprintf("notice %d", notice), ReasonNoSuchNotice.New("notice", noticeID(notice)))
		}
		// the named objections and every objection of their folds (one
		// ruling rules a fold)
		rows, err := tx.Query(ctx, `SELECT id, status FROM objections WHERE notice_id = $1 AND (id = ANY($2)
				OR coalesce(fold_of, id) IN (SELECT coalesce(fold_of, id) FROM objections WHERE notice_id = $1 AND id = ANY($2)))
			ORDER BY id FOR UPDATE`, notice, ids)
		if err != nil {
			return out, ledger.PgErr(err, "lock objections")
		}
		found := map[int64]ObjectionStatus{}
		var (
			id    int64
			st    ObjectionStatus
			order []int64
		)
		if _, err := pgx.ForEachRow(rows, []any{&id, &st}, func() error { found[id] = st; order = append(order, id); return nil }); err != nil {
			return out, ledger.PgErr(err, "lock objections")
		}
		for _, id := range ids {
			if _, ok := found[id]; !ok {
				return out, ReasonObjectionOfOtherNotice.New("notice", noticeID(notice), "objection", strconv.FormatInt(id, 10))
			}
		}
		for _, id := range order {
			if found[id] == ObjectionOpen {
				out.Dismissed = append(out.Dismissed, id)
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE objections SET status = 'dismissed', ruled_at = $3, ruled_by = $4, ruling = $5
			WHERE notice_id = $1 AND id = ANY($2) AND status = 'open'`, notice, out.Dismissed, now, actor.String(), ruling); err != nil {
			return out, ledger.PgErr(err, "rule objections")
		}
		if err := ledger.Append(ctx, tx, now, actor, "notice", noticeID(notice),
			ObjectionsDismissedPayload{ObjectionIDs: out.Dismissed, Ruling: ruling}); err != nil {
			return out, err
		}
		var open int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM objections WHERE notice_id = $1 AND status = 'open'`, notice).Scan(&open); err != nil {
			return out, ledger.PgErr(err, "count objections")
		}
		if open == 0 && !now.Before(ends) {
			var status NoticeStatus
			if err := tx.QueryRow(ctx, `SELECT status FROM notices WHERE id = $1`, notice).Scan(&status); err != nil {
				return out, ledger.PgErr(err, "notice status")
			}
			if status == NoticeOpen {
				c, err := s.finalize(ctx, tx, now, actor, notice, app)
				if err != nil {
					return out, err
				}
				out.CertificateNumber = c.Number
			}
		}
		return out, nil
	})
}

// OverdueNotices lists, oldest end first, the notices whose period has
// ended but which open objections hold open: what staff must rule on so
// that no notice waits unseen. Staff only.
func (s *Service) OverdueNotices(ctx context.Context, actor ledger.Actor) ([]Notice, error) {
	if err := s.requireStaff(ctx, actor, access.RuleObjection); err != nil {
		return nil, err
	}
	return s.noticesHeldOpen(ctx, s.store.Now())
}

// OverdueAfter is how long past its end a notice may wait for rulings
// before it is flagged.
func (s *Service) OverdueAfter() time.Duration { return s.cfg.OverdueAfter }

// noticesHeldOpen lists the open notices that ended at or before t and
// have open objections, oldest end first.
func (s *Service) noticesHeldOpen(ctx context.Context, t time.Time) ([]Notice, error) {
	rows, err := s.db.Query(ctx, noticeSelect+` WHERE n.status = 'open' AND n.ends_at <= $1
		AND EXISTS (SELECT 1 FROM objections o WHERE o.notice_id = n.id AND o.status = 'open') ORDER BY n.ends_at, n.id LIMIT 500`, t)
	if err != nil {
		return nil, fmt.Errorf("notices held open: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Notice, error) { return scanNotice(r) })
	if err != nil {
		return nil, fmt.Errorf("notices held open: %w", err)
	}
	return out, nil
}

// warnOverdue logs each notice held open by objections longer than the
// setting past its end, so none waits unseen.
func (s *Service) warnOverdue(ctx context.Context, log *slog.Logger) error {
	now := s.store.Now()
	over, err := s.noticesHeldOpen(ctx, now.Add(-s.cfg.OverdueAfter))
	if err != nil {
		return err
	}
	for _, n := range over {
		log.WarnContext(ctx, "notice held open past its end by objections awaiting a ruling", "notice", n.ID,
			"ended", n.EndsAt.UTC().Format(time.RFC3339), "overdue_by", now.Sub(n.EndsAt).Round(time.Minute).String(), "open_objections", n.OpenObjections,
			"proceeds_at", n.EndsAt.Add(s.cfg.RulingDeadline).UTC().Format(time.RFC3339))
	}
	return nil
}
