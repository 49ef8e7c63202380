-- +goose Up
-- A full name of three characters (王秀英) was found by merging the
-- players under two of its pairs (王秀, 秀英) and checking the rest with
-- LIKE: the merge read every player under the commoner pair, which grows
-- with the registry, while the matches are few (the count then never
-- reaches its cap and stops early). Each run of three adjacent characters
-- is now a gram too, so a three-character query reads exactly its
-- matches, and a longer one merges two runs of three (far rarer than
-- pairs).
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION player_name_grams_of(name text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
    SELECT DISTINCT substr(lower(name), i, w)
    FROM generate_series(1, length(lower(name))) AS i, (VALUES (1), (2), (3)) AS ws(w)
    WHERE i + w - 1 <= length(lower(name))
$$;
-- +goose StatementEnd
INSERT INTO player_name_grams (gram, player_id, province)
SELECT g, p.id, p.province_code FROM players p, player_name_grams_of(p.name) AS g
WHERE length(g) = 3
ON CONFLICT DO NOTHING;

-- +goose Down
DELETE FROM player_name_grams WHERE length(gram) = 3;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION player_name_grams_of(name text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
    SELECT DISTINCT substr(lower(name), i, w)
    FROM generate_series(1, length(lower(name))) AS i, (VALUES (1), (2)) AS ws(w)
    WHERE i + w - 1 <= length(lower(name))
$$;
-- +goose StatementEnd
