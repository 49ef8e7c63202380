-- +goose Up
-- The numbered certificates a series has issued in the registry (paper
-- records aside): the stock check reads it from the series row the issuer
-- has just locked, instead of counting the series' certificates under
-- that lock, so an issue costs the same at serial 1 and at serial 9 000.
-- Kept by the issuing statement itself (nextSerial) and by bulk loads.
ALTER TABLE certificate_series ADD COLUMN used integer NOT NULL DEFAULT 0 CHECK (used >= 0);
UPDATE certificate_series s SET used = (SELECT count(*) FROM certificates c
    WHERE c.issuing_prefix = s.prefix AND c.year = s.year AND c.kind = s.kind AND c.serial IS NOT NULL AND NOT c.from_paper);

-- +goose Down
ALTER TABLE certificate_series DROP COLUMN used;
