-- +goose Up
-- The EGD PIN a tournament file gives a participant (guests too): ratings
-- and player matching need it. Empty when the file has none.
ALTER TABLE participants ADD COLUMN egd_pin text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE participants DROP COLUMN egd_pin;
