-- +goose Up
-- An approval's evidence reads an event's standings from a cache
-- (tournaments.StandingsCache), kept while nothing the standings are
-- computed from has changed. It found out by digesting every row version
-- of the event's seven tables on every approval (0.4 ms on an event of 751
-- players). Instead every writer of those rows notes here, by trigger, the
-- transaction that wrote (a row per transaction and event): a cached entry
-- keeps the snapshot it was read in, and is stale when a change is visible
-- now that was not in that snapshot, which reads only the changes since the
-- snapshot's oldest running transaction. A row per writer, not a counter
-- per event: concurrent result writers of one event never wait for each
-- other on it (nor deadlock through it), and a writer that commits after
-- a later one is still seen. Tournament 0 is a truncate of any of them.
CREATE TABLE tournament_changes (
    tournament_id bigint NOT NULL,
    xid           xid8 NOT NULL,
    PRIMARY KEY (tournament_id, xid)
);

-- +goose StatementBegin
CREATE FUNCTION tournament_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
    o bigint;
BEGIN
    -- the event's own row is keyed by id, the others by tournament_id
    IF TG_TABLE_NAME = 'tournaments' THEN
        IF TG_OP <> 'DELETE' THEN n := NEW.id; END IF;
        IF TG_OP <> 'INSERT' THEN o := OLD.id; END IF;
    ELSE
        IF TG_OP <> 'DELETE' THEN n := NEW.tournament_id; END IF;
        IF TG_OP <> 'INSERT' THEN o := OLD.tournament_id; END IF;
    END IF;
    IF n IS NOT NULL THEN
        INSERT INTO tournament_changes VALUES (n, pg_current_xact_id()) ON CONFLICT DO NOTHING;
    END IF;
    IF o IS NOT NULL AND o IS DISTINCT FROM n THEN
        INSERT INTO tournament_changes VALUES (o, pg_current_xact_id()) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION tournament_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tournament_changes VALUES (0, pg_current_xact_id()) ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER tournaments_changed AFTER INSERT OR UPDATE OR DELETE ON tournaments
    FOR EACH ROW EXECUTE FUNCTION tournament_changed();
CREATE TRIGGER tournament_groups_changed AFTER INSERT OR UPDATE OR DELETE ON tournament_groups
    FOR EACH ROW EXECUTE FUNCTION tournament_changed();
CREATE TRIGGER tournament_grading_rules_changed AFTER INSERT OR UPDATE OR DELETE ON tournament_grading_rules
    FOR EACH ROW EXECUTE FUNCTION tournament_changed();
CREATE TRIGGER participants_changed AFTER INSERT OR UPDATE OR DELETE ON participants
    FOR EACH ROW EXECUTE FUNCTION tournament_changed();
CREATE TRIGGER tournament_rounds_changed AFTER INSERT OR UPDATE OR DELETE ON tournament_rounds
    FOR EACH ROW EXECUTE FUNCTION tournament_changed();
CREATE TRIGGER tournament_games_changed AFTER INSERT OR UPDATE OR DELETE ON tournament_games
    FOR EACH ROW EXECUTE FUNCTION tournament_changed();
CREATE TRIGGER tournament_more_byes_changed AFTER INSERT OR UPDATE OR DELETE ON tournament_more_byes
    FOR EACH ROW EXECUTE FUNCTION tournament_changed();

CREATE TRIGGER tournaments_truncated AFTER TRUNCATE ON tournaments
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_truncated();
CREATE TRIGGER tournament_groups_truncated AFTER TRUNCATE ON tournament_groups
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_truncated();
CREATE TRIGGER tournament_grading_rules_truncated AFTER TRUNCATE ON tournament_grading_rules
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_truncated();
CREATE TRIGGER participants_truncated AFTER TRUNCATE ON participants
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_truncated();
CREATE TRIGGER tournament_rounds_truncated AFTER TRUNCATE ON tournament_rounds
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_truncated();
CREATE TRIGGER tournament_games_truncated AFTER TRUNCATE ON tournament_games
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_truncated();
CREATE TRIGGER tournament_more_byes_truncated AFTER TRUNCATE ON tournament_more_byes
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_truncated();

-- +goose Down
DROP TRIGGER tournaments_changed ON tournaments;
DROP TRIGGER tournament_groups_changed ON tournament_groups;
DROP TRIGGER tournament_grading_rules_changed ON tournament_grading_rules;
DROP TRIGGER participants_changed ON participants;
DROP TRIGGER tournament_rounds_changed ON tournament_rounds;
DROP TRIGGER tournament_games_changed ON tournament_games;
DROP TRIGGER tournament_more_byes_changed ON tournament_more_byes;
DROP TRIGGER tournaments_truncated ON tournaments;
DROP TRIGGER tournament_groups_truncated ON tournament_groups;
DROP TRIGGER tournament_grading_rules_truncated ON tournament_grading_rules;
DROP TRIGGER participants_truncated ON participants;
DROP TRIGGER tournament_rounds_truncated ON tournament_rounds;
DROP TRIGGER tournament_games_truncated ON tournament_games;
DROP TRIGGER tournament_more_byes_truncated ON tournament_more_byes;
DROP FUNCTION tournament_truncated();
DROP FUNCTION tournament_changed();
DROP TABLE tournament_changes;
