-- +goose Up
-- The public name search finds '%…%' substrings, which no btree serves, and
-- pg_trgm does not help Chinese names (2–3 characters, and no trigrams at
-- all under the embedded cluster's C locale). The name's characters, kept
-- as a generated column (so a filter or recheck reads them instead of
-- splitting every name again, and the planner has their frequencies), carry
-- a GIN index: a search prefilters by containment (every character of the
-- query is in the name), and LIKE then checks order and adjacency.
ALTER TABLE players ADD COLUMN name_chars text[] GENERATED ALWAYS AS (regexp_split_to_array(lower(name), '')) STORED;
CREATE INDEX players_name_chars ON players USING gin (name_chars);
-- lists by province page in id order
CREATE INDEX players_province_id ON players (province_code, id) WHERE merged_into IS NULL;

-- +goose Down
DROP INDEX players_province_id;
DROP INDEX players_name_chars;
ALTER TABLE players DROP COLUMN name_chars;
