package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/nationaldata"
	"github.com/dankyu/dankyu/internal/server"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// BenchmarkSearchNational times gRPC SearchPlayers on the national data set
// (internal/nationaldata, seed 7, national scale: some 325 000 players, as
// BenchmarkOpenYearNational loads it) against gRPC GetPlayer by id in the
// same run, over the same loopback connection, anonymous as the public
// asks: each shape in turn with GetPlayer, 5 rounds of 30 calls,
// min / median / max of the ratio per round. The shape is "梓" in
// the smallest province (goal ≤ 10×). DANKYU_NATIONAL_SCALE=small loads
// the small set instead. Run with -benchtime 1x.
func BenchmarkSearchNational(b *testing.B) {
	ctx := context.Background()
	scale := nationaldata.National
	if os.Getenv("DANKYU_NATIONAL_SCALE") == "small" {
		scale = nationaldata.Small
	}
	plan, err := nationaldata.Build(nationaldata.Options{Years: []int{2026}, Seed: 7, Scale: scale})
	if err != nil {
		b.Fatal(err)
	}
	pool, _ := harness.NewDB(b)
	m, err := nationaldata.Load(ctx, pool, plan)
	if err != nil {
		b.Fatal(err)
	}
	plan = nil
	if _, err := pool.Exec(ctx, `ANALYZE`); err != nil {
		b.Fatal(err)
	}
	store := ledger.New(pool, fixture.NewClock(time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)).Now, nil)
	reg := registry.New(store)
	au, err := audit.New(store, reg, audit.Config{})
	if err != nil {
		b.Fatal(err)
	}
	cs, err := certs.New(store, reg, certs.Config{})
	if err != nil {
		b.Fatal(err)
	}
	lim, err := (&server.Config{}).Limiters(store.Now, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	gs, _ := server.NewGRPCServer(store, reg, cs, tournaments.New(store, reg, nil), au, book.New(store), slog.New(slog.DiscardHandler), lim.API())
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go gs.Serve(lis)
	b.Cleanup(gs.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	client := pb.NewRegistryServiceClient(conn)

	// the smallest province that has players named with 梓, its count of
	// them, and the largest province
	var small, large string
	var smallPlayers, smallZi int64
	if err := pool.QueryRow(ctx, `SELECT province_code, count(*), count(*) FILTER (WHERE name LIKE '%梓%') FROM players
		GROUP BY province_code HAVING count(*) FILTER (WHERE name LIKE '%梓%') > 0 ORDER BY count(*) LIMIT 1`).Scan(&small, &smallPlayers, &smallZi); err != nil {
		b.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `SELECT province_code FROM players GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`).Scan(&large); err != nil {
		b.Fatal(err)
	}
	var adult int64
	if err := pool.QueryRow(ctx, `SELECT id FROM players WHERE birth_date < '1990-01-01' AND merged_into IS NULL ORDER BY id LIMIT 1`).Scan(&adult); err != nil {
		b.Fatal(err)
	}
	var surname string // the commonest first character of a name
	if err := pool.QueryRow(ctx, `SELECT left(name, 1) FROM players GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`).Scan(&surname); err != nil {
		b.Fatal(err)
	}
	get := func() {
		if p, err := client.GetPlayer(ctx, &pb.GetPlayerRequest{Id: adult}); err != nil || p.GetPlayer().GetId() != adult {
			b.Fatalf("GetPlayer %d: %v %v", adult, p, err)
		}
	}
	shapes := []struct {
		name string
		req  *pb.SearchPlayersRequest
	}{
		{fmt.Sprintf("梓 in province %s (%d players, %d with 梓)", small, smallPlayers, smallZi), &pb.SearchPlayersRequest{Name: "梓", ProvinceCode: small}},
		{"梓 anywhere", &pb.SearchPlayersRequest{Name: "梓"}},
		{fmt.Sprintf("%s in province %s (the largest)", surname, large), &pb.SearchPlayersRequest{Name: surname, ProvinceCode: large}},
		{fmt.Sprintf("province %s, no name", small), &pb.SearchPlayersRequest{ProvinceCode: small}},
	}
	for _, s := range shapes {
		if r, err := client.SearchPlayers(ctx, s.req); err != nil || len(r.GetPlayers()) == 0 {
			b.Fatalf("%s: %v %v", s.name, r, err)
		}
	}
	b.Logf("%s", genericPlans(b, pool, small))
	for b.Loop() {
		b.Logf("national set: %d players, %d log rows; load average %s", m.Counts["players"], m.Counts["log_events"], loadAverage())
		for i, s := range shapes {
			search := func() {
				if _, err := client.SearchPlayers(ctx, s.req); err != nil {
					b.Fatal(err)
				}
			}
			t := interleaved(5, 30, search, get)
			r := searchSpread(t[0], t[1])
			b.Logf("SearchPlayers %s: %v per call (median) vs GetPlayer %v: %.1f / %.1f / %.1f×", s.name,
				searchMedian(t[0]), searchMedian(t[1]), r[0], r[1], r[2])
			if i == 0 {
				b.ReportMetric(r[1], "x_getplayer")
			}
		}
	}
}

// genericPlans explains the count of a province's adults as the search
// made it with the province a parameter, under the generic plan a
// statement prepared by pgx gets after five runs, and as it makes it now,
// with the province's code in the statement.
func genericPlans(b *testing.B, pool *pgxpool.Pool, province string) string {
	ctx := context.Background()
	c, err := pool.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Release()
	var out strings.Builder
	for i, cond := range []string{"province_code = $1", fmt.Sprintf("province_code = '%s' AND $1 <> ''", province)} {
		sql := fmt.Sprintf(`PREPARE search_plan%d(text, date) AS SELECT count(*) FROM (SELECT 1 FROM players
			WHERE merged_into IS NULL AND %s AND birth_date <= $2 ORDER BY id LIMIT 101) c`, i, cond)
		if _, err := c.Exec(ctx, sql); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Exec(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
			b.Fatal(err)
		}
		rows, err := c.Query(ctx, fmt.Sprintf(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) EXECUTE search_plan%d('%s', '2008-12-01')`, i, province))
		if err != nil {
			b.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(&out, "\ngeneric plan, %s:\n%s", cond, strings.Join(lines, "\n"))
	}
	if _, err := c.Exec(ctx, `RESET plan_cache_mode`); err != nil {
		b.Fatal(err)
	}
	return out.String()
}

// searchSpread is min / median / max of x/base, round by round.
func searchSpread(x, base []time.Duration) [3]float64 {
	rs := make([]float64, len(x))
	for i := range x {
		rs[i] = float64(x[i]) / float64(base[i])
	}
	slices.Sort(rs)
	return [3]float64{rs[0], rs[len(rs)/2], rs[len(rs)-1]}
}

func searchMedian(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2].Round(time.Microsecond)
}

// loadAverage is the machine's load average, for the log beside the ratios.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return string(b[:min(len(b), 14)])
}
