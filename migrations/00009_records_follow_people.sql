-- +goose Up
-- Two records of one person are merged into one: the other keeps its row
-- (for the log and old links) and points to the one kept.
ALTER TABLE players ADD COLUMN merged_into bigint REFERENCES players (id);

-- +goose Down
ALTER TABLE players DROP COLUMN merged_into;
