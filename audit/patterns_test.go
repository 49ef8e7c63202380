package audit

import (
	"testing"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

func testFacts(agencies ...string) *facts {
	return &facts{period: Config{}.Period(2026), measures: map[string]map[string]*measure{}, active: map[string][]int64{},
		agencies: agencies, seen: map[string]bool{}, more: newMore(), events: map[int64]*tournamentState{}}
}

func TestPayloadPairAndBool(t *testing.T) {
	for _, tt := range []struct {
		json    string
		pair    [2]int
		flagged bool
	}{
		{`{"warnings":[2,0],"flagged":true}`, [2]int{2, 0}, true},
		{`{"warnings":[ 0 , 2 ],"flagged":false}`, [2]int{0, 2}, false},
		{`{"warnings":null}`, [2]int{}, false},
		{`{}`, [2]int{}, false},
		{`{"warnings":[1,1,1],"flagged":"true"}`, [2]int{1, 1}, false},
	} {
		p, err := readPayload[tournaments.ResultPayload]([]byte(tt.json), "warnings", "flagged")
		if err != nil {
			t.Fatal(err)
		}
		if got := p.pair("warnings"); got != tt.pair || p.bool("flagged") != tt.flagged {
			t.Errorf("%s: %v %v, want %v %v", tt.json, got, p.bool("flagged"), tt.pair, tt.flagged)
		}
	}
}

func TestEvidenceOfApplications(t *testing.T) {
	for _, tt := range []struct {
		basis, eventRef, recordRef string
		appraiser                  int64
		counted                    bool
	}{
		{"tournament", "赛", "A", 0, false},
		{"tournament", "赛", " ", 0, true},
		{"tournament", "", "A", 0, true},
		{"national_result", "", "", 0, true},
		{"appraisal", "", "", 7, false},
		{"appraisal", "", "", 0, true},
		{"paper", "", "", 0, false},
	} {
		f := testFacts("110")
		f.evidence("110", ledger.LoggedEvent{ID: 1, EntityID: "9"}, appState{basis: tt.basis, appraiser: tt.appraiser}, tt.eventRef, tt.recordRef)
		if got := f.m("110", KeyApplicationsWithoutEvidence).count == 1; got != tt.counted {
			t.Errorf("%+v: counted %v", tt, got)
		}
	}
}

// TestPairPatterns: forfeits both ways make a mutual-forfeit pair; two
// events with one win each make a traded pair; one event, or the same
// winner, does not.
func TestPairPatterns(t *testing.T) {
	g := func(event, result int64, winner int64, forfeit bool) pairGame {
		return pairGame{ref: gameRef{event, 1, 1}, row: result, winner: winner, forfeit: forfeit}
	}
	for _, tt := range []struct {
		name           string
		games          []pairGame
		mutual, traded int64
		base           int64
	}{
		{"a forfeit each way in two events", []pairGame{g(1, 10, 1, true), g(2, 20, 2, true)}, 1, 1, 1},
		{"a forfeit each way in one event", []pairGame{g(1, 10, 1, true), g(1, 11, 2, true)}, 1, 0, 0},
		{"forfeits the same way", []pairGame{g(1, 10, 1, true), g(2, 20, 1, true)}, 0, 0, 1},
		{"a win each in two events", []pairGame{g(1, 10, 1, false), g(2, 20, 2, false)}, 0, 1, 1},
		{"two to one over three events", []pairGame{g(1, 10, 1, false), g(2, 20, 2, false), g(3, 30, 1, false)}, 0, 0, 1},
		{"one game", []pairGame{g(1, 10, 1, false)}, 0, 0, 0},
	} {
		f := testFacts("310")
		for id := range int64(4) {
			f.events[id] = &tournamentState{facts: tournaments.EventFacts{ID: id, Organiser: "310"}}
			f.events[id].games.add(gameKey{1, 1})
		}
		f.pair([2]int64{1, 2}, tt.games)
		m, tr := f.m("310", KeyMutualForfeits), f.m("310", KeyTradedWins)
		if m.count != tt.mutual || tr.count != tt.traded || tr.base != tt.base {
			t.Errorf("%s: mutual %d, traded %d of %d; want %d, %d of %d", tt.name, m.count, tr.count, tr.base, tt.mutual, tt.traded, tt.base)
		}
	}
}

// TestInactiveYears counts back from an inactive year to the last active
// one, counting only years the agency existed for from their start (its
// creation, or the log's start).
func TestInactiveYears(t *testing.T) {
	at := func(y int, m time.Month) ledger.LoggedEvent {
		return ledger.LoggedEvent{ID: 1, At: time.Date(y, m, 10, 2, 0, 0, 0, time.UTC)}
	}
	for _, tt := range []struct {
		name    string
		first   time.Time
		created time.Time
		touched []ledger.LoggedEvent
		want    int64
	}{
		{"active this year", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Time{}, []ledger.LoggedEvent{at(2026, 5)}, 0},
		{"active last year", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Time{}, []ledger.LoggedEvent{at(2025, 5)}, 1},
		{"active three years ago", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Time{}, []ledger.LoggedEvent{at(2023, 5)}, 3},
		// audit year 2026 starts 1 December 2025: a touch on 10 December 2024 is audit year 2025's
		{"active in December two years ago", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Time{}, []ledger.LoggedEvent{at(2024, 12)}, 1},
		// only years the agency existed for from their start count
		{"never, the log from 2024", time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), time.Time{}, nil, 2},
		{"never, created in 2025", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC), nil, 1},
		{"never, created in this year", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), nil, 0},
	} {
		f := testFacts("440")
		f.months = make([]time.Time, 13)
		for i := range 13 {
			f.months[i] = f.period.Start.In(ledger.ChinaTime).AddDate(0, i, 0)
		}
		f.firstAt = tt.first
		if !tt.created.IsZero() {
			f.created["440"] = tt.created
		}
		for _, e := range tt.touched {
			f.touch("440", e)
		}
		f.inactiveYears()
		if got := f.m("440", KeyInactiveYears).count; got != tt.want {
			t.Errorf("%s: %d inactive years, want %d", tt.name, got, tt.want)
		}
	}
}

// TestAppraisersAgainstTheMedian: the busiest appraiser of an agency over
// the national median per appraiser.
func TestAppraisersAgainstTheMedian(t *testing.T) {
	f := testFacts("110", "310", "440")
	sign := func(issuer string, appraiser int64, n int) {
		for range n {
			f.appraised(issuer, appraiser, Item{Kind: "certificate"})
		}
	}
	f.appraiserAgency[1], f.appraiserAgency[2], f.appraiserAgency[3] = "110", "310", "310"
	sign("110", 1, 40)
	sign("310", 2, 2)
	sign("310", 3, 4)
	sign("310", 1, 1) // Beijing's appraiser signing for Shanghai
	f.appraisers()
	// per appraiser: 41, 2, 4 → median 4
	for _, tt := range []struct {
		agency string
		count  int64
		value  float64
	}{{"110", 40, 10}, {"310", 4, 1}, {"440", 0, 0}} {
		m := f.m(tt.agency, KeyAppraisalsPerAppraiser)
		if m.count != tt.count || m.value != tt.value {
			t.Errorf("%s: %d, %v; want %d, %v", tt.agency, m.count, m.value, tt.count, tt.value)
		}
	}
	if n := f.m("310", KeyForeignAppraisers).count; n != 1 {
		t.Errorf("Shanghai's appraisals by another agency's appraiser: %d, want 1", n)
	}
}
