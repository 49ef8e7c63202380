-- +goose Up
-- An agency submits its paper certificates for the association to confirm:
-- the file waits here until staff record it (or refuse it).
CREATE TABLE paper_submissions (
    id            bigserial PRIMARY KEY,
    agency_prefix text NOT NULL REFERENCES agencies (prefix),
    submitted_at  timestamptz NOT NULL,
    submitted_by  text NOT NULL,
    data          bytea NOT NULL,
    skip_lines    integer[] NOT NULL,
    row_count     integer NOT NULL,
    status        text NOT NULL CHECK (status IN ('pending', 'confirmed', 'refused')),
    decided_at    timestamptz,
    decided_by    text NOT NULL DEFAULT '',
    note          text NOT NULL DEFAULT ''
);

-- +goose Down
DROP TABLE paper_submissions;
