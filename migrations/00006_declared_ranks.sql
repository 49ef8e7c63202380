-- +goose Up
-- A player's rank is his certified rank (the newest valid certificate's);
-- what an agency enters without a certificate is a declared rank, used for
-- seeding and shown as declared. Ranks stored without any certificate move
-- to the declared rank; those of 4 dan and above (which can no longer be
-- declared) stay there for staff to review (registry.DeclaredHighRanks).
ALTER TABLE players ADD COLUMN declared_rank smallint NOT NULL DEFAULT 0 CHECK (declared_rank BETWEEN -30 AND 8);
UPDATE players SET declared_rank = rank, rank = 0 WHERE NOT rank_certified;
ALTER TABLE players ADD COLUMN honorary_basis text NOT NULL DEFAULT '';
CREATE INDEX players_declared_high ON players (declared_rank) WHERE declared_rank >= 4;

-- +goose Down
UPDATE players SET rank = declared_rank WHERE NOT rank_certified;
ALTER TABLE players DROP COLUMN honorary_basis;
ALTER TABLE players DROP COLUMN declared_rank;
