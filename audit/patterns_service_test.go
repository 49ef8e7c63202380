package audit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// legalRecord is a legal 76-move game (four rows of stones, no capture).
func legalRecord(result string) string {
	var sb strings.Builder
	sb.WriteString("(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]RE[" + result + "]")
	for x := range 19 {
		fmt.Fprintf(&sb, ";B[%c%c];W[%c%c]", 'a'+x, 'c', 'a'+x, 'q')
	}
	for x := range 19 {
		fmt.Fprintf(&sb, ";B[%c%c];W[%c%c]", 'a'+x, 'e', 'a'+x, 'o')
	}
	return sb.String() + ")"
}

// oldRow is an event-log row as older data wrote it: any action, any keys
// (the services of today append their own payload types).
type oldRow struct {
	action  string
	payload map[string]any
}

func (r oldRow) Action() string               { return r.action }
func (r oldRow) MarshalJSON() ([]byte, error) { return json.Marshal(r.payload) }

// older appends, as imported and older data carry them, rows the services
// of today refuse to write.
func older(t *testing.T, e *env, at string, actor ledger.Actor, action, kind, id string, payload map[string]any) {
	t.Helper()
	d, err := time.ParseInLocation(time.DateOnly, at, ledger.ChinaTime)
	if err != nil {
		t.Fatal(err)
	}
	if err := ledger.Transact(context.Background(), e.store, func(tx *ledger.Tx) error {
		return ledger.Append(context.Background(), tx, d.Add(10*time.Hour), actor, kind, id, oldRow{action, payload})
	}); err != nil {
		t.Fatal(err)
	}
}

// TestLaterIndicators plants, in audit year 2026: on Beijing (110) a
// dan-grade round robin whose certified players won against guests and by
// both-win results, and two games with the same 76 moves; on Shanghai (310),
// in older-style rows of the log, a winner with two warnings, a record
// disagreeing with the result, a pair forfeiting to each other in two
// events, an application without references and an appraisal signed by
// Beijing's appraiser; Hunan (440) does nothing. With the ratings book the
// rating indicator is there, and the snapshot verifies without it.
func TestLaterIndicators(t *testing.T) {
	ctx := context.Background()
	e := newEnvWith(t, func(store *ledger.Store) audit.Config { return audit.Config{Ratings: book.New(store)} })
	fixture.Bootstrap(t, e.au, 2026, "110", "310")
	fixture.Stock(t, e.cs, "110", 2026, 100, 100)
	e.at(t, "2026-04-01")
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "2026年北京市段位赛（二）", Start: "2026-04-01", End: "2026-04-03",
		Level: "province", System: "round_robin", DanGrade: true, Groups: []tournaments.GroupInput{{Name: "A", TargetRank: "1d", MinWins: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	var players []registry.Player
	guest := map[int]bool{}
	for i := range 10 {
		in := tournaments.ParticipantInput{Group: "A"}
		if i < 7 {
			p := fixture.Player(t, e.reg, "110", fmt.Sprintf("段位乙%d", i), "1k", "1990-01-01", 300+i)
			players = append(players, p)
			in.PlayerID = p.ID
		} else {
			in.GuestName, in.GuestRank = fmt.Sprintf("客人%d", i), "1k"
		}
		pt, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		guest[pt.Number] = i >= 7
	}
	record := legalRecord("B+R")
	withRecord := 0
	for r := 1; r <= 9; r++ {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
		if err != nil {
			t.Fatalf("pair round %d: %v", r, err)
		}
		for _, g := range ri.Games {
			in := tournaments.ResultInput{Round: r, Board: g.Board, Result: "black"}
			switch {
			case guest[g.Black]:
				in.Result = "white"
			case !guest[g.White] && g.Board == 1:
				in.Result = "both_win"
			}
			if in.Result == "black" && withRecord < 2 {
				in.SGF = record
				withRecord++
			}
			if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, in); err != nil {
				t.Fatal(err)
			}
		}
	}
	e.at(t, "2026-04-10")
	earned := e.earned(t, "1d", players...)
	for _, p := range players {
		e.certify(t, beijing, certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: earned})
	}
	appr, err := e.cs.RecommendAppraiser(ctx, beijing, "", certs.AppraiserInput{Name: "京鉴定员"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.SetAppraiserStatus(ctx, staff, "", appr.ID, certs.AppraiserApproved); err != nil {
		t.Fatal(err)
	}

	// Shanghai, older data: two events of four players, rows appended as an old import wrote them
	sh := fixture.Agency("310")
	var shp []registry.Player
	for i := range 4 {
		shp = append(shp, fixture.Player(t, e.reg, "310", fmt.Sprintf("沪乙%d", i), "1k", "1992-01-01", 400+i))
	}
	for n, day := range []string{"2026-05-01", "2026-07-01"} {
		e.at(t, day)
		x, err := e.ts.CreateEvent(ctx, sh, "", tournaments.EventInput{Name: fmt.Sprintf("上海老赛%d", n), Start: day, End: day,
			Level: "city", System: "swiss", Rounds: 1})
		if err != nil {
			t.Fatal(err)
		}
		id := strconv.FormatInt(x.ID, 10)
		for k, p := range shp {
			older(t, e, day, sh, "tournament.participant_added", "tournament", id, map[string]any{"number": k + 1, "player_id": p.ID, "name": p.Name, "rank": "1k"})
		}
		// event 0: 1 beats 2 by forfeit; event 1: 2 beats 1 by forfeit
		older(t, e, day, sh, "tournament.round_paired", "tournament", id, map[string]any{"round": 1, "seed": 0, "bye": 0,
			"pairs": []map[string]any{{"Black": 1 + n, "White": 2 - n}, {"Black": 3, "White": 4}}})
		older(t, e, day, sh, "tournament.result", "tournament", id, map[string]any{"round": 1, "board": 1, "result": "black_forfeit",
			"warnings": []int{0, 0}, "record": false, "flagged": false})
		second := map[string]any{"round": 1, "board": 2, "result": "black", "warnings": []int{2, 0}, "record": false, "flagged": false} // won with two warnings
		if n == 1 {
			second = map[string]any{"round": 1, "board": 2, "result": "white", "warnings": []int{0, 0}, "record": true, "flagged": true} // the SGF says otherwise
		}
		older(t, e, day, sh, "tournament.result", "tournament", id, second)
	}
	older(t, e, "2026-08-01", sh, "application.submitted", "application", "900001", map[string]any{"player_id": shp[0].ID, "target_rank": "1d",
		"basis": "tournament", "event_ref": "上海老赛0", "record_ref": "", "appraiser_id": 0})
	older(t, e, "2026-08-02", sh, "application.submitted", "application", "900002", map[string]any{"player_id": shp[1].ID, "target_rank": "1d",
		"basis": "appraisal", "event_ref": "", "record_ref": "", "appraiser_id": appr.ID})
	older(t, e, "2026-08-05", sh, "certificate.issued", "certificate", "310269001", map[string]any{"number": "310269001", "player_id": shp[1].ID,
		"rank": "1d", "basis": "appraisal", "issuer": "310", "issue_date": "2026-08-05", "application_id": 900002, "replaces": 0})

	e.at(t, "2026-12-01")
	if _, err := e.au.OpenYear(ctx, staff, "", 2026); err != nil {
		t.Fatal(err)
	}
	get := func(agency string) audit.Audit {
		a, err := e.au.Audit(ctx, staff, agency, 2026)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Indicators) != len(audit.Definitions())+1 {
			t.Fatalf("%s: %d indicators, want %d with the rating one", agency, len(a.Indicators), len(audit.Definitions())+1)
		}
		return a
	}
	bj, shA, hn := get("110"), get("310"), get("440")
	// Beijing's certified players: 7 × 3 wins over the guests, and 7 both-win boards of 1 between two of them
	for _, tt := range []struct {
		a           audit.Audit
		key         string
		count, base int64
		mark        audit.Mark
	}{
		{bj, audit.KeyBothWinGuestQualifying, 21 + 2*bothWins(t, e, ev.ID), 0, audit.Red},
		{shA, audit.KeyBothWinGuestQualifying, 0, 0, audit.Green},
		{bj, audit.KeyIdenticalMoves, 1, 0, audit.Amber},
		{shA, audit.KeyWinnerTwoWarnings, 1, 0, audit.Amber},
		{bj, audit.KeyWinnerTwoWarnings, 0, 0, audit.Green},
		{shA, audit.KeyRecordsDisagree, 1, 0, audit.Green},
		{shA, audit.KeyMutualForfeits, 1, 0, audit.Green},
		{shA, audit.KeyTradedWins, 2, 2, audit.Green}, // both pairs met in two events and won once each (fewer than 5: green)
		{shA, audit.KeyApplicationsWithoutEvidence, 1, 0, audit.Amber},
		{shA, audit.KeyForeignAppraisers, 1, 0, audit.Amber},
		{bj, audit.KeyForeignAppraisers, 0, 0, audit.Green},
		{hn, audit.KeyInactiveYears, 1, 0, audit.Amber},
		{shA, audit.KeyInactiveYears, 0, 0, audit.Green},
		{bj, audit.KeyRankOutsideRating, 0, 7, audit.Green}, // nobody is rated: no evidence against anyone
	} {
		in := indicator(t, tt.a, tt.key)
		if in.Count != tt.count || (tt.base != 0 && in.Base != tt.base) || in.Mark != tt.mark {
			t.Errorf("%s %s = %d of %d %s, want %d of %d %s", tt.a.AgencyPrefix, tt.key, in.Count, in.Base, in.Mark, tt.count, tt.base, tt.mark)
		}
	}
	items, err := e.au.IndicatorItems(ctx, staff, "310", 2026, audit.KeyMutualForfeits)
	if err != nil || len(items) != 1 || items[0].Kind != "game" || !strings.Contains(items[0].Note, "each way") {
		t.Fatalf("mutual forfeits: %+v %v", items, err)
	}
	items, err = e.au.IndicatorItems(ctx, staff, "110", 2026, audit.KeyIdenticalMoves)
	if err != nil || len(items) != 1 || !strings.Contains(items[0].Note, "76 moves") {
		t.Fatalf("identical moves: %+v %v", items, err)
	}
	v, err := e.au.VerifyYear(ctx, staff, 2026)
	if err != nil || v.Indicators != 3*len(audit.Definitions()) || len(v.Differences) != 0 {
		t.Fatalf("verified %d indicators (the rating one skipped), differences %+v, %v", v.Indicators, v.Differences, err)
	}
}

// bothWins counts the both-win games of an event (board 1 between two
// registered players), from its report.
func bothWins(t *testing.T, e *env, id int64) int64 {
	t.Helper()
	rep, err := e.ts.EventReport(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(0)
	for _, r := range rep.Rounds {
		for _, g := range r.Games {
			if string(g.Result) == "both_win" {
				n++
			}
		}
	}
	return n
}

// TestImportedGamesCount imports the same real h-file twice (every player a
// registered namesake): the import logs no per-game rows, yet the pairs
// that met in both events are there, read from the imported games, and a
// recomputation from the snapshot gives the same numbers.
func TestImportedGamesCount(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	data, err := os.ReadFile("../tournaments/testdata/TestPartEtLic.h9")
	if err != nil {
		t.Fatal(err)
	}
	// held in audit year 2026 (the file's own dates are 2017's)
	data = bytes.Replace(data, []byte("DT[2017-02-11,2017-02-12]"), []byte("DT[2026-02-11,2026-02-12]"), 1)
	e.at(t, "2026-03-15")
	dry, err := e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: data, Level: "city"})
	if err != nil {
		t.Fatal(err)
	}
	// a name alone matches nobody: the clerk confirms each
	matches := map[int]int64{}
	for i, p := range dry.Players {
		matches[p.Index] = fixture.Player(t, e.reg, "110", p.Name, "1k", "1990-01-01", 500+i).ID
	}
	for _, day := range []string{"2026-03-20", "2026-06-20"} {
		e.at(t, day)
		if _, err := e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: data, Level: "city", Commit: true, Matches: matches}); err != nil {
			t.Fatal(err)
		}
	}
	e.at(t, "2026-12-01")
	if _, err := e.au.OpenYear(ctx, staff, "", 2026); err != nil {
		t.Fatal(err)
	}
	bj, err := e.au.Audit(ctx, staff, "110", 2026)
	if err != nil {
		t.Fatal(err)
	}
	// 31 games a file, 30 of them decisive between two players: 30 pairs
	// met in both events, each won by the same side twice
	if in := indicator(t, bj, audit.KeyTradedWins); in.Base < 25 || in.Count != 0 {
		t.Errorf("pairs met in the two imported events: %d, traded %d; want the file's pairs, none traded", in.Base, in.Count)
	}
	v, err := e.au.VerifyYear(ctx, staff, 2026)
	if err != nil || len(v.Differences) != 0 {
		t.Fatalf("verify: %+v %v", v.Differences, err)
	}
}
