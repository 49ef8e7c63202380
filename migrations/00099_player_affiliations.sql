-- +goose Up
-- A player's club or school over time (a change closes the current one and
-- opens the next, both kept), and family links between two players: the
-- keys of an event's pairing constraint (same club, school or family not
-- paired in the first rounds).
CREATE TABLE player_affiliations (
    id           bigserial PRIMARY KEY,
    player_id    bigint NOT NULL REFERENCES players (id),
    kind         text NOT NULL CHECK (kind IN ('club', 'school')),
    name         text NOT NULL,
    from_date    date NOT NULL,
    to_date      date, -- NULL while current
    recorded_at  timestamptz NOT NULL,
    recorded_by  text NOT NULL,
    CHECK (to_date IS NULL OR to_date >= from_date)
);
CREATE INDEX player_affiliations_player ON player_affiliations (player_id, kind, from_date);

CREATE TABLE player_family_links (
    player_a     bigint NOT NULL REFERENCES players (id),
    player_b     bigint NOT NULL REFERENCES players (id),
    recorded_at  timestamptz NOT NULL,
    recorded_by  text NOT NULL,
    PRIMARY KEY (player_a, player_b),
    CHECK (player_a < player_b)
);
CREATE INDEX player_family_links_b ON player_family_links (player_b);

-- +goose Down
DROP TABLE player_family_links;
DROP TABLE player_affiliations;
