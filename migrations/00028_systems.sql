-- +goose Up
-- Every system article 26 names (issue 14): multiple elimination, multiple
-- round robin, Swiss with elimination and the best-of-N match, each with
-- its size.
ALTER TABLE tournaments
    ADD COLUMN lives integer NOT NULL DEFAULT 0 CHECK (lives BETWEEN 0 AND 9),
    ADD COLUMN cycles integer NOT NULL DEFAULT 0 CHECK (cycles BETWEEN 0 AND 9),
    ADD COLUMN best_of integer NOT NULL DEFAULT 0 CHECK (best_of BETWEEN 0 AND 7);
ALTER TABLE tournaments DROP CONSTRAINT tournaments_system_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_system_check CHECK (system IN
    ('round_robin', 'double_round_robin', 'multi_round_robin', 'swiss', 'mcmahon', 'swiss_elimination',
     'knockout', 'double_knockout', 'multi_elimination', 'match'));

-- +goose Down
ALTER TABLE tournaments DROP CONSTRAINT tournaments_system_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_system_check CHECK (system IN
    ('round_robin', 'double_round_robin', 'swiss', 'mcmahon', 'knockout', 'double_knockout'));
ALTER TABLE tournaments DROP COLUMN best_of, DROP COLUMN cycles, DROP COLUMN lives;
