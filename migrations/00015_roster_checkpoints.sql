-- +goose Up
-- A roster submission records the event log's tree at the moment it was
-- made (size and root hash), so a signed checkpoint of that size proves
-- later what the log held when the agency reported. Earlier rows: 0, empty.
ALTER TABLE roster_submissions
    ADD COLUMN log_size bigint NOT NULL DEFAULT 0,
    ADD COLUMN log_hash bytea NOT NULL DEFAULT ''::bytea;

-- +goose Down
ALTER TABLE roster_submissions DROP COLUMN log_size, DROP COLUMN log_hash;
