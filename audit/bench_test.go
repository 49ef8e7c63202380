package audit_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/nationaldata"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// syntheticYear writes, for each of the 34 provinces, a year of the event
// log as the services write it (players registered, applications,
// certificates issued, a dan-grade event's pairings and results), through the
// ledger's own chained append. perAgency is the players per agency.
func syntheticYear(b *testing.B, store *ledger.Store, reg *registry.Service, ts *tournaments.Service, perAgency int) (events int) {
	b.Helper()
	ctx := context.Background()
	var prefixes []string
	for _, p := range registry.Provinces() {
		if p.Prefix != registry.AssociationPrefix {
			prefixes = append(prefixes, p.Prefix)
		}
	}
	fixture.Agencies(b, reg, prefixes...)
	type ev struct {
		at               time.Time
		actor            ledger.Actor
		action, kind, id string
		payload          map[string]any
	}
	var all []ev
	start := time.Date(2025, 12, 1, 2, 0, 0, 0, time.UTC)
	player := int64(0)
	for ai, prefix := range prefixes {
		prov, _ := registry.ProvinceByPrefix(prefix)
		actor := fixture.Agency(prefix)
		e, err := ts.CreateEvent(ctx, actor, "", tournaments.EventInput{Name: prov.NameZH + "段位赛", Start: "2026-05-01", End: "2026-05-02",
			Level: "province", System: "swiss", Rounds: 5, DanGrade: true, Groups: []tournaments.GroupInput{{Name: "A", TargetRank: "1d", MinWins: 4}}})
		if err != nil {
			b.Fatal(err)
		}
		first := player + 1
		for i := range perAgency {
			player++
			at := start.Add(time.Duration(i*24*365/perAgency) * time.Hour)
			all = append(all, ev{at, actor, "player.registered", "player", strconv.FormatInt(player, 10), map[string]any{
				"id": player, "name": "棋手", "gender": "M", "birth_date": "1990-01-01", "nationality": "CN", "identity_kind": "resident_id",
				"identity_number": prefix + "***", "province_code": prov.Code, "agency_prefix": prefix, "rank": "", "declared_rank": "1k"}})
			if i%6 == 0 {
				app := fmt.Sprintf("%d", player)
				all = append(all, ev{at.Add(time.Hour), actor, "application.submitted", "application", app, map[string]any{
					"player_id": player, "target_rank": "1d", "basis": "tournament", "event_ref": "x", "record_ref": "y", "appraiser_id": 0}})
				all = append(all, ev{at.Add(2 * time.Hour), actor, "certificate.issued", "certificate", fmt.Sprintf("%s26%04d", prefix, i/6+1), map[string]any{
					"number": fmt.Sprintf("%s26%04d", prefix, i/6+1), "player_id": player, "rank": "1d", "basis": "tournament", "issuer": prefix,
					"issue_date": at.Format(time.DateOnly), "athlete_grade": "", "application_id": player, "replaces": 0}})
			}
		}
		at := time.Date(2026, 4, 30, 2, 0, 0, 0, time.UTC)
		for n := 1; n <= 40; n++ {
			all = append(all, ev{at, actor, "tournament.participant_added", "tournament", strconv.FormatInt(e.ID, 10),
				map[string]any{"number": n, "player_id": first + int64(n), "name": "棋手", "rank": "1k"}})
		}
		for r := 1; r <= 5; r++ {
			at := time.Date(2026, 5, 1, r, 0, 0, 0, time.UTC)
			var pairs []map[string]any
			for bd := 1; bd <= 20; bd++ {
				pairs = append(pairs, map[string]any{"Black": (bd + r) % 40, "White": (bd + r + 20) % 40, "Nigiri": false})
			}
			all = append(all, ev{at, actor, "tournament.round_paired", "tournament", strconv.FormatInt(e.ID, 10),
				map[string]any{"round": r, "seed": ai, "pairs": pairs, "bye": 0}})
			for bd := 1; bd <= 20; bd++ {
				all = append(all, ev{at.Add(time.Hour), actor, "tournament.result", "tournament", strconv.FormatInt(e.ID, 10), map[string]any{
					"round": r, "board": bd, "result": []string{"black", "white"}[bd%2], "warnings": []int{0, 0}, "record": false, "adjudicated": "", "flagged": false}})
			}
		}
	}
	for i := 0; i < len(all); i += 5000 {
		batch := all[i:min(i+5000, len(all))]
		err := ledger.Transact(ctx, store, func(tx *ledger.Tx) error {
			for _, e := range batch {
				if err := ledger.Append(ctx, tx, e.at, e.actor, e.kind, e.id, oldRow{e.action, e.payload}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return len(all)
}

// BenchmarkOpenYear computes the scorecards of all 34 agencies for one year
// from the event log (one pass, as opening the audits does), against a plain
// SELECT of the same rows and columns in the same run: x_select is the ratio.
func BenchmarkOpenYear(b *testing.B) {
	pool, _ := harness.NewDB(b)
	clock := fixture.NewClock(time.Date(2026, 11, 20, 2, 0, 0, 0, time.UTC))
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	au, err := audit.New(store, reg, audit.Config{})
	if err != nil {
		b.Fatal(err)
	}
	n := syntheticYear(b, store, reg, tournaments.New(store, reg, nil), 1500)
	scorecardsAgainstSelect(b, pool, au, n, n)

}

// BenchmarkOpenYearNational is BenchmarkOpenYear on the national data set
// (internal/nationaldata at national scale, seed 7: some 325 000 players,
// 57 000 certificates, 3 700 events, 735 000 games, 1.5 million log rows):
// the scorecards of all 34 agencies against a plain SELECT of the same log
// rows and columns, in the same run. Loading the set takes about a minute
// before the timings start.
func BenchmarkOpenYearNational(b *testing.B) {
	ctx := context.Background()
	scale := nationaldata.National
	if os.Getenv("DANKYU_NATIONAL_SCALE") == "small" { // a quick run on a loaded machine
		scale = nationaldata.Small
	}
	plan, err := nationaldata.Build(nationaldata.Options{Years: []int{2026}, Seed: 7, Scale: scale,
		Anomalies: []nationaldata.Anomaly{{Kind: nationaldata.OverIssue}, {Kind: nationaldata.Forfeits}, {Kind: nationaldata.Inactive},
			{Kind: nationaldata.BirthDates}, {Kind: nationaldata.LateResults}}})
	if err != nil {
		b.Fatal(err)
	}
	pool, _ := harness.NewDB(b)
	m, err := nationaldata.Load(ctx, pool, plan)
	if err != nil {
		b.Fatal(err)
	}
	plan = nil // the plan is large; the database holds it now
	store := ledger.New(pool, fixture.NewClock(time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)).Now, nil)
	au, err := audit.New(store, registry.New(store), audit.Config{})
	if err != nil {
		b.Fatal(err)
	}
	scorecardsAgainstSelect(b, pool, au, m.Counts["log_events"]/2, m.Counts["log_events"])

}

// scorecardsAgainstSelect times the scorecards of all 34 agencies for 2026
// against a plain SELECT of the same log rows and columns, in one run:
// x_select is the ratio. The SELECT must see at least minRows rows.
func scorecardsAgainstSelect(b *testing.B, pool *pgxpool.Pool, au *audit.Service, minRows, events int) {
	ctx := context.Background()
	var agencies []string
	for _, p := range registry.Provinces() {
		if p.Prefix != registry.AssociationPrefix {
			agencies = append(agencies, p.Prefix)
		}
	}
	period := audit.Config{}.Period(2026)
	var baseline float64
	b.Run("select", func(b *testing.B) {
		peak := sampleHeap()
		defer func() { b.ReportMetric(peak()/(1<<20), "peak-heap-MB") }()
		for i := 0; i < b.N; i++ {
			freshHeap(b)
			rows, err := pool.Query(ctx, `SELECT id, at, actor, action, entity_type, entity_id, payload::text FROM events
				WHERE id <= (SELECT max(id) FROM events) AND at < $1 ORDER BY id`, period.End)
			if err != nil {
				b.Fatal(err)
			}
			var (
				id                                int64
				at                                time.Time
				actor, action, kind, entity, body string
				count                             int
			)
			for rows.Next() {
				if err := rows.Scan(&id, &at, &actor, &action, &kind, &entity, &body); err != nil {
					b.Fatal(err)
				}
				count++
			}
			if rows.Err() != nil || count < minRows {
				b.Fatalf("%d rows, want %d; %v", count, minRows, rows.Err())
			}
		}
		baseline = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	b.Run("audit", func(b *testing.B) {
		peak := sampleHeap()
		defer func() { b.ReportMetric(peak()/(1<<20), "peak-heap-MB") }()
		for i := 0; i < b.N; i++ {
			freshHeap(b)
			cards, err := au.ScorecardsNow(ctx, 2026, agencies)
			if err != nil || len(cards) != 34 {
				b.Fatalf("%d scorecards, %v", len(cards), err)
			}
		}
		if baseline > 0 {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/baseline, "x_select")
		}
		b.ReportMetric(float64(events), "events")
	})
}

// freshHeap collects the garbage of the iteration before, off the clock,
// so that each iteration's peak is that of one pass: without it the
// second pass starts beside the first one's dead tables, which the
// collector frees only when the heap reaches twice the live set it last
// marked (the first pass's), and the peak measured moves by some 40 MB
// with where that collection falls.
func freshHeap(b *testing.B) {
	b.StopTimer()
	runtime.GC()
	b.StartTimer()
}

// sampleHeap samples the heap in use (runtime.MemStats.HeapInuse) every
// 20 ms from a fresh collection on, until the function it returns is
// called; that returns the highest sample, in bytes: the peak memory of
// the work in between, within a sample.
func sampleHeap() func() float64 {
	runtime.GC()
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var ms runtime.MemStats
		var high uint64
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			high = max(high, ms.HeapInuse)
			select {
			case <-done:
				peak <- high
				return
			case <-t.C:
			}
		}
	}()
	return func() float64 {
		close(done)
		return float64(<-peak)
	}
}
