package registry

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/jackc/pgx/v5"
)

const playerColumns = `id, name, gender, birth_date, nationality, id_kind, id_number, province_code, agency_prefix, rank,
	declared_rank, rank_certified, honorary_basis, coalesce(merged_into, 0), created_at, updated_at, latin_name,
	coalesce((SELECT jsonb_object_agg(x.scheme, x.value) FROM player_external_ids x WHERE x.player_id = players.id), '{}')`

func scanPlayer(r pgx.Row) (Player, error) {
	var p Player
	err := r.Scan(&p.ID, &p.Name, &p.Gender, &p.BirthDate, &p.Nationality, &p.IDKind, &p.IDNumber,
		&p.ProvinceCode, &p.AgencyPrefix, &p.Rank, &p.DeclaredRank, &p.RankCertified, &p.HonoraryBasis, &p.MergedInto, &p.CreatedAt, &p.UpdatedAt,
		&p.LatinName, &p.ExternalIDs)
	if len(p.ExternalIDs) == 0 {
		p.ExternalIDs = nil
	}
	return p, err
}

// Redacted is what an idempotency record keeps of a player: the identity
// number masked, so the records never hold a full one.
func (p Player) Redacted() any {
	p.IDNumber = MaskIdentity(p.IDNumber)
	return p
}

// Reread fills a player decoded from an idempotency record in again from
// its row (the full identity number included) for the retry's answer.
func (p *Player) Reread(ctx context.Context, q ledger.Querier) error {
	got, err := scanPlayer(q.QueryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE id = $1`, p.ID))
	if err != nil {
		return playerErr(err, p.ID)
	}
	*p = got
	return nil
}

// identityTaken reports whether another player (not except) holds the
// identity. Asked before writing so the unique index is only the last
// guard: its violation would put the full number into PostgreSQL's log.
func identityTaken(ctx context.Context, q ledger.Querier, p Player, except int64) (bool, error) {
	var taken bool
	err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM players WHERE identity_key = $1 AND id <> $2)`, identityKey(p), except).Scan(&taken)
	if err != nil {
		return false, fmt.Errorf("check identity: %w", err)
	}
	return taken, nil
}

// identityKey makes resident IDs unique on their own and passports unique per country.
func identityKey(p Player) string {
	if p.IDKind == Passport {
		return "passport:" + p.Nationality + ":" + p.IDNumber
	}
	return "resident:" + p.IDNumber
}

// mayWriteProvince checks that actor may register or change players of the
// province: staff anywhere, an active agency only in its own province.
// It returns the prefix the change is recorded under: the agency's, or the
// association's for staff.
func (s *Service) mayWriteProvince(ctx context.Context, tx *ledger.Tx, actor ledger.Actor, provinceCode string) (string, error) {
	prov, _ := ProvinceByCode(provinceCode)
	if err := s.policy.Require(ctx, tx, actor, access.WritePlayers, prov.Prefix); err != nil {
		return "", err
	}
	if actor.IsStaff() {
		return AssociationPrefix, nil
	}
	return actor.Agency, nil
}

// RegisterPlayer validates and stores a new player.
func (s *Service) RegisterPlayer(ctx context.Context, actor ledger.Actor, key string, in PlayerInput) (Player, error) {
	if err := access.RequireSignedIn(actor, access.WritePlayers); err != nil {
		return Player{}, err
	}
	p, err := in.Validate(s.store.Now())
	if err != nil {
		return Player{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "RegisterPlayer", in, func(tx *ledger.Tx, now time.Time) (Player, error) {
		agency, err := s.mayWriteProvince(ctx, tx, actor, p.ProvinceCode)
		if err != nil {
			return Player{}, fmt.Errorf("register player: %w", err)
		}
		p.AgencyPrefix, p.CreatedAt, p.UpdatedAt = agency, now, now
		if taken, err := identityTaken(ctx, tx, p, 0); err != nil || taken {
			if err == nil {
				err = ReasonAlreadyRegistered.OnField("identity_number", "identity", MaskIdentity(p.IDNumber))
			}
			return Player{}, err
		}
		err = tx.QueryRow(ctx, `INSERT INTO players (name, gender, birth_date, nationality, id_kind, id_number, identity_key,
			province_code, agency_prefix, declared_rank, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
			p.Name, p.Gender, p.BirthDate, p.Nationality, p.IDKind, p.IDNumber, identityKey(p),
			p.ProvinceCode, p.AgencyPrefix, p.DeclaredRank, now, now).Scan(&p.ID)
		if err != nil {
			if errors.Is(ledger.PgErr(err, ""), ledger.ErrAlreadyExists) {
				return Player{}, ReasonAlreadyRegistered.OnField("identity_number", "identity", MaskIdentity(p.IDNumber))
			}
			return Player{}, ledger.PgErr(err, "register player")
		}
		err = ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(p.ID, 10), NewPlayerRegisteredPayload(p))
		return p, err
	})
}

// PlayerUpdate is what UpdatePlayer did: the player as now stored and, when
// his birth date or identity document was to change and the change waits
// for staff, that change (Held); his other fields changed at once.
type PlayerUpdate struct {
	Player
	Held *IdentityChange
}

// Redacted is what an idempotency record keeps of an update: the identity
// number masked (the held change holds masked numbers only).
func (u PlayerUpdate) Redacted() any {
	u.IDNumber = MaskIdentity(u.IDNumber)
	return u
}

// Reread fills the player in again from his row for a retry's answer.
func (u *PlayerUpdate) Reread(ctx context.Context, q ledger.Querier) error {
	return u.Player.Reread(ctx, q)
}

// UpdatePlayer replaces a player's details. An agency may change only players
// of its own province and may not move them to another province. A change
// of the birth date or identity document (kind, number, nationality) needs
// in.ChangeReason and, from an agency, waits for staff (see
// DecideIdentityChange) unless it corrects the registration on its day
// (registrationDayCorrection); staff's own change takes effect at once.
func (s *Service) UpdatePlayer(ctx context.Context, actor ledger.Actor, key string, id int64, in PlayerInput) (PlayerUpdate, error) {
	if err := access.RequireSignedIn(actor, access.WritePlayers); err != nil {
		return PlayerUpdate{}, err
	}
	if id <= 0 {
		return PlayerUpdate{}, ReasonPlayerID.OnField("id", "value", strconv.FormatInt(id, 10))
	}
	p, err := in.Validate(s.store.Now())
	if err != nil {
		return PlayerUpdate{}, err
	}
	reason, err := ledger.OptionalText("change_reason", in.ChangeReason, MaxChangeReason)
	if err != nil {
		return PlayerUpdate{}, err
	}
	req := struct {
		ID int64
		In PlayerInput
	}{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "UpdatePlayer", req, func(tx *ledger.Tx, now time.Time) (PlayerUpdate, error) {
		old, err := scanPlayer(tx.QueryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE id = $1 FOR UPDATE`, id))
		if err != nil {
			return PlayerUpdate{}, playerErr(err, id)
		}
		codes := []string{old.ProvinceCode}
		if p.ProvinceCode != old.ProvinceCode { // moving a player: both provinces must allow it
			codes = append(codes, p.ProvinceCode)
		}
		for _, code := range codes {
			if _, err := s.mayWriteProvince(ctx, tx, actor, code); err != nil {
				return PlayerUpdate{}, fmt.Errorf("update player %d: %w", id, err)
			}
		}
		// the certified rank is certification's; only the declared rank is edited here
		p.ID, p.AgencyPrefix, p.Rank, p.RankCertified, p.HonoraryBasis = id, old.AgencyPrefix, old.Rank, old.RankCertified, old.HonoraryBasis
		p.MergedInto, p.CreatedAt, p.UpdatedAt = old.MergedInto, old.CreatedAt, now
		p.LatinName, p.ExternalIDs = old.LatinName, old.ExternalIDs // set by their own actions
		if taken, err := identityTaken(ctx, tx, p, id); err != nil || taken {
			if err == nil {
				err = ReasonIdentityTaken.OnField("identity_number", "identity", MaskIdentity(p.IDNumber))
			}
			return PlayerUpdate{}, err
		}
		var out PlayerUpdate
		if identityDiffers(old, p) {
			c, held, err := s.changeIdentity(ctx, tx, now, actor, old, p, reason)
			if err != nil {
				return PlayerUpdate{}, err
			}
			if held {
				out.Held = &c
				p = withIdentityOf(p, old) // the rest changes now, the identity when staff approve
			}
		}
		if out.Held != nil && p.Name == old.Name && p.Gender == old.Gender && p.ProvinceCode == old.ProvinceCode && p.DeclaredRank == old.DeclaredRank {
			out.Player = old // only the held identity was to change: no write, no player.updated
			return out, nil
		}
		_, err = tx.Exec(ctx, `UPDATE players SET name = $2, gender = $3, birth_date = $4, nationality = $5, id_kind = $6,
			id_number = $7, identity_key = $8, province_code = $9, declared_rank = $10, updated_at = $11 WHERE id = $1`,
			id, p.Name, p.Gender, p.BirthDate, p.Nationality, p.IDKind, p.IDNumber, identityKey(p), p.ProvinceCode, p.DeclaredRank, now)
		if err != nil {
			if errors.Is(ledger.PgErr(err, ""), ledger.ErrAlreadyExists) {
				return PlayerUpdate{}, ReasonIdentityTaken.OnField("identity_number", "identity", MaskIdentity(p.IDNumber))
			}
			return PlayerUpdate{}, ledger.PgErr(err, fmt.Sprintf("update player %d", id))
		}
		out.Player = p
		err = ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(id, 10),
			NewPlayerUpdatedPayload(old, p))
		return out, err
	})
}

// GetPlayer returns one player with every field; callers decide what to show.
func (s *Service) GetPlayer(ctx context.Context, id int64) (Player, error) {
	if id <= 0 {
		return Player{}, ReasonPlayerID.OnField("id", "value", strconv.FormatInt(id, 10))
	}
	p, err := scanPlayer(s.store.DB().QueryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE id = $1`, id))
	if err != nil {
		return Player{}, playerErr(err, id)
	}
	return p, nil
}

// PlayerQuery selects players; empty fields match anything.
type PlayerQuery struct {
	Name         string
	ProvinceCode string
	Rank         string
	PageSize     int
	PageToken    string
}

// PlayerPage is one page of search results.
type PlayerPage struct {
	Players       []Player
	NextPageToken string
	// Total is how many players match, counted up to CountCap: with more,
	// Total is CountCap and TotalAtLeast is set (a search never counts the
	// whole table).
	Total        int64
	TotalAtLeast bool
}

// CountCap is how far a search counts its matches.
const CountCap = 100

// MaxPageSize bounds one page of results.
const MaxPageSize = 100

// SearchPlayers finds players by name substring, province and certified
// rank, ordered by id, a page at a time (keyset pagination: stable while
// rows are added). Minors are listed only to staff and the agency of their
// province.
func (s *Service) SearchPlayers(ctx context.Context, actor ledger.Actor, q PlayerQuery) (PlayerPage, error) {
	size := q.PageSize
	switch {
	case size < 0:
		return PlayerPage{}, ReasonPageSize.OnField("page_size")
	case size == 0:
		size = 20
	case size > MaxPageSize:
		size = MaxPageSize
	}
	var after int64
	if q.PageToken != "" {
		b, err := base64.RawURLEncoding.DecodeString(q.PageToken)
		if err == nil {
			after, err = strconv.ParseInt(strings.TrimPrefix(string(b), "after:"), 10, 64)
		}
		if err != nil || after < 0 {
			return PlayerPage{}, ReasonPageToken.OnField("page_token")
		}
	}
	conds := []string{"merged_into IS NULL"} // a merged record is found through the one kept
	var args []any
	arg := func(v any) string { args = append(args, v); return "$" + strconv.Itoa(len(args)) }
	n, err := ledger.OptionalText("name", q.Name, MaxNameLen)
	if err != nil {
		return PlayerPage{}, err
	}
	from, order, like := "players", "id", ""
	if n != "" {
		// the players under the query's character, or under each of its
		// pairs of adjacent characters (lowered by the database, as the
		// table's are), merged in id order, so that a page stops after its
		// rows
		grams := searchGrams(arg(n), n)
		var b strings.Builder
		b.WriteString("player_name_grams g1")
		for i, g := range grams[1:] {
			t := "g" + strconv.Itoa(i+2)
			b.WriteString(" JOIN player_name_grams " + t + " ON " + t + ".player_id = g1.player_id AND " + t + ".gram = " + g)
		}
		// each candidate's row looked up by id (the fence keeps the planner
		// from walking all players in id order beside the candidates)
		b.WriteString(" CROSS JOIN LATERAL (SELECT * FROM players WHERE players.id = g1.player_id OFFSET 0) players")
		from, order = b.String(), "g1.player_id"
		conds = append(conds, "g1.gram = "+grams[0])
		// a pair or a run of three is the whole query of two or three
		// characters, unless lowering changes a character's length (İ,
		// under an ICU collation)
		runes := utf8.RuneCountInString(n)
		if runes > 3 || (runes >= 2 && utf8.RuneCountInString(strings.ToLower(n)) != runes) {
			// LIKE checks the pairs stand together as the query, applied to
			// the merged candidates outside a fence: the planner misjudges
			// a '%…%' of Chinese text as rare and would scan all players
			// for it
			escaped := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(n)
			like = "lower(name) LIKE lower(" + arg("%"+escaped+"%") + ")"
		}
	}
	if c := strings.TrimSpace(q.ProvinceCode); c != "" {
		pr, ok := ProvinceByCode(c)
		if !ok {
			return PlayerPage{}, ReasonNotAProvinceCode.OnField("province_code", "value", c)
		}
		if n != "" {
			// the province's players under the first gram, in id order,
			// from the grams' own key (not each candidate's row)
			conds = append(conds, "g1.province = "+arg(c))
		} else {
			// the code written into the statement (one of the fixed list's
			// two digits, not the caller's text), so that each province is
			// planned with its own size: as a parameter, the generic plan
			// pgx's prepared statement falls back to walked every player in
			// id order for a small province's few (Tibet's 900 lie at the
			// end of the national set's ids: 178 ms against 0.3 ms)
			conds = append(conds, "province_code = '"+pr.Code+"'")
		}
	}
	if !actor.IsStaff() {
		cond := "birth_date <= " + arg(lastAdultBirthDate(s.store.Now()))
		if pr, ok := ProvinceByPrefix(actor.Agency); ok && actor.Kind == ledger.AgencyActor &&
			s.policy.Allows(ctx, s.store.DB(), actor, access.SeeIdentity, pr.Prefix) {
			cond = "(" + cond + " OR province_code = " + arg(pr.Code) + ")"
		}
		conds = append(conds, cond)
	}
	if strings.TrimSpace(q.Rank) != "" {
		r, err := ParseRank(q.Rank)
		if err != nil {
			return PlayerPage{}, ReasonRank.OnField("rank", "value", q.Rank)
		}
		conds = append(conds, "rank = "+arg(r))
	}
	where := "TRUE"
	if len(conds) > 0 {
		where = strings.Join(conds, " AND ")
	}
	// the candidates in id order; with a LIKE, it is applied outside the
	// fence (OFFSET 0 keeps it from being pushed down), to the id the
	// candidates are ordered by (named k, so that the planner sees the
	// order and streams instead of sorting every candidate)
	candidates := func(extra string) string {
		return `SELECT ` + order + ` AS k, name FROM ` + from + ` WHERE ` + where + extra + ` ORDER BY ` + order + ` OFFSET 0`
	}
	countSQL := `SELECT count(*) FROM (SELECT 1 FROM ` + from + ` WHERE ` + where + ` ORDER BY ` + order + ` LIMIT ` + strconv.Itoa(CountCap+1) + `) c`
	if like != "" {
		countSQL = `SELECT count(*) FROM (SELECT 1 FROM (` + candidates("") + `) m WHERE ` + like + ` LIMIT ` + strconv.Itoa(CountCap+1) + `) c`
	}
	var page PlayerPage
	if err := s.store.DB().QueryRow(ctx, countSQL, args...).Scan(&page.Total); err != nil {
		return PlayerPage{}, fmt.Errorf("count players: %w", err)
	}
	if page.Total > CountCap {
		page.Total, page.TotalAtLeast = CountCap, true
	}
	afterArg, limitArg := arg(after), arg(size+1)
	pageSQL := `SELECT ` + playerColumns + ` FROM ` + from + ` WHERE ` + where + ` AND ` + order + ` > ` + afterArg + ` ORDER BY ` + order + ` LIMIT ` + limitArg
	if like != "" {
		pageSQL = `SELECT ` + playerColumns + ` FROM (SELECT k FROM (` + candidates(` AND `+order+` > `+afterArg) + `) m WHERE ` + like +
			` ORDER BY k LIMIT ` + limitArg + `) ids JOIN players ON players.id = ids.k ORDER BY ids.k`
	}
	rows, err := s.store.DB().Query(ctx, pageSQL, args...)
	if err != nil {
		return PlayerPage{}, fmt.Errorf("search players: %w", err)
	}
	page.Players, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Player, error) { return scanPlayer(r) })
	if err != nil {
		return PlayerPage{}, fmt.Errorf("search players: %w", err)
	}
	if len(page.Players) > size {
		page.Players = page.Players[:size]
		last := page.Players[size-1].ID
		page.NextPageToken = base64.RawURLEncoding.EncodeToString([]byte("after:" + strconv.FormatInt(last, 10)))
	}
	return page, nil
}

// searchGrams are the keys of player_name_grams a name search reads, as
// SQL over the query's parameter q: the one character, the pair, the run
// of three (migration 00111), or for a longer query its first and last
// runs of three (LIKE checks the rest): more joins would cost more than
// they save. They are cut from lower(q) by the database, as the table's
// are cut from lower(name).
func searchGrams(q, name string) []string {
	rs := []rune(name)
	l := "lower(" + q + ")"
	switch len(rs) {
	case 1:
		return []string{l}
	case 2:
		return []string{"substr(" + l + ", 1, 2)"}
	}
	grams := []string{"substr(" + l + ", 1, 3)"}
	if len(rs) >= 4 && string(rs[len(rs)-3:]) != string(rs[:3]) {
		grams = append(grams, "substr("+l+", length("+l+") - 2, 3)")
	}
	return grams
}

// RecordHonoraryDan records honorary 8 dan for a player (staff only), with
// its basis; the rank is certified from then on.
func (s *Service) RecordHonoraryDan(ctx context.Context, actor ledger.Actor, key string, id int64, basis string) (Player, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.RecordRanks, AssociationPrefix); err != nil {
		return Player{}, err
	}
	if strings.TrimSpace(basis) == "" {
		return Player{}, ReasonHonoraryBasis.OnField("basis")
	}
	basis, err := ledger.Text("basis", basis, 500)
	if err != nil {
		return Player{}, err
	}
	req := []any{id, basis}
	return ledger.Mutate(ctx, s.store, actor, key, "RecordHonoraryDan", req, func(tx *ledger.Tx, now time.Time) (Player, error) {
		p, err := PlayerTx(ctx, tx, id, true)
		if err != nil {
			return Player{}, err
		}
		if _, err := tx.Exec(ctx, `UPDATE players SET rank = $2, rank_certified = true, honorary_basis = $3, updated_at = $4 WHERE id = $1`,
			id, HonoraryDan8, basis, now); err != nil {
			return Player{}, ledger.PgErr(err, fmt.Sprintf("record honorary 8 dan of player %d", id))
		}
		from := p.Rank
		p.Rank, p.RankCertified, p.HonoraryBasis, p.UpdatedAt = HonoraryDan8, true, basis, now
		return p, ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(id, 10),
			PlayerHonoraryDanPayload{Basis: basis, From: from.String()})
	})
}

// DeclaredHighRanks lists, for staff to review, the players whose declared
// rank is 4 dan or above: ranks entered before ranks needed certificates,
// which no certificate or paper record backs yet.
func (s *Service) DeclaredHighRanks(ctx context.Context, actor ledger.Actor) ([]Player, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.RecordRanks, AssociationPrefix); err != nil {
		return nil, err
	}
	rows, err := s.store.DB().Query(ctx, `SELECT `+playerColumns+` FROM players WHERE declared_rank >= 4 ORDER BY province_code, id`)
	if err != nil {
		return nil, fmt.Errorf("declared high ranks: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Player, error) { return scanPlayer(r) })
}
