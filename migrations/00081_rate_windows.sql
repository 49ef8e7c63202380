-- +goose Up
-- The low-volume rate limits (objections, portal sign-ins; institution keys
-- when they come) counted in PostgreSQL, so that every server process
-- behind a balancer spends one budget (issue 28): one row per limit, client
-- and fixed window of the limit's period, its count raised by an atomic
-- upsert that refuses past the limit. A row goes once its window has ended
-- (swept by the spends themselves, a bounded number at a time). The
-- high-volume public limit (verification) stays in each process: it is the
-- edge's to bound (docs/operations.md).
CREATE TABLE rate_windows (
    name          text NOT NULL CHECK (name <> '' AND length(name) <= 64),
    client        text NOT NULL CHECK (length(client) <= 200),
    window_start  timestamptz NOT NULL,
    used          integer NOT NULL CHECK (used >= 0),
    expires_at    timestamptz NOT NULL,
    PRIMARY KEY (name, client, window_start)
);
CREATE INDEX rate_windows_expiry ON rate_windows (expires_at);

-- +goose Down
DROP TABLE rate_windows;
