-- +goose Up
-- replaces_number and replaced_by_number (00112) are the numbers of the
-- certificates a reissue links, kept on the row for the verification's
-- single read. They were written by the reissue beside the links; a writer
-- that sets a link without them (a server of before 00112 still running
-- against the migrated database, a hand correction) would leave them behind
-- the links, and the verification would answer a wrong number. So they are
-- now kept in step with the links by the database itself, and mended for any
-- row written in between. The trigger fires only when a link is set or
-- changed (its WHEN is checked without entering the function), so an
-- issuance without a link pays nothing for it.

-- +goose StatementBegin
CREATE FUNCTION certificate_link_numbers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.replaces_number := coalesce((SELECT number FROM certificates WHERE id = NEW.replaces), '');
    NEW.replaced_by_number := coalesce((SELECT number FROM certificates WHERE id = NEW.replaced_by), '');
    RETURN NEW;
END $$;
-- +goose StatementEnd

CREATE TRIGGER certificate_link_numbers_insert BEFORE INSERT ON certificates
    FOR EACH ROW WHEN (NEW.replaces IS NOT NULL OR NEW.replaced_by IS NOT NULL OR NEW.replaces_number <> '' OR NEW.replaced_by_number <> '')
    EXECUTE FUNCTION certificate_link_numbers();
CREATE TRIGGER certificate_link_numbers_update BEFORE UPDATE ON certificates
    FOR EACH ROW WHEN (NEW.replaces IS DISTINCT FROM OLD.replaces OR NEW.replaced_by IS DISTINCT FROM OLD.replaced_by
        OR NEW.replaces_number IS DISTINCT FROM OLD.replaces_number OR NEW.replaced_by_number IS DISTINCT FROM OLD.replaced_by_number)
    EXECUTE FUNCTION certificate_link_numbers();

UPDATE certificates c SET replaces_number = coalesce(o.number, '')
    FROM certificates o WHERE o.id = c.replaces AND c.replaces_number IS DISTINCT FROM coalesce(o.number, '');
UPDATE certificates c SET replaced_by_number = coalesce(n.number, '')
    FROM certificates n WHERE n.id = c.replaced_by AND c.replaced_by_number IS DISTINCT FROM coalesce(n.number, '');
UPDATE certificates SET replaces_number = '' WHERE replaces IS NULL AND replaces_number <> '';
UPDATE certificates SET replaced_by_number = '' WHERE replaced_by IS NULL AND replaced_by_number <> '';

-- +goose Down
DROP TRIGGER certificate_link_numbers_update ON certificates;
DROP TRIGGER certificate_link_numbers_insert ON certificates;
DROP FUNCTION certificate_link_numbers();
