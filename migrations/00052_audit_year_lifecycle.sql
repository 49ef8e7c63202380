-- +goose Up
-- The audit year's lifecycle (issue 23): a running year's preview (its
-- scorecards labelled 预览, no findings, no ruling can use them), the reply
-- period after which a ruling is final, the agency's appeal (复议) and its
-- decision, and the year's publication (通报).
CREATE TABLE audit_previews (
    agency_prefix  text NOT NULL REFERENCES agencies (prefix),
    year           smallint NOT NULL CHECK (year BETWEEN 2000 AND 2999),
    period_start   timestamptz NOT NULL,
    period_end     timestamptz NOT NULL CHECK (period_end > period_start),
    position       bigint NOT NULL CHECK (position >= 0),
    computed_at    timestamptz NOT NULL,
    computed_by    text NOT NULL,
    PRIMARY KEY (agency_prefix, year)
);

CREATE TABLE audit_preview_indicators (
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
    FOREIGN KEY (agency_prefix, year) REFERENCES audit_previews (agency_prefix, year) ON DELETE CASCADE
);

ALTER TABLE audit_rulings ADD COLUMN reply_until timestamptz;
UPDATE audit_rulings SET reply_until = ruled_at + interval '30 days';
ALTER TABLE audit_rulings ALTER COLUMN reply_until SET NOT NULL;

CREATE TABLE audit_appeals (
    agency_prefix  text NOT NULL,
    year           smallint NOT NULL,
    reason         text NOT NULL,
    filed_at       timestamptz NOT NULL,
    filed_by       text NOT NULL,
    status         text NOT NULL CHECK (status IN ('pending', 'upheld', 'changed')),
    decided_at     timestamptz,
    decided_by     text,
    decision_note  text NOT NULL DEFAULT '',
    PRIMARY KEY (agency_prefix, year),
    FOREIGN KEY (agency_prefix, year) REFERENCES audit_rulings (agency_prefix, year)
);

CREATE TABLE audit_publications (
    year          smallint PRIMARY KEY CHECK (year BETWEEN 2000 AND 2999),
    note          text NOT NULL DEFAULT '',
    early         boolean NOT NULL DEFAULT false,
    published_at  timestamptz NOT NULL,
    published_by  text NOT NULL
);

-- +goose Down
DROP TABLE audit_publications;
DROP TABLE audit_appeals;
ALTER TABLE audit_rulings DROP COLUMN reply_until;
DROP TABLE audit_preview_indicators;
DROP TABLE audit_previews;
