-- +goose Up
-- The annual audit (年审): one audit per agency and audit year, the frozen
-- snapshot of its indicators with the event-log position they were computed
-- at, findings, rulings and the logged bootstrap decisions.
CREATE TABLE audits (
    agency_prefix  text NOT NULL REFERENCES agencies (prefix),
    year           smallint NOT NULL CHECK (year BETWEEN 2000 AND 2999),
    period_start   timestamptz NOT NULL,
    period_end     timestamptz NOT NULL CHECK (period_end > period_start),
    position       bigint NOT NULL CHECK (position >= 0),
    opened_at      timestamptz NOT NULL,
    opened_by      text NOT NULL,
    PRIMARY KEY (agency_prefix, year)
);

CREATE TABLE audit_indicators (
    agency_prefix  text NOT NULL,
    year           smallint NOT NULL,
    key            text NOT NULL,
    value          double precision NOT NULL,
    count          bigint NOT NULL,
    base           bigint NOT NULL,
    median         double precision NOT NULL,
    spread         double precision NOT NULL,
    mark           text NOT NULL CHECK (mark IN ('green', 'amber', 'red')),
    PRIMARY KEY (agency_prefix, year, key),
    FOREIGN KEY (agency_prefix, year) REFERENCES audits (agency_prefix, year)
);

CREATE TABLE audit_findings (
    id             bigserial PRIMARY KEY,
    agency_prefix  text NOT NULL,
    year           smallint NOT NULL,
    indicator      text NOT NULL DEFAULT '',
    category       text NOT NULL CHECK (category IN ('overissue', 'falsification', 'no_records', 'inactivity', 'procedure')),
    severity       text NOT NULL CHECK (severity IN ('low', 'medium', 'high')),
    evidence       text NOT NULL,
    status         text NOT NULL CHECK (status IN ('open', 'confirmed', 'dismissed')),
    opened_at      timestamptz NOT NULL,
    opened_by      text NOT NULL,
    decided_at     timestamptz,
    decided_by     text,
    decision_note  text NOT NULL DEFAULT '',
    reply          text NOT NULL DEFAULT '',
    replied_at     timestamptz,
    replied_by     text,
    FOREIGN KEY (agency_prefix, year) REFERENCES audits (agency_prefix, year)
);
CREATE INDEX audit_findings_audit ON audit_findings (agency_prefix, year, id);

CREATE TABLE audit_rulings (
    agency_prefix      text NOT NULL,
    year               smallint NOT NULL,
    outcome            text NOT NULL CHECK (outcome IN ('pass', 'conditional', 'fail')),
    dan_cap            integer CHECK (dan_cap >= 0),
    kyu_cap            integer CHECK (kyu_cap >= 0),
    supervision_until  date,
    measures           text NOT NULL DEFAULT '',
    note               text NOT NULL DEFAULT '',
    ruled_at           timestamptz NOT NULL,
    ruled_by           text NOT NULL,
    PRIMARY KEY (agency_prefix, year),
    FOREIGN KEY (agency_prefix, year) REFERENCES audits (agency_prefix, year)
);

CREATE TABLE audit_bootstraps (
    agency_prefix  text NOT NULL REFERENCES agencies (prefix),
    stock_year     smallint NOT NULL CHECK (stock_year BETWEEN 2000 AND 2999),
    note           text NOT NULL,
    decided_at     timestamptz NOT NULL,
    decided_by     text NOT NULL,
    PRIMARY KEY (agency_prefix, stock_year)
);

-- +goose Down
DROP TABLE audit_bootstraps;
DROP TABLE audit_rulings;
DROP TABLE audit_findings;
DROP TABLE audit_indicators;
DROP TABLE audits;
