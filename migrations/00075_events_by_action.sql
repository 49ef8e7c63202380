-- +goose Up
-- The newest events of one kind (the open data's revocation feed) and the
-- events after a position of a few kinds (the webhooks' dispatcher), found
-- without reading the whole log.
CREATE INDEX events_action ON events (action, id);

-- +goose Down
DROP INDEX events_action;
