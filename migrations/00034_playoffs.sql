-- +goose Up
-- Playoffs (art. 27 C, issue 14): an event with ties = 'playoff' pairs
-- playoff rounds between tied players after its last round; their games
-- are recorded like any other and separate the tied players only.
ALTER TABLE tournament_rounds ADD COLUMN playoff boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE tournament_rounds DROP COLUMN playoff;
