package book

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// Params is a version of the registry's rating parameters: version 0 is
// the core's defaults, never stored.
type Params struct {
	Version int64
	Bayes   ratings.BayesParams
	// The figures that chose it (zero for the defaults): games tuned on,
	// games scored after them, and the later games' log-loss with the
	// defaults, the tuned parameters and the rank-only baseline.
	TrainGames, EvalGames                         int
	DefaultLogLoss, TunedLogLoss, RankOnlyLogLoss float64
	At                                            time.Time
	By                                            string
}

// ParamsTx reads the parameters the book rates with: the latest version.
func ParamsTx(ctx context.Context, q ledger.Querier) (Params, error) {
	p, err := scanParams(q.QueryRow(ctx, `SELECT `+paramColumns+` FROM rating_params ORDER BY version DESC LIMIT 1`))
	if errors.Is(err, pgx.ErrNoRows) {
		return Params{Bayes: ratings.DefaultBayes()}, nil
	}
	return p, err
}

const paramColumns = `version, params, train_games, eval_games, default_logloss, tuned_logloss, rankonly_logloss, tuned_at, tuned_by`

// scanParams reads one row of paramColumns.
func scanParams(row pgx.Row) (Params, error) {
	var p Params
	var raw []byte
	var dl, tl, rl *float64
	if err := row.Scan(&p.Version, &raw, &p.TrainGames, &p.EvalGames, &dl, &tl, &rl, &p.At, &p.By); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return p, err
		}
		return p, ledger.PgErr(err, "rating parameters")
	}
	if err := json.Unmarshal(raw, &p.Bayes); err != nil {
		return p, fmt.Errorf("rating parameters version %d: %w", p.Version, err)
	}
	for _, f := range []struct {
		to   *float64
		from *float64
	}{{&p.DefaultLogLoss, dl}, {&p.TunedLogLoss, tl}, {&p.RankOnlyLogLoss, rl}} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
	return p, nil
}

// MaxParamVersions bounds a list of parameter versions.
const MaxParamVersions = 100

// ParamVersions lists the stored parameter versions, newest first (at
// most limit, 1–MaxParamVersions), with the figures that chose each; the
// defaults (version 0) are never stored. Staff only: the figures are the
// tuning's working, for the association.
func (b *Book) ParamVersions(ctx context.Context, actor ledger.Actor, limit int) ([]Params, error) {
	if err := b.policy.Require(ctx, b.store.DB(), actor, access.TuneRatingParams, registry.AssociationPrefix); err != nil {
		return nil, err
	}
	limit = min(max(limit, 1), MaxParamVersions)
	rows, err := b.store.DB().Query(ctx, `SELECT `+paramColumns+` FROM rating_params ORDER BY version DESC LIMIT $1`, limit)
	if err != nil {
		return nil, ledger.PgErr(err, "rating parameter versions")
	}
	defer rows.Close()
	var out []Params
	for rows.Next() {
		p, err := scanParams(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, ledger.PgErr(err, "rating parameter versions")
	}
	return out, nil
}

// Params reads the parameters the book rates with, for the ratings page.
func (b *Book) Params(ctx context.Context) (Params, error) {
	return ParamsTx(ctx, b.store.DB())
}

func loadGrades(ctx context.Context, q ledger.Querier, sys *ratings.Bayes) error {
	var raw []byte
	err := q.QueryRow(ctx, `SELECT state FROM rating_grades WHERE id = 1`).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // nothing learned yet: the prior
	}
	if err != nil {
		return ledger.PgErr(err, "the grades' weight")
	}
	var g ratings.Grades
	if err := json.Unmarshal(raw, &g); err != nil {
		return fmt.Errorf("the grades' weight: %w", err)
	}
	sys.SetGrades(g)
	return nil
}

func saveGrades(ctx context.Context, tx *ledger.Tx, sys *ratings.Bayes) error {
	raw, err := json.Marshal(sys.Grades())
	if err != nil {
		return fmt.Errorf("the grades' weight: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO rating_grades (id, state) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state`, raw); err != nil {
		return ledger.PgErr(err, "save the grades' weight")
	}
	return nil
}

// TuneRequest says how to tune on the registry's games: the last EvalFrac
// of them (whole rounds) are scored, never tuned on; Budget replays.
type TuneRequest struct {
	EvalFrac float64
	Budget   int
}

// maxTuneBudget bounds a tuning's work: each replay is one pass over the
// registry's games.
const maxTuneBudget = 500

// Tune tunes the registry's parameters on its own finished games (time
// order; the evaluation part is the later games, never tuned on), stores
// them as a new version with the figures and recomputes every rating with
// them, in one transaction. Staff only.
func (b *Book) Tune(ctx context.Context, actor ledger.Actor, key string, req TuneRequest) (Params, error) {
	if err := b.policy.Require(ctx, b.store.DB(), actor, access.TuneRatingParams, registry.AssociationPrefix); err != nil {
		return Params{}, err
	}
	if !(req.EvalFrac > 0 && req.EvalFrac < 1) || req.Budget < 1 || req.Budget > maxTuneBudget {
		return Params{}, ReasonTuneRequest.With(ledger.Value("frac", strconv.FormatFloat(req.EvalFrac, 'g', 4, 64)),
			ledger.Value("budget", strconv.Itoa(req.Budget)), ledger.Value("max", strconv.Itoa(maxTuneBudget)))
	}
	return ledger.Mutate(ctx, b.store, actor, key, "TuneRatings", req, func(tx *ledger.Tx, now time.Time) (Params, error) {
		if err := lockRatings(ctx, tx); err != nil {
			return Params{}, err
		}
		games, err := tournaments.FinishedRatingGames(ctx, tx, 0)
		if err != nil {
			return Params{}, err
		}
		entrants, index := entrantsOf(games)
		e := &engine{index: index}
		gs := make([]ratings.Game, len(games))
		for i := range games {
			gs[i] = e.game(&games[i])
		}
		cut := ratings.CutAtFraction(gs, req.EvalFrac, ratings.ByRound)
		if cut < minTuneGames || len(gs)-cut < minTuneGames {
			return Params{}, ReasonTuneFewGames.With(ledger.Value("games", strconv.Itoa(len(gs))), ledger.Value("min", strconv.Itoa(minTuneGames)))
		}
		t, err := ratings.TuneHistory(ratings.Models()[0], gs, cut, len(entrants), ratings.ByRound, req.Budget)
		if err != nil {
			return Params{}, err
		}
		// The tuned parameters are chosen only if they predict the later
		// games better than the defaults: on a short history a tuning
		// fits noise, and the defaults are calibrated everywhere.
		chosen := ratings.BayesFrom(t.Params)
		if !(t.Tuned.LogLoss < t.Default.LogLoss) {
			chosen = ratings.DefaultBayes()
		}
		p := Params{Bayes: chosen, TrainGames: t.Train, EvalGames: t.EvalGames,
			DefaultLogLoss: t.Default.LogLoss, TunedLogLoss: t.Tuned.LogLoss, RankOnlyLogLoss: t.RankOnly.LogLoss, At: now, By: actor.String()}
		for _, f := range []float64{p.DefaultLogLoss, p.TunedLogLoss, p.RankOnlyLogLoss} {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return Params{}, fmt.Errorf("tune: log-loss %v", f)
			}
		}
		raw, err := json.Marshal(p.Bayes)
		if err != nil {
			return Params{}, err
		}
		if err := tx.QueryRow(ctx, `INSERT INTO rating_params (params, train_games, eval_games, default_logloss, tuned_logloss, rankonly_logloss, tuned_at, tuned_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING version`,
			raw, p.TrainGames, p.EvalGames, p.DefaultLogLoss, p.TunedLogLoss, p.RankOnlyLogLoss, now, p.By).Scan(&p.Version); err != nil {
			return Params{}, ledger.PgErr(err, "store rating parameters")
		}
		if err := ledger.Append(ctx, tx, now, actor, "rating_params", strconv.FormatInt(p.Version, 10), TunedPayload{
			Version: p.Version, TrainGames: p.TrainGames, EvalGames: p.EvalGames,
			DefaultLogLoss: p.DefaultLogLoss, TunedLogLoss: p.TunedLogLoss, RankOnlyLogLoss: p.RankOnlyLogLoss,
			SD0: p.Bayes.SD0, Drift: p.Bayes.Drift, Play: p.Bayes.Play, RankSD: p.Bayes.RankSD, Width: p.Bayes.Width, Span: p.Bayes.Span, Learn: p.Bayes.Learn, Kyu: p.Bayes.Kyu,
		}); err != nil {
			return Params{}, err
		}
		// new parameters: every rating again, with them
		if _, err := b.recomputeTx(ctx, tx, now, actor); err != nil {
			return Params{}, err
		}
		return p, nil
	})
}

// minTuneGames is the fewest games on each side of the cut worth tuning on.
const minTuneGames = 20
