package web_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// TestSuspendedAgencyOnThePortal signs a Beijing clerk in, suspends the
// agency, and posts every form the workspace and the tournament pages offer
// an agency: each is refused (403) with the suspension worded in Chinese,
// and the event log does not grow.
func TestSuspendedAgencyOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	ctx := context.Background()
	bj := fixture.Agency("110")
	agencyTok, _ := e.tokens(t)
	p := fixture.Player(t, e.reg, "110", "停牌", "1d", "1990-01-01", 1)
	q := fixture.Player(t, e.reg, "110", "另一", "1d", "1990-01-01", 2)
	if _, err := e.cs.Approve(ctx, bj, "", mustApply(t, e, p.ID).ID); err != nil {
		t.Fatal(err)
	}
	pending := mustApply(t, e, q.ID)
	ev, err := e.ts.CreateEvent(ctx, bj, "", tournaments.EventInput{Name: "停牌前", Start: "2026-11-28", Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range []registry.Player{p, q} {
		if _, err := e.ts.AddParticipant(ctx, bj, "", ev.ID, tournaments.ParticipantInput{PlayerID: pl.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.ts.PairNextRound(ctx, bj, "", ev.ID); err != nil {
		t.Fatal(err)
	}
	h9, err := os.ReadFile("../tournaments/testdata/TestPartEtLic.h9")
	if err != nil {
		t.Fatal(err)
	}

	c := client(t)
	u := e.srv.URL
	_, page, _ := fetch(t, c, "GET", u+"/login", nil)
	if code, _, _ := fetch(t, c, "POST", u+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {agencyTok}}); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	_, page, _ = fetch(t, c, "GET", u+"/workspace", nil)
	csrf := csrfOf(t, page)
	if _, err := e.reg.SetAgencyStatus(ctx, fixture.Staff, "", "110", registry.AgencySuspended, "年审未通过"); err != nil {
		t.Fatal(err)
	}
	var before int
	if err := e.store.DB().QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	tour := fmt.Sprintf("%s/tournaments/%d", u, ev.ID)
	guests := url.Values{}
	for i := 1; i <= 22; i++ {
		guests.Set(fmt.Sprintf("guest_%d", i), "on")
	}
	for _, tt := range []struct {
		what, path string
		form       url.Values
	}{
		{"apply", "/workspace/applications", url.Values{"player_id": {fmt.Sprint(p.ID)}, "target_rank": {"3d"}, "basis": {"tournament"},
			"event_id": {"1"}}},
		{"approve", fmt.Sprintf("/workspace/applications/%d", pending.ID), url.Values{"decision": {"approve"}}},
		{"reject", fmt.Sprintf("/workspace/applications/%d", pending.ID), url.Values{"decision": {"reject"}, "reason": {"x"}}},
		{"order stock", "/workspace/orders", url.Values{"dan_count": {"1"}}},
		{"recommend an appraiser", "/workspace/appraisers", url.Values{"name": {"某老师"}}},
		{"create a tournament", "/workspace/tournaments", url.Values{"name": {"新比赛"}, "start": {"2026-12-20"}, "level": {"city"},
			"system": {"round_robin"}}},
		{"add a participant", tour[len(u):] + "/participants", url.Values{"guest_name": {"客人"}, "guest_rank": {"1k"}}},
		{"enter results", tour[len(u):] + "/rounds/1/results", url.Values{"boards": {"1"}, "result_1": {"black"}}},
		{"pair a round", tour[len(u):] + "/pair", url.Values{}},
		{"withdraw", tour[len(u):] + "/withdrawals", url.Values{"number": {"1"}, "confirm": {"yes"}}},
		{"finish", tour[len(u):] + "/finish", url.Values{"confirm": {"yes"}}},
		{"import", "/workspace/import", merge(guests, url.Values{"level": {"city"}, "commit": {"1"},
			"data": {base64.StdEncoding.EncodeToString(h9)}, "filename": {"TestPartEtLic.h9"}})},
	} {
		tt.form.Set("csrf", csrf)
		tt.form.Set("idem", "suspended-"+tt.what)
		code, page, _ := fetch(t, c, "POST", u+tt.path, tt.form)
		if code != http.StatusForbidden || !strings.Contains(page, "代理机构 110 已被暂停") {
			t.Errorf("suspended agency: %s: %d, want 403 saying the agency is suspended\n%.600s", tt.what, code, page)
		}
	}
	if code, _, _ := fetch(t, c, "GET", u+"/workspace/roster.csv", nil); code != http.StatusForbidden {
		t.Errorf("suspended agency downloading the roster with full identities: %d, want 403", code)
	}
	var after int
	if err := e.store.DB().QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Fatalf("the event log grew from %d to %d rows while the agency was suspended", before, after)
	}
}

func mustApply(t *testing.T, e *portalEnv, player int64) certs.Application {
	t.Helper()
	a, err := e.cs.Apply(context.Background(), fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: player, TargetRank: "2d",
		Basis: "tournament", EventID: fixture.Earned(t, e.ts, "2d", player)})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func merge(a, b url.Values) url.Values {
	for k, v := range b {
		a[k] = v
	}
	return a
}

// TestIdentityOnThePortal shows a player's page to each kind of visitor: the
// full identity number only to staff and the player's own agency, as over
// gRPC.
func TestIdentityOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	ctx := context.Background()
	agencyTok, staffTok := e.tokens(t)
	fixture.Agencies(t, e.reg, "310")
	otherTok, _, err := e.reg.CreateToken(ctx, fixture.Staff, ledger.AgencyActor, "310", "")
	if err != nil {
		t.Fatal(err)
	}
	page := fmt.Sprintf("%s/players/%d", e.srv.URL, e.player.ID)
	for _, tt := range []struct {
		who, token string
		full       bool
	}{{"public", "", false}, {"own agency", agencyTok, true}, {"other agency", otherTok, false}, {"staff", staffTok, true}} {
		c := client(t)
		if tt.token != "" {
			_, login, _ := fetch(t, c, "GET", e.srv.URL+"/login", nil)
			if code, _, _ := fetch(t, c, "POST", e.srv.URL+"/login", url.Values{"csrf": {csrfOf(t, login)}, "token": {tt.token}}); code != http.StatusSeeOther {
				t.Fatalf("%s: login %d", tt.who, code)
			}
		}
		_, body, _ := fetch(t, c, "GET", page, nil)
		if got := strings.Contains(body, e.player.IDNumber); got != tt.full {
			t.Errorf("%s: full identity number shown = %v, want %v", tt.who, got, tt.full)
		}
		if !strings.Contains(body, registry.MaskIdentity(e.player.IDNumber)) && !tt.full {
			t.Errorf("%s: masked identity number missing", tt.who)
		}
	}
}

// TestMinorsOnThePortal: the public does not find a minor in the player
// search, and his page shows name, rank and province only; his agency
// sees him in full.
func TestMinorsOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	minor := fixture.Player(t, e.reg, "110", "少年棋手", "2k", fixture.BirthDate(e.clock.Now(), 12), 8)
	page := fmt.Sprintf("%s/players/%d", e.srv.URL, minor.ID)
	_, list := get(t, e.srv.URL+"/players?name="+url.QueryEscape("少年棋手"))
	link := fmt.Sprintf(`href="/players/%d"`, minor.ID)
	if strings.Contains(list, link) {
		t.Fatal("the public player search lists a minor")
	}
	_, body := get(t, page)
	if !strings.Contains(body, "少年棋手") || !strings.Contains(body, "北京市") || strings.Contains(body, `data-testid="player-gender"`) ||
		strings.Contains(body, `data-testid="player-birth"`) || strings.Contains(body, `data-testid="player-identity"`) {
		t.Fatalf("the public page of a minor shows more than name, rank and province:\n%s", body)
	}
	c := client(t)
	_, login, _ := fetch(t, c, "GET", e.srv.URL+"/login", nil)
	if code, _, _ := fetch(t, c, "POST", e.srv.URL+"/login", url.Values{"csrf": {csrfOf(t, login)}, "token": {agencyTok}}); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	_, own, _ := fetch(t, c, "GET", page, nil)
	if !strings.Contains(own, `data-testid="player-birth"`) || !strings.Contains(own, minor.IDNumber) {
		t.Fatal("the minor's own agency does not see his details")
	}
	if _, found, _ := fetch(t, c, "GET", e.srv.URL+"/players?name="+url.QueryEscape("少年棋手"), nil); !strings.Contains(found, link) {
		t.Fatal("the minor's own agency does not find him")
	}
}

// TestDeclaredRanksToReview: a 5 dan stored without a certificate before
// ranks needed them is listed for staff on their workspace.
func TestDeclaredRanksToReview(t *testing.T) {
	e := newPortalEnv(t)
	_, staffTok := e.tokens(t)
	if _, err := e.store.DB().Exec(context.Background(), `UPDATE players SET declared_rank = 5 WHERE id = $1`, e.player.ID); err != nil {
		t.Fatal(err)
	}
	c := client(t)
	_, login, _ := fetch(t, c, "GET", e.srv.URL+"/login", nil)
	if code, _, _ := fetch(t, c, "POST", e.srv.URL+"/login", url.Values{"csrf": {csrfOf(t, login)}, "token": {staffTok}}); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	_, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace", nil)
	if !strings.Contains(page, `data-testid="declared-review"`) || !strings.Contains(page, e.player.Name) || !strings.Contains(page, "5段") {
		t.Fatal("the staff workspace does not list the declared 5 dan to review")
	}
}
