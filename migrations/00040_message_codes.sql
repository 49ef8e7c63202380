-- +goose Up
-- Why a game is flagged for review, why a certificate awaits review and
-- what became of a dan-grade proposal, as a code with its parameters, so
-- that each reader words them in his own language. The text columns keep
-- the English wording beside them; rows from before have only the text
-- (code '', parameters {}), which is shown as stored.
ALTER TABLE tournament_games
    ADD COLUMN flag_code text NOT NULL DEFAULT '',
    ADD COLUMN flag_params jsonb NOT NULL DEFAULT '{}';
ALTER TABLE certificates
    ADD COLUMN review_code text NOT NULL DEFAULT '',
    ADD COLUMN review_params jsonb NOT NULL DEFAULT '{}';
ALTER TABLE tournament_proposals
    ADD COLUMN note_code text NOT NULL DEFAULT '',
    ADD COLUMN note_params jsonb NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE tournament_proposals DROP COLUMN note_params, DROP COLUMN note_code;
ALTER TABLE certificates DROP COLUMN review_params, DROP COLUMN review_code;
ALTER TABLE tournament_games DROP COLUMN flag_params, DROP COLUMN flag_code;
