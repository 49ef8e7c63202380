-- +goose Up
-- The checkpoints the server published (issue 31): each signed tree head
-- it served, kept so that anyone can download the history and see a log
-- that froze (no new heads while the registry works) or forked (two heads
-- of one size, or a head that does not extend an earlier one). Append-only
-- like the log; the newest is also kept in a file beside the log's key.
CREATE TABLE log_checkpoints (
    id        bigserial PRIMARY KEY,
    size      bigint NOT NULL CHECK (size >= 0),
    root      bytea NOT NULL,
    signed_at timestamptz NOT NULL,
    note      text NOT NULL
);
CREATE TRIGGER log_checkpoints_no_update BEFORE UPDATE OR DELETE ON log_checkpoints
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
CREATE TRIGGER log_checkpoints_no_truncate BEFORE TRUNCATE ON log_checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();

-- +goose Down
DROP TABLE log_checkpoints;
