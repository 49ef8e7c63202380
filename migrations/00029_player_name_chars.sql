-- +goose Up
-- Lists by province page in id order. (A GIN index on the name's
-- characters stood here once; the name search reads player_name_grams,
-- 00038, which drops it where an earlier build made it.)
CREATE INDEX players_province_id ON players (province_code, id) WHERE merged_into IS NULL;

-- +goose Down
DROP INDEX players_province_id;
