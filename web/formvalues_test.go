package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/ratelimit"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web"
)

// TestObjectionRefusalSpendsNoQuota (issue 24): with one objection an
// hour, forms refused for their input spend nothing and come back as
// typed; the one objection is lodged; the next, refused by the limit,
// comes back as typed too.
func TestObjectionRefusalSpendsNoQuota(t *testing.T) {
	e := newPortalEnvWith(t, func(s *ledger.Store) web.Options {
		return web.Options{Limits: web.Limits{Objection: ratelimit.New("objection", ratelimit.Limit{N: 1, Per: time.Hour}, s.Now, nil)}}
	})
	e.stockThisYear(t)
	ctx := context.Background()
	p := fixture.Player(t, e.reg, "110", "钱七", "3d", "1980-02-02", 7)
	app, err := e.cs.Apply(ctx, fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "5d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "5d", p.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if app, err = e.cs.Approve(ctx, fixture.Agency("110"), "", app.ID); err != nil {
		t.Fatal(err)
	}
	c := client(t)
	noticeURL := e.srv.URL + "/notices/" + strconv.FormatInt(app.NoticeID, 10) + "/objections"
	_, page, _ := fetch(t, c, "GET", noticeURL, nil)
	for i, tt := range []struct {
		name, contact, reason string
		code                  int
	}{
		{"孙八", "", "第三轮成绩有误", http.StatusBadRequest},
		{"孙八", "13900000000", "", http.StatusBadRequest},
		{"孙八", "", "第三轮成绩有误", http.StatusBadRequest},
		{"孙八", "13900000000", "第三轮成绩有误", http.StatusSeeOther},
		{"周九", "13800000000", "对手名单有误", http.StatusTooManyRequests},
	} {
		form := url.Values{"csrf": {csrfOf(t, page)}, "idem": {"k" + strconv.Itoa(i)}, "name": {tt.name}, "contact": {tt.contact}, "reason": {tt.reason}}
		code, body, _ := fetch(t, c, "POST", noticeURL, form)
		if code != tt.code {
			t.Fatalf("post %d: %d, want %d", i+1, code, tt.code)
		}
		if code == http.StatusSeeOther {
			_, page, _ = fetch(t, c, "GET", noticeURL, nil)
			continue
		}
		page = body
		for _, typed := range []string{tt.name, tt.contact, tt.reason} {
			if typed != "" && !strings.Contains(body, typed) {
				t.Errorf("post %d (%d): the form lost %q", i+1, code, typed)
			}
		}
	}
	if n, _ := e.cs.GetNotice(ctx, app.NoticeID); n.Objections != 1 {
		t.Fatalf("objections lodged: %d, want 1", n.Objections)
	}
}

// TestRefusedTournamentFormKeepsValues (issue 24): a tournament form
// refused for one field comes back with every value as typed.
func TestRefusedTournamentFormKeepsValues(t *testing.T) {
	e := newPortalEnv(t)
	agency, _ := e.tokens(t)
	c := client(t)
	e.signIn(t, c, agency)
	_, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace", nil)
	form := url.Values{"csrf": {csrfOf(t, page)}, "idem": {"t1"}, "name": {"北京市业余围棋段位赛"}, "start": {"2026-12-20"}, "end": {"2026-12-21"},
		"venue": {"北京棋院"}, "level": {"city"}, "system": {"swiss"}, "rounds": {"6"}, "dan_grade": {"on"},
		"chief_referee": {"王裁判"}, "group1_name": {"升段组"}, "group1_rank": {"99d"}, "group1_wins": {"4"}}
	code, body, _ := fetch(t, c, "POST", e.srv.URL+"/workspace/tournaments", form)
	if code != http.StatusBadRequest {
		t.Fatalf("a tournament with group rank 99d: %d, want 400", code)
	}
	for _, want := range []string{`value="北京市业余围棋段位赛"`, `value="2026-12-20"`, `value="2026-12-21"`, `value="北京棋院"`, `value="6"`,
		`value="王裁判"`, `value="升段组"`, `value="99d"`, `value="4"`, `name="dan_grade" checked`, `value="city" selected`} {
		if !strings.Contains(body, want) {
			t.Errorf("the refused form lost %s", want)
		}
	}
}

// TestWorkspaceApplicationFilter (issue 24): the workspace's applications
// filter by status and rank; a refused filter (a date that is none) comes
// back as typed beside its field; page 2 of a short list is empty and
// links back.
func TestWorkspaceApplicationFilter(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	ctx := context.Background()
	agency, _ := e.tokens(t)
	one := fixture.Player(t, e.reg, "110", "筛选甲", "", "1990-01-01", 71)
	two := fixture.Player(t, e.reg, "110", "筛选乙", "1d", "1990-01-02", 72)
	for _, c := range []struct {
		p    registry.Player
		rank string
	}{{one, "1d"}, {two, "2d"}} {
		if _, err := e.cs.Apply(ctx, fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: c.p.ID, TargetRank: c.rank, Basis: "tournament", EventID: fixture.Earned(t, e.ts, c.rank, c.p.ID)}); err != nil {
			t.Fatal(err)
		}
	}
	c := client(t)
	e.signIn(t, c, agency)
	for _, tt := range []struct {
		query      string
		code       int
		want, lack []string
	}{
		{"", 200, []string{"筛选甲", "筛选乙"}, nil},
		{"?status_set=1&rank=2d", 200, []string{"筛选乙"}, []string{"筛选甲"}},
		{"?status_set=1&rank=%EF%BC%91d", 200, []string{"筛选甲"}, []string{"筛选乙"}}, // full-width １d
		{"?status_set=1&status=issued", 200, nil, []string{"筛选甲", "筛选乙"}},
		{"?status_set=1&status=applied&from=2026-13-45", 400, []string{`data-testid="field-error-from"`, `value="2026-13-45"`}, nil},
		{"?status_set=1&page=2", 200, []string{`data-testid="app-prev"`}, []string{"筛选甲", "筛选乙"}},
	} {
		code, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace"+tt.query, nil)
		if code != tt.code {
			t.Errorf("%q: %d, want %d", tt.query, code, tt.code)
		}
		for _, w := range tt.want {
			if !strings.Contains(page, w) {
				t.Errorf("%q: the page lacks %s", tt.query, w)
			}
		}
		for _, l := range tt.lack {
			if strings.Contains(page, l) {
				t.Errorf("%q: the page shows %s", tt.query, l)
			}
		}
	}
}
