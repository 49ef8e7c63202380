-- +goose Up
-- An agency reports its roster of 1-dan-and-above holders to the
-- association (seeds: 须记录…并报协会备份): each submission is a dated
-- snapshot, kept for the association's backup and compared with the last.
CREATE TABLE roster_submissions (
    id            bigserial PRIMARY KEY,
    agency_prefix text NOT NULL REFERENCES agencies (prefix),
    year          integer NOT NULL,
    submitted_at  timestamptz NOT NULL,
    submitted_by  text NOT NULL,
    row_count     integer NOT NULL,
    numbers       text[] NOT NULL,
    snapshot      jsonb NOT NULL
);
CREATE INDEX roster_submissions_agency ON roster_submissions (agency_prefix, year, submitted_at DESC, id DESC);

-- +goose Down
DROP TABLE roster_submissions;
