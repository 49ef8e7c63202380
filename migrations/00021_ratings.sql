-- +goose Up
-- Ratings in the registry (issue 16), owned by ratings/book.
-- rating_players is the stable identity of everyone rated: a registered
-- player by his id, a guest by his EGD PIN, else by name and country; with
-- the belief as it stands (the project's Bayes system: mean and variance on
-- the GoR scale, the day of his last game, the last declared rank).
CREATE TABLE rating_players (
    id          bigserial PRIMARY KEY,
    identity    text NOT NULL UNIQUE,           -- p:<player id> | egd:<pin> | g:<country>:<name>
    player_id   bigint UNIQUE REFERENCES players (id),
    egd_pin     text NOT NULL DEFAULT '',
    name        text NOT NULL,
    country     text NOT NULL DEFAULT '',
    province    text NOT NULL DEFAULT '',       -- province code of a registered player
    mean        double precision NOT NULL DEFAULT 0,
    variance    double precision NOT NULL DEFAULT 0,
    last_day    integer NOT NULL DEFAULT 0,     -- days since 1970-01-01 of his last rated round
    rank_gor    double precision,               -- last declared rank on the GoR scale; NULL when none
    seen        boolean NOT NULL DEFAULT false,
    games       integer NOT NULL DEFAULT 0,
    updated_at  timestamptz
);
CREATE INDEX rating_players_list ON rating_players (mean DESC) WHERE seen;

-- rating_runs records each rating computation: the update after one event
-- (incremental) or the full recompute, with its parameters.
CREATE TABLE rating_runs (
    id             bigserial PRIMARY KEY,
    kind           text NOT NULL CHECK (kind IN ('incremental', 'recompute')),
    tournament_id  bigint,                      -- the event of an incremental run
    params         jsonb NOT NULL,
    events         integer NOT NULL,
    games          integer NOT NULL,
    players        integer NOT NULL,
    run_at         timestamptz NOT NULL,
    run_by         text NOT NULL
);

-- rating_history is a player's rating after each rated event.
CREATE TABLE rating_history (
    rating_player_id  bigint NOT NULL REFERENCES rating_players (id),
    tournament_id     bigint NOT NULL,
    event_name        text NOT NULL,
    event_date        date NOT NULL,
    seq               bigint NOT NULL,          -- the order events were rated in
    rating            double precision NOT NULL,
    sd                double precision NOT NULL,
    games             integer NOT NULL,
    wins              double precision NOT NULL,
    computed_by       text NOT NULL CHECK (computed_by IN ('incremental', 'recompute')),
    run_id            bigint NOT NULL REFERENCES rating_runs (id),
    PRIMARY KEY (rating_player_id, tournament_id)
);
CREATE INDEX rating_history_event ON rating_history (tournament_id);

-- +goose Down
DROP TABLE rating_history;
DROP TABLE rating_runs;
DROP TABLE rating_players;
