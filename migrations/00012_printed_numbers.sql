-- +goose Up
-- Paper certificates numbered in a format older than today's keep the
-- number as it was printed; they verify by it, and hold no serial.
ALTER TABLE certificates ADD COLUMN printed_number text UNIQUE;

-- +goose Down
ALTER TABLE certificates DROP COLUMN printed_number;
