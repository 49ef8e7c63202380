-- +goose Up
-- A name search within a province walked every player under the query's
-- character in id order and looked each one's province up in players, so
-- a common character (张) in a small province visited ten times the rows
-- it kept, and more as the registry grew. Each gram now carries its
-- player's province, and a second key (gram, province, player) gives a
-- province's players under a character in id order from the index alone.
-- Kept by the same triggers, and by a new one when a player moves
-- province (a transfer). (Named province, not province_code, so that the
-- search's join of grams and players names each column once.)
ALTER TABLE player_name_grams ADD COLUMN province text;
UPDATE player_name_grams g SET province = p.province_code FROM players p WHERE p.id = g.player_id;
ALTER TABLE player_name_grams ALTER COLUMN province SET NOT NULL;
CREATE INDEX player_name_grams_province ON player_name_grams (gram, province, player_id);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION player_name_grams_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO player_name_grams (gram, player_id, province)
    SELECT g, n.id, n.province_code FROM new_rows n, player_name_grams_of(n.name) AS g
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION player_name_grams_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM player_name_grams
    WHERE player_id = OLD.id AND gram IN (SELECT player_name_grams_of(OLD.name));
    INSERT INTO player_name_grams (gram, player_id, province)
    SELECT g, NEW.id, NEW.province_code FROM player_name_grams_of(NEW.name) AS g
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION player_name_grams_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE player_name_grams SET province = NEW.province_code
    WHERE player_id = NEW.id AND gram IN (SELECT player_name_grams_of(NEW.name));
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- after the name's trigger (triggers fire in name order), so that a row
-- whose name and province both change has its new grams moved too
CREATE TRIGGER players_name_grams_xmove AFTER UPDATE OF province_code ON players
    FOR EACH ROW WHEN (OLD.province_code IS DISTINCT FROM NEW.province_code) EXECUTE FUNCTION player_name_grams_move();

-- +goose Down
DROP TRIGGER players_name_grams_xmove ON players;
DROP FUNCTION player_name_grams_move();
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION player_name_grams_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO player_name_grams (gram, player_id)
    SELECT g, n.id FROM new_rows n, player_name_grams_of(n.name) AS g
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION player_name_grams_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM player_name_grams
    WHERE player_id = OLD.id AND gram IN (SELECT player_name_grams_of(OLD.name));
    INSERT INTO player_name_grams (gram, player_id)
    SELECT g, NEW.id FROM player_name_grams_of(NEW.name) AS g
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
-- +goose StatementEnd
DROP INDEX player_name_grams_province;
ALTER TABLE player_name_grams DROP COLUMN province;
