package book_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/ratings/book"
)

// TestRegistryParamsTunedStoredApplied: the registry's parameters are the
// defaults until staff tune them on the registry's own games; the tuning
// stores a version with its figures, logs it, recomputes every rating with
// the new parameters, and the book rates the next event with them.
func TestRegistryParamsTunedStoredApplied(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ps := e.players(t, 1, "3d", "2d", "1d", "2k", "4k", "6k", "8k")
	for i, d := range []string{"2026-01-10", "2026-02-14", "2026-03-21", "2026-04-18"} {
		fixture.RoundRobin(t, e.ts, "月赛"+d, d, ps[i%2:], fixture.LowerWins)
	}
	p0, err := e.book.Params(ctx)
	if err != nil || p0.Version != 0 || p0.Bayes != ratings.DefaultBayes() {
		t.Fatalf("before tuning: %+v, %v", p0, err)
	}
	before, _ := e.book.PlayerRating(ctx, ps[0].PlayerID)

	if _, err := e.book.Tune(ctx, fixture.Agency("110"), "", book.TuneRequest{EvalFrac: 0.3, Budget: 20}); ledger.KindOf(err) != ledger.PermissionDenied {
		t.Fatalf("an agency tuning: %v", err)
	}
	if _, err := e.book.Tune(ctx, fixture.Staff, "", book.TuneRequest{EvalFrac: 1.5, Budget: 20}); ledger.KindOf(err) != ledger.Invalid {
		t.Fatalf("fraction 1.5: %v", err)
	}
	p, err := e.book.Tune(ctx, fixture.Staff, "tune-1", book.TuneRequest{EvalFrac: 0.3, Budget: 20})
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != 1 || p.TrainGames+p.EvalGames != 21+15+21+15 || p.EvalGames < 15 || !(p.TunedLogLoss > 0) || !(p.DefaultLogLoss > 0) {
		t.Fatalf("tuned: %+v", p)
	}
	// chosen: the tuned parameters where they beat the defaults on the later games
	if (p.TunedLogLoss < p.DefaultLogLoss) != (p.Bayes != ratings.DefaultBayes()) {
		t.Fatalf("chose %+v with tuned log-loss %v, default %v", p.Bayes, p.TunedLogLoss, p.DefaultLogLoss)
	}
	stored, err := e.book.Params(ctx)
	if err != nil || stored.Version != 1 || stored.Bayes != p.Bayes {
		t.Fatalf("stored %+v (%v), tuned %+v", stored, err, p)
	}
	var logged book.TunedPayload
	var raw []byte
	if err := e.store.DB().QueryRow(ctx, `SELECT payload FROM events WHERE action = 'ratings.tuned'`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &logged); err != nil || logged.Version != 1 || logged.Width != p.Bayes.Width {
		t.Fatalf("logged %s: %v", raw, err)
	}
	// the recompute ran with the tuned parameters
	var runParams []byte
	if err := e.store.DB().QueryRow(ctx, `SELECT params FROM rating_runs WHERE kind = 'recompute' ORDER BY id DESC LIMIT 1`).Scan(&runParams); err != nil {
		t.Fatal(err)
	}
	var used ratings.BayesParams
	if err := json.Unmarshal(runParams, &used); err != nil || used != p.Bayes {
		t.Fatalf("recompute rated with %s, tuned %+v", runParams, p.Bayes)
	}
	after, _ := e.book.PlayerRating(ctx, ps[0].PlayerID)
	if p.Bayes != ratings.DefaultBayes() && after.Rating == before.Rating {
		t.Errorf("new parameters, same rating %v", after.Rating)
	}
	// the next event is rated with them too
	fixture.RoundRobin(t, e.ts, "五月赛", "2026-05-16", ps[:4], fixture.LowerWins)
	if err := e.store.DB().QueryRow(ctx, `SELECT params FROM rating_runs WHERE kind = 'incremental' ORDER BY id DESC LIMIT 1`).Scan(&runParams); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(runParams, &used); err != nil || used != p.Bayes {
		t.Fatalf("next event rated with %s, tuned %+v", runParams, p.Bayes)
	}
}
