package book_test

import (
	"context"
	"math"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/tournaments"
)

// Tolerance is how far the incremental ratings may lie from the full
// recompute's when events finish in the order of their dates: the same
// code runs on the same games in the same order and double precision
// stores a float64 exactly, so they agree exactly; 1e-9 GoR only allows
// for nothing.
const Tolerance = 1e-9

// snapshot is every rating and history point, by rating id.
func snapshot(t *testing.T, e *env) map[int64]book.Rating {
	t.Helper()
	ctx := context.Background()
	list, err := e.book.ListRatings(ctx, book.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]book.Rating{}
	for _, r := range list {
		full, err := e.book.RatingByID(ctx, r.RatingID)
		if err != nil {
			t.Fatal(err)
		}
		out[r.RatingID] = full
	}
	return out
}

// TestIncrementalAgreesWithRecompute rates three overlapping events as they
// finish, then recomputes: every rating and every history point agree
// within Tolerance, and the history then shows the recompute. An event
// finished late (dated before the others) is rated on top when it
// finishes; the recompute puts it in its place by date.
func TestIncrementalAgreesWithRecompute(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ps := e.players(t, 1, "3d", "2d", "1d", "1k", "2k", "3k")
	guest := tournaments.ParticipantInput{GuestName: "Kim Minsu", GuestRank: "2d", GuestCountry: "KR"}
	upset := func(r, b, w int) string { // the higher number wins in round 2, draws in round 3
		switch r {
		case 2:
			return fixture.LowerWins(r, w, b)
		case 3:
			return "draw"
		}
		return fixture.LowerWins(r, b, w)
	}
	fixture.RoundRobin(t, e.ts, "一月赛", "2026-01-10", ps[:4], fixture.LowerWins)
	fixture.RoundRobin(t, e.ts, "二月赛", "2026-02-14", []tournaments.ParticipantInput{ps[2], ps[3], ps[4], ps[5], guest}, upset)
	fixture.RoundRobin(t, e.ts, "三月赛", "2026-03-21", []tournaments.ParticipantInput{ps[5], ps[0], ps[4], guest}, fixture.LowerWins)
	inc := snapshot(t, e)
	if len(inc) != 7 {
		t.Fatalf("%d rated, want 7", len(inc))
	}

	if _, err := e.book.Recompute(ctx, fixture.Agency("110"), ""); ledger.KindOf(err) != ledger.PermissionDenied {
		t.Fatalf("an agency recomputing: %v", err)
	}
	if _, err := e.book.Recompute(ctx, ledger.Actor{}, ""); ledger.KindOf(err) != ledger.Unauthenticated {
		t.Fatalf("the public recomputing: %v", err)
	}
	run, err := e.book.Recompute(ctx, fixture.Staff, "recompute-1")
	if err != nil {
		t.Fatal(err)
	}
	if run.Events != 3 || run.Players != 7 || run.Kind != "recompute" {
		t.Fatalf("run: %+v", run)
	}
	again, err := e.book.Recompute(ctx, fixture.Staff, "recompute-1")
	if err != nil || again.ID != run.ID {
		t.Fatalf("retried recompute: %+v, %v", again, err)
	}
	re := snapshot(t, e)
	worst := 0.0
	for id, a := range inc {
		b, ok := re[id]
		if !ok || len(a.History) != len(b.History) || a.Games != b.Games {
			t.Fatalf("rating %d: incremental %+v, recompute %+v", id, a, b)
		}
		worst = max(worst, math.Abs(a.Rating-b.Rating), math.Abs(a.SD-b.SD))
		for k := range a.History {
			x, y := a.History[k], b.History[k]
			if x.Tournament != y.Tournament || x.Games != y.Games || x.Wins != y.Wins {
				t.Fatalf("rating %d point %d: %+v vs %+v", id, k, x, y)
			}
			worst = max(worst, math.Abs(x.Rating-y.Rating), math.Abs(x.SD-y.SD))
			if x.ComputedBy != "incremental" || y.ComputedBy != "recompute" || y.Run != run.ID {
				t.Fatalf("rating %d point %d computed by %s then %s (run %d)", id, k, x.ComputedBy, y.ComputedBy, y.Run)
			}
		}
	}
	if worst > Tolerance {
		t.Fatalf("incremental and recompute differ by %g GoR, tolerance %g", worst, Tolerance)
	}
	t.Logf("incremental vs recompute: largest difference %g GoR over %d players", worst, len(inc))

	// a late event, dated before the others: rated on top as it finishes,
	// put in its place by the recompute
	late := fixture.RoundRobin(t, e.ts, "补录赛", "2025-12-20", []tournaments.ParticipantInput{ps[0], ps[1]}, fixture.LowerWins)
	r0, _ := e.book.PlayerRating(ctx, ps[0].PlayerID)
	if n := len(r0.History); r0.History[n-1].Tournament != late {
		t.Fatalf("late event not last in the incremental history: %+v", r0.History)
	}
	if _, err := e.book.Recompute(ctx, fixture.Staff, ""); err != nil {
		t.Fatal(err)
	}
	r0, _ = e.book.PlayerRating(ctx, ps[0].PlayerID)
	if r0.History[0].Tournament != late || len(r0.History) != 3 {
		t.Fatalf("late event not first after the recompute: %+v", r0.History)
	}
}
