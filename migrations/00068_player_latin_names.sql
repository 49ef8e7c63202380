-- +goose Up
-- A player's Latin name for foreign events and EGD files: '' means the
-- pinyin of his registered name (computed, so a changed name follows);
-- otherwise the agency's statement (logged as player.latin_name_set).
ALTER TABLE players ADD COLUMN latin_name text NOT NULL DEFAULT '';
CREATE INDEX players_latin_name ON players (lower(latin_name)) WHERE latin_name <> '';

-- A player's ids with other bodies: the EGD PIN ("egd") and other
-- federations' ids ("ffg", "aga", ...). One id of a scheme a player, and an
-- id belongs to one player: a file's id then names one person.
CREATE TABLE player_external_ids (
    player_id   bigint NOT NULL REFERENCES players (id),
    scheme      text NOT NULL CHECK (scheme ~ '^[a-z][a-z0-9]{1,11}$'),
    value       text NOT NULL CHECK (value <> '' AND length(value) <= 32),
    set_at      timestamptz NOT NULL,
    PRIMARY KEY (player_id, scheme),
    UNIQUE (scheme, value)
);

-- The EGD PINs imports stored on registered participants become the
-- players' own, where a PIN names one player and the player has one PIN.
-- Set when the last event giving it was created.
INSERT INTO player_external_ids (player_id, scheme, value, set_at)
SELECT pa.player_id, 'egd', min(pa.egd_pin), max(t.created_at)
FROM participants pa JOIN tournaments t ON t.id = pa.tournament_id
WHERE pa.player_id IS NOT NULL AND pa.egd_pin ~ '^[0-9]{5,9}$'
  AND pa.egd_pin IN (SELECT egd_pin FROM participants WHERE player_id IS NOT NULL AND egd_pin <> ''
                     GROUP BY egd_pin HAVING count(DISTINCT player_id) = 1)
GROUP BY pa.player_id
HAVING count(DISTINCT pa.egd_pin) = 1;

-- +goose Down
DROP TABLE player_external_ids;
DROP INDEX players_latin_name;
ALTER TABLE players DROP COLUMN latin_name;
