package tournaments

import (
	"context"
	"fmt"
	"sync"

	"github.com/dankyu/dankyu/ledger"
)

// StandingsCache keeps events' standings (the part of a report that an
// approval's evidence reads), each with the digest of the event's rows it
// was computed from. An event's standings need all its participants and
// games; approving its players one by one would compute them once per
// player. A record is taken from the cache only while the event's rows
// digest alike, read in the caller's transaction before anything else of
// the event: a result voided or corrected, a participant added, withdrawn
// or merged, a rule changed is seen by the next read. The zero value is
// not usable; a nil cache computes every time.
type StandingsCache struct {
	mu     sync.Mutex
	events map[int64]cachedStandings
}

type cachedStandings struct {
	digest string
	report Report
}

// maxCachedEvents bounds the cache: approvals come in batches per event.
const maxCachedEvents = 64

// NewStandingsCache returns an empty cache.
func NewStandingsCache() *StandingsCache {
	return &StandingsCache{events: map[int64]cachedStandings{}}
}

// PlayerRecord is PlayerRecordTx, through the cache.
func (c *StandingsCache) PlayerRecord(ctx context.Context, q ledger.Querier, eventID, playerID int64) (PlayerRecord, error) {
	if c == nil {
		return PlayerRecordTx(ctx, q, eventID, playerID)
	}
	digest, err := eventDigest(ctx, q, eventID)
	if err != nil {
		return PlayerRecord{}, err
	}
	if digest == "" {
		return PlayerRecord{}, nil // no such event
	}
	c.mu.Lock()
	e, hit := c.events[eventID]
	c.mu.Unlock()
	if hit && e.digest == digest {
		return recordOf(e.report, playerID), nil
	}
	r, ok, err := standingsOf(ctx, q, eventID)
	if err != nil || !ok {
		return PlayerRecord{}, err
	}
	c.mu.Lock()
	if _, ok := c.events[eventID]; !ok && len(c.events) >= maxCachedEvents {
		for id := range c.events { // any one: the map is small
			delete(c.events, id)
			break
		}
	}
	c.events[eventID] = cachedStandings{digest: digest, report: r}
	c.mu.Unlock()
	return recordOf(r, playerID), nil
}

// eventDigest digests, in one statement, the row versions standingsReport
// reads of an event: the event's row, groups, grading rules, participants,
// rounds, games and extra byes, each table as its row count and the sum of
// its rows' 64-bit hashes of (ctid, xmin). Every insert, update or delete
// leaves a version that no snapshot saw before (the writer's transaction
// id is new), so any change of the rows changes the digest; a write that
// changes nothing the standings read (a game's record) costs a recompute.
// Hashing the versions rather than the rows' text is what keeps it cheap:
// it is read by every approval on the event, and hashing 751 participants'
// and 376 games' text was half the database's work of an approval.
// "" when there is no such event.
func eventDigest(ctx context.Context, q ledger.Querier, id int64) (string, error) {
	var d *string
	err := q.QueryRow(ctx, `SELECT (SELECT t.ctid::text || '/' || t.xmin::text FROM tournaments t WHERE t.id = $1) || concat_ws(':',
		(SELECT count(*) || '/' || coalesce(sum(hashtextextended(x.ctid::text || x.xmin::text, 0)), 0) FROM tournament_groups x WHERE x.tournament_id = $1),
		(SELECT count(*) || '/' || coalesce(sum(hashtextextended(x.ctid::text || x.xmin::text, 0)), 0) FROM tournament_grading_rules x WHERE x.tournament_id = $1),
		(SELECT count(*) || '/' || coalesce(sum(hashtextextended(x.ctid::text || x.xmin::text, 0)), 0) FROM participants x WHERE x.tournament_id = $1),
		(SELECT count(*) || '/' || coalesce(sum(hashtextextended(x.ctid::text || x.xmin::text, 0)), 0) FROM tournament_rounds x WHERE x.tournament_id = $1),
		(SELECT count(*) || '/' || coalesce(sum(hashtextextended(x.ctid::text || x.xmin::text, 0)), 0) FROM tournament_games x WHERE x.tournament_id = $1),
		(SELECT count(*) || '/' || coalesce(sum(hashtextextended(x.ctid::text || x.xmin::text, 0)), 0) FROM tournament_more_byes x WHERE x.tournament_id = $1))`, id).Scan(&d)
	if err != nil {
		return "", fmt.Errorf("digest of tournament %d: %w", id, err)
	}
	if d == nil {
		return "", nil
	}
	return *d, nil
}
