-- +goose Up
-- The public notice list pages newest first by id, filtered by province
-- and rank: these serve each filter's query without a sort.
CREATE INDEX notices_province_id ON notices (province_code, id);
CREATE INDEX notices_province_rank_id ON notices (province_code, rank, id);
CREATE INDEX notices_rank_id ON notices (rank, id);

-- +goose Down
DROP INDEX notices_rank_id;
DROP INDEX notices_province_rank_id;
DROP INDEX notices_province_id;
