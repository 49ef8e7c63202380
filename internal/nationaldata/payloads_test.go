package nationaldata_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// shape is what an event's payload looks like: its keys, nested keys
// written a.b, keys of array elements a[].b.
func shape(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "not json: " + err.Error()
	}
	var keys []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				keys = append(keys, prefix+k)
				walk(prefix+k+".", e)
			}
		case []any:
			if len(x) > 0 {
				walk(strings.TrimSuffix(prefix, ".")+"[].", x[0])
			}
		}
	}
	walk("", v)
	sort.Strings(keys)
	return strings.Join(slices.Compact(keys), " ")
}

// TestPayloadsAreTheServices drives the real services through every action
// the generator writes (register, edit, appraisers, a dan-grade event from
// creation to proposals, issue, notice with a dismissed and an upheld
// objection, the sweeper, stock, a roster submission) and compares each
// action's entity type and payload shape with the generated events'.
func TestPayloadsAreTheServices(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clock := fixture.NewClock(time.Date(2026, time.March, 2, 2, 0, 0, 0, time.UTC))
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	fixture.Agencies(t, reg, "110")
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	fixture.Stock(t, cs, "110", 2026, 100, 100)
	bj := fixture.Agency("110")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var ps []registry.Player
	for i := range 4 {
		ps = append(ps, fixture.Player(t, reg, "110", fmt.Sprintf("选手%d", i), "1k", "1990-01-01", i))
	}
	_, err = reg.UpdatePlayer(ctx, bj, "", ps[3].ID, registry.PlayerInput{Name: ps[3].Name, Gender: registry.Male, BirthDate: "1990-01-01",
		IDKind: registry.ResidentIDCard, IDNumber: ps[3].IDNumber, ProvinceCode: "11", Rank: "2k"})
	must(err)
	// a birth date edited: the agency asks, staff approve
	held, err := reg.UpdatePlayer(ctx, bj, "", ps[2].ID, registry.PlayerInput{Name: ps[2].Name, Gender: registry.Male, BirthDate: "1989-01-01",
		IDKind: registry.ResidentIDCard, IDNumber: fixture.ResidentID("110", "1989-01-01", 2), ProvinceCode: "11", Rank: "1k",
		ChangeReason: "登记时出生日期录入错误"})
	must(err)
	if held.Held == nil {
		t.Fatal("the birth date edit was not held")
	}
	_, err = reg.DecideIdentityChange(ctx, fixture.Staff, "", held.Held.ID, true, "")
	must(err)
	ap, err := cs.RecommendAppraiser(ctx, bj, "", certs.AppraiserInput{Name: "鉴定棋手", Qualification: "业余6段"})
	must(err)
	_, err = cs.SetAppraiserStatus(ctx, fixture.Staff, "", ap.ID, certs.AppraiserApproved)
	must(err)
	ev, err := ts.CreateEvent(ctx, bj, "", tournaments.EventInput{Name: "北京市段级位赛", Start: "2026-03-02", Level: "city", System: "swiss",
		Rounds: 1, DanGrade: true, Groups: []tournaments.GroupInput{{Name: "1段组", TargetRank: "1d", MinWins: 1}}})
	must(err)
	for _, p := range ps[:2] {
		_, err := ts.AddParticipant(ctx, bj, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Group: "1段组"})
		must(err)
	}
	ri, err := ts.PairNextRound(ctx, bj, "", ev.ID)
	must(err)
	_, err = ts.RecordResult(ctx, bj, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "black"})
	must(err)
	rep, err := ts.Finish(ctx, bj, "", ev.ID)
	must(err)
	if len(rep.Proposals) != 1 || rep.Proposals[0].ApplicationID == 0 || len(ri.Games) != 1 {
		t.Fatalf("proposals %+v", rep.Proposals)
	}
	_, err = cs.Approve(ctx, bj, "", rep.Proposals[0].ApplicationID)
	must(err)
	// 4 dan by appraisal: one notice with a dismissed objection, issued by the sweeper; one failed
	notice := func(p registry.Player) certs.Application {
		s := fixture.Appraisal(t, cs, "110", ap.ID, p.ID, "4d", clock.Now())
		a, err := cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "4d", Basis: "appraisal", AppraisalSessionID: s.ID})
		must(err)
		a, err = cs.Approve(ctx, bj, "", a.ID)
		must(err)
		return a
	}
	object := func(a certs.Application, uphold bool) {
		o, err := cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: a.NoticeID, Name: "张三", Contact: "13900000000",
			Reason: "水平不符", Address: "203.0.113.5"})
		must(err)
		_, err = cs.RuleObjection(ctx, fixture.Staff, "", o.ID, uphold, "经核查")
		must(err)
	}
	object(notice(ps[2]), false)
	object(notice(ps[3]), true)
	clock.Advance(8 * 24 * time.Hour)
	issued, err := cs.Sweep(ctx)
	must(err)
	if len(issued) != 1 {
		t.Fatalf("sweeper issued %d", len(issued))
	}
	_, err = cs.SubmitRoster(ctx, bj, "", "110")
	must(err)

	type form struct{ entity, shape string }
	service := map[string]form{}
	rows, err := pool.Query(ctx, `SELECT action, entity_type, payload::text FROM events ORDER BY id`)
	must(err)
	for rows.Next() {
		var action, entity, payload string
		must(rows.Scan(&action, &entity, &payload))
		if _, seen := service[action]; !seen {
			service[action] = form{entity, shape(json.RawMessage(payload))}
		}
	}
	must(rows.Err())

	p := smallPlan(t)
	generated := map[string]form{}
	for _, e := range p.Events {
		action := e.Payload.Action()
		if _, seen := generated[action]; seen {
			continue
		}
		payload := e.Payload
		if e.Fill != nil {
			var head ledger.BulkResult
			filled, err := e.Fill(head.Head)
			must(err)
			payload = filled
		}
		raw, err := json.Marshal(payload)
		must(err)
		generated[action] = form{e.EntityType, shape(raw)}
	}
	var actions []string
	for a := range generated {
		actions = append(actions, a)
	}
	sort.Strings(actions)
	for _, a := range actions {
		s, ok := service[a]
		switch {
		case !ok:
			t.Errorf("%s: generated, but the test drove no service to write it", a)
		case s != generated[a]:
			t.Errorf("%s:\n service   %s {%s}\n generated %s {%s}", a, s.entity, s.shape, generated[a].entity, generated[a].shape)
		}
	}
	if len(actions) < 20 {
		t.Errorf("only %d actions generated: %v", len(actions), actions)
	}
	t.Logf("%d actions compared: %v", len(actions), actions)
}
