package nationaldata_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/internal/nationaldata"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/rules"
)

// TestRealisticSetAndPlants loads a realistic small data set and plants
// the six abuses through the services: the circuits make players meet in
// several events, agencies differ in habits, one small agency is idle and
// expected (not an anomaly), the log still verifies, and each plant is in
// the rows at its size on its own agency, distinct from the anomalies'.
func TestRealisticSetAndPlants(t *testing.T) {
	ctx := context.Background()
	p, err := nationaldata.Build(nationaldata.Options{Years: []int{auditYear}, Seed: testSeed(), Scale: nationaldata.Small, Realistic: true,
		Anomalies: allFive()})
	if err != nil {
		t.Fatal(err)
	}
	q, err := nationaldata.Build(nationaldata.Options{Years: []int{auditYear}, Seed: testSeed(), Scale: nationaldata.Small, Realistic: true,
		Anomalies: allFive()})
	if err != nil || q.Digest() != p.Digest() {
		t.Fatalf("realistic plans differ for one seed (%v)", err)
	}
	pool, _ := harness.NewDB(t)
	m, err := nationaldata.Load(ctx, pool, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Matches(nationaldata.Options{Years: []int{auditYear}, Seed: testSeed(), Scale: nationaldata.Small, Anomalies: allFive()}); err == nil {
		t.Error("a realistic manifest matches plain options")
	}
	count := func(sql string, args ...any) int {
		t.Helper()
		var c int
		if err := pool.QueryRow(ctx, sql, args...).Scan(&c); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return c
	}
	// one idle small agency, expected, not an anomaly, with no act in the year
	if len(m.Expected) != 1 || m.Expected[0].Family != audit.Inactivity {
		t.Fatalf("expected marks %+v, want one idle agency", m.Expected)
	}
	idle := m.Expected[0].Agency
	for _, a := range m.Anomalies {
		if a.Agency == idle {
			t.Fatalf("the idle agency %s carries anomaly %s", idle, a.Anomaly)
		}
	}
	from := time.Date(auditYear-1, time.November, 30, 16, 0, 0, 0, time.UTC)
	if n := count(`SELECT count(*) FROM events WHERE at >= $1 AND (actor = 'agency:' || $2 OR entity_id LIKE $2 || '/%')`, from, idle); n != 0 {
		t.Errorf("idle agency %s: %d events in the year", idle, n)
	}
	// circuits: open events, and pairs of players meeting in two events or more
	if n := count(`SELECT count(*) FROM tournaments WHERE NOT dan_grade`); n < 34 {
		t.Errorf("%d open (circuit) events, want several per agency", n)
	}
	repeated := count(`WITH pairs AS (SELECT DISTINCT g.tournament_id, least(b.player_id, w.player_id) AS x, greatest(b.player_id, w.player_id) AS y
			FROM tournament_games g JOIN participants b ON b.tournament_id = g.tournament_id AND b.number = g.black
			JOIN participants w ON w.tournament_id = g.tournament_id AND w.number = g.white)
		SELECT count(*) FROM (SELECT x, y FROM pairs GROUP BY x, y HAVING count(*) >= 2) r`)
	if repeated < 200 {
		t.Errorf("%d pairs of players met in two events or more, want hundreds", repeated)
	}
	// habits: appraisal shares and event sizes differ between agencies
	if n := count(`SELECT count(DISTINCT round(avg_size / 5)) FROM (SELECT organiser_prefix, avg(n) AS avg_size FROM
			(SELECT t.organiser_prefix, t.id, count(*) AS n FROM tournaments t JOIN participants p ON p.tournament_id = t.id
			WHERE t.dan_grade GROUP BY 1, 2) e GROUP BY 1) a`); n < 3 {
		t.Errorf("dan-grade event sizes fall in %d bands of 5, want agencies of different habits", n)
	}

	if err := nationaldata.PlantAbuses(ctx, pool, p, &m); err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.VerifyCheckpoint(ctx, pool, tlog.Tree{}); err != nil {
		t.Fatalf("log after the plants: %v", err)
	}
	seen := map[string]bool{idle: true}
	for _, a := range m.Anomalies {
		seen[a.Agency] = true
	}
	if len(m.Plants) != len(nationaldata.PlantKinds()) {
		t.Fatalf("%d plants, want %d", len(m.Plants), len(nationaldata.PlantKinds()))
	}
	for _, pl := range m.Plants {
		if seen[pl.Agency] {
			t.Errorf("%s planted on %s, which already carries something", pl.Kind, pl.Agency)
		}
		seen[pl.Agency] = true
		// identity edits held for staff approval (being built) prevent that
		// plant: then every attempt is refused or held and nothing stands
		held := pl.Kind == nationaldata.IdentityAroundAppraisal && pl.Prevented && len(pl.Refused) > 0
		if pl.Family == "" || (!held && (pl.Size == 0 || len(pl.Refused) != 0 || pl.Prevented)) {
			t.Errorf("%s on %s: family %q, size %d, refused %v, prevented %v", pl.Kind, pl.Agency, pl.Family, pl.Size, pl.Refused, pl.Prevented)
		}
		if held {
			t.Logf("%s on %s prevented by the services: %v", pl.Kind, pl.Agency, pl.Refused)
			continue
		}
		t.Logf("%s on %s (%s): %s", pl.Kind, pl.Agency, pl.Family, pl.Note)
		switch pl.Kind {
		case nationaldata.TinyEvents:
			if n := count(`SELECT count(*) FROM certificates c JOIN applications a ON a.id = c.application_id
				WHERE c.number = ANY($1) AND c.rank = 3 AND a.basis = 'tournament'`, pl.Certificates); n != 8 || len(pl.Events) != 2 {
				t.Errorf("tiny events: %d 3-dan certificates of %d events, want 8 of 2", n, len(pl.Events))
			}
			if n := count(`SELECT max(n) FROM (SELECT count(*) AS n FROM participants WHERE tournament_id = ANY($1) GROUP BY tournament_id) e`,
				pl.Events); n != 6 {
				t.Errorf("tiny events of %d players, want 6", n)
			}
		case nationaldata.ArrangedResults:
			if len(pl.Games) != 30 || len(pl.Events) != 2 {
				t.Errorf("arranged: %d games among the group over %d events, want 30 over 2", len(pl.Games), len(pl.Events))
			}
			if n := count(`SELECT count(*) FROM tournament_games WHERE tournament_id = ANY($1) AND result NOT IN ('black', 'white')`, pl.Events); n != 0 {
				t.Errorf("arranged: %d games not played to a result", n)
			}
		case nationaldata.TurnedRecord:
			rows, err := pool.Query(ctx, `SELECT record, flagged FROM tournament_games WHERE tournament_id = $1 AND record <> ''`, pl.Events[0])
			if err != nil {
				t.Fatal(err)
			}
			var records []string
			for rows.Next() {
				var r string
				var flagged bool
				if err := rows.Scan(&r, &flagged); err != nil {
					t.Fatal(err)
				}
				if flagged {
					t.Errorf("turned record flagged: %s", r[:60])
				}
				rs, err := rules.AdjudicateSGF([]byte(r), "", rules.Options{})
				if err != nil || len(rs) != 1 || len(rs[0].IllegalMoves) != 0 || rs[0].Moves < 60 {
					t.Errorf("turned record does not replay: %v %+v", err, rs)
				}
				records = append(records, r)
			}
			rows.Close()
			slices.Sort(records)
			if len(records) != 8 || len(slices.Compact(records)) != 8 {
				t.Errorf("turned record filed %d times, %d distinct; want 8, none alike", len(records), len(slices.Compact(records)))
			}
		case nationaldata.VoidedEvidence:
			if n := count(`SELECT count(*) FROM certificates WHERE number = ANY($1) AND status = 'valid'`, pl.Certificates); n != 6 {
				t.Errorf("voided evidence: %d certificates still valid, want 6", n)
			}
			if n := count(`SELECT count(*) FROM tournament_games WHERE tournament_id = ANY($1) AND voided <> ''`, pl.Events); n != len(pl.Games) || n != 12 {
				t.Errorf("voided evidence: %d voided games, manifest %d, want 12", n, len(pl.Games))
			}
		case nationaldata.IdentityAroundAppraisal:
			if n := count(`SELECT count(DISTINCT entity_id) FROM events WHERE action = 'player.updated' AND entity_id = ANY($1)
				AND (payload->>'birth_date_changed')::bool`, ids(pl.Players)); n != 6 {
				t.Errorf("identity edits: %d players' birth dates edited, want 6", n)
			}
			if n := count(`SELECT count(*) FROM certificates c JOIN applications a ON a.id = c.application_id
				WHERE a.basis = 'appraisal' AND c.number = ANY($1)`, pl.Certificates); n != 6 {
				t.Errorf("identity edits: %d certified by appraisal, want 6", n)
			}
		case nationaldata.AppraiserOverissue:
			if n := count(`SELECT max(n) FROM (SELECT count(*) AS n FROM applications a JOIN certificates c ON c.application_id = a.id
				WHERE c.number = ANY($1) GROUP BY a.appraiser_id) x`, pl.Certificates); n != 24 {
				t.Errorf("appraiser over-issue: %d appraisals by one appraiser, want 24", n)
			}
		}
	}
}

func ids(xs []int64) []string {
	var out []string
	for _, x := range xs {
		out = append(out, strconv.FormatInt(x, 10))
	}
	return out
}
