-- +goose Up
-- Refereeing and discipline of the 2002 Chinese rules (issue 14): why a
-- game was forfeited (art. 22), results confirmed and then final, results
-- voided for arranged games found later and suspensions (art. 23),
-- protests, nigiri (art. 15) and games played with the wrong colours (art. 17).
ALTER TABLE tournament_games
    ADD COLUMN forfeit_reason text NOT NULL DEFAULT ''
        CHECK (forfeit_reason IN ('', 'late', 'absent', 'disqualified', 'withdrawn')),
    ADD COLUMN confirmed_at timestamptz,
    ADD COLUMN confirmed_by text NOT NULL DEFAULT '',
    -- the side(s) whose result was voided, and the result before
    ADD COLUMN voided text NOT NULL DEFAULT '' CHECK (voided IN ('', 'black', 'white', 'both')),
    ADD COLUMN voided_result text NOT NULL DEFAULT '',
    ADD COLUMN void_reason text NOT NULL DEFAULT '',
    -- the participant who held the stones at nigiri, and the guess
    ADD COLUMN nigiri_holder integer,
    ADD COLUMN nigiri_guess text NOT NULL DEFAULT '' CHECK (nigiri_guess IN ('', 'odd', 'even')),
    ADD COLUMN nigiri_stones integer,
    ADD COLUMN wrong_colours boolean NOT NULL DEFAULT false;

ALTER TABLE tournaments
    ADD COLUMN chief_referee text NOT NULL DEFAULT '',
    ADD COLUMN colours text NOT NULL DEFAULT 'draw' CHECK (colours IN ('draw', 'nigiri')),
    -- art. 27 C: equal players drawn by lot, sharing the place, or playing off
    ADD COLUMN ties text NOT NULL DEFAULT 'lot' CHECK (ties IN ('lot', 'shared', 'playoff'));
-- art. 27's Swiss orders as written, beside the EGD's extended tie-breaks
ALTER TABLE tournaments DROP CONSTRAINT tournaments_standings_order_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_standings_order_check CHECK (standings_order IN
    ('round_robin', 'swiss_total', 'swiss_total_reached', 'swiss_sos', 'swiss_sos_extended', 'mcmahon'));
-- imported files ranked with SOSOS and SODOS before warnings
UPDATE tournaments SET standings_order = 'swiss_sos_extended' WHERE standings_order = 'swiss_sos' AND source <> '';

CREATE TABLE player_suspensions (
    id            bigserial PRIMARY KEY,
    player_id     bigint NOT NULL REFERENCES players (id),
    from_date     date NOT NULL,
    to_date       date NOT NULL CHECK (to_date >= from_date),
    reason        text NOT NULL CHECK (reason <> ''),
    tournament_id bigint REFERENCES tournaments (id),
    decided_at    timestamptz NOT NULL,
    decided_by    text NOT NULL
);
CREATE INDEX player_suspensions_player ON player_suspensions (player_id, to_date);

CREATE TABLE tournament_protests (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments (id),
    round         integer NOT NULL,
    board         integer NOT NULL,
    lodged_by     integer NOT NULL, -- participant number
    reason        text NOT NULL CHECK (reason <> ''),
    lodged_at     timestamptz NOT NULL,
    status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'upheld', 'dismissed')),
    ruling        text NOT NULL DEFAULT '',
    ruled_at      timestamptz,
    ruled_by      text NOT NULL DEFAULT ''
);
CREATE INDEX tournament_protests_event ON tournament_protests (tournament_id, id);

-- A certificate whose basis was voided waits here for staff to revoke it.
ALTER TABLE certificates ADD COLUMN review text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE certificates DROP COLUMN review;
DROP TABLE tournament_protests;
DROP TABLE player_suspensions;
UPDATE tournaments SET standings_order = 'swiss_sos' WHERE standings_order IN ('swiss_sos_extended', 'swiss_total_reached');
ALTER TABLE tournaments DROP CONSTRAINT tournaments_standings_order_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_standings_order_check CHECK (standings_order IN ('round_robin', 'swiss_total', 'swiss_sos', 'mcmahon'));
ALTER TABLE tournaments DROP COLUMN ties, DROP COLUMN colours, DROP COLUMN chief_referee;
ALTER TABLE tournament_games DROP COLUMN wrong_colours, DROP COLUMN nigiri_stones, DROP COLUMN nigiri_guess,
    DROP COLUMN nigiri_holder, DROP COLUMN void_reason, DROP COLUMN voided_result, DROP COLUMN voided,
    DROP COLUMN confirmed_by, DROP COLUMN confirmed_at, DROP COLUMN forfeit_reason;
