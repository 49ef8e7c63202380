-- +goose Up
-- Small shared values every server process must agree on (e.g. the portal's
-- form-signing secret).
CREATE TABLE settings (
    key    text PRIMARY KEY,
    value  text NOT NULL
);

-- An agency's order of next year's certificate stock, placed in December.
CREATE TABLE certificate_orders (
    agency_prefix  text NOT NULL REFERENCES agencies (prefix),
    year           smallint NOT NULL CHECK (year BETWEEN 2000 AND 2999),
    dan_count      integer NOT NULL CHECK (dan_count BETWEEN 0 AND 9999),
    kyu_count      integer NOT NULL CHECK (kyu_count BETWEEN 0 AND 99999),
    status         text NOT NULL CHECK (status IN ('requested', 'granted', 'refused')),
    ordered_at     timestamptz NOT NULL,
    ordered_by     text NOT NULL,
    decided_at     timestamptz,
    decided_by     text,
    note           text NOT NULL DEFAULT '',
    PRIMARY KEY (agency_prefix, year)
);

CREATE TABLE appraisers (
    id              bigserial PRIMARY KEY,
    name            text NOT NULL CHECK (name <> ''),
    agency_prefix   text NOT NULL REFERENCES agencies (prefix),
    player_id       bigint REFERENCES players (id),
    qualification   text NOT NULL DEFAULT '',
    status          text NOT NULL CHECK (status IN ('recommended', 'approved', 'refused', 'revoked')),
    recommended_at  timestamptz NOT NULL,
    decided_at      timestamptz,
    decided_by      text
);

CREATE TABLE applications (
    id             bigserial PRIMARY KEY,
    player_id      bigint NOT NULL REFERENCES players (id),
    agency_prefix  text NOT NULL,
    target_rank    smallint NOT NULL CHECK (target_rank BETWEEN -30 AND 7 AND target_rank <> 0),
    basis          text NOT NULL CHECK (basis IN ('tournament', 'appraisal', 'national_result', 'national_championship')),
    event_ref      text NOT NULL DEFAULT '',
    record_ref     text NOT NULL DEFAULT '',
    evidence       text NOT NULL DEFAULT '',
    appraiser_id   bigint REFERENCES appraisers (id),
    status         text NOT NULL CHECK (status IN ('applied', 'on_notice', 'issued', 'rejected', 'failed')),
    applied_at     timestamptz NOT NULL,
    applied_by     text NOT NULL,
    decided_at     timestamptz,
    decided_by     text,
    reason         text NOT NULL DEFAULT '',
    certificate_id bigint
);
-- One open application per player at a time.
CREATE UNIQUE INDEX applications_open ON applications (player_id) WHERE status IN ('applied', 'on_notice');
CREATE INDEX applications_agency ON applications (agency_prefix, id DESC);

-- The public notice (公示) of a 4–7 dan: a snapshot of what was announced.
CREATE TABLE notices (
    id              bigserial PRIMARY KEY,
    application_id  bigint NOT NULL UNIQUE REFERENCES applications (id),
    player_name     text NOT NULL,
    gender          text NOT NULL,
    province_code   text NOT NULL,
    agency_prefix   text NOT NULL,
    agency_name     text NOT NULL,
    rank            smallint NOT NULL CHECK (rank BETWEEN 4 AND 7),
    basis           text NOT NULL,
    basis_detail    text NOT NULL DEFAULT '',
    published_at    timestamptz NOT NULL,
    ends_at         timestamptz NOT NULL CHECK (ends_at >= published_at),
    status          text NOT NULL CHECK (status IN ('open', 'issued', 'failed')),
    closed_at       timestamptz
);
CREATE INDEX notices_due ON notices (ends_at) WHERE status = 'open';
CREATE INDEX notices_list ON notices (province_code, rank, published_at DESC);

CREATE TABLE objections (
    id         bigserial PRIMARY KEY,
    notice_id  bigint NOT NULL REFERENCES notices (id),
    name       text NOT NULL CHECK (name <> ''),
    contact    text NOT NULL CHECK (contact <> ''),
    reason     text NOT NULL CHECK (reason <> ''),
    address    text NOT NULL,
    lodged_at  timestamptz NOT NULL,
    status     text NOT NULL CHECK (status IN ('open', 'upheld', 'dismissed', 'closed')),
    ruled_at   timestamptz,
    ruled_by   text,
    ruling     text NOT NULL DEFAULT ''
);
CREATE INDEX objections_notice ON objections (notice_id, address);
CREATE INDEX objections_open ON objections (lodged_at) WHERE status = 'open';

-- The last serial handed out per series; its row lock orders concurrent issuers.
CREATE TABLE certificate_series (
    prefix       text NOT NULL,
    year         smallint NOT NULL CHECK (year BETWEEN 0 AND 99),
    kind         text NOT NULL CHECK (kind IN ('dan', 'kyu')),
    last_serial  integer NOT NULL,
    PRIMARY KEY (prefix, year, kind)
);

CREATE TABLE certificates (
    id              bigserial PRIMARY KEY,
    -- NULL only for a kyu grade that gets no printed certificate
    number          text UNIQUE CHECK (number ~ '^([0-9]{9}|K[0-9]{10})$'),
    kind            text NOT NULL CHECK (kind IN ('dan', 'kyu')),
    issuing_prefix  text NOT NULL,
    year            smallint NOT NULL CHECK (year BETWEEN 0 AND 99),
    serial          integer,
    player_id       bigint NOT NULL REFERENCES players (id),
    rank            smallint NOT NULL CHECK (rank BETWEEN -30 AND 7 AND rank <> 0),
    previous_rank   smallint NOT NULL,
    basis           text NOT NULL,
    application_id  bigint REFERENCES applications (id),
    issued_at       timestamptz NOT NULL,
    -- when the rank was first granted; a reissue keeps it, so "newest" stays right
    granted_at      timestamptz NOT NULL,
    issue_date      date NOT NULL,
    athlete_grade   text NOT NULL CHECK (athlete_grade IN ('', 'second', 'first')),
    status          text NOT NULL CHECK (status IN ('valid', 'revoked', 'reissued')),
    status_reason   text NOT NULL DEFAULT '',
    replaces        bigint REFERENCES certificates (id),
    replaced_by     bigint REFERENCES certificates (id),
    UNIQUE (issuing_prefix, year, kind, serial),
    CHECK ((number IS NULL) = (serial IS NULL)),
    CHECK (kind = 'kyu' OR serial BETWEEN 1 AND 9999),
    CHECK ((kind = 'dan') = (rank > 0))
);
CREATE INDEX certificates_player ON certificates (player_id, granted_at DESC, id DESC);
CREATE INDEX certificates_issuer ON certificates (issuing_prefix, year, kind);

-- +goose Down
DROP TABLE certificates;
DROP TABLE certificate_series;
DROP TABLE objections;
DROP TABLE notices;
DROP TABLE applications;
DROP TABLE appraisers;
DROP TABLE certificate_orders;
DROP TABLE settings;
