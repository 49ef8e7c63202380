package registry

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
)

// Records that follow people: a player moving to another province, and two
// records of one person merged into one.

// The refusals of transfers and merges.
var (
	ReasonSameProvince = ledger.NewReason(ledger.Invalid, "SAME_PROVINCE",
		"棋手已在该省登记。", "the player is already registered in that province.")
	ReasonMergeSelf = ledger.NewReason(ledger.Invalid, "MERGE_SELF",
		"不能把一条记录与它自己合并。", "a record cannot be merged with itself.")
	ReasonAlreadyMerged = ledger.NewReason(ledger.Precondition, "ALREADY_MERGED",
		"登记号 {player} 的棋手的记录已并入 {into}。", "the record of the player with registry no. {player} was already merged into {into}.")
)

// TransferPlayer moves a player to another province: the receiving
// province's agency keeps his record from now on; his certificates keep
// their numbers (the prefix names the province that numbered them) and he
// is on the new province's roster. Staff, or the agency of his province
// while active, may transfer him.
func (s *Service) TransferPlayer(ctx context.Context, actor ledger.Actor, key string, id int64, toProvince string) (Player, error) {
	to, ok := ProvinceByCode(toProvince)
	if !ok || to.Prefix == AssociationPrefix {
		return Player{}, ReasonNotAProvinceCode.OnField("province_code", "value", toProvince)
	}
	req := []any{id, toProvince}
	return ledger.Mutate(ctx, s.store, actor, key, "TransferPlayer", req, func(tx *ledger.Tx, now time.Time) (Player, error) {
		p, err := PlayerTx(ctx, tx, id, true)
		if err != nil {
			return Player{}, err
		}
		from, _ := ProvinceByCode(p.ProvinceCode)
		switch {
		case p.MergedInto != 0:
			return Player{}, ReasonAlreadyMerged.New("player", strconv.FormatInt(id, 10), "into", strconv.FormatInt(p.MergedInto, 10))
		case p.ProvinceCode == toProvince:
			return Player{}, ReasonSameProvince.OnField("province_code")
		}
		if err := s.policy.Require(ctx, tx, actor, access.WritePlayers, from.Prefix); err != nil {
			return Player{}, err
		}
		if _, err := tx.Exec(ctx, `UPDATE players SET province_code = $2, agency_prefix = $3, updated_at = $4 WHERE id = $1`,
			id, to.Code, to.Prefix, now); err != nil {
			return Player{}, ledger.PgErr(err, fmt.Sprintf("transfer player %d", id))
		}
		p.ProvinceCode, p.AgencyPrefix, p.UpdatedAt = to.Code, to.Prefix, now
		return p, ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(id, 10),
			PlayerTransferredPayload{From: from.Code, To: to.Code})
	})
}

// MergeTx marks the record dup as a second record of the person keep, in
// the caller's transaction (the records of other packages move in the same
// one; see internal/records). Staff only.
func (s *Service) MergeTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, keep, dup int64) error {
	if err := s.policy.Require(ctx, tx, actor, access.MergeRecords, AssociationPrefix); err != nil {
		return err
	}
	if keep == dup {
		return ReasonMergeSelf.OnField("duplicate_id")
	}
	for _, id := range []int64{keep, dup} {
		p, err := PlayerTx(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if p.MergedInto != 0 {
			return ReasonAlreadyMerged.New("player", strconv.FormatInt(id, 10), "into", strconv.FormatInt(p.MergedInto, 10))
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE players SET merged_into = $2, updated_at = $3 WHERE id = $1`, dup, keep, now); err != nil {
		return ledger.PgErr(err, fmt.Sprintf("merge player %d", dup))
	}
	return ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(dup, 10), PlayerMergedPayload{Into: keep})
}
