package audit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/tournaments"
)

// TestConfirmedResultsVoided (issue 31, finding 7): a confirmed result
// voided is counted for the event's organiser — staff's void of today, and
// an organiser's void of a confirmed result as the log held them before
// (a row without the "confirmed" key, the round's confirmation read from
// the log) — while a void of a result nobody confirmed is not; Shanghai,
// which voided nothing, counts none.
func TestConfirmedResultsVoided(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.at(t, "2026-04-01")
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "确认后取消", Start: "2026-04-01", End: "2026-04-02",
		Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("确认%d", i), "1k", "1990-01-01", 700+i)
		if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	for r := 1; r <= 2; r++ {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range ri.Games {
			if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: g.Round, Board: g.Board, Result: "black"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := e.ts.ConfirmRound(ctx, beijing, "", ev.ID, 1); err != nil {
		t.Fatal(err)
	}
	// staff overturn a confirmed result; the organiser voids one of round 2, not confirmed
	if _, err := e.ts.VoidResult(ctx, staff, "", ev.ID, tournaments.VoidInput{Round: 1, Board: 1, Side: tournaments.VoidBoth, Reason: "下假棋"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.VoidResult(ctx, beijing, "", ev.ID, tournaments.VoidInput{Round: 2, Board: 1, Side: tournaments.VoidBlack, Reason: "代打"}); err != nil {
		t.Fatal(err)
	}
	// the organiser's own void of a confirmed result, as the log held it before issue 31
	older(t, e, "2026-04-03", beijing, "tournament.result_voided", "tournament", fmt.Sprint(ev.ID),
		map[string]any{"board": 2, "reason": "改判", "result": "white", "round": 1, "side": "black", "was": "black"})

	got := openAndRead(t, e, "110", "310")
	if in := indicator(t, got["110"], audit.KeyConfirmedVoids); in.Count != 2 || in.Mark != audit.Amber {
		t.Errorf("Beijing's confirmed results voided: %+v, want 2 (amber)", in)
	}
	if in := indicator(t, got["310"], audit.KeyConfirmedVoids); in.Count != 0 || in.Mark != audit.Green {
		t.Errorf("Shanghai's confirmed results voided: %+v, want 0", in)
	}
	items, err := e.au.IndicatorItems(ctx, staff, "110", 2026, audit.KeyConfirmedVoids)
	if err != nil || len(items) != 2 {
		t.Fatalf("drill-down: %+v %v", items, err)
	}
	wantBy := []string{staff.String(), beijing.String()}
	for i, it := range items {
		if it.Kind != "game" || it.Ref != fmt.Sprintf("%d/1/%d", ev.ID, i+1) || it.EventID == 0 || !strings.Contains(it.Note, wantBy[i]) {
			t.Errorf("item %d: %+v, want game %d/1/%d voided by %s", i, it, ev.ID, i+1, wantBy[i])
		}
	}
	// the payload of today's void says the result was confirmed, and by whom
	var p tournaments.ResultVoidedPayload
	var raw []byte
	if err := e.store.DB().QueryRow(ctx, `SELECT payload FROM events WHERE action = 'tournament.result_voided' ORDER BY id LIMIT 1`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &p); err != nil || !p.Confirmed || p.VoidedBy != staff.String() || p.ConfirmedBy != beijing.String() || p.Reason != "下假棋" {
		t.Errorf("void payload: %s %v", raw, err)
	}
}
