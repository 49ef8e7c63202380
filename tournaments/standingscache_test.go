package tournaments_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
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
