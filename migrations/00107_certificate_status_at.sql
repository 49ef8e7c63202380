-- +goose Up
-- When a certificate stopped being valid (revoked, or replaced by a
-- reissue): a past year's statistics count its holders and revocations as
-- they stood at that year's end, not as they stand today. Earlier changes
-- take their time from the event log and from the reissue.
ALTER TABLE certificates ADD COLUMN status_at timestamptz;
UPDATE certificates c SET status_at = n.issued_at
    FROM certificates n WHERE c.status = 'reissued' AND n.id = c.replaced_by;
UPDATE certificates c SET status_at = e.at
    FROM events e WHERE c.status = 'revoked' AND e.entity_type = 'certificate' AND e.entity_id = c.number
    AND e.action = 'certificate.revoked';
-- a certificate not valid whose change is not known (a bulk load) reads
-- as changed when issued: coalesce(status_at, issued_at)

-- +goose Down
ALTER TABLE certificates DROP COLUMN status_at;
