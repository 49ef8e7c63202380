package certs_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

var noticeProvinces = []string{"11", "12", "31", "32", "33", "37", "41", "44", "51", "50"}

// bulkNotices loads n notices (and their applications, of one player) with
// COPY: ten provinces, 4–7 dan, the newest 0.2 % open and the rest closed.
func bulkNotices(b *testing.B, n int) *pgxpool.Pool {
	b.Helper()
	ctx := context.Background()
	e := newEnv(b, certs.Config{})
	p := fixture.Player(b, e.reg, "110", "公示", "", "1990-01-01", 1)
	now := e.clock.Now()
	start := time.Now()
	i := 0
	_, err := e.pool.CopyFrom(ctx, pgx.Identifier{"applications"}, []string{"id", "player_id", "agency_prefix", "target_rank", "basis",
		"status", "applied_at", "applied_by"}, pgx.CopyFromFunc(func() ([]any, error) {
		if i == n {
			return nil, nil
		}
		i++
		return []any{int64(i), p.ID, "110", 4, "tournament", "failed", now, "bench"}, nil
	}))
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, uint64(n)))
	i = 0
	_, err = e.pool.CopyFrom(ctx, pgx.Identifier{"notices"}, []string{"id", "application_id", "player_name", "gender", "province_code",
		"agency_prefix", "agency_name", "rank", "basis", "published_at", "ends_at", "status"}, pgx.CopyFromFunc(func() ([]any, error) {
		if i == n {
			return nil, nil
		}
		i++
		prov := noticeProvinces[r.IntN(len(noticeProvinces))]
		at := now.Add(-time.Duration(n-i) * time.Minute)
		status := "issued"
		if i > n-n/500 {
			status = "open"
		} else if r.IntN(20) == 0 {
			status = "failed"
		}
		return []any{int64(i), int64(i), "棋手", "M", prov, prov + "0", "agency", 4 + r.IntN(4), "tournament", at, at.Add(7 * 24 * time.Hour), status}, nil
	}))
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range []string{"applications", "notices"} {
		if _, err := e.pool.Exec(ctx, `VACUUM ANALYZE `+t); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("loaded %d notices in %s", n, time.Since(start).Round(time.Millisecond))
	return e.pool
}

// BenchmarkNoticesScale times the public notice list (first page) at
// 100 000 and 1 000 000 notices, unfiltered and by province and rank, and
// logs each query's plan (auto_explain). The goal: at most 2× from 100 k
// to 1 M.
func BenchmarkNoticesScale(b *testing.B) {
	ctx := context.Background()
	cases := []struct {
		name string
		q    certs.NoticeQuery
	}{
		{"all", certs.NoticeQuery{}},
		{"province", certs.NoticeQuery{ProvinceCode: "44"}},
		{"province+rank", certs.NoticeQuery{ProvinceCode: "44", Rank: registry.Rank(6)}},
		{"current+province", certs.NoticeQuery{ProvinceCode: "44", State: "current"}},
		{"past+rank", certs.NoticeQuery{State: "past", Rank: registry.Rank(7)}},
	}
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("notices=%d", n), func(b *testing.B) {
			pool := bulkNotices(b, n)
			store := ledger.New(pool, time.Now, nil)
			cs, err := certs.New(store, registry.New(store), certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
			if err != nil {
				b.Fatal(err)
			}
			ep, plans := noticeExplainPool(b, pool)
			estore := ledger.New(ep, time.Now, nil)
			ecs, err := certs.New(estore, registry.New(estore), certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range cases {
				page, err := ecs.ListNotices(ctx, c.q)
				if err != nil {
					b.Fatal(err)
				}
				b.Logf("%s at %d: %d notices\n%s", c.name, n, len(page.Notices), strings.Join(plans(), "\n"))
				b.Run(c.name, func(b *testing.B) {
					for b.Loop() {
						if _, err := cs.ListNotices(ctx, c.q); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// noticeExplainPool is a one-connection pool whose statements' plans come
// back as notices (auto_explain), collected for the log.
func noticeExplainPool(b *testing.B, pool *pgxpool.Pool) (*pgxpool.Pool, func() []string) {
	b.Helper()
	cfg := pool.Config().Copy()
	var mu sync.Mutex
	var plans []string
	cfg.ConnConfig.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		if strings.Contains(n.Message, "plan:") {
			mu.Lock()
			plans = append(plans, n.Message)
			mu.Unlock()
		}
	}
	cfg.MaxConns = 1
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		_, err := c.Exec(ctx, `LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on;
			SET auto_explain.log_timing = off; SET client_min_messages = log`)
		return err
	}
	ep, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(ep.Close)
	return ep, func() []string { mu.Lock(); defer mu.Unlock(); out := plans; plans = nil; return out }
}
