-- +goose Up
-- The registry's rating parameters (issue 29), owned by ratings/book: each
-- tuning on the registry's own finished games is a new version, with the
-- figures that chose it; the book rates with the latest version (none: the
-- core's defaults, ratings.DefaultBayes), and a new version recomputes.
CREATE TABLE rating_params (
    version          bigserial PRIMARY KEY,
    params           jsonb NOT NULL,
    train_games      integer NOT NULL,
    eval_games       integer NOT NULL,
    default_logloss  double precision,     -- the evaluation part, NULL when empty
    tuned_logloss    double precision,
    rankonly_logloss double precision,
    tuned_at         timestamptz NOT NULL,
    tuned_by         text NOT NULL
);

-- rating_grades is the learned weight of the grades (ratings.Grades) as it
-- stands after the last rated event: global state of the system, kept so an
-- event finished later is rated exactly as a recompute would.
CREATE TABLE rating_grades (
    id     integer PRIMARY KEY CHECK (id = 1),
    state  jsonb NOT NULL
);

-- +goose Down
DROP TABLE rating_grades;
DROP TABLE rating_params;
