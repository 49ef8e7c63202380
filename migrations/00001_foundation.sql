-- +goose Up
CREATE TABLE agencies (
    prefix      text PRIMARY KEY CHECK (prefix ~ '^[0-9]{3}$'),
    name        text NOT NULL CHECK (name <> ''),
    contact     text NOT NULL DEFAULT '',
    status      text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);

CREATE TABLE players (
    id             bigserial PRIMARY KEY,
    name           text NOT NULL,
    gender         text NOT NULL CHECK (gender IN ('M', 'F')),
    birth_date     date NOT NULL,
    nationality    text NOT NULL,
    id_kind        text NOT NULL CHECK (id_kind IN ('resident_id', 'passport')),
    id_number      text NOT NULL,
    -- resident ids are unique on their own; passports per issuing country
    identity_key   text NOT NULL UNIQUE,
    province_code  text NOT NULL CHECK (province_code ~ '^[0-9]{2}$'),
    agency_prefix  text NOT NULL,
    rank           smallint NOT NULL DEFAULT 0 CHECK (rank BETWEEN -30 AND 8),
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL
);
CREATE INDEX players_province_rank ON players (province_code, rank, id);
CREATE INDEX players_name ON players (lower(name) text_pattern_ops);

CREATE TABLE api_tokens (
    id            bigserial PRIMARY KEY,
    hash          bytea NOT NULL UNIQUE,
    kind          text NOT NULL CHECK (kind IN ('agency', 'staff')),
    agency_prefix text REFERENCES agencies (prefix),
    staff_name    text,
    created_at    timestamptz NOT NULL,
    revoked_at    timestamptz,
    CHECK ((kind = 'agency') = (agency_prefix IS NOT NULL)),
    CHECK ((kind = 'staff') = (staff_name IS NOT NULL))
);

CREATE TABLE idempotency_keys (
    actor         text NOT NULL,
    key           text NOT NULL,
    method        text NOT NULL,
    request_hash  bytea NOT NULL,
    response      jsonb NOT NULL,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (actor, key)
);

-- The event log: append-only, each row chained to the previous by SHA-256.
CREATE TABLE events (
    id           bigint PRIMARY KEY,
    at           timestamptz NOT NULL,
    actor        text NOT NULL,
    action       text NOT NULL,
    entity_type  text NOT NULL,
    entity_id    text NOT NULL,
    -- json, not jsonb: the hash covers the exact bytes written
    payload      json NOT NULL,
    prev_hash    bytea NOT NULL,
    hash         bytea NOT NULL
);
CREATE INDEX events_entity ON events (entity_type, entity_id, id);

-- +goose StatementBegin
CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only: % is not allowed', TG_OP;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();

-- +goose Down
DROP TABLE events;
DROP FUNCTION events_append_only();
DROP TABLE idempotency_keys;
DROP TABLE api_tokens;
DROP TABLE players;
DROP TABLE agencies;
