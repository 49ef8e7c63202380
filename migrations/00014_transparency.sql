-- +goose Up
-- The RFC 6962 Merkle tree over the event log (issue 12, finding 5): the
-- stored hashes of golang.org/x/mod/sumdb/tlog, the record of event id N
-- being leaf N-1. Signed tree heads (checkpoints) kept outside the database
-- make deleting or recomputing rows visible.
CREATE TABLE event_tree (
    idx  bigint PRIMARY KEY,
    hash bytea NOT NULL
);
-- the tree is append-only like the log it covers
CREATE TRIGGER event_tree_no_update BEFORE UPDATE OR DELETE ON event_tree
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
CREATE TRIGGER event_tree_no_truncate BEFORE TRUNCATE ON event_tree
    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();

-- +goose Down
DROP TABLE event_tree;
