package certs_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// statements counts the statements sent on a pool.
type statements struct{ n atomic.Int64 }

func (s *statements) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	s.n.Add(1)
	return ctx
}

func (s *statements) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TestPaperCheckStatementsBounded: checking a register asks the database
// the same number of times for 2 000 rows as for 20: the numbers on record
// and the holders are each one query (a query per row and column made a
// 20 000-row file cost 8 s).
func TestPaperCheckStatementsBounded(t *testing.T) {
	_, conn := harness.NewDB(t)
	cfg, err := pgxpool.ParseConfig(conn)
	if err != nil {
		t.Fatal(err)
	}
	count := &statements{}
	cfg.ConnConfig.Tracer = count
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	clock := fixture.NewClock(time.Date(2026, 6, 1, 2, 0, 0, 0, time.UTC))
	store := ledger.New(pool, clock.Now, nil)
	cs, err := certs.New(store, registry.New(store), certs.Config{})
	if err != nil {
		t.Fatal(err)
	}
	register := func(rows int) string {
		var b strings.Builder
		b.WriteString("证书编号,姓名,证件号码,段位,发证日期\n")
		for i := range rows {
			fmt.Fprintf(&b, "11010%04d,纸证%04d,%s,1段,2010年3月1日\n", i+1, i, fixture.ResidentID("110", "1960-01-01", i))
		}
		return b.String()
	}
	check := func(rows int) int64 {
		before := count.n.Load()
		res, err := cs.ImportPaper(context.Background(), staff, "", certs.PaperInput{Data: []byte(register(rows)), DryRun: true})
		if err != nil || len(res.Rows) != rows || res.Bad != rows { // no holder is registered
			t.Fatalf("%d rows: %d read, %d bad, %v", rows, len(res.Rows), res.Bad, err)
		}
		return count.n.Load() - before
	}
	small, large := check(20), check(2000)
	if large != small {
		t.Fatalf("checking 20 rows took %d statements, 2 000 rows %d: want the same", small, large)
	}
}
