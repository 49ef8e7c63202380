-- +goose Up
-- Changes of a registered player's identity (birth date, identity document:
-- kind, number and nationality). An agency's change waits for staff
-- ('pending', then 'approved' or 'rejected'); staff's own change, and an
-- agency's correction on the day of registration that no rule depends on,
-- take effect at once ('applied'). The old number is kept masked; the new
-- one in full while it may still be applied, masked once decided.
CREATE TABLE player_identity_changes (
    id                  bigserial PRIMARY KEY,
    player_id           bigint NOT NULL REFERENCES players (id),
    agency_prefix       text NOT NULL,
    status              text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'applied')),
    reason              text NOT NULL CHECK (reason <> ''),
    requested_at        timestamptz NOT NULL,
    requested_by        text NOT NULL,
    old_birth_date      date NOT NULL,
    new_birth_date      date NOT NULL,
    old_nationality     text NOT NULL,
    new_nationality     text NOT NULL,
    old_id_kind         text NOT NULL,
    new_id_kind         text NOT NULL,
    old_id_masked       text NOT NULL,
    new_id_masked       text NOT NULL,
    new_id_number       text NOT NULL DEFAULT '',
    decided_at          timestamptz,
    decided_by          text NOT NULL DEFAULT '',
    decision_reason     text NOT NULL DEFAULT ''
);
-- at most one change of a player waits
CREATE UNIQUE INDEX player_identity_changes_one_pending ON player_identity_changes (player_id) WHERE status = 'pending';
CREATE INDEX player_identity_changes_player ON player_identity_changes (player_id, id);
CREATE INDEX player_identity_changes_status ON player_identity_changes (status, id);

-- +goose Down
DROP TABLE player_identity_changes;
