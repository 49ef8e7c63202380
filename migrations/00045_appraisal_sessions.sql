-- +goose Up
-- An appraisal (鉴定) as the agency records it: its approved appraiser, the
-- date, the candidate, the games played and the verdict. An application by
-- appraisal refers to one; withdrawing a session keeps the row (status
-- 'withdrawn', with the reason) so that what rested on it can be found.
CREATE TABLE appraisal_sessions (
    id              bigserial PRIMARY KEY,
    agency_prefix   text NOT NULL,
    appraiser_id    bigint NOT NULL REFERENCES appraisers (id),
    player_id       bigint NOT NULL REFERENCES players (id),
    -- the candidate's name when appraised (as applications keep it)
    player_name     text NOT NULL,
    held_on         date NOT NULL,
    -- the rank the appraiser recommends; NULL: not passed
    verdict_rank    smallint CHECK (verdict_rank BETWEEN -30 AND 5 AND verdict_rank <> 0),
    note            text NOT NULL DEFAULT '',
    status          text NOT NULL CHECK (status IN ('recorded', 'withdrawn')),
    recorded_at     timestamptz NOT NULL,
    recorded_by     text NOT NULL,
    withdrawn_at    timestamptz,
    withdrawn_by    text,
    withdraw_reason text NOT NULL DEFAULT ''
);
CREATE INDEX appraisal_sessions_agency ON appraisal_sessions (agency_prefix, id DESC);
CREATE INDEX appraisal_sessions_player ON appraisal_sessions (player_id);

-- The games of a session, in the order played. opponent '' is the
-- appraiser himself; result is the candidate's (win, loss, draw).
CREATE TABLE appraisal_games (
    session_id bigint NOT NULL REFERENCES appraisal_sessions (id),
    seq        smallint NOT NULL CHECK (seq BETWEEN 1 AND 20),
    opponent   text NOT NULL DEFAULT '',
    colour     text NOT NULL CHECK (colour IN ('black', 'white')),
    result     text NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    sgf        text NOT NULL DEFAULT '',
    moves      integer NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, seq)
);

ALTER TABLE applications ADD COLUMN appraisal_session_id bigint REFERENCES appraisal_sessions (id);
CREATE INDEX applications_appraisal_session ON applications (appraisal_session_id) WHERE appraisal_session_id IS NOT NULL;

-- A paper certificate's basis as its register states it ('' unknown), and
-- an athlete grade that may be unknown ('unknown') when the register does
-- not say.
ALTER TABLE certificates ADD COLUMN paper_basis text NOT NULL DEFAULT ''
    CHECK (paper_basis IN ('', 'tournament', 'appraisal', 'national_result', 'national_championship'));
ALTER TABLE certificates DROP CONSTRAINT certificates_athlete_grade_check;
ALTER TABLE certificates ADD CONSTRAINT certificates_athlete_grade_check CHECK (athlete_grade IN ('', 'second', 'first', 'unknown'));
-- paper 4–7 dan recorded before the register's basis was read: unknown
UPDATE certificates SET athlete_grade = 'unknown' WHERE from_paper AND rank >= 4;

-- +goose Down
UPDATE certificates SET athlete_grade = '' WHERE athlete_grade = 'unknown';
ALTER TABLE certificates DROP CONSTRAINT certificates_athlete_grade_check;
ALTER TABLE certificates ADD CONSTRAINT certificates_athlete_grade_check CHECK (athlete_grade IN ('', 'second', 'first'));
ALTER TABLE certificates DROP COLUMN paper_basis;
DROP INDEX applications_appraisal_session;
ALTER TABLE applications DROP COLUMN appraisal_session_id;
DROP TABLE appraisal_games;
DROP TABLE appraisal_sessions;
