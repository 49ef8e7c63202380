package certs

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// ReasonBothOpen refuses a merge while both records have an open application.
var ReasonBothOpen = ledger.NewReason(ledger.Precondition, "BOTH_HAVE_OPEN_APPLICATIONS",
	"两条记录都有未决的证书申请，请先处理其中一份再合并。",
	"both records have an open certificate application; decide one of them before merging.")

// MovePlayerTx moves every certificate, application and appraiser of the
// record from onto the record into (a merge of two records of one person,
// in the caller's transaction); the numbers stay, so every certificate
// verifies as before, and the kept record's rank follows its certificates.
func (s *Service) MovePlayerTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, from, into int64) error {
	var open int
	if err := tx.QueryRow(ctx, `SELECT count(DISTINCT player_id) FROM applications
		WHERE player_id IN ($1, $2) AND status IN ('applied', 'on_notice')`, from, into).Scan(&open); err != nil {
		return ledger.PgErr(err, "open applications")
	}
	if open == 2 {
		return ReasonBothOpen.New()
	}
	var moved int64
	for _, q := range []string{
		`UPDATE certificates SET player_id = $2 WHERE player_id = $1`,
		`UPDATE applications SET player_id = $2 WHERE player_id = $1`,
		`UPDATE appraisers SET player_id = $2 WHERE player_id = $1`,
		`UPDATE appraisal_sessions SET player_id = $2 WHERE player_id = $1`,
		`UPDATE champion_recognitions SET player_id = $2 WHERE player_id = $1`,
	} {
		tag, err := tx.Exec(ctx, q, from, into)
		if err != nil {
			return ledger.PgErr(err, fmt.Sprintf("move the records of player %d", from))
		}
		moved += tag.RowsAffected()
	}
	if err := s.followRank(ctx, tx, now, actor, into, "records of player "+strconv.FormatInt(from, 10)+" merged"); err != nil {
		return err
	}
	return ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(into, 10),
		CertificatesMovedPayload{From: from, Rows: moved})
}
