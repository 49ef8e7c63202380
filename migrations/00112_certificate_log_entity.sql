-- +goose Up
-- The public verification reads a certificate and its state events in one
-- statement on every request. Each expression and join of that statement
-- is built anew by the executor on every call (ExecutorStart), so what it
-- computed per row is now kept on the row:
--   log_entity: the entity id of the certificate's events (the number,
--     else the number printed in an older format, else #id: certs.logEntity),
--     generated, so it cannot disagree with the columns it is made of;
--   replaces_number, replaced_by_number: the numbers of the certificates
--     a reissue links (replaces, replaced_by), written by the reissue with
--     the links ('' for none, as for an unprinted kyu grade), instead of
--     two self-joins. The verification checks them against the logged
--     events like every other column it answers.
ALTER TABLE certificates
    ADD COLUMN log_entity text NOT NULL GENERATED ALWAYS AS (
        CASE WHEN coalesce(number, '') <> '' THEN number
             WHEN coalesce(printed_number, '') <> '' THEN printed_number
             ELSE '#' || id::text END) STORED,
    ADD COLUMN replaces_number text NOT NULL DEFAULT '',
    ADD COLUMN replaced_by_number text NOT NULL DEFAULT '';
UPDATE certificates c SET replaces_number = coalesce(o.number, '')
    FROM certificates o WHERE o.id = c.replaces;
UPDATE certificates c SET replaced_by_number = coalesce(n.number, '')
    FROM certificates n WHERE n.id = c.replaced_by;

-- +goose Down
ALTER TABLE certificates DROP COLUMN log_entity, DROP COLUMN replaces_number, DROP COLUMN replaced_by_number;
