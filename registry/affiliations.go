package registry

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
)

// A player's club or school, with its history: pairing constraints (an
// event may keep players of one club, school or family apart in its first
// rounds) read the affiliation on the event's day, and a change is a
// logged act with its date.

// AffiliationKind is what a player belongs to.
type AffiliationKind string

const (
	Club   AffiliationKind = "club"
	School AffiliationKind = "school"
)

// Affiliation is one period of a player's club or school.
type Affiliation struct {
	ID         int64
	PlayerID   int64
	Kind       AffiliationKind
	Name       string
	From       time.Time
	To         *time.Time // nil while current
	RecordedAt time.Time
	RecordedBy string
}

// AffiliationInput sets a player's club or school from a date; an empty
// name ends the current one that day.
type AffiliationInput struct {
	PlayerID int64
	Kind     string
	Name     string
	From     string // YYYY-MM-DD
}

const maxAffiliationName = 100

// SetAffiliation records a player's new club or school from a date: the
// current one of that kind ends the day before (kept in the history), and
// a new period opens unless the name is empty. The player's province's
// agency or staff record it (as for any change of a player).
func (s *Service) SetAffiliation(ctx context.Context, actor ledger.Actor, key string, in AffiliationInput) (Affiliation, error) {
	if err := access.RequireSignedIn(actor, access.WritePlayers); err != nil {
		return Affiliation{}, err
	}
	kind := AffiliationKind(strings.TrimSpace(in.Kind))
	if kind != Club && kind != School {
		return Affiliation{}, ReasonAffiliationKind.OnField("kind", "value", in.Kind)
	}
	name, err := ledger.OptionalText("name", in.Name, maxAffiliationName)
	if err != nil {
		return Affiliation{}, err
	}
	from, err := time.Parse(time.DateOnly, strings.TrimSpace(in.From))
	if err != nil {
		return Affiliation{}, ReasonAffiliationDate.OnField("from", "value", in.From)
	}
	req := []any{in}
	return ledger.Mutate(ctx, s.store, actor, key, "SetAffiliation", req, func(tx *ledger.Tx, now time.Time) (Affiliation, error) {
		p, err := PlayerTx(ctx, tx, in.PlayerID, true)
		if err != nil {
			return Affiliation{}, err
		}
		if _, err := s.mayWriteProvince(ctx, tx, actor, p.ProvinceCode); err != nil {
			return Affiliation{}, err
		}
		var curID int64
		var curFrom time.Time
		var curName string
		err = tx.QueryRow(ctx, `SELECT id, from_date, name FROM player_affiliations WHERE player_id = $1 AND kind = $2 AND to_date IS NULL`,
			in.PlayerID, kind).Scan(&curID, &curFrom, &curName)
		switch {
		case err == pgx.ErrNoRows:
		case err != nil:
			return Affiliation{}, ledger.PgErr(err, "current affiliation")
		case !from.After(curFrom):
			// a change dated on or before the current period's start would
			// rewrite history rather than add to it
			return Affiliation{}, ReasonAffiliationDate.OnField("from", "value", in.From)
		default:
			if _, err := tx.Exec(ctx, `UPDATE player_affiliations SET to_date = $2 WHERE id = $1`, curID, from.AddDate(0, 0, -1)); err != nil {
				return Affiliation{}, ledger.PgErr(err, "end affiliation")
			}
		}
		a := Affiliation{PlayerID: in.PlayerID, Kind: kind, Name: name, From: from, RecordedAt: now, RecordedBy: actor.String()}
		if name != "" {
			if err := tx.QueryRow(ctx, `INSERT INTO player_affiliations (player_id, kind, name, from_date, recorded_at, recorded_by)
				VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, in.PlayerID, kind, name, from, now, actor.String()).Scan(&a.ID); err != nil {
				return Affiliation{}, ledger.PgErr(err, "record affiliation")
			}
		}
		return a, ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(in.PlayerID, 10),
			PlayerAffiliationSetPayload{From: from.Format(time.DateOnly), Kind: kind, Name: name, Was: curName})
	})
}

// Affiliations lists a player's clubs and schools, oldest first.
func (s *Service) Affiliations(ctx context.Context, playerID int64) ([]Affiliation, error) {
	rows, err := s.store.DB().Query(ctx, `SELECT id, player_id, kind, name, from_date, to_date, recorded_at, recorded_by
		FROM player_affiliations WHERE player_id = $1 ORDER BY from_date, id`, playerID)
	if err != nil {
		return nil, fmt.Errorf("affiliations of player %d: %w", playerID, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Affiliation, error) {
		var a Affiliation
		err := r.Scan(&a.ID, &a.PlayerID, &a.Kind, &a.Name, &a.From, &a.To, &a.RecordedAt, &a.RecordedBy)
		return a, err
	})
}

// LinkFamily records that two players are of one family (an event may keep
// them apart); staff or the agency of either's province record it.
func (s *Service) LinkFamily(ctx context.Context, actor ledger.Actor, key string, a, b int64) error {
	if err := access.RequireSignedIn(actor, access.WritePlayers); err != nil {
		return err
	}
	if a == b {
		return ReasonFamilySelf.OnField("player_b")
	}
	a, b = min(a, b), max(a, b)
	_, err := ledger.Mutate(ctx, s.store, actor, key, "LinkFamily", []any{a, b}, func(tx *ledger.Tx, now time.Time) (struct{}, error) {
		pa, err := PlayerTx(ctx, tx, a, true)
		if err != nil {
			return struct{}{}, err
		}
		if _, err := PlayerTx(ctx, tx, b, true); err != nil {
			return struct{}{}, err
		}
		if _, err := s.mayWriteProvince(ctx, tx, actor, pa.ProvinceCode); err != nil {
			return struct{}{}, err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO player_family_links (player_a, player_b, recorded_at, recorded_by) VALUES ($1, $2, $3, $4)
			ON CONFLICT DO NOTHING`, a, b, now, actor.String()); err != nil {
			return struct{}{}, ledger.PgErr(err, "link family")
		}
		return struct{}{}, ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(a, 10), PlayerFamilyLinkedPayload{Other: b})
	})
	return err
}

// PairingKeys gives each of the players his keys for a pairing constraint
// on day: "club:<name>" and "school:<name>" of his affiliations then, and
// "family:<id>" naming the lowest player of his family link group among
// the players (links are taken pairwise: a with b, b with c puts a, b and
// c together). kinds selects which count (club, school, family).
func PairingKeys(ctx context.Context, q ledger.Querier, players []int64, day time.Time, kinds []string) (map[int64][]string, error) {
	out := map[int64][]string{}
	want := map[string]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	if want["club"] || want["school"] {
		rows, err := q.Query(ctx, `SELECT player_id, kind, name FROM player_affiliations
			WHERE player_id = ANY($1) AND from_date <= $2 AND (to_date IS NULL OR to_date >= $2)`, players, day)
		if err != nil {
			return nil, fmt.Errorf("affiliations for pairing: %w", err)
		}
		var id int64
		var kind, name string
		if _, err := pgx.ForEachRow(rows, []any{&id, &kind, &name}, func() error {
			if want[kind] {
				out[id] = append(out[id], kind+":"+name)
			}
			return nil
		}); err != nil {
			return nil, fmt.Errorf("affiliations for pairing: %w", err)
		}
	}
	if want["family"] {
		rows, err := q.Query(ctx, `SELECT player_a, player_b FROM player_family_links WHERE player_a = ANY($1) AND player_b = ANY($1)`, players)
		if err != nil {
			return nil, fmt.Errorf("family links for pairing: %w", err)
		}
		root := map[int64]int64{}
		var find func(int64) int64
		find = func(x int64) int64 {
			r, ok := root[x]
			if !ok || r == x {
				return x
			}
			r = find(r)
			root[x] = r
			return r
		}
		var a, b int64
		if _, err := pgx.ForEachRow(rows, []any{&a, &b}, func() error {
			ra, rb := find(a), find(b)
			if ra != rb {
				root[max(ra, rb)] = min(ra, rb)
			}
			root[a], root[b] = find(a), find(b)
			return nil
		}); err != nil {
			return nil, fmt.Errorf("family links for pairing: %w", err)
		}
		for x := range root {
			out[x] = append(out[x], "family:"+strconv.FormatInt(find(x), 10))
		}
	}
	return out, nil
}
