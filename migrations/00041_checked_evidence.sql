-- +goose Up
-- Structured, checked evidence (issue 23).
--
-- An event's grading rules beside its dan-grade groups: rows "placing ≤ N
-- earns rank R" or "wins ≥ W (in group G) earns rank R", set by the
-- organiser when the event is created (or before it starts), or given at
-- import. grading_set_at is when the rules (groups and table) were last
-- published; grading_at_import marks rules given with an imported file,
-- after the event was held: they earn nothing until staff accept them
-- (grading_accepted_at/by).
ALTER TABLE tournaments
    ADD COLUMN grading_set_at      timestamptz,
    ADD COLUMN grading_at_import   boolean NOT NULL DEFAULT false,
    ADD COLUMN grading_accepted_at timestamptz,
    ADD COLUMN grading_accepted_by text NOT NULL DEFAULT '';
UPDATE tournaments SET grading_set_at = created_at;
CREATE TABLE tournament_grading_rules (
    tournament_id bigint NOT NULL REFERENCES tournaments (id),
    position      int NOT NULL,
    max_placing   int NOT NULL DEFAULT 0 CHECK (max_placing >= 0),
    min_wins      int NOT NULL DEFAULT 0 CHECK (min_wins >= 0),
    group_name    text NOT NULL DEFAULT '',
    rank          smallint NOT NULL,
    CHECK ((max_placing > 0) <> (min_wins > 0)),
    PRIMARY KEY (tournament_id, position)
);

-- The registry's statement of a tournament-basis application's record:
-- the event it names and what the event's results say of the player.
-- event_ref and record_ref stay as the registry's rendering of it (and
-- the text of applications filed before).
ALTER TABLE applications
    ADD COLUMN event_id    bigint,
    ADD COLUMN placed      int NOT NULL DEFAULT 0,
    ADD COLUMN wins        int NOT NULL DEFAULT 0,
    ADD COLUMN games       int NOT NULL DEFAULT 0,
    ADD COLUMN group_name  text NOT NULL DEFAULT '',
    ADD COLUMN earned_rank smallint NOT NULL DEFAULT 0;
CREATE INDEX applications_event ON applications (event_id) WHERE event_id IS NOT NULL;

-- The association's list of nationally recognised events: the placings
-- that earn 6 dan, and whether the event is a national amateur
-- championship (its champion may be recognised 7 dan).
CREATE TABLE national_events (
    event_id     bigint PRIMARY KEY,
    event_name   text NOT NULL DEFAULT '',
    max_placing  int NOT NULL CHECK (max_placing BETWEEN 1 AND 64),
    championship boolean NOT NULL DEFAULT false,
    note         text NOT NULL DEFAULT '',
    added_at     timestamptz NOT NULL,
    added_by     text NOT NULL
);

-- Staff's special recognition (特别认定) of a national amateur champion,
-- which a 7-dan application requires.
CREATE TABLE champion_recognitions (
    id            bigserial PRIMARY KEY,
    event_id      bigint NOT NULL,
    player_id     bigint NOT NULL REFERENCES players (id),
    note          text NOT NULL DEFAULT '',
    recognised_at timestamptz NOT NULL,
    recognised_by text NOT NULL,
    UNIQUE (event_id, player_id)
);

-- +goose Down
DROP TABLE champion_recognitions;
DROP TABLE national_events;
DROP INDEX applications_event;
ALTER TABLE applications DROP COLUMN earned_rank, DROP COLUMN group_name, DROP COLUMN games, DROP COLUMN wins,
    DROP COLUMN placed, DROP COLUMN event_id;
DROP TABLE tournament_grading_rules;
ALTER TABLE tournaments DROP COLUMN grading_accepted_by, DROP COLUMN grading_accepted_at, DROP COLUMN grading_at_import,
    DROP COLUMN grading_set_at;
