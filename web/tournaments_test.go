package web_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// TestDanGradeEventThroughThePortal: an agency creates a 7-round dan-grade
// Swiss event in Chromium, registers ten players, pairs every round, enters
// results (uploading SGF records, one of which disagrees and is flagged),
// reads the standings, finishes the event and finds the certificate
// applications proposed for the players who reached the threshold.
func TestDanGradeEventThroughThePortal(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	ctx := browser(t)
	u := e.srv.URL
	bg := context.Background()

	var ids []int64
	for i := range 10 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("段位赛选手%02d", i+1), "1k", "1996-01-01", 100+i)
		ids = append(ids, p.ID)
	}
	dir := t.TempDir()
	agree := filepath.Join(dir, "agree.sgf")
	disagree := filepath.Join(dir, "disagree.sgf")

	run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
		chromedp.SendKeys(css(`[data-testid="login-token"]`), agencyTok),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="tournament-form"]`)))
	run(t, ctx, "create the event",
		chromedp.SendKeys(css(`[data-testid="t-name"]`), "2026年北京市业余段位赛"),
		chromedp.SetValue(css(`[data-testid="t-start"]`), e.ts.Today()), // published on the day it starts: its groups earn ranks
		chromedp.SetValue(css(`[data-testid="t-level"]`), "province"),
		chromedp.SetValue(css(`[data-testid="t-system"]`), "swiss"),
		chromedp.SetValue(css(`[data-testid="t-rounds"]`), "7"),
		chromedp.Click(css(`[data-testid="t-dan-grade"]`)),
		chromedp.SendKeys(css(`[data-testid="t-group1-name"]`), "升段组"),
		chromedp.SendKeys(css(`[data-testid="t-group1-rank"]`), "1d"),
		chromedp.SendKeys(css(`[data-testid="t-group1-wins"]`), "5"),
		chromedp.Click(css(`[data-testid="t-create"]`)),
		chromedp.WaitVisible(css(`[data-testid="participant-form"]`)))
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	var eventID int64
	if _, err := fmt.Sscanf(loc[len(u):], "/tournaments/%d", &eventID); err != nil {
		t.Fatalf("after creating: at %s", loc)
	}
	for k, id := range ids {
		pl, err := e.reg.GetPlayer(bg, id)
		if err != nil {
			t.Fatal(err)
		}
		run(t, ctx, "add a participant found by name",
			chromedp.SendKeys(css(`[data-testid="p-find"]`), pl.Name),
			chromedp.Click(css(`[data-testid="p-find-submit"]`)),
			chromedp.WaitVisible(css(`[data-testid="p-pick-`+strconv.FormatInt(id, 10)+`"]`)),
			chromedp.Click(css(`[data-testid="p-pick-`+strconv.FormatInt(id, 10)+`"]`)),
			chromedp.Click(css(`[data-testid="p-add"]`)),
			// the reloaded page lists one more participant
			chromedp.WaitVisible(css(fmt.Sprintf(`[data-testid="participants"] tbody tr:nth-child(%d)`, k+1))))
	}

	for round := 1; round <= 7; round++ {
		run(t, ctx, fmt.Sprintf("pair round %d", round), chromedp.Click(css(`[data-testid="pair"]`)))
		waitText(t, ctx, `[data-testid="ok"]`, "本轮已编排。")
		rep, err := e.ts.EventReport(bg, eventID)
		if err != nil {
			t.Fatal(err)
		}
		var actions []chromedp.Action[chromedp.Void]
		for _, g := range rep.Rounds[round-1].Games {
			// the lower participant number (registered earlier) wins
			res := "black"
			if g.White < g.Black {
				res = "white"
			}
			actions = append(actions, chromedp.SetValue(css(fmt.Sprintf(`[data-testid="result-%d-%d"]`, round, g.Board)), res))
			if round == 1 && g.Board <= 2 {
				winner := map[string]string{"black": "B", "white": "W"}[res]
				file := agree
				if g.Board == 2 {
					file, winner = disagree, map[string]string{"B": "W", "W": "B"}[winner]
				}
				os.WriteFile(file, []byte("(;GM[1]FF[4]SZ[19]KM[7.5]RE["+winner+"+R];B[pd];W[dp];B[pq])"), 0o644)
				actions = append(actions, chromedp.SetUploadFiles(css(fmt.Sprintf(`[data-testid="sgf-%d-%d"]`, round, g.Board)), []string{file}))
			}
		}
		actions = append(actions, chromedp.Click(css(fmt.Sprintf(`[data-testid="results-submit-%d"]`, round))))
		run(t, ctx, fmt.Sprintf("results of round %d", round), actions...)
		waitText(t, ctx, `[data-testid="ok"]`, "成绩已保存。")
	}
	if got := text(t, ctx, `[data-testid="flagged"]`); !strings.Contains(got, "待复核") {
		t.Fatalf("the disagreeing record is not flagged: %q", got)
	}
	if got := text(t, ctx, `[data-testid="rounds-played"]`); got != "7/7" {
		t.Fatalf("rounds played %q", got)
	}
	// standings: the first registered player won every game
	if got := text(t, ctx, `[data-testid="standing-name"]`); got != "段位赛选手01" {
		t.Fatalf("leader %q", got)
	}
	if got := text(t, ctx, `[data-testid="standing-wins"]`); got != "7" {
		t.Fatalf("leader's wins %q", got)
	}

	run(t, ctx, "finish", chromedp.Click(css(`[data-testid="finish"]`)), chromedp.WaitVisible(css(`[data-testid="confirm-form"]`)))
	if got := text(t, ctx, `[data-testid="confirm-heading"]`); got != "请确认：结束比赛" {
		t.Fatalf("confirmation heading %q", got)
	}
	run(t, ctx, "confirm finishing", chromedp.Click(css(`[data-testid="confirm-submit"]`)))
	waitText(t, ctx, `[data-testid="ok"]`, "比赛已结束。")
	rep, err := e.ts.EventReport(bg, eventID)
	if err != nil {
		t.Fatal(err)
	}
	qualified := 0
	for _, s := range rep.Standings {
		if s.Wins >= 5 {
			qualified++
		}
	}
	nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(`[data-testid="proposal-application"]`), chromedp.AtLeast(0)))
	if err != nil {
		t.Fatal(err)
	}
	if qualified == 0 || len(nodes) != qualified {
		t.Fatalf("%d applications shown for %d qualified players", len(nodes), qualified)
	}
	// the agency finds them in its workspace, waiting for approval
	apps, err := e.cs.ListApplications(bg, fixture.Agency("110"), certs.ApplicationQuery{Status: certs.AppApplied})
	if err != nil || len(apps) != qualified {
		t.Fatalf("%d applications waiting, want %d: %v", len(apps), qualified, err)
	}
	run(t, ctx, "workspace", chromedp.Navigate(u+"/workspace"), chromedp.WaitVisible(css(`[data-testid="applications"]`)))
	if got := text(t, ctx, `[data-testid="applications"]`); !strings.Contains(got, "段位赛选手01") || !strings.Contains(got, "1段") {
		t.Fatalf("workspace applications: %q", got)
	}
	if rep.Event.Status != "finished" || rep.Rounds[0].Games[0].Adjudicated == "" {
		t.Fatalf("event %s; first record adjudicated %q", rep.Event.Status, rep.Rounds[0].Games[0].Adjudicated)
	}
}

// waitText waits until the element shows want: after a form post the old
// page stays in place until the new one has loaded.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	last := ""
	for time.Now().Before(deadline) {
		step, cancel := context.WithTimeout(ctx, 2*time.Second)
		got, err := chromedp.Run(step, chromedp.Text(chromedp.CSS(sel)))
		cancel()
		if err == nil && strings.TrimSpace(got) == want {
			return
		}
		last = got
		time.Sleep(50 * time.Millisecond)
	}
	errText, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main")))
	t.Fatalf("%s never showed %q (last %q); page: %.500s", sel, want, last, errText)
}

// TestTournamentMessagesExist checks the texts picked by value at run time.
func TestTournamentMessagesExist(t *testing.T) {
	var keys []string
	for _, s := range tournaments.Systems() {
		keys = append(keys, "system_"+string(s))
	}
	for _, l := range tournaments.Levels() {
		keys = append(keys, "level_"+string(l))
	}
	for _, r := range tournaments.Results() {
		keys = append(keys, "result_"+string(r))
	}
	for _, o := range tournaments.Orders() {
		keys = append(keys, "order_"+string(o))
	}
	keys = append(keys, "event_open", "event_finished")
	keys = append(keys, "match_matched", "match_guest", "match_unmatched")
	for _, ok := range []string{"created", "participant_added", "withdrawn", "paired", "results", "finished", "imported"} {
		keys = append(keys, "ok_"+ok)
	}
	for _, lang := range []web.Lang{web.Chinese, web.English} {
		m := web.Messages(lang)
		for _, k := range keys {
			if m[k] == "" {
				t.Errorf("%s: no text for %q", lang, k)
			}
		}
	}
}

// TestImportPageWithoutJavaScript uploads the real h-file, sees its players
// listed for matching, adds them as guests and imports the event.
func TestImportPageWithoutJavaScript(t *testing.T) {
	e := newPortalEnv(t)
	agencyTok, _ := e.tokens(t)
	c := client(t)
	u := e.srv.URL
	_, page, _ := fetch(t, c, "GET", u+"/login", nil)
	if code, _, _ := fetch(t, c, "POST", u+"/login", url.Values{"csrf": {csrfOf(t, page)}, "token": {agencyTok}}); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	_, page, _ = fetch(t, c, "GET", u+"/workspace/import", nil)
	data, err := os.ReadFile("../tournaments/testdata/TestPartEtLic.h9")
	if err != nil {
		t.Fatal(err)
	}
	post := func(fields map[string]string, file []byte) (int, string, http.Header) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		for k, v := range fields {
			mw.WriteField(k, v)
		}
		if file != nil {
			fw, _ := mw.CreateFormFile("file", "TestPartEtLic.h9")
			fw.Write(file)
		}
		mw.Close()
		req, _ := http.NewRequest("POST", u+"/workspace/import", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	code, page, _ := post(map[string]string{"csrf": csrfOf(t, page), "idem": "i1", "level": "city"}, data)
	if code != 200 || strings.Count(page, `data-testid="import-status">未匹配`) != 22 || !strings.Contains(page, "22 参赛选手") {
		t.Fatalf("check: %d\n%.2000s", code, page)
	}
	fields := map[string]string{"csrf": csrfOf(t, page), "idem": "i2", "level": "city", "commit": "1",
		"data": base64.StdEncoding.EncodeToString(data), "filename": "TestPartEtLic.h9"}
	code, page, _ = post(fields, nil)
	if code != http.StatusConflict || !strings.Contains(page, "文件中有 22 名棋手未对应") {
		t.Fatalf("commit with nobody matched: %d", code)
	}
	// "mark every unmatched player as a guest" ticks them all, for a last look
	code, page, _ = post(map[string]string{"csrf": fields["csrf"], "level": "city", "unmatched_guests": "1",
		"data": fields["data"], "filename": "TestPartEtLic.h9"}, nil)
	if code != 200 || strings.Count(page, `checked data-testid="import-guest"`) != 22 || strings.Contains(page, "未匹配<") {
		t.Fatalf("every unmatched player a guest: %d\n%.1500s", code, page)
	}
	for i := 1; i <= 22; i++ {
		fields[fmt.Sprintf("guest_%d", i)] = "on"
	}
	code, _, hdr := post(fields, nil)
	if code != http.StatusSeeOther || !strings.Contains(hdr.Get("Location"), "ok=imported") {
		t.Fatalf("import: %d %v", code, hdr)
	}
	_, page, _ = fetch(t, c, "GET", u+hdr.Get("Location"), nil)
	if !strings.Contains(page, "比赛已导入。") || !strings.Contains(page, "Chauvin Robin") || !strings.Contains(page, "4/4") {
		t.Fatalf("imported tournament page:\n%.1500s", page)
	}
	base := u + strings.Split(hdr.Get("Location"), "?")[0]
	if code, body, h := fetch(t, c, "GET", base+"/export/h9", nil); code != 200 || !strings.Contains(body, "Chauvin Robin") ||
		!strings.Contains(h.Get("Content-Disposition"), ".h9") {
		t.Fatalf("h-file export: %d %v", code, h)
	}
	// the organiser states the time limits: 60 minutes and 30-second periods are class A
	if code, body, _ := fetch(t, c, "GET", base+"/export/h9?class=&basic=60&overtime=byoyomi&seconds=30&event_name=Club+Cup", nil); code != 200 ||
		!strings.Contains(body, "; CL[A]") || !strings.Contains(body, "; TM[82]") || !strings.Contains(body, "; EV[Club Cup]") {
		t.Fatalf("h-file export with time limits: %d\n%.400s", code, body)
	}
	if code, _, _ := fetch(t, c, "GET", base+"/export/h9?class=Q", nil); code != http.StatusBadRequest {
		t.Fatalf("class Q: %d", code)
	}
	if code, _, _ := fetch(t, c, "GET", base+"/export/pdf", nil); code != http.StatusNotFound {
		t.Fatalf("unknown export: %d", code)
	}
}
