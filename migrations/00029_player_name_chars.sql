-- +goose Up
-- The public name search finds '%…%' substrings, which no btree serves, and
-- pg_trgm does not help Chinese names (2–3 characters, and no trigrams at
-- all under the embedded cluster's C locale). A GIN index on the name's
-- characters prefilters by containment (every character of the query is in
-- the name); the exact LIKE then checks order and adjacency.
CREATE INDEX players_name_chars ON players USING gin (regexp_split_to_array(lower(name), ''));
-- lists by province page in id order
CREATE INDEX players_province_id ON players (province_code, id) WHERE merged_into IS NULL;

-- +goose Down
DROP INDEX players_province_id;
DROP INDEX players_name_chars;
