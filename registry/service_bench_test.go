package registry_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// benchPlayer makes the i-th distinct valid player of Beijing.
func benchPlayer(i int) registry.PlayerInput {
	in := zhang()
	birth := time.Date(1950, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i/999)
	in.BirthDate = birth.Format(time.DateOnly)
	in.IDNumber = residentID(in.BirthDate, i%999+1)
	in.Name = "棋手" + strconv.Itoa(i)
	return in
}

// BenchmarkRegisterPlayer is the full path: validation, permission check,
// idempotency record and the chained event-log append, in one transaction.
func BenchmarkRegisterPlayer(b *testing.B) {
	ctx := context.Background()
	pool, _ := harness.NewDB(b)
	store := ledger.New(pool, time.Now, nil)
	s := registry.New(store)
	if _, err := s.CreateAgency(ctx, staff, "", registry.AgencyInput{Prefix: "110", Name: "agency"}); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		if _, err := s.RegisterPlayer(ctx, beijing, fmt.Sprintf("k%d", i), benchPlayer(i)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkInsertPlayerBaseline is the baseline for the one above: the same
// row written by a bare INSERT, so the ratio is the cost of the checks,
// the idempotency record and the event chain.
func BenchmarkInsertPlayerBaseline(b *testing.B) {
	ctx := context.Background()
	pool, _ := harness.NewDB(b)
	i := 0
	for b.Loop() {
		in := benchPlayer(i)
		_, err := pool.Exec(ctx, `INSERT INTO players (name, gender, birth_date, nationality, id_kind, id_number, identity_key,
			province_code, agency_prefix, rank, created_at, updated_at)
			VALUES ($1, 'M', $2, 'CN', 'resident_id', $3, $4, '11', '110', 3, $5, $5)`,
			in.Name, in.BirthDate, in.IDNumber, "resident:"+in.IDNumber, clock())
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkSearchPlayers pages through 2 000 players by name substring.
func BenchmarkSearchPlayers(b *testing.B) {
	ctx := context.Background()
	pool, _ := harness.NewDB(b)
	store := ledger.New(pool, time.Now, nil)
	s := registry.New(store)
	if _, err := s.CreateAgency(ctx, staff, "", registry.AgencyInput{Prefix: "110", Name: "agency"}); err != nil {
		b.Fatal(err)
	}
	for i := range 2000 {
		if _, err := s.RegisterPlayer(ctx, beijing, "", benchPlayer(i)); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		page, err := s.SearchPlayers(ctx, staff, registry.PlayerQuery{Name: "棋手1", ProvinceCode: "11", PageSize: 20})
		if err != nil || len(page.Players) != 20 {
			b.Fatalf("%d players, %v", len(page.Players), err)
		}
	}
}
