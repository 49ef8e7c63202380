-- +goose Up
-- Certificates from before the registry, recorded from their paper with the
-- number they were printed with: they verify like any other and hold their
-- serial, which the registry's series then skip.
ALTER TABLE certificates ADD COLUMN from_paper boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE certificates DROP COLUMN from_paper;
