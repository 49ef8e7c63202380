package tournaments_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// TestStandingsCacheSeesChanges: records read through the cache are the
// records computed afresh, before and after a result is voided (the void
// changes a record, so a stale cache would be caught), and an unknown
// event is no event.
func TestStandingsCacheSeesChanges(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	var players []int64
	for i := range 6 {
		players = append(players, fixture.Player(t, e.reg, "110", fmt.Sprintf("缓存%d", i), "", "1990-01-01", i).ID)
	}
	ev := fixture.Earned(t, e.ts, "1d", players...)
	cache := tournaments.NewStandingsCache()
	read := func() (cached, fresh []tournaments.PlayerRecord) {
		t.Helper()
		for _, p := range players {
			c, err := cache.PlayerRecord(ctx, e.pool, ev, p)
			if err != nil {
				t.Fatal(err)
			}
			f, err := tournaments.PlayerRecordTx(ctx, e.pool, ev, p)
			if err != nil {
				t.Fatal(err)
			}
			cached, fresh = append(cached, c), append(fresh, f)
		}
		return cached, fresh
	}
	before, fresh := read()
	if !reflect.DeepEqual(before, fresh) || !before[0].Participant || !before[0].Exists {
		t.Fatalf("cached %+v, computed %+v", before, fresh)
	}
	if _, err := e.ts.VoidResult(ctx, fixture.Staff, "", ev, tournaments.VoidInput{Round: 1, Board: 1, Side: "both", Reason: "缓存测试"}); err != nil {
		t.Fatal(err)
	}
	voided, fresh := read()
	if !reflect.DeepEqual(voided, fresh) {
		t.Fatalf("after a void: cached %+v, computed %+v", voided, fresh)
	}
	if reflect.DeepEqual(voided, before) {
		t.Fatalf("voiding board 1 changed no record: %+v", voided)
	}
	if r, err := cache.PlayerRecord(ctx, e.pool, ev+1000, players[0]); err != nil || r.Exists {
		t.Fatalf("an unknown event: %+v, %v", r, err)
	}
}

// TestStandingsCacheDistrustsASnapshotFromAhead: after a failover to a
// replica that had not received the primary's last commits, transaction
// ids the old primary used are used again, so an entry read there in a
// snapshot ahead of the database's ids is not trusted: a change made now
// (with an id below that snapshot's) is still seen.
func TestStandingsCacheDistrustsASnapshotFromAhead(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	var players []int64
	for i := range 4 {
		players = append(players, fixture.Player(t, e.reg, "110", fmt.Sprintf("切换%d", i), "", "1990-01-01", i).ID)
	}
	ev := fixture.Earned(t, e.ts, "1d", players...)
	cache := tournaments.NewStandingsCache()
	if _, err := cache.PlayerRecord(ctx, e.pool, ev, players[0]); err != nil {
		t.Fatal(err)
	}
	var next uint64
	if err := e.pool.QueryRow(ctx, `SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint`).Scan(&next); err != nil {
		t.Fatal(err)
	}
	ahead := fmt.Sprintf("%d:%d:", next+1_000_000, next+1_000_000)
	cache.AgeSnapshotForTest(ev, ahead)
	if _, err := e.pool.Exec(ctx, flipBoardOne, ev); err != nil {
		t.Fatal(err)
	}
	cachedAsComputed(t, cache, e.pool, ev, players, "entry read in "+ahead)
}

// flipBoardOne flips board 1's result of round 1 of an event in SQL, as
// any writer of the table would.
const flipBoardOne = `UPDATE tournament_games SET result = CASE result WHEN 'black' THEN 'white' ELSE 'black' END
	WHERE tournament_id = $1 AND round = 1 AND board = 1`

// cachedAsComputed reads the players' records of event ev through the
// cache and computed afresh, fails the test at step when they differ, and
// returns the cached ones.
func cachedAsComputed(t *testing.T, cache *tournaments.StandingsCache, q ledger.Querier, ev int64, players []int64, step string) []tournaments.PlayerRecord {
	t.Helper()
	var cached []tournaments.PlayerRecord
	for _, p := range players {
		c, err := cache.PlayerRecord(t.Context(), q, ev, p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := tournaments.PlayerRecordTx(t.Context(), q, ev, p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c, f) {
			t.Fatalf("%s: player %d cached %+v, computed %+v", step, p, c, f)
		}
		cached = append(cached, c)
	}
	return cached
}

// TestStandingsCacheSeesConcurrentWriters: the cache is checked against
// the snapshot its entry was read in, so it sees a writer that was running
// when the entry was read and commits after, a reader's own write made
// after it read (and committed), and keeps nothing read with a
// transaction's own uncommitted write (rolled back after). Each step flips
// board 1's result of round 1 in SQL, as any writer of the table would.
func TestStandingsCacheSeesConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	var players []int64
	for i := range 6 {
		players = append(players, fixture.Player(t, e.reg, "110", fmt.Sprintf("并发%d", i), "", "1990-01-01", i).ID)
	}
	ev := fixture.Earned(t, e.ts, "1d", players...)
	cache := tournaments.NewStandingsCache()
	const flip = flipBoardOne
	check := func(step string) []tournaments.PlayerRecord {
		t.Helper()
		return cachedAsComputed(t, cache, e.pool, ev, players, step)
	}
	first := check("first read")

	// a writer running while the entry is read, committing after
	w, err := e.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec(ctx, flip, ev); err != nil {
		t.Fatal(err)
	}
	// the entry read now, the flip's writer running, must not count the
	// flip as seen
	cache = tournaments.NewStandingsCache()
	check("writer running")
	if err := w.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	flipped := check("writer committed")
	if reflect.DeepEqual(flipped, first) {
		t.Fatalf("flipping board 1 changed no record: %+v", flipped)
	}

	// a reader that writes after reading, then commits
	r, err := e.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Exec(ctx, `SELECT pg_current_xact_id()`); err != nil {
		t.Fatal(err)
	}
	// a later transaction ends before r reads, so that r's snapshot
	// counts r's own id as seen (below its end, not running)
	if _, err := e.pool.Exec(ctx, `SELECT pg_current_xact_id()`); err != nil {
		t.Fatal(err)
	}
	cache = tournaments.NewStandingsCache() // the entry is r's
	if _, err := cache.PlayerRecord(ctx, r, ev, players[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Exec(ctx, flip, ev); err != nil {
		t.Fatal(err)
	}
	if err := r.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if back := check("reader wrote after reading"); !reflect.DeepEqual(back, first) {
		t.Fatalf("flipped twice: %+v, first %+v", back, first)
	}

	// a transaction's own uncommitted write, read through the cache and
	// rolled back
	o, err := e.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Exec(ctx, flip, ev); err != nil {
		t.Fatal(err)
	}
	mine, err := cache.PlayerRecord(ctx, o, ev, players[0])
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := tournaments.PlayerRecordTx(ctx, o, ev, players[0]); !reflect.DeepEqual(mine, want) {
		t.Fatalf("own write: cached %+v, computed %+v", mine, want)
	}
	if err := o.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	check("own write rolled back")
}
