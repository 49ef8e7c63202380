package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
)

// TestRefusalsInThePagesLanguage has a Beijing clerk and a member of the
// public run into the registry's refusals on the portal: each reads in
// Chinese, and in English once the visitor has chosen ?lang=en.
func TestRefusalsInThePagesLanguage(t *testing.T) {
	e := newPortalEnv(t)
	e.clock.Set(time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)) // 16:00 in Beijing, the day before the ordering window
	ctx := context.Background()
	bj := fixture.Agency("110")
	agencyTok, _ := e.tokens(t)
	young := fixture.Player(t, e.reg, "110", "少年", "2d", "2010-06-01", 3)
	fixture.Agencies(t, e.reg, "310")
	other := fixture.Player(t, e.reg, "310", "外省", "", "1990-01-01", 9)
	fixture.Stock(t, e.cs, "110", 2026, 10, 0) // no kyu certificates granted
	kyuPlayer := fixture.Player(t, e.reg, "110", "级位", "", "2012-01-01", 5)
	kyu, err := e.cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: kyuPlayer.ID, TargetRank: "1k", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1k", kyuPlayer.ID)})
	if err != nil {
		t.Fatal(err)
	}
	four, err := e.cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: e.player.ID, TargetRank: "5d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "5d", e.player.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if four, err = e.cs.Approve(ctx, bj, "", four.ID); err != nil {
		t.Fatal(err)
	}

	for _, lang := range []struct {
		name, query string
		want        []string
	}{
		{"Chinese", "", []string{
			"证书预订只在每年 12 月 1 日至 31 日（北京时间）受理",
			"通过鉴定申请段位的棋手须年满 18 周岁；该棋手在 2026-12-08 为 16 岁。",
			"公示期已于",
			"段位证书编号为 9 位数字",
			"代理机构 110 只能为本省申请段级位证书",
			"代理机构 110 已用完 2026 年获批的全部 0 张级位证书。",
		}},
		{"English", "?lang=en", []string{
			"certificate orders are taken from 1 to 31 December (Beijing time)",
			"a player put forward through appraisal must be at least 18; this player is 16 on 2026-12-08.",
			"objections are no longer taken",
			"a dan number has 9 digits",
			"agency 110 may apply for certificates only for its own province",
			"agency 110 has used all 0 kyu certificates granted for 2026.",
		}},
	} {
		t.Run(lang.name, func(t *testing.T) {
			c := client(t)
			u := e.srv.URL
			// each post signs in afresh at the clock's time: sessions and
			// form tokens expire, and the test moves the clock by days
			post := func(path string, form url.Values) (int, string) {
				_, page, _ := fetch(t, c, "GET", u+"/login"+lang.query, nil)
				if code, _, _ := fetch(t, c, "POST", u+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {agencyTok}}); code != http.StatusSeeOther {
					t.Fatalf("login: %d", code)
				}
				_, page, _ = fetch(t, c, "GET", u+"/workspace", nil)
				form.Set("csrf", csrfOf(t, page))
				code, body, _ := fetch(t, c, "POST", u+path, form)
				return code, body
			}
			e.clock.Set(time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC))
			code, body := post("/workspace/orders", url.Values{"dan_count": {"3"}})
			check(t, "order on 30 November", code, http.StatusConflict, body, lang.want[0])
			e.clock.Set(time.Date(2026, 12, 8, 8, 0, 0, 0, time.UTC)) // the 5d's notice period is over
			code, body = post("/workspace/applications", url.Values{"player_id": {fmt.Sprint(young.ID)}, "target_rank": {"3d"},
				"basis": {"appraisal"}, "appraisal_session_id": {"1"}})
			check(t, "appraisal of a 16-year-old", code, http.StatusBadRequest, body, lang.want[1])
			code, body = post(fmt.Sprintf("/notices/%d/objections", four.NoticeID), url.Values{"name": {"某"}, "contact": {"1"}, "reason": {"r"}})
			check(t, "objection after the period", code, http.StatusConflict, body, lang.want[2])
			code, body, _ = fetch(t, c, "GET", u+"/verify?number=12345", nil)
			check(t, "malformed number", code, http.StatusBadRequest, body, lang.want[3])
			code, body = post("/workspace/applications", url.Values{"player_id": {fmt.Sprint(other.ID)}, "target_rank": {"1d"},
				"basis": {"tournament"}, "event_id": {"1"}})
			check(t, "another province's player", code, http.StatusForbidden, body, lang.want[4])
			code, body = post(fmt.Sprintf("/workspace/applications/%d", kyu.ID), url.Values{"decision": {"approve"}})
			check(t, "no kyu stock", code, http.StatusConflict, body, lang.want[5])
		})
	}
}

func check(t *testing.T, what string, code, wantCode int, body, want string) {
	t.Helper()
	if code != wantCode || !strings.Contains(body, want) {
		i := strings.Index(body, `data-testid="form-error"`)
		if i < 0 {
			i = 0
		}
		t.Errorf("%s: %d, want %d with %q; page says %.300s", what, code, wantCode, want, body[i:])
	}
}
