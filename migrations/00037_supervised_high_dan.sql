-- +goose Up
-- A conditional pass may put an agency's 4–5 dan under the association's
-- approval for its supervision period (issue 13: "measures such as staff
-- approval of all its 4–5 dan for the period"), enforced, not only written.
ALTER TABLE audit_rulings ADD COLUMN staff_approves_high_dan boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE audit_rulings DROP COLUMN staff_approves_high_dan;
