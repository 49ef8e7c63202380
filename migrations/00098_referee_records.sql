-- +goose Up
-- The referee's rulings on record (2002 rules, ch. 3 and art. 23): each
-- warning with its cause, who gave it and when (the game's count is
-- derived from them), and the sanctions short of a suspension — a public
-- reprimand (通报批评) and prize money one place lower (降一个名次发放奖金).
CREATE TABLE tournament_warnings (
    id             bigserial PRIMARY KEY,
    tournament_id  bigint NOT NULL REFERENCES tournaments (id),
    round          integer NOT NULL,
    board          integer NOT NULL,
    number         integer NOT NULL, -- the participant warned
    cause          text NOT NULL CHECK (cause IN ('take_back', 'clock_before_move', 'wrong_capture', 'missed_capture',
                       'phone', 'smoking', 'disturbing', 'other')),
    note           text NOT NULL DEFAULT '',
    referee        text NOT NULL DEFAULT '', -- the referee at the board who gave it
    decided        boolean NOT NULL DEFAULT false, -- the side's second in the game: it lost the game
    given_at       timestamptz NOT NULL,
    given_by       text NOT NULL
);
CREATE INDEX tournament_warnings_game ON tournament_warnings (tournament_id, round, board);

CREATE TABLE tournament_sanctions (
    id             bigserial PRIMARY KEY,
    tournament_id  bigint NOT NULL REFERENCES tournaments (id),
    player_id      bigint NOT NULL REFERENCES players (id),
    number         integer NOT NULL,
    kind           text NOT NULL CHECK (kind IN ('reprimand', 'prize_one_place_lower')),
    reason         text NOT NULL,
    decided_at     timestamptz NOT NULL,
    decided_by     text NOT NULL
);
CREATE INDEX tournament_sanctions_player ON tournament_sanctions (player_id);
CREATE INDEX tournament_sanctions_event ON tournament_sanctions (tournament_id);

-- The event's pairing constraint (OpenGotha, pairgoth): players sharing a
-- club, school or family link are not paired in the first avoid_rounds
-- rounds where the field allows.
ALTER TABLE tournaments ADD COLUMN avoid_rounds integer NOT NULL DEFAULT 0 CHECK (avoid_rounds BETWEEN 0 AND 99),
    ADD COLUMN avoid_kinds text[] NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE tournaments DROP COLUMN avoid_rounds, DROP COLUMN avoid_kinds;
DROP TABLE tournament_sanctions;
DROP TABLE tournament_warnings;
