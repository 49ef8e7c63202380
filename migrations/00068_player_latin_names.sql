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
INSERT INTO player_external_ids (player_id, scheme, value, set_at)
SELECT player_id, 'egd', min(egd_pin), now()
FROM participants
WHERE player_id IS NOT NULL AND egd_pin <> ''
  AND egd_pin IN (SELECT egd_pin FROM participants WHERE player_id IS NOT NULL AND egd_pin <> ''
                  GROUP BY egd_pin HAVING count(DISTINCT player_id) = 1)
GROUP BY player_id
HAVING count(DISTINCT egd_pin) = 1;

-- +goose Down
DROP TABLE player_external_ids;
DROP INDEX players_latin_name;
ALTER TABLE players DROP COLUMN latin_name;
