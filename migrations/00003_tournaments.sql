-- +goose Up
CREATE TABLE tournaments (
    id                bigserial PRIMARY KEY,
    name              text NOT NULL CHECK (name <> ''),
    organiser_prefix  text NOT NULL,
    start_date        date NOT NULL,
    end_date          date NOT NULL CHECK (end_date >= start_date),
    venue             text NOT NULL DEFAULT '',
    level             text NOT NULL CHECK (level IN ('county', 'city', 'province', 'national')),
    system            text NOT NULL CHECK (system IN ('round_robin', 'double_round_robin', 'swiss', 'mcmahon', 'knockout', 'double_knockout')),
    standings_order   text NOT NULL CHECK (standings_order IN ('round_robin', 'swiss_total', 'swiss_sos', 'mcmahon')),
    rounds            integer NOT NULL CHECK (rounds BETWEEN 1 AND 99),
    rules             text NOT NULL,
    komi              double precision NOT NULL,
    team              boolean NOT NULL DEFAULT false,
    dan_grade         boolean NOT NULL DEFAULT false,
    -- the pairing's randomness: recorded so a round can be paired again alike
    seed              bigint NOT NULL,
    status            text NOT NULL CHECK (status IN ('open', 'finished')),
    source            text NOT NULL DEFAULT '',
    created_at        timestamptz NOT NULL,
    created_by        text NOT NULL,
    finished_at       timestamptz
);
CREATE INDEX tournaments_list ON tournaments (start_date DESC, id DESC);

-- dan-grade groups: each aims at a rank, with a qualifying number of wins
CREATE TABLE tournament_groups (
    id             bigserial PRIMARY KEY,
    tournament_id  bigint NOT NULL REFERENCES tournaments (id),
    name           text NOT NULL,
    target_rank    smallint NOT NULL CHECK (target_rank BETWEEN -30 AND 7 AND target_rank <> 0),
    min_wins       integer NOT NULL CHECK (min_wins >= 1),
    UNIQUE (tournament_id, name)
);

CREATE TABLE participants (
    tournament_id   bigint NOT NULL REFERENCES tournaments (id),
    number          integer NOT NULL CHECK (number >= 1),
    player_id       bigint REFERENCES players (id),
    name            text NOT NULL,
    rank            smallint NOT NULL,
    country         text NOT NULL DEFAULT '',
    group_id        bigint REFERENCES tournament_groups (id),
    team            text NOT NULL DEFAULT '',
    board           integer NOT NULL DEFAULT 0,
    withdrawn       boolean NOT NULL DEFAULT false,
    withdrew_after  integer NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, number),
    UNIQUE (tournament_id, player_id)
);

CREATE TABLE tournament_rounds (
    tournament_id  bigint NOT NULL REFERENCES tournaments (id),
    round          integer NOT NULL,
    seed           bigint NOT NULL,
    paired_at      timestamptz NOT NULL,
    bye            integer,
    bye_points     integer NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round)
);

CREATE TABLE tournament_games (
    tournament_id   bigint NOT NULL REFERENCES tournaments (id),
    round           integer NOT NULL,
    board           integer NOT NULL,
    black           integer NOT NULL,
    white           integer NOT NULL CHECK (white <> black),
    nigiri          boolean NOT NULL DEFAULT false,
    handicap        integer NOT NULL DEFAULT 0,
    result          text NOT NULL DEFAULT '',
    black_warnings  integer NOT NULL DEFAULT 0 CHECK (black_warnings BETWEEN 0 AND 2),
    white_warnings  integer NOT NULL DEFAULT 0 CHECK (white_warnings BETWEEN 0 AND 2),
    record          text NOT NULL DEFAULT '',
    adjudicated     text NOT NULL DEFAULT '',
    flagged         boolean NOT NULL DEFAULT false,
    flag_reason     text NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, round, board),
    UNIQUE (tournament_id, round, black),
    UNIQUE (tournament_id, round, white)
);

-- certificate applications a finished dan-grade event proposed
CREATE TABLE tournament_proposals (
    tournament_id   bigint NOT NULL REFERENCES tournaments (id),
    number          integer NOT NULL,
    application_id  bigint REFERENCES applications (id),
    note            text NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, number)
);

-- +goose Down
DROP TABLE tournament_proposals;
DROP TABLE tournament_games;
DROP TABLE tournament_rounds;
DROP TABLE participants;
DROP TABLE tournament_groups;
DROP TABLE tournaments;
