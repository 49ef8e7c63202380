-- +goose Up
-- Each table has one owner. Certificates and applications keep the names
-- they were issued and filed under (a certificate carries the holder's name
-- as printed and the issuing body's name), so certification reads no table
-- of the registry; the registry keeps whether a player's rank follows
-- certificates, so it reads no table of certification.
ALTER TABLE certificates ADD COLUMN holder_name text NOT NULL DEFAULT '';
ALTER TABLE certificates ADD COLUMN issuing_body text NOT NULL DEFAULT '';
UPDATE certificates c SET holder_name = p.name FROM players p WHERE p.id = c.player_id;
UPDATE certificates c SET issuing_body = a.name FROM agencies a WHERE a.prefix = c.issuing_prefix AND c.issuing_prefix <> '000';
ALTER TABLE applications ADD COLUMN player_name text NOT NULL DEFAULT '';
UPDATE applications a SET player_name = p.name FROM players p WHERE p.id = a.player_id;
ALTER TABLE players ADD COLUMN rank_certified boolean NOT NULL DEFAULT false;
UPDATE players p SET rank_certified = EXISTS (SELECT 1 FROM certificates c WHERE c.player_id = p.id);
-- what one actor did, read by the audit
CREATE INDEX events_actor ON events (actor, at);

-- +goose Down
DROP INDEX events_actor;
ALTER TABLE players DROP COLUMN rank_certified;
ALTER TABLE applications DROP COLUMN player_name;
ALTER TABLE certificates DROP COLUMN issuing_body;
ALTER TABLE certificates DROP COLUMN holder_name;
