-- +goose Up
-- A round's byes after its first (tournament_rounds.bye): an imported
-- event may give several in one round (a pairgoth file of 710 players, or
-- an organiser's placeholder confirmed as a bye), and every one is kept.
CREATE TABLE tournament_more_byes (
    tournament_id  bigint NOT NULL,
    round          integer NOT NULL,
    number         integer NOT NULL,
    points         integer NOT NULL DEFAULT 0 CHECK (points >= 0),
    PRIMARY KEY (tournament_id, round, number),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round),
    FOREIGN KEY (tournament_id, number) REFERENCES participants (tournament_id, number)
);

-- +goose Down
DROP TABLE tournament_more_byes;
