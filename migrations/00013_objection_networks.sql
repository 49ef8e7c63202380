-- +goose Up
-- Objection limits count by network (/24 of IPv4, /64 of IPv6) rather than
-- one cap per notice, which a flood from many addresses filled to refuse
-- real objectors (security review, issue 12).
ALTER TABLE objections ADD COLUMN network text NOT NULL DEFAULT '';
UPDATE objections SET network = address;
CREATE INDEX objections_notice_network ON objections (notice_id, network);

-- +goose Down
DROP INDEX objections_notice_network;
ALTER TABLE objections DROP COLUMN network;
