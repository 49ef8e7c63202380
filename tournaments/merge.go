package tournaments

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// ReasonSameEvent refuses a merge of two records that both played one event.
var ReasonSameEvent = ledger.NewReason(ledger.Precondition, "BOTH_IN_ONE_EVENT",
	"两条记录都参加了比赛 {event}，不是同一人，不能合并。",
	"both records played in tournament {event}, so they are not one person; they cannot be merged.")

// MovePlayerTx moves the record from's entries in events onto the record
// into (a merge, in the caller's transaction); results and standings stay.
func (s *Service) MovePlayerTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, from, into int64) error {
	var both int64
	err := tx.QueryRow(ctx, `SELECT coalesce(min(a.tournament_id), 0) FROM participants a JOIN participants b
		ON a.tournament_id = b.tournament_id WHERE a.player_id = $1 AND b.player_id = $2`, from, into).Scan(&both)
	if err != nil {
		return ledger.PgErr(err, "common events")
	}
	if both != 0 {
		return ReasonSameEvent.New("event", eventID(both))
	}
	tag, err := tx.Exec(ctx, `UPDATE participants SET player_id = $2 WHERE player_id = $1`, from, into)
	if err != nil {
		return ledger.PgErr(err, fmt.Sprintf("move the entries of player %d", from))
	}
	return ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(into, 10),
		ParticipantsMovedPayload{Entries: tag.RowsAffected(), From: from})
}
