-- +goose Up
-- A dan-grade proposal's note in Chinese beside the English one, so the
-- tournament page words it in its own language. Earlier rows: empty (the
-- English note is shown).
ALTER TABLE tournament_proposals ADD COLUMN note_zh text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE tournament_proposals DROP COLUMN note_zh;
