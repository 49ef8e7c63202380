-- +goose Up
-- Issue 14, the rest of article 25/26: team boards ordered by rank and then
-- rating at the first pairing (team_boards = 'rank') and fixed from then on,
-- and the arena team match (擂台赛).
ALTER TABLE tournaments
    ADD COLUMN team_boards text NOT NULL DEFAULT 'given' CHECK (team_boards IN ('given', 'rank'));
ALTER TABLE tournaments DROP CONSTRAINT tournaments_system_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_system_check CHECK (system IN
    ('round_robin', 'double_round_robin', 'multi_round_robin', 'swiss', 'mcmahon', 'swiss_elimination',
     'knockout', 'double_knockout', 'multi_elimination', 'match', 'arena'));

-- +goose Down
ALTER TABLE tournaments DROP CONSTRAINT tournaments_system_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_system_check CHECK (system IN
    ('round_robin', 'double_round_robin', 'multi_round_robin', 'swiss', 'mcmahon', 'swiss_elimination',
     'knockout', 'double_knockout', 'multi_elimination', 'match'));
ALTER TABLE tournaments DROP COLUMN team_boards;
