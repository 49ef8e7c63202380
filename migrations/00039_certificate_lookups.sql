-- +goose Up
-- A voided result finds the certificates of its application, and staff's
-- workspace lists the flagged ones, on every load: neither may read the
-- whole table (hundreds of thousands of rows a year).
CREATE INDEX certificates_application ON certificates (application_id) WHERE application_id IS NOT NULL;
CREATE INDEX certificates_review ON certificates (id) WHERE review <> '' AND status = 'valid';

-- +goose Down
DROP INDEX certificates_review;
DROP INDEX certificates_application;
