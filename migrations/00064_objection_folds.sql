-- +goose Up
-- Objections no longer hold a notice open without end, and a flood costs
-- staff one decision (issue 31). An objection identical to an open one of
-- the same notice (the same text once normalised, or the same objector) is
-- folded into it (fold_of names the first, the fold's lead): a ruling on
-- any of them rules the fold. An objection left unruled past the ruling
-- deadline lapses (status 'lapsed') and the notice proceeds.
ALTER TABLE objections ADD COLUMN fold_of bigint REFERENCES objections (id);
ALTER TABLE objections ADD COLUMN reason_key text NOT NULL DEFAULT '';
ALTER TABLE objections DROP CONSTRAINT objections_status_check;
ALTER TABLE objections ADD CONSTRAINT objections_status_check
    CHECK (status IN ('open', 'upheld', 'dismissed', 'closed', 'lapsed'));
ALTER TABLE objections ADD CONSTRAINT objections_fold_lead CHECK (fold_of IS NULL OR fold_of < id);
CREATE INDEX objections_open_leads ON objections (notice_id, reason_key) WHERE status = 'open' AND fold_of IS NULL;
CREATE INDEX objections_folds ON objections (fold_of) WHERE fold_of IS NOT NULL;

-- +goose Down
DROP INDEX objections_folds;
DROP INDEX objections_open_leads;
ALTER TABLE objections DROP CONSTRAINT objections_fold_lead;
UPDATE objections SET status = 'closed' WHERE status = 'lapsed';
ALTER TABLE objections DROP CONSTRAINT objections_status_check;
ALTER TABLE objections ADD CONSTRAINT objections_status_check
    CHECK (status IN ('open', 'upheld', 'dismissed', 'closed'));
ALTER TABLE objections DROP COLUMN reason_key;
ALTER TABLE objections DROP COLUMN fold_of;
