-- +goose Up
-- The team formats of article 25 (issue 14): 分台定人制 (fixed_boards, the
-- default), 定台换人制 (fixed_order), 临场出人制 (free_lineup), 全队轮赛制
-- (all_play) and 队员总分制 (total_score); substitutes (替补) as
-- participants flagged reserve, up to the event's number per team; the
-- lineup the organiser names for a round before it is paired.
ALTER TABLE tournaments
    ADD COLUMN team_format text NOT NULL DEFAULT 'fixed_boards'
        CHECK (team_format IN ('fixed_boards', 'fixed_order', 'free_lineup', 'all_play', 'total_score')),
    ADD COLUMN reserves integer NOT NULL DEFAULT 0 CHECK (reserves BETWEEN 0 AND 9);
ALTER TABLE participants ADD COLUMN reserve boolean NOT NULL DEFAULT false;

CREATE TABLE tournament_lineups (
    tournament_id bigint NOT NULL REFERENCES tournaments (id),
    round         integer NOT NULL CHECK (round >= 1),
    team          text NOT NULL,
    board         integer NOT NULL CHECK (board >= 1),
    number        integer NOT NULL,
    PRIMARY KEY (tournament_id, round, team, board),
    UNIQUE (tournament_id, round, number)
);

-- +goose Down
DROP TABLE tournament_lineups;
ALTER TABLE participants DROP COLUMN reserve;
ALTER TABLE tournaments DROP COLUMN reserves, DROP COLUMN team_format;
