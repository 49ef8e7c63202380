-- +goose Up
-- Portal sign-ins (security review, issue 12): the browser's cookie holds a
-- random session id, of which only the SHA-256 is kept here with the API
-- token it stands for and its expiry, so a copied cookie dies at logout or
-- expiry and never reveals the token.
CREATE TABLE portal_sessions (
    id_hash    bytea PRIMARY KEY,
    token_id   bigint NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX portal_sessions_expiry ON portal_sessions (expires_at);

-- Idempotency records expire (see ledger.ExpireIdempotencyKeys).
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- +goose Down
DROP INDEX idempotency_keys_created;
DROP TABLE portal_sessions;
