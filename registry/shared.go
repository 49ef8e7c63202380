package registry

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// The exports below let the other domain packages read and change players
// inside their own transactions.

// PlayerTx reads a player inside tx; with lock set the row stays locked until
// the transaction ends.
func PlayerTx(ctx context.Context, tx pgx.Tx, id int64, lock bool) (Player, error) {
	q := `SELECT ` + playerColumns + ` FROM players WHERE id = $1`
	if lock {
		q += ` FOR UPDATE`
	}
	p, err := scanPlayer(tx.QueryRow(ctx, q, id))
	if err != nil {
		return Player{}, playerErr(err, id)
	}
	return p, nil
}

// SetRank is certification's way to change a player's rank inside tx: it
// logs why (the certificate that caused it), and from then on the rank
// follows certificates only (RankCertified).
func SetRank(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, playerID int64, from, to Rank, why string) error {
	b := &pgx.Batch{}
	if err := QueueSetRank(ctx, b, tx, now, actor, playerID, from, to, why); err != nil || b.Len() == 0 {
		return err
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return ledger.PgErr(err, fmt.Sprintf("set rank of player %d", playerID))
	}
	return nil
}

// playerErr words a failed read of player id: not found, or what PgErr says.
func playerErr(err error, id int64) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ReasonNoSuchPlayer.New("player", strconv.FormatInt(id, 10))
	}
	return ledger.PgErr(err, fmt.Sprintf("player %d", id))
}

// QueueSetRank is SetRank with its update queued on b, for a caller that
// pipelines it with statements of its own (one round trip for all); the
// event is queued in tx at once, and b must be sent in tx.
func QueueSetRank(ctx context.Context, b *pgx.Batch, tx *ledger.Tx, now time.Time, actor ledger.Actor, playerID int64, from, to Rank, why string) error {
	if from == to {
		return nil
	}
	b.Queue(`UPDATE players SET rank = $2, rank_certified = true, updated_at = $3 WHERE id = $1`, playerID, to, now)
	return ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(playerID, 10),
		NewPlayerRankChangedPayload(from, to, why))
}

// QueueAgencyName is AgencyName queued on b: name is set when b's results
// are read.
func QueueAgencyName(b *pgx.Batch, prefix string, name *string) {
	queueAgencyName(b, prefix, name, func(err error) error { return ledger.PgErr(err, "agency "+prefix) })
}

// queueAgencyName queues AgencyName's read on b, a failed read worded by
// word (AgencyName words the whole batch's error instead, which may fail
// before the read).
func queueAgencyName(b *pgx.Batch, prefix string, name *string, word func(error) error) {
	b.Queue(`SELECT coalesce((SELECT name FROM agencies WHERE prefix = $1), '')`, prefix).QueryRow(func(r pgx.Row) error {
		if err := r.Scan(name); err != nil {
			return word(err)
		}
		return nil
	})
}

// AgencyName returns the name of the agency with the prefix as tx sees it,
// or "" when the province has none (the association's 000 has none).
func AgencyName(ctx context.Context, tx *ledger.Tx, prefix string) (string, error) {
	var name string
	b := &pgx.Batch{}
	queueAgencyName(b, prefix, &name, func(err error) error { return err })
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return "", ledger.PgErr(err, "agency "+prefix)
	}
	return name, nil
}

// PlayersOfProvince returns every player registered in the province, by id.
func PlayersOfProvince(ctx context.Context, q ledger.Querier, provinceCode string) (map[int64]Player, error) {
	rows, err := q.Query(ctx, `SELECT `+playerColumns+` FROM players WHERE province_code = $1`, provinceCode)
	if err != nil {
		return nil, fmt.Errorf("players of province %s: %w", provinceCode, err)
	}
	ps, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Player, error) { return scanPlayer(r) })
	if err != nil {
		return nil, fmt.Errorf("players of province %s: %w", provinceCode, err)
	}
	out := make(map[int64]Player, len(ps))
	for _, p := range ps {
		out[p.ID] = p
	}
	return out, nil
}

// PlayersNamed returns the ids of the players with each of the names
// (compared case-insensitively), oldest first.
func PlayersNamed(ctx context.Context, q ledger.Querier, names []string) (map[string][]int64, error) {
	lower := make([]string, len(names))
	for i, n := range names {
		lower[i] = strings.ToLower(n)
	}
	rows, err := q.Query(ctx, `SELECT id, lower(name) FROM players WHERE lower(name) = ANY($1) ORDER BY id`, lower)
	if err != nil {
		return nil, fmt.Errorf("players by name: %w", err)
	}
	defer rows.Close()
	out := map[string][]int64{}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, fmt.Errorf("players by name: %w", err)
		}
		out[name] = append(out[name], id)
	}
	return out, rows.Err()
}

// PlayerByIdentity finds the player with a resident ID number (or, failing
// that, a passport number) as q sees it.
func PlayerByIdentity(ctx context.Context, q ledger.Querier, number string) (Player, bool, error) {
	n := strings.ToUpper(strings.TrimSpace(number))
	p, err := scanPlayer(q.QueryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE id_number = $1 AND merged_into IS NULL
		ORDER BY (id_kind = 'resident_id') DESC, id LIMIT 1`, n))
	if errors.Is(err, pgx.ErrNoRows) {
		return Player{}, false, nil
	}
	if err != nil {
		return Player{}, false, ledger.PgErr(err, "player by identity")
	}
	return p, true, nil
}

// PlayersByIdentity is PlayerByIdentity for many numbers in one query (a
// register of 20 000 rows once asked 20 000 times): the player of each
// number found, by the number as given.
func PlayersByIdentity(ctx context.Context, q ledger.Querier, numbers []string) (map[string]Player, error) {
	byNorm := map[string][]string{}
	for _, n := range numbers {
		k := strings.ToUpper(strings.TrimSpace(n))
		byNorm[k] = append(byNorm[k], n)
	}
	keys := make([]string, 0, len(byNorm))
	for k := range byNorm {
		keys = append(keys, k)
	}
	rows, err := q.Query(ctx, `SELECT DISTINCT ON (id_number) `+playerColumns+` FROM players WHERE id_number = ANY($1) AND merged_into IS NULL
		ORDER BY id_number, (id_kind = 'resident_id') DESC, id`, keys)
	if err != nil {
		return nil, ledger.PgErr(err, "players by identity")
	}
	ps, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Player, error) { return scanPlayer(r) })
	if err != nil {
		return nil, ledger.PgErr(err, "players by identity")
	}
	out := make(map[string]Player, len(ps))
	for _, p := range ps {
		for _, n := range byNorm[p.IDNumber] {
			out[n] = p
		}
	}
	return out, nil
}

// PlayersPerProvince counts the players registered before a time, of each
// province, by province code, for the statistics (a past year's as at its end).
func PlayersPerProvince(ctx context.Context, q ledger.Querier, before time.Time) (map[string]int, error) {
	rows, err := q.Query(ctx, `SELECT province_code, count(*) FROM players WHERE created_at < $1 GROUP BY province_code`, before)
	if err != nil {
		return nil, fmt.Errorf("players per province: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var code string
		var n int
		if err := rows.Scan(&code, &n); err != nil {
			return nil, fmt.Errorf("players per province: %w", err)
		}
		out[code] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("players per province: %w", err)
	}
	return out, nil
}
