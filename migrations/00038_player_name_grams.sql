-- +goose Up
-- A name search must return its first page, and count up to its cap,
-- without visiting every player whose name merely shares a character: the
-- GIN prefilter of name_chars finds all candidates unordered, so a page in
-- id order (the keyset) costs as many heap visits as there are candidates,
-- and they grow with the registry. This table lists each player under every
-- character and every pair of adjacent characters of the (lowered) name,
-- keyed by (gram, player): a query of one character reads that character's
-- players in id order, a query of two reads exactly the players whose name
-- holds that pair, a longer one merges its pairs; a page stops after its
-- rows and a count at its cap. Kept by triggers, so every path that writes
-- players (the services, COPY loads) keeps it.
CREATE TABLE player_name_grams (
    gram text NOT NULL,
    player_id bigint NOT NULL,
    PRIMARY KEY (gram, player_id)
);

-- +goose StatementBegin
CREATE FUNCTION player_name_grams_of(name text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
    SELECT DISTINCT substr(lower(name), i, w)
    FROM generate_series(1, length(lower(name))) AS i, (VALUES (1), (2)) AS ws(w)
    WHERE i + w - 1 <= length(lower(name))
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION player_name_grams_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO player_name_grams (gram, player_id)
    SELECT g, n.id FROM new_rows n, player_name_grams_of(n.name) AS g
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION player_name_grams_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- by both keys, so that the primary key finds the rows (player_id
    -- alone would read the whole table)
    DELETE FROM player_name_grams
    WHERE player_id = OLD.id AND gram IN (SELECT player_name_grams_of(OLD.name));
    INSERT INTO player_name_grams (gram, player_id)
    SELECT g, NEW.id FROM player_name_grams_of(NEW.name) AS g
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- a deleted or truncated player takes its grams with it, so that a reused
-- id never finds another's name (triggers, not a foreign key: its check on
-- every gram of a COPY would double the load)
-- +goose StatementBegin
CREATE FUNCTION player_name_grams_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM player_name_grams
    WHERE player_id = OLD.id AND gram IN (SELECT player_name_grams_of(OLD.name));
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION player_name_grams_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE player_name_grams;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER players_name_grams_delete AFTER DELETE ON players
    FOR EACH ROW EXECUTE FUNCTION player_name_grams_delete();
CREATE TRIGGER players_name_grams_truncate AFTER TRUNCATE ON players
    FOR EACH STATEMENT EXECUTE FUNCTION player_name_grams_truncate();

-- a statement trigger for inserts: a COPY of a million players is one
-- INSERT … SELECT over its rows
CREATE TRIGGER players_name_grams_insert AFTER INSERT ON players
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION player_name_grams_insert();
-- a name changes rarely (a correction): a row trigger, and only then, so
-- that the rank updates of issuance pay nothing
CREATE TRIGGER players_name_grams_update AFTER UPDATE OF name ON players
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION player_name_grams_update();

INSERT INTO player_name_grams (gram, player_id)
SELECT g, p.id FROM players p, player_name_grams_of(p.name) AS g
ON CONFLICT DO NOTHING;

-- the search no longer reads name_chars
DROP INDEX IF EXISTS players_name_chars;
ALTER TABLE players DROP COLUMN IF EXISTS name_chars;

-- +goose Down
DROP TRIGGER players_name_grams_truncate ON players;
DROP TRIGGER players_name_grams_delete ON players;
DROP FUNCTION player_name_grams_truncate();
DROP FUNCTION player_name_grams_delete();
DROP TRIGGER players_name_grams_update ON players;
DROP TRIGGER players_name_grams_insert ON players;
DROP FUNCTION player_name_grams_update();
DROP FUNCTION player_name_grams_insert();
DROP FUNCTION player_name_grams_of(text);
DROP TABLE player_name_grams;
