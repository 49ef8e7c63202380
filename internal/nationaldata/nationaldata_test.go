package nationaldata_test

import (
	"context"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/nationaldata"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

const auditYear = 2026

// allFive plants each anomaly on a named agency.
func allFive() []nationaldata.Anomaly {
	return []nationaldata.Anomaly{
		{Kind: nationaldata.OverIssue, Agency: "310"}, {Kind: nationaldata.Forfeits, Agency: "320"},
		{Kind: nationaldata.Inactive, Agency: "330"}, {Kind: nationaldata.BirthDates, Agency: "340"},
		{Kind: nationaldata.LateResults, Agency: "350"}}
}

var (
	planOnce sync.Once
	plan     *nationaldata.Plan
	planErr  error
)

// smallPlan is the small data set with all five anomalies, planned once.
func smallPlan(t *testing.T) *nationaldata.Plan {
	t.Helper()
	planOnce.Do(func() {
		plan, planErr = nationaldata.Build(nationaldata.Options{Years: []int{auditYear}, Seed: testSeed(), Scale: nationaldata.Small, Anomalies: allFive()})
	})
	if planErr != nil {
		t.Fatal(planErr)
	}
	return plan
}

// loaded is a fresh database holding the small data set, and its manifest.
func loaded(t *testing.T) (*pgxpool.Pool, nationaldata.Manifest) {
	t.Helper()
	pool, _ := harness.NewDB(t)
	m, err := nationaldata.Load(context.Background(), pool, smallPlan(t))
	if err != nil {
		t.Fatal(err)
	}
	return pool, m
}

func TestPlanIsDeterministic(t *testing.T) {
	opts := func(seed uint64) nationaldata.Options {
		// agencies left to the seed, sizes given
		return nationaldata.Options{Years: []int{auditYear - 1, auditYear}, Seed: seed, Scale: nationaldata.Small, Anomalies: []nationaldata.Anomaly{
			{Kind: nationaldata.OverIssue, Size: 2.5}, {Kind: nationaldata.Forfeits}, {Kind: nationaldata.Inactive},
			{Kind: nationaldata.BirthDates, Size: 10}, {Kind: nationaldata.LateResults, Size: 12}}}
	}
	digest := func(seed uint64) (string, nationaldata.Manifest) {
		p, err := nationaldata.Build(opts(seed))
		if err != nil {
			t.Fatal(err)
		}
		return p.Digest(), p.Manifest
	}
	a, ma := digest(7)
	b, mb := digest(7)
	c, mc := digest(8)
	if a != b {
		t.Fatalf("seed 7 planned twice: digests %s and %s", a, b)
	}
	if a == c {
		t.Fatal("seeds 7 and 8 planned the same data")
	}
	agencies := func(m nationaldata.Manifest) []string {
		var out []string
		for _, an := range m.Anomalies {
			out = append(out, string(an.Anomaly)+"@"+an.Agency)
		}
		return out
	}
	if !slices.Equal(agencies(ma), agencies(mb)) {
		t.Fatalf("seed-chosen agencies differ between runs: %v, %v", agencies(ma), agencies(mb))
	}
	seen := map[string]bool{}
	for _, an := range ma.Anomalies {
		if an.Agency == "" || seen[an.Agency] {
			t.Fatalf("anomalies not on distinct agencies: %v", agencies(ma))
		}
		seen[an.Agency] = true
	}
	t.Logf("seed 7: %v; seed 8: %v", agencies(ma), agencies(mc))
}

func TestParseAnomaly(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want nationaldata.Anomaly
		bad  bool
	}{
		{in: "overissue=310:3.0", want: nationaldata.Anomaly{Kind: nationaldata.OverIssue, Agency: "310", Size: 3}},
		{in: "forfeits=320:0.4", want: nationaldata.Anomaly{Kind: nationaldata.Forfeits, Agency: "320", Size: 0.4}},
		{in: "inactive=330", want: nationaldata.Anomaly{Kind: nationaldata.Inactive, Agency: "330"}},
		{in: "birthdates", want: nationaldata.Anomaly{Kind: nationaldata.BirthDates}},
		{in: "lateresults=:20", want: nationaldata.Anomaly{Kind: nationaldata.LateResults, Size: 20}},
		{in: "forfeits=320:1.5", bad: true},
		{in: "birthdates=340:2.5", bad: true},
		{in: "overissue=999", bad: true},
		{in: "overissue=000", bad: true},
		{in: "cheating=310", bad: true},
		{in: "overissue=310:-1", bad: true},
	} {
		got, err := nationaldata.ParseAnomaly(tc.in)
		if tc.bad != (err != nil) || (!tc.bad && got != tc.want) {
			t.Errorf("ParseAnomaly(%q) = %+v, %v", tc.in, got, err)
		}
	}
	if _, err := nationaldata.Build(nationaldata.Options{Years: []int{auditYear}, Anomalies: []nationaldata.Anomaly{
		{Kind: nationaldata.OverIssue, Agency: "310"}, {Kind: nationaldata.Inactive, Agency: "310"}}}); err == nil {
		t.Error("two anomalies on one agency were planned")
	}
}

// TestGeneratedDataHoldsTogether loads the small set and checks it as the
// kernel and the schema see it: the log's chain and tree verify (what
// `dankyu log verify` runs), rows agree with the manifest and with their
// events, series are gapless, identity numbers valid, times in order; and
// the services keep working on it.
func TestGeneratedDataHoldsTogether(t *testing.T) {
	ctx := context.Background()
	pool, m := loaded(t)
	n, err := ledger.VerifyCheckpoint(ctx, pool, tlog.Tree{})
	if err != nil {
		t.Fatalf("log verification: %v", err)
	}
	if int(n) != m.Counts["log_events"] {
		t.Fatalf("%d log rows, manifest says %d", n, m.Counts["log_events"])
	}
	count := func(sql string, args ...any) int {
		t.Helper()
		var c int
		if err := pool.QueryRow(ctx, sql, args...).Scan(&c); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return c
	}
	for table, key := range map[string]string{"agencies": "agencies", "players": "players", "certificates": "certificates",
		"applications": "applications", "notices": "notices", "objections": "objections", "tournaments": "tournaments",
		"tournament_games": "games", "participants": "participants", "certificate_orders": "orders", "roster_submissions": "roster_submissions"} {
		if got := count(`SELECT count(*) FROM ` + table); got != m.Counts[key] || got == 0 {
			t.Errorf("%s: %d rows, manifest %s = %d", table, got, key, m.Counts[key])
		}
	}
	if m.Counts["players"] < 3000 || m.Counts["tournaments"] < 34 || m.Counts["sgf_records"] == 0 || m.Counts["objections"] == 0 {
		t.Errorf("small set too small: %v", m.Counts)
	}
	// every row with the events the services write for it
	for _, c := range []struct{ what, sql string }{
		{"players without player.registered", `SELECT count(*) FROM players p WHERE NOT EXISTS (SELECT 1 FROM events e
			WHERE e.action = 'player.registered' AND e.entity_id = p.id::text)`},
		{"certificates without certificate.issued", `SELECT count(*) FROM certificates c WHERE NOT EXISTS (SELECT 1 FROM events e
			WHERE e.action = 'certificate.issued' AND e.entity_id = coalesce(c.number, '#' || c.id))`},
		{"applications without application.submitted", `SELECT count(*) FROM applications a WHERE NOT EXISTS (SELECT 1 FROM events e
			WHERE e.action = 'application.submitted' AND e.entity_id = a.id::text)`},
		{"games without tournament.result", `SELECT count(*) FROM tournament_games g WHERE NOT EXISTS (SELECT 1 FROM events e
			WHERE e.action = 'tournament.result' AND e.entity_id = g.tournament_id::text
			AND (e.payload->>'round')::int = g.round AND (e.payload->>'board')::int = g.board AND e.payload->>'result' = g.result)`},
		{"certified ranks not those of the newest certificate", `SELECT count(*) FROM players p WHERE p.rank <> coalesce((SELECT c.rank FROM certificates c
			WHERE c.player_id = p.id AND c.status = 'valid' ORDER BY c.granted_at DESC, c.id DESC LIMIT 1), 0)`},
		{"series whose last serial is not their count", `SELECT count(*) FROM certificate_series s WHERE s.last_serial <> (SELECT count(*)
			FROM certificates c WHERE c.issuing_prefix = s.prefix AND c.year = s.year AND c.kind = s.kind AND c.serial IS NOT NULL)`},
		{"dan certificates above the granted stock", `SELECT count(*) FROM (SELECT c.issuing_prefix, count(*) AS n FROM certificates c
			WHERE c.kind = 'dan' AND c.issuing_prefix <> '000' GROUP BY 1) c JOIN certificate_orders o ON o.agency_prefix = c.issuing_prefix
			AND o.year = 2026 WHERE o.status <> 'granted' OR o.dan_count < c.n`},
		{"records that disagree with the reported result", `SELECT count(*) FROM tournament_games WHERE record <> ''
			AND (flagged OR NOT ((result = 'black' AND adjudicated LIKE 'B+%') OR (result = 'white' AND adjudicated LIKE 'W+%')))`},
		{"events out of time order", `SELECT count(*) FROM events e JOIN events f ON f.id = e.id + 1 WHERE f.at < e.at`},
		{"events after the year's first December morning", `SELECT count(*) FROM events WHERE at > $1`},
		{"roster submissions not at the log's size before them", `SELECT count(*) FROM roster_submissions r JOIN events e
			ON e.action = 'roster.submitted' AND (e.payload->>'submission')::bigint = r.id WHERE r.log_size <> e.id - 1`},
	} {
		var args []any
		if strings.Contains(c.sql, "$1") {
			args = append(args, time.Date(auditYear, time.December, 1, 2, 0, 0, 0, time.UTC))
		}
		if got := count(c.sql, args...); got != 0 {
			t.Errorf("%s: %d", c.what, got)
		}
	}
	// every certificate row is what its events say, as the verification checks it (issue 31)
	checker := ledger.New(pool, fixture.TodayClock(t).Now, nil)
	cs, err := certs.New(checker, registry.New(checker), certs.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if mismatches, err := cs.CheckCertificatesAgainstLog(ctx); err != nil || len(mismatches) != 0 {
		t.Errorf("certificates that disagree with their events: %v, %v", mismatches, err)
	}
	// valid identity numbers that agree with the birth dates; many minors, kyu heavy
	rows, err := pool.Query(ctx, `SELECT id_number, birth_date, declared_rank FROM players`)
	if err != nil {
		t.Fatal(err)
	}
	var minors, kyu, dan, all int
	on := time.Date(auditYear, time.June, 1, 0, 0, 0, 0, time.UTC)
	for rows.Next() {
		var number string
		var birth time.Time
		var rank int
		if err := rows.Scan(&number, &birth, &rank); err != nil {
			t.Fatal(err)
		}
		id, err := registry.ParseResidentID(number, on.AddDate(1, 0, 0))
		if err != nil || !id.BirthDate.Equal(birth) {
			t.Fatalf("identity %s (born %s): %v", registry.MaskIdentity(number), birth.Format(time.DateOnly), err)
		}
		all++
		if registry.AgeOn(birth, on) < registry.AdultAge {
			minors++
		}
		if rank < 0 {
			kyu++
		} else if rank > 0 {
			dan++
		}
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	if minors*10 < all*4 || kyu < 2*dan {
		t.Errorf("of %d players %d minors, %d kyu, %d dan: want ≥ 40 %% minors and kyu heavy", all, minors, kyu, dan)
	}
	high := count(`SELECT count(*) FROM certificates WHERE rank >= 4`)
	if high == 0 || high*12 > m.Counts["dan_certificates"] {
		t.Errorf("%d certificates of 4–7 dan of %d dan: want a few", high, m.Counts["dan_certificates"])
	}
	for _, basis := range []string{"tournament", "appraisal", "national_result", "national_championship"} {
		if count(`SELECT count(*) FROM certificates WHERE basis = $1`, basis) == 0 {
			t.Errorf("no certificate on basis %s", basis)
		}
	}
	if count(`SELECT count(*) FROM notices WHERE status = 'failed'`) == 0 || count(`SELECT count(*) FROM objections WHERE status = 'dismissed'`) == 0 {
		t.Error("no failed notice or no dismissed objection")
	}
	// the services go on where the load left off: a new player, logged and in the tree
	store := ledger.New(pool, fixture.NewClock(time.Date(auditYear, time.December, 2, 2, 0, 0, 0, time.UTC)).Now, nil)
	reg := registry.New(store)
	p, err := reg.RegisterPlayer(ctx, fixture.Agency("110"), "", registry.PlayerInput{Name: "新来者", Gender: registry.Male, BirthDate: "2001-02-03",
		IDKind: registry.ResidentIDCard, IDNumber: fixture.ResidentID("110", "2001-02-03", 999), ProvinceCode: "11"})
	if err != nil {
		t.Fatal(err)
	}
	if int(p.ID) != m.Counts["players"]+1 {
		t.Errorf("new player got id %d after %d loaded", p.ID, m.Counts["players"])
	}
	if n2, err := ledger.VerifyCheckpoint(ctx, pool, tlog.Tree{}); err != nil || n2 != n+1 {
		t.Fatalf("after a service append: %d rows, %v", n2, err)
	}
}

// perAgency runs a query of (prefix, value) rows into a map.
func perAgency[V any](t *testing.T, pool *pgxpool.Pool, sql string, args ...any) map[string]V {
	t.Helper()
	rows, err := pool.Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer rows.Close()
	out := map[string]V{}
	for rows.Next() {
		var k string
		var v V
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		out[k] = v
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	return out
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	return s[len(s)/2]
}

// TestAnomaliesArePlantedAndNowhereElse counts each anomaly from the rows
// and the event log, as the audit would, on the planted agency (its
// stated size) and on the 33 others (absent).
func TestAnomaliesArePlantedAndNowhereElse(t *testing.T) {
	pool, m := loaded(t)
	from, to := time.Date(auditYear-1, time.November, 30, 16, 0, 0, 0, time.UTC), time.Date(auditYear, time.November, 30, 16, 0, 0, 0, time.UTC)
	var prefixes []string
	for _, p := range registry.Provinces() {
		if p.Prefix != registry.AssociationPrefix {
			prefixes = append(prefixes, p.Prefix)
		}
	}
	planted := map[nationaldata.Kind]nationaldata.Planted{}
	for _, a := range m.Anomalies {
		planted[a.Anomaly] = a
	}

	t.Run("overissue", func(t *testing.T) {
		issued := perAgency[int](t, pool, `SELECT issuing_prefix, count(*)::int FROM certificates WHERE kind = 'dan' AND issued_at >= $1 AND issued_at < $2
			GROUP BY 1`, from, to)
		players := perAgency[int](t, pool, `SELECT agency_prefix, count(*)::int FROM players WHERE created_at < $1 GROUP BY 1`, to)
		rate := map[string]float64{}
		var normal []float64
		for _, p := range prefixes {
			rate[p] = float64(issued[p]) / float64(players[p])
			if p != "310" && p != "330" {
				normal = append(normal, rate[p])
			}
		}
		med := median(normal)
		if got := rate["310"] / med; got < 2.4 || got > 3.8 {
			t.Errorf("agency 310 issues %.3f dan certificates per player, %.2f× the median %.3f; want about 3×", rate["310"], got, med)
		}
		for _, p := range prefixes {
			if p != "310" && p != "330" && (rate[p] > 1.8*med || rate[p] < 0.4*med) {
				t.Errorf("agency %s issues %.3f per player, %.2f× the median", p, rate[p], rate[p]/med)
			}
		}
		if len(planted[nationaldata.OverIssue].Certificates) != issued["310"] {
			t.Errorf("manifest lists %d certificates of 310, the rows %d", len(planted[nationaldata.OverIssue].Certificates), issued["310"])
		}
	})

	t.Run("forfeits", func(t *testing.T) {
		// the qualifying wins of the players who were then certified
		type wins struct{ all, forfeits int }
		rows, err := pool.Query(context.Background(), `SELECT t.organiser_prefix, count(*)::int,
			count(*) FILTER (WHERE g.result IN ('black_forfeit', 'white_forfeit'))::int
			FROM tournament_proposals pr
			JOIN applications a ON a.id = pr.application_id AND a.status = 'issued'
			JOIN tournaments t ON t.id = pr.tournament_id
			JOIN tournament_games g ON g.tournament_id = pr.tournament_id
				AND ((g.black = pr.number AND g.result IN ('black', 'black_forfeit')) OR (g.white = pr.number AND g.result IN ('white', 'white_forfeit')))
			WHERE t.end_date >= $1::date AND t.end_date < $2::date GROUP BY 1`, from, to)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]wins{}
		for rows.Next() {
			var p string
			var w wins
			if err := rows.Scan(&p, &w.all, &w.forfeits); err != nil {
				t.Fatal(err)
			}
			got[p] = w
		}
		rows.Close()
		share := func(p string) float64 { return float64(got[p].forfeits) / float64(max(1, got[p].all)) }
		if s := share("320"); s < 0.35 || s > 0.45 {
			t.Errorf("agency 320: %d of %d qualifying wins were forfeits (%.2f); want 0.40", got["320"].forfeits, got["320"].all, s)
		}
		all, forfeits := 0, 0
		for _, p := range prefixes {
			if p == "320" || p == "330" {
				continue
			}
			all, forfeits = all+got[p].all, forfeits+got[p].forfeits
			if share(p) > 0.08 {
				t.Errorf("agency %s: %d of %d qualifying wins were forfeits", p, got[p].forfeits, got[p].all)
			}
		}
		if s := float64(forfeits) / float64(all); s < 0.003 || s > 0.03 {
			t.Errorf("elsewhere %d of %d qualifying wins were forfeits (%.3f); want about 1 %%", forfeits, all, s)
		}
	})

	t.Run("inactive", func(t *testing.T) {
		months := perAgency[int](t, pool, `SELECT substr(actor, 8), count(DISTINCT date_trunc('month', at AT TIME ZONE 'Asia/Shanghai'))::int
			FROM events WHERE actor LIKE 'agency:%' AND at >= $1 AND at < $2 GROUP BY 1`, from, to)
		for _, p := range prefixes {
			want := 12
			if p == "330" {
				want = 0
			}
			if months[p] != want {
				t.Errorf("agency %s acted in %d months of the year; want %d", p, months[p], want)
			}
		}
		var rowsOf330 int
		err := pool.QueryRow(context.Background(), `SELECT
			(SELECT count(*) FROM players WHERE agency_prefix = '330' AND (created_at >= $1 OR updated_at >= $1))
			+ (SELECT count(*) FROM applications WHERE agency_prefix = '330' AND applied_at >= $1)
			+ (SELECT count(*) FROM tournaments WHERE organiser_prefix = '330' AND created_at >= $1)
			+ (SELECT count(*) FROM certificate_orders WHERE agency_prefix = '330' AND year >= 2026)
			+ (SELECT count(*) FROM roster_submissions WHERE agency_prefix = '330' AND submitted_at >= $1)
			+ (SELECT count(*) FROM events WHERE at >= $1 AND at < $2 AND (actor = 'agency:330' OR entity_id LIKE '330/%'))`, from, to).Scan(&rowsOf330)
		if err != nil || rowsOf330 != 0 {
			t.Errorf("agency 330 has %d rows or events in the year (%v)", rowsOf330, err)
		}
	})

	t.Run("birthdates", func(t *testing.T) {
		edited := perAgency[[]int64](t, pool, `SELECT a.agency_prefix, array_agg(DISTINCT a.player_id ORDER BY a.player_id)
			FROM events e JOIN applications a ON a.player_id = e.entity_id::bigint AND a.basis = 'appraisal'
				AND a.applied_at > e.at AND a.applied_at <= e.at + interval '30 days'
			WHERE e.action = 'player.updated' AND (e.payload->>'birth_date_changed')::bool
			GROUP BY 1`)
		want := slices.Sorted(slices.Values(planted[nationaldata.BirthDates].Players))
		if len(edited["340"]) != 15 || !slices.Equal(edited["340"], want) {
			t.Errorf("agency 340: %d players edited before appraisal %v; manifest %v", len(edited["340"]), edited["340"], want)
		}
		for p, ids := range edited {
			if p != "340" {
				t.Errorf("agency %s: %d birth dates edited before appraisal", p, len(ids))
			}
		}
		others := perAgency[int](t, pool, `SELECT substr(actor, 8), count(*)::int FROM events WHERE action = 'player.updated'
			AND NOT coalesce((payload->>'birth_date_changed')::bool, false) GROUP BY 1`)
		if len(others) < 30 {
			t.Errorf("ordinary edits (birth date kept) by only %d agencies", len(others))
		}
	})

	t.Run("lateresults", func(t *testing.T) {
		late := perAgency[int](t, pool, `WITH r AS (SELECT id, at, entity_id::bigint AS tid, (payload->>'round')::int AS round,
				(payload->>'board')::int AS board, payload->>'result' AS result FROM events WHERE action = 'tournament.result')
			SELECT t.organiser_prefix, count(*)::int FROM r AS later
			JOIN r AS first ON first.tid = later.tid AND first.round = later.round AND first.board = later.board
				AND first.id < later.id AND first.result <> later.result
			JOIN tournaments t ON t.id = later.tid
			WHERE later.at > (t.end_date + 8)::timestamp AT TIME ZONE 'Asia/Shanghai'
				OR EXISTS (SELECT 1 FROM tournament_rounds n WHERE n.tournament_id = later.tid AND n.round = later.round + 1 AND n.paired_at < later.at)
			GROUP BY 1`)
		if late["350"] != 20 || len(planted[nationaldata.LateResults].Games) != 20 {
			t.Errorf("agency 350: %d late result changes, manifest %d; want 20", late["350"], len(planted[nationaldata.LateResults].Games))
		}
		for p, n := range late {
			if p != "350" {
				t.Errorf("agency %s: %d late result changes", p, n)
			}
		}
	})
}

// testSeed is 7, or NATGEN_SEED to try the tests on another seed.
func testSeed() uint64 {
	if s, err := strconv.ParseUint(os.Getenv("NATGEN_SEED"), 10, 64); err == nil {
		return s
	}
	return 7
}

// TestSeveralYears loads two audit years: the log verifies, each year's
// dan certificates stay within that year's granted stock and series, and
// the anomalies sit in the last year only.
func TestSeveralYears(t *testing.T) {
	ctx := context.Background()
	p, err := nationaldata.Build(nationaldata.Options{Years: []int{auditYear - 1, auditYear}, Seed: testSeed(), Scale: nationaldata.Small,
		Anomalies: []nationaldata.Anomaly{{Kind: nationaldata.Inactive, Agency: "330"}}})
	if err != nil {
		t.Fatal(err)
	}
	pool, _ := harness.NewDB(t)
	if _, err := nationaldata.Load(ctx, pool, p); err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.VerifyCheckpoint(ctx, pool, tlog.Tree{}); err != nil {
		t.Fatal(err)
	}
	var over, years, active2025 int
	err = pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM (SELECT c.issuing_prefix, c.year, count(*) AS n FROM certificates c WHERE c.kind = 'dan' AND c.issuing_prefix <> '000'
			GROUP BY 1, 2) c LEFT JOIN certificate_orders o ON o.agency_prefix = c.issuing_prefix AND o.year = 2000 + c.year AND o.status = 'granted'
			WHERE o.dan_count IS NULL OR o.dan_count < c.n),
		(SELECT count(DISTINCT year) FROM certificates),
		(SELECT count(*) FROM events WHERE actor = 'agency:330' AND at >= '2024-11-30 16:00Z' AND at < '2025-11-30 16:00Z')`).Scan(&over, &years, &active2025)
	if err != nil {
		t.Fatal(err)
	}
	if over != 0 || years != 2 || active2025 == 0 {
		t.Fatalf("%d series above their stock, certificates of %d years, %d acts of 330 in 2025 (active then)", over, years, active2025)
	}
}
