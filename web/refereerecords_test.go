package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/registry"
)

// TestRefereeRecordsOnThePortal: the organiser records a warning with its
// cause and a public reprimand on the referee page (each through its
// confirmation page); the event's page lists both and the player's page
// his sanction and his club, in Chinese and in English.
func TestRefereeRecordsOnThePortal(t *testing.T) {
	e := newRefereeEnv(t, false)
	rep := e.report(t)
	g := rep.Rounds[1].Games[0]
	black := []string{"棋手甲", "棋手乙", "棋手丙", "棋手丁"}[g.Black-1]
	first := rep.Participants[0]
	if _, err := e.reg.SetAffiliation(context.Background(), fixture.Agency("110"), "", registry.AffiliationInput{PlayerID: first.PlayerID,
		Kind: "club", Name: "北京棋院俱乐部", From: "2020-01-01"}); err != nil {
		t.Fatal(err)
	}
	e.signIn(t, e.agency)
	e.act(t, "warning", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="warning-round"]`), "2"),
		chromedp.SendKeys(css(`[data-testid="warning-board"]`), "1"), chromedp.SetValue(css(`[data-testid="warning-number"]`), strconv.Itoa(g.Black)),
		chromedp.SetValue(css(`[data-testid="warning-cause"]`), "phone"), chromedp.SendKeys(css(`[data-testid="warning-referee"]`), "李裁判")},
		[]string{black, "手机", "李裁判"}, "警告已记录。")
	// "other" without words is refused, the form back as typed
	run(t, e.ctx, "a refused warning", chromedp.Navigate(e.page), chromedp.SetValue(css(`[data-testid="warning-round"]`), "2"),
		chromedp.SendKeys(css(`[data-testid="warning-board"]`), "1"), chromedp.SetValue(css(`[data-testid="warning-number"]`), strconv.Itoa(g.Black)),
		chromedp.SetValue(css(`[data-testid="warning-cause"]`), "other"), chromedp.SendKeys(css(`[data-testid="warning-referee"]`), "王裁判"),
		chromedp.Click(css(`[data-testid="warning-submit"]`)), chromedp.WaitVisible(css(`[data-testid="confirm-submit"]`)),
		chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[data-testid="field-error-note"]`)))
	if ref, err := chromedp.Run(e.ctx, chromedp.Value(css(`[data-testid="warning-referee"]`))); err != nil || ref != "王裁判" {
		t.Fatalf("the refused form's referee: %q %v", ref, err)
	}
	e.act(t, "sanction", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="sanction-number"]`), strconv.Itoa(first.Number)),
		chromedp.SetValue(css(`[data-testid="sanction-kind"]`), "reprimand"), chromedp.SendKeys(css(`[data-testid="sanction-reason"]`), "无故不参加闭幕式")},
		[]string{first.Name, "通报批评", "无故不参加闭幕式"}, "处罚已记录。")
	if got := text(t, e.ctx, `[data-testid="warning-cause-text"]`); got != "手机" {
		t.Fatalf("the referee page's warning: %q", got)
	}
	event := e.srv.URL + "/tournaments/" + strconv.FormatInt(e.event, 10)
	player := e.srv.URL + "/players/" + strconv.FormatInt(first.PlayerID, 10)
	for _, tc := range []struct {
		lang                           string
		cause, kind, club, warningHead string
		absent                         string // words of the other language
	}{
		{"zh", "手机", "通报批评", "俱乐部", "警告记录", "Public reprimand"},
		{"en", "Phone", "Public reprimand", "Club", "Warnings on record", "通报批评"},
	} {
		run(t, e.ctx, "event page "+tc.lang, chromedp.Navigate(event+"?lang="+tc.lang), chromedp.WaitVisible(css(`[data-testid="warnings"]`)))
		page := text(t, e.ctx, `main`)
		for _, w := range []string{tc.cause, tc.kind, tc.warningHead, "无故不参加闭幕式", "李裁判"} {
			if !strings.Contains(page, w) {
				t.Errorf("%s event page lacks %q", tc.lang, w)
			}
		}
		if strings.Contains(page, tc.absent) {
			t.Errorf("%s event page shows %q", tc.lang, tc.absent)
		}
		run(t, e.ctx, "player page "+tc.lang, chromedp.Navigate(player+"?lang="+tc.lang), chromedp.WaitVisible(css(`[data-testid="player-sanctions"]`)))
		page = text(t, e.ctx, `main`)
		for _, w := range []string{tc.kind, tc.club, "北京棋院俱乐部", "2020-01-01", "北京市裁判赛"} {
			if !strings.Contains(page, w) {
				t.Errorf("%s player page lacks %q", tc.lang, w)
			}
		}
	}
}
