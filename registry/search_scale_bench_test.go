package registry_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Surnames by rough frequency (the commonest first) and the characters of
// given names: enough to give the search realistic Chinese names.
const (
	benchSurnames = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
	benchGiven    = "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉萍红娥玲芬燕彬鹏辉建国文斌宇浩凯健俊帆帅旭宁龙林欣怡佳琪梓涵子轩雨泽博文思远晨阳天佑嘉懿若曦一诺亦菲梦琪晓东海波春梅金凤志强永红雪梅立新德胜"
)

var benchProvinces = []string{"11", "12", "31", "32", "33", "37", "41", "44", "51", "50"}

// benchName is a deterministic random Chinese name: a surname skewed to the
// common ones (one in 500 the compound 欧阳), and one or two given characters.
func benchName(r *rand.Rand) string {
	sur := []rune(benchSurnames)
	given := []rune(benchGiven)
	var b strings.Builder
	if r.IntN(500) == 0 {
		b.WriteString("欧阳")
	} else {
		i := int(float64(len(sur)) * r.Float64() * r.Float64()) // skewed to the front
		b.WriteRune(sur[i])
	}
	for range 1 + r.IntN(2) {
		b.WriteRune(given[r.IntN(len(given))])
	}
	return b.String()
}

// bulkPlayers loads n players into a fresh database with COPY (the ten
// provinces' agencies first) and analyses the table.
func bulkPlayers(b *testing.B, n int) *pgxpool.Pool {
	b.Helper()
	ctx := context.Background()
	pool, _ := harness.NewDB(b)
	now := clock()
	for _, p := range benchProvinces {
		if _, err := pool.Exec(ctx, `INSERT INTO agencies (prefix, name, created_at, updated_at) VALUES ($1, $2, $3, $3)`, p+"0", "agency "+p, now); err != nil {
			b.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(1, uint64(n)))
	i := 0
	start := time.Now()
	_, err := pool.CopyFrom(ctx, pgx.Identifier{"players"}, []string{"name", "gender", "birth_date", "nationality", "id_kind",
		"id_number", "identity_key", "province_code", "agency_prefix", "rank", "created_at", "updated_at"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if i == n {
				return nil, nil
			}
			i++
			prov := benchProvinces[r.IntN(len(benchProvinces))]
			birth := time.Date(1950+r.IntN(66), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)
			rank := 0
			if r.IntN(3) == 0 {
				rank = r.IntN(37) - 30 // -30 … 6
			}
			gender := "M"
			if r.IntN(2) == 0 {
				gender = "F"
			}
			num := fmt.Sprintf("P%08d", i)
			return []any{benchName(r), gender, birth, "CN", "passport", num, "passport:CN:" + num, prov, prov + "0", rank, now, now}, nil
		}))
	if err != nil {
		b.Fatal(err)
	}
	// as autovacuum leaves a settled table: analysed, and all-visible so
	// that index-only scans need no heap (a VACUUM racing another
	// transaction's snapshot may leave pages unmarked: it runs again)
	for try := 0; ; try++ {
		if _, err := pool.Exec(ctx, `VACUUM ANALYZE players, player_name_grams`); err != nil {
			b.Fatal(err)
		}
		var unmarked int64
		if err := pool.QueryRow(ctx, `SELECT sum(relpages - relallvisible) FROM pg_class WHERE relname IN ('players', 'player_name_grams')`).Scan(&unmarked); err != nil {
			b.Fatal(err)
		}
		if unmarked == 0 || try == 50 {
			b.Logf("vacuumed %d times, %d pages not all-visible", try+1, unmarked)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.Logf("loaded %d players in %s", n, time.Since(start).Round(time.Millisecond))
	return pool
}

// explainPool is a pool whose every statement's plan (EXPLAIN ANALYZE, by
// auto_explain) comes back as a notice, collected in plans.
func explainPool(b *testing.B, pool *pgxpool.Pool) (*pgxpool.Pool, func() []string) {
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

// searchCases are the public searches the benchmark times: a common
// surname, a common full name, a rare compound surname, a given-name
// character, a province list, and a surname within a province.
var searchCases = []struct {
	name string
	q    registry.PlayerQuery
}{
	{"surname", registry.PlayerQuery{Name: "王"}},
	{"fullname", registry.PlayerQuery{Name: "王伟"}},
	{"fullname3", registry.PlayerQuery{Name: "王秀英"}},
	{"rare", registry.PlayerQuery{Name: "欧阳"}},
	{"given", registry.PlayerQuery{Name: "梓涵"}},
	{"province", registry.PlayerQuery{ProvinceCode: "44"}},
	{"surname+province", registry.PlayerQuery{Name: "张", ProvinceCode: "11"}},
}

// searchSizes are the registry sizes BenchmarkSearchScale loads:
// DANKYU_SEARCH_SIZES (comma-separated), 100 000 by default; loading
// 1 000 000 takes minutes on the shared machine, so it is asked for.
func searchSizes(b *testing.B) []int {
	v := os.Getenv("DANKYU_SEARCH_SIZES")
	if v == "" {
		return []int{100_000}
	}
	var out []int
	for f := range strings.SplitSeq(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("DANKYU_SEARCH_SIZES=%q: %q is not a count of players", v, f)
		}
		out = append(out, n)
	}
	return out
}

// BenchmarkSearchScale times the public name search at 100 000 players
// and any other sizes DANKYU_SEARCH_SIZES asks for (loaded with COPY
// inside the benchmark), logs the plans of each search's count and page
// queries, and times each search against GetPlayer by id in the same run,
// interleaved (5 rounds of 50 calls; min / median / max). Goals: every
// shape ≤ 5 ms, and at most 2× from 100 k to 1 M (the growth is logged
// when both sizes run).
func BenchmarkSearchScale(b *testing.B) {
	ctx := context.Background()
	public := ledger.Actor{}
	medians := map[string]map[int]time.Duration{}
	sizes := searchSizes(b)
	for _, n := range sizes {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			pool := bulkPlayers(b, n)
			s := registry.New(ledger.New(pool, clock, nil))
			ep, plans := explainPool(b, pool)
			es := registry.New(ledger.New(ep, clock, nil))
			var someID int64
			if err := pool.QueryRow(ctx, `SELECT id FROM players ORDER BY id OFFSET $1 LIMIT 1`, n/2).Scan(&someID); err != nil {
				b.Fatal(err)
			}
			for _, c := range searchCases {
				page, err := es.SearchPlayers(ctx, public, c.q)
				if err != nil {
					b.Fatal(err)
				}
				b.Logf("%s at %d: %d on the page, total %d (at least: %v)\n%s", c.name, n, len(page.Players), page.Total, page.TotalAtLeast,
					strings.Join(plans(), "\n"))
			}
			for b.Loop() {
				ops := []func(){func() {
					if _, err := s.GetPlayer(ctx, someID); err != nil {
						b.Fatal(err)
					}
				}}
				for _, c := range searchCases {
					ops = append(ops, func() {
						if _, err := s.SearchPlayers(ctx, public, c.q); err != nil {
							b.Fatal(err)
						}
					})
				}
				t := interleavedRuns(5, 50, ops...)
				for k, c := range searchCases {
					med := medianOf(t[k+1])
					if medians[c.name] == nil {
						medians[c.name] = map[int]time.Duration{}
					}
					medians[c.name][n] = med
					b.Logf("%-17s at %7d: %v / %v / %v per search (min/median/max), %s GetPlayer (%v)", c.name, n,
						minOf(t[k+1]), med, maxOf(t[k+1]), ratioSpread(t[k+1], t[0]), medianOf(t[0]))
				}
			}
		})
	}
	if len(sizes) > 1 {
		lo, hi := sizes[0], sizes[len(sizes)-1]
		for _, c := range searchCases {
			m := medians[c.name]
			b.Logf("growth %s %d → %d: %.2f× (median; goal ≤ 2×)", c.name, lo, hi, float64(m[hi])/float64(m[lo]))
		}
	}
}

// interleavedRuns runs each op n times per round, rounds times, in turn
// (the order rotating), and returns each op's time per call in each round.
func interleavedRuns(rounds, n int, ops ...func()) [][]time.Duration {
	out := make([][]time.Duration, len(ops))
	for r := range rounds {
		for k := range ops {
			i := (k + r) % len(ops)
			start := time.Now()
			for range n {
				ops[i]()
			}
			out[i] = append(out[i], time.Since(start)/time.Duration(n))
		}
	}
	return out
}

func sortedDurations(ds []time.Duration) []time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s
}

func minOf(ds []time.Duration) time.Duration { return sortedDurations(ds)[0].Round(time.Microsecond) }
func maxOf(ds []time.Duration) time.Duration {
	return sortedDurations(ds)[len(ds)-1].Round(time.Microsecond)
}
func medianOf(ds []time.Duration) time.Duration {
	return sortedDurations(ds)[len(ds)/2].Round(time.Microsecond)
}

// ratioSpread is min / median / max of x/base, round by round.
func ratioSpread(x, base []time.Duration) string {
	r := make([]float64, len(x))
	for i := range x {
		r[i] = float64(x[i]) / float64(base[i])
	}
	slices.Sort(r)
	return fmt.Sprintf("%.2f / %.2f / %.2f×", r[0], r[len(r)/2], r[len(r)-1])
}
