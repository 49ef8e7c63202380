-- +goose Up
-- Form tokens are single-use for state-changing posts (issue 31): the first
-- post that carries a token claims it here, with its idempotency key and,
-- once done, where it led; a replay is refused, a repeat of the same post
-- (same key) is answered with where the first led. In PostgreSQL rather than
-- in a server's memory so that every server process refuses alike. A row
-- goes once its token has expired (the token is refused by then anyway).
CREATE TABLE form_token_uses (
    hash        bytea PRIMARY KEY CHECK (length(hash) = 32),
    idem        text NOT NULL DEFAULT '',
    outcome     text NOT NULL DEFAULT '',
    expires_at  timestamptz NOT NULL
);
CREATE INDEX form_token_uses_expiry ON form_token_uses (expires_at);

-- +goose Down
DROP TABLE form_token_uses;
