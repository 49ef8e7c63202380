-- +goose Up
-- Verification keys of institutions (a university's admissions office, a
-- sports bureau): staff issue one to a named institution with its own
-- quota of numbers verified per hour or per day, and revoke it. The key is
-- shown once; only its SHA-256 is kept, with its first characters for
-- staff to tell keys apart. Issue and revocation are logged events.
CREATE TABLE institution_keys (
    id            bigserial PRIMARY KEY,
    hash          bytea NOT NULL UNIQUE CHECK (length(hash) = 32),
    shown         text NOT NULL,
    institution   text NOT NULL CHECK (institution <> '' AND length(institution) <= 200),
    kind          text NOT NULL CHECK (length(kind) <= 64),
    quota         integer NOT NULL CHECK (quota > 0),
    per           text NOT NULL CHECK (per IN ('hour', 'day')),
    issued_at     timestamptz NOT NULL,
    issued_by     text NOT NULL,
    revoked_at    timestamptz,
    revoke_reason text NOT NULL DEFAULT ''
);

-- Each key's use, counted per window of its quota (the hour, or the day in
-- Beijing) in PostgreSQL, so that every server process spends the same
-- quota: used is the numbers verified, refused the calls turned away.
CREATE TABLE institution_key_usage (
    key_id        bigint NOT NULL REFERENCES institution_keys (id),
    window_start  timestamptz NOT NULL,
    used          integer NOT NULL DEFAULT 0 CHECK (used >= 0),
    refused       integer NOT NULL DEFAULT 0 CHECK (refused >= 0),
    PRIMARY KEY (key_id, window_start)
);

-- +goose Down
DROP TABLE institution_key_usage;
DROP TABLE institution_keys;
