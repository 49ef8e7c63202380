-- +goose Up
-- The event's supplementary rules (竞赛补充规定, 2002 rules art. 1 and 31):
-- the chief referee's document and the settings the registry applies —
-- the time control, which lateness limit holds, whether games may be
-- adjourned with a sealed move, and what a rare cycle yields. One row per
-- event; an event without one states none.
CREATE TABLE tournament_conduct (
    tournament_id    bigint PRIMARY KEY REFERENCES tournaments (id),
    basic_minutes    integer NOT NULL CHECK (basic_minutes BETWEEN 0 AND 1440),
    time_method      text NOT NULL CHECK (time_method IN ('byoyomi', 'sudden_death', 'moves_per_period')),
    byoyomi_periods  integer NOT NULL DEFAULT 0 CHECK (byoyomi_periods BETWEEN 0 AND 100),
    byoyomi_seconds  integer NOT NULL DEFAULT 0 CHECK (byoyomi_seconds BETWEEN 0 AND 3600),
    byoyomi_kept_minutes integer NOT NULL DEFAULT 0 CHECK (byoyomi_kept_minutes BETWEEN 0 AND 1440),
    period_moves     integer NOT NULL DEFAULT 0 CHECK (period_moves BETWEEN 0 AND 1000),
    period_minutes   integer NOT NULL DEFAULT 0 CHECK (period_minutes BETWEEN 0 AND 1440),
    lateness         text NOT NULL CHECK (lateness IN ('away', 'same_place')),
    sealing          text NOT NULL CHECK (sealing IN ('none', 'sealed_move')),
    cycle_outcome    text NOT NULL CHECK (cycle_outcome IN ('no_result', 'draw', 'extra_game')),
    document         text NOT NULL DEFAULT '',
    set_at           timestamptz NOT NULL,
    set_by           text NOT NULL
);

-- Adjournments (封棋): the sealed move, who sealed it and when; a sealed
-- move on an occupied point counts as a pass (the rules engine rules so).
CREATE TABLE tournament_adjournments (
    tournament_id  bigint NOT NULL REFERENCES tournaments (id),
    round          integer NOT NULL,
    board          integer NOT NULL,
    seq            integer NOT NULL,
    sealed_by      text NOT NULL CHECK (sealed_by IN ('black', 'white')),
    point          text NOT NULL,
    move_number    integer NOT NULL CHECK (move_number >= 1),
    counts_as_pass boolean NOT NULL,
    sealed_at      timestamptz NOT NULL,
    recorded_by    text NOT NULL,
    PRIMARY KEY (tournament_id, round, board, seq)
);

-- Lateness under the event's limit (art. 21): the minutes late and the
-- double deduction from the late player's time.
CREATE TABLE tournament_lateness (
    tournament_id  bigint NOT NULL REFERENCES tournaments (id),
    round          integer NOT NULL,
    board          integer NOT NULL,
    side           text NOT NULL CHECK (side IN ('black', 'white')),
    minutes        integer NOT NULL CHECK (minutes >= 1),
    deducted_minutes integer NOT NULL CHECK (deducted_minutes = 2 * minutes),
    recorded_at    timestamptz NOT NULL,
    recorded_by    text NOT NULL,
    PRIMARY KEY (tournament_id, round, board, side)
);

-- +goose Down
DROP TABLE tournament_lateness;
DROP TABLE tournament_adjournments;
DROP TABLE tournament_conduct;
