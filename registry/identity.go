package registry

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
)

// SeesIdentity reports whether the actor may see a player's full identity
// number and birth date: staff, and the active agency of the player's
// province (the policy's SeeIdentity); both transports ask it.
func (s *Service) SeesIdentity(ctx context.Context, actor ledger.Actor, p Player) bool {
	prov, ok := ProvinceByCode(p.ProvinceCode)
	return ok && s.policy.Allows(ctx, s.store.DB(), actor, access.SeeIdentity, prov.Prefix)
}

// AgeOn is a person's age in whole years on the China Standard Time date of t.
func AgeOn(birth, t time.Time) int {
	by, bm, bd := birth.Date()
	y, m, d := t.In(ledger.ChinaTime).Date()
	age := y - by
	if m < bm || (m == bm && d < bd) {
		age--
	}
	return age
}

// AdultAge is the age from which a player is no longer a minor.
const AdultAge = 18

// ShowsPersonalDetails reports whether the actor may see a player's birth
// year and gender: anyone for an adult, only those who see his identity for
// a minor (the seeds call under-18s the most sensitive group; the public
// sees a minor only by name, rank and province, through his notices,
// certificates and results). seesIdentity is SeesIdentity's answer, which
// callers already hold (a list asks it once per province).
func (s *Service) ShowsPersonalDetails(p Player, seesIdentity bool) bool {
	return seesIdentity || AgeOn(p.BirthDate, s.store.Now()) >= AdultAge
}

// lastAdultBirthDate is the latest birth date of someone who is an adult on
// the Beijing date of now (for 29 February in a year without it, the 28th:
// such a person comes of age on 1 March, as AgeOn counts).
func lastAdultBirthDate(now time.Time) time.Time {
	y, m, d := now.In(ledger.ChinaTime).Date()
	b := time.Date(y-AdultAge, m, d, 0, 0, 0, 0, time.UTC)
	if b.Month() != m {
		b = time.Date(y-AdultAge, m+1, 0, 0, 0, 0, 0, time.UTC)
	}
	return b
}

// HolderBirthSQL is a column for another owner's query: the birth date of
// the player whose id the SQL expression playerID names (NULL for none), so
// a certificate's verification learns whether its holder is a minor in the
// same statement that reads the certificate (one round trip per page).
func HolderBirthSQL(playerID string) string {
	return `(SELECT hp.birth_date FROM players hp WHERE hp.id = ` + playerID + `)`
}

// MinorsAmong says which of the players ids are minors on the China
// Standard Time date of t (AgeOn below AdultAge), in one query.
func MinorsAmong(ctx context.Context, q ledger.Querier, ids []int64, t time.Time) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	// born after this date: not yet AdultAge on t, as AgeOn counts
	y, m, d := t.In(ledger.ChinaTime).Date()
	cutoff := time.Date(y-AdultAge, m, d, 0, 0, 0, 0, time.UTC)
	if cutoff.Day() != d { // t is 29 February, that year had none: 28 February
		cutoff = cutoff.AddDate(0, 0, -1)
	}
	rows, err := q.Query(ctx, `SELECT id FROM players WHERE id = ANY($1) AND birth_date > $2`, ids, cutoff)
	if err != nil {
		return nil, fmt.Errorf("minors among %d players: %w", len(ids), err)
	}
	minors, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("minors among %d players: %w", len(ids), err)
	}
	for _, id := range minors {
		out[id] = true
	}
	return out, nil
}
