-- +goose Up
-- Webhooks (issue 27, package webhooks): an agency or staff subscribe a URL
-- to kinds of events; each logged event of those kinds becomes a delivery,
-- tried until the receiver answers 2xx or the tries run out, each try kept.
CREATE TABLE webhook_subscriptions (
    id          bigserial PRIMARY KEY,
    owner       text NOT NULL,              -- the subscribing actor (agency:110, staff:li)
    url         text NOT NULL,
    actions     text[] NOT NULL,
    secret      bytea NOT NULL,             -- the HMAC key the deliveries are signed with
    from_event  bigint NOT NULL,            -- the log's position when made: later events are delivered
    created_at  timestamptz NOT NULL,
    ended_at    timestamptz
);

CREATE TABLE webhook_deliveries (
    id               bigserial PRIMARY KEY,
    subscription_id  bigint NOT NULL REFERENCES webhook_subscriptions (id),
    event_id         bigint NOT NULL,
    status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         integer NOT NULL DEFAULT 0,
    next_at          timestamptz NOT NULL,
    created_at       timestamptz NOT NULL,
    UNIQUE (subscription_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE status = 'pending';

CREATE TABLE webhook_attempts (
    delivery_id  bigint NOT NULL REFERENCES webhook_deliveries (id),
    attempt      integer NOT NULL,
    at           timestamptz NOT NULL,
    status_code  integer NOT NULL,          -- 0: no answer
    error        text NOT NULL DEFAULT '',
    PRIMARY KEY (delivery_id, attempt)
);

-- how far the dispatcher has read the event log
CREATE TABLE webhook_cursor (
    one        boolean PRIMARY KEY DEFAULT true CHECK (one),
    event_id   bigint NOT NULL
);

-- +goose Down
DROP TABLE webhook_cursor;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_subscriptions;
