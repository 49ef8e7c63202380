package registry

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// A player abroad: his Latin name and his ids with other bodies (the EGD
// PIN first of all), which tournament files name him by.

// EGDScheme is the scheme of EGD PINs among a player's external ids.
const EGDScheme = "egd"

// MaxExternalID is the most characters of an external id.
const MaxExternalID = 32

// ValidateLatinName checks a Latin name as an agency states it: letters of
// the Latin script (accents too), spaces, hyphens and apostrophes, at least
// two parts ("Zhang Wei": surname first). It returns the name with its
// spaces made single.
func ValidateLatinName(s string) (string, error) {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "", nil // back to the pinyin of the registered name
	}
	if len([]rune(s)) > MaxNameLen || !strings.Contains(s, " ") {
		return "", ReasonLatinName.OnField("latin_name", "value", clipName(s))
	}
	for _, c := range s {
		if !(unicode.Is(unicode.Latin, c) || c == ' ' || c == '-' || c == '\'') {
			return "", ReasonLatinName.OnField("latin_name", "value", clipName(s))
		}
	}
	return s, nil
}

func clipName(s string) string {
	if rs := []rune(s); len(rs) > MaxNameLen {
		return string(rs[:MaxNameLen]) + "…"
	}
	return s
}

// ValidateExternalID checks a scheme and an id: the scheme a short lower
// case word ("egd", "ffg", "aga"), an EGD PIN 5 to 9 digits, another id 1 to
// MaxExternalID letters, digits, '-' or '.'.
func ValidateExternalID(scheme, value string) (string, string, error) {
	scheme = strings.ToLower(strings.TrimSpace(scheme))
	value = strings.TrimSpace(value)
	okScheme := len(scheme) >= 2 && len(scheme) <= 12 && scheme[0] >= 'a' && scheme[0] <= 'z'
	for _, c := range scheme {
		okScheme = okScheme && (c >= 'a' && c <= 'z' || c >= '0' && c <= '9')
	}
	if !okScheme {
		return "", "", ReasonExternalIDScheme.OnField("external_id_scheme", "value", clipName(scheme))
	}
	if value == "" {
		return scheme, "", nil // removes the id
	}
	ok := len(value) <= MaxExternalID
	for _, c := range value {
		digit := c >= '0' && c <= '9'
		if scheme == EGDScheme {
			ok = ok && digit
		} else {
			ok = ok && (digit || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-' || c == '.')
		}
	}
	if scheme == EGDScheme {
		ok = ok && len(value) >= 5 && len(value) <= 9
	}
	if !ok {
		return "", "", ReasonExternalIDValue.OnField("external_id", "scheme", scheme, "value", clipName(value))
	}
	return scheme, value, nil
}

// SetLatinName states a player's Latin name ("" returns to the pinyin of
// his registered name); staff or the agency of his province, logged as
// player.latin_name_set.
func (s *Service) SetLatinName(ctx context.Context, actor ledger.Actor, key string, id int64, name string) (Player, error) {
	if id <= 0 {
		return Player{}, ReasonPlayerID.OnField("id", "value", strconv.FormatInt(id, 10))
	}
	name, err := ValidateLatinName(name)
	if err != nil {
		return Player{}, err
	}
	req := struct {
		ID   int64
		Name string
	}{id, name}
	return ledger.Mutate(ctx, s.store, actor, key, "SetLatinName", req, func(tx *ledger.Tx, now time.Time) (Player, error) {
		p, err := PlayerTx(ctx, tx, id, true)
		if err != nil {
			return Player{}, err
		}
		if _, err := s.mayWriteProvince(ctx, tx, actor, p.ProvinceCode); err != nil {
			return Player{}, fmt.Errorf("set latin name of player %d: %w", id, err)
		}
		if p.LatinName == name {
			return p, nil
		}
		if _, err := tx.Exec(ctx, `UPDATE players SET latin_name = $2, updated_at = $3 WHERE id = $1`, id, name, now); err != nil {
			return Player{}, ledger.PgErr(err, fmt.Sprintf("set latin name of player %d", id))
		}
		from := p.LatinName
		p.LatinName, p.UpdatedAt = name, now
		return p, ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(id, 10),
			PlayerLatinNameSetPayload{From: from, Pinyin: Pinyin(p.Name), To: name})
	})
}

// SetExternalID records (or, with an empty value, removes) a player's id
// with another body; staff or the agency of his province, logged as
// player.external_id_set. An id another player holds is refused
// (EXTERNAL_ID_TAKEN): one id names one person.
func (s *Service) SetExternalID(ctx context.Context, actor ledger.Actor, key string, id int64, scheme, value string) (Player, error) {
	if id <= 0 {
		return Player{}, ReasonPlayerID.OnField("id", "value", strconv.FormatInt(id, 10))
	}
	scheme, value, err := ValidateExternalID(scheme, value)
	if err != nil {
		return Player{}, err
	}
	req := []any{id, scheme, value}
	return ledger.Mutate(ctx, s.store, actor, key, "SetExternalID", req, func(tx *ledger.Tx, now time.Time) (Player, error) {
		p, err := PlayerTx(ctx, tx, id, true)
		if err != nil {
			return Player{}, err
		}
		if _, err := s.mayWriteProvince(ctx, tx, actor, p.ProvinceCode); err != nil {
			return Player{}, fmt.Errorf("set external id of player %d: %w", id, err)
		}
		return setExternalIDTx(ctx, tx, now, actor, p, scheme, value)
	})
}

// setExternalIDTx writes the id and logs it; p is the player as locked.
func setExternalIDTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, p Player, scheme, value string) (Player, error) {
	from := p.ExternalIDs[scheme]
	if from == value {
		return p, nil
	}
	if value == "" {
		if _, err := tx.Exec(ctx, `DELETE FROM player_external_ids WHERE player_id = $1 AND scheme = $2`, p.ID, scheme); err != nil {
			return Player{}, ledger.PgErr(err, "remove external id")
		}
	} else {
		var holder int64
		err := tx.QueryRow(ctx, `SELECT player_id FROM player_external_ids WHERE scheme = $1 AND value = $2`, scheme, value).Scan(&holder)
		switch {
		case err == nil && holder != p.ID:
			return Player{}, ReasonExternalIDTaken.OnField("external_id", "scheme", scheme, "value", value, "player", strconv.FormatInt(holder, 10))
		case err != nil && !errors.Is(err, pgx.ErrNoRows):
			return Player{}, ledger.PgErr(err, "external id holder")
		}
		if _, err := tx.Exec(ctx, `INSERT INTO player_external_ids (player_id, scheme, value, set_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (player_id, scheme) DO UPDATE SET value = excluded.value, set_at = excluded.set_at`, p.ID, scheme, value, now); err != nil {
			return Player{}, ledger.PgErr(err, "set external id")
		}
	}
	ids := map[string]string{}
	for k, v := range p.ExternalIDs {
		ids[k] = v
	}
	if value == "" {
		delete(ids, scheme)
	} else {
		ids[scheme] = value
	}
	if len(ids) == 0 {
		ids = nil
	}
	p.ExternalIDs = ids
	return p, ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(p.ID, 10),
		PlayerExternalIDSetPayload{From: from, Scheme: scheme, To: value})
}

// LearnExternalIDTx gives a player an id a confirmed tournament file names
// him by, inside the caller's transaction, when he has none of that scheme
// and nobody else holds it; it reports whether it did. It is how an
// import's matches teach the registry the players' EGD PINs.
func LearnExternalIDTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, playerID int64, scheme, value string) (bool, error) {
	scheme, value, err := ValidateExternalID(scheme, value)
	if err != nil || value == "" {
		return false, nil // a file's malformed id teaches nothing
	}
	p, err := PlayerTx(ctx, tx, playerID, true)
	if err != nil {
		return false, err
	}
	if p.ExternalIDs[scheme] != "" {
		return false, nil
	}
	var taken bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM player_external_ids WHERE scheme = $1 AND value = $2)`, scheme, value).Scan(&taken); err != nil {
		return false, ledger.PgErr(err, "external id holder")
	}
	if taken {
		return false, nil
	}
	_, err = setExternalIDTx(ctx, tx, now, actor, p, scheme, value)
	return err == nil, err
}

// PlayersByExternalID finds the players holding ids of a scheme: value →
// player id.
func PlayersByExternalID(ctx context.Context, q ledger.Querier, scheme string, values []string) (map[string]int64, error) {
	out := map[string]int64{}
	if len(values) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, `SELECT value, player_id FROM player_external_ids WHERE scheme = $1 AND value = ANY($2)`, scheme, values)
	if err != nil {
		return nil, fmt.Errorf("players by %s id: %w", scheme, err)
	}
	defer rows.Close()
	for rows.Next() {
		var v string
		var id int64
		if err := rows.Scan(&v, &id); err != nil {
			return nil, fmt.Errorf("players by %s id: %w", scheme, err)
		}
		out[v] = id
	}
	return out, rows.Err()
}

// PlayersByID reads players by id (those not found are left out).
func PlayersByID(ctx context.Context, q ledger.Querier, ids []int64) (map[int64]Player, error) {
	out := map[int64]Player{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, `SELECT `+playerColumns+` FROM players WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("players by id: %w", err)
	}
	ps, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Player, error) { return scanPlayer(r) })
	if err != nil {
		return nil, fmt.Errorf("players by id: %w", err)
	}
	for _, p := range ps {
		out[p.ID] = p
	}
	return out, nil
}

// PlayersNamedOrLatin returns the ids of the players whose registered name
// or stated Latin name is one of the names (case-insensitively), by the
// lower-case name matched, oldest first; merged records are left out.
func PlayersNamedOrLatin(ctx context.Context, q ledger.Querier, names []string) (map[string][]int64, error) {
	lower := make([]string, len(names))
	for i, n := range names {
		lower[i] = strings.ToLower(n)
	}
	rows, err := q.Query(ctx, `SELECT id, lower(name), lower(latin_name) FROM players
		WHERE (lower(name) = ANY($1) OR (latin_name <> '' AND lower(latin_name) = ANY($1))) AND merged_into IS NULL ORDER BY id`, lower)
	if err != nil {
		return nil, fmt.Errorf("players by name: %w", err)
	}
	defer rows.Close()
	out := map[string][]int64{}
	for rows.Next() {
		var id int64
		var name, latin string
		if err := rows.Scan(&id, &name, &latin); err != nil {
			return nil, fmt.Errorf("players by name: %w", err)
		}
		out[name] = append(out[name], id)
		if latin != "" && latin != name {
			out[latin] = append(out[latin], id)
		}
	}
	return out, rows.Err()
}
