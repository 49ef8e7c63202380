package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// flaggedCertificate runs a four-player dan-grade round robin whose
// participant 1 wins all three games and is certified 1 dan, then voids one
// of those wins: the certificate stands but is flagged for review. It
// returns the certificate's number.
func (e *portalEnv) flaggedCertificate(t *testing.T, name string) string {
	t.Helper()
	ctx := context.Background()
	beijing := fixture.Agency("110")
	day := e.clock.Now().In(ledger.ChinaTime).Format("2006-01-02")
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: name + "定段赛", Start: day, End: day, Level: "province",
		System: "round_robin", DanGrade: true, Groups: []tournaments.GroupInput{{Name: "A", TargetRank: "1d", MinWins: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("%s%d", name, i+1), "1k", "1990-01-01", 300+int(ev.ID)*10+i)
		if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Group: "A"}); err != nil {
			t.Fatal(err)
		}
	}
	board := 0
	for range 3 {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range ri.Games {
			res := "black"
			if g.White < g.Black {
				res = "white"
			}
			if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: g.Round, Board: g.Board, Result: res}); err != nil {
				t.Fatal(err)
			}
			if g.Round == 1 && (g.Black == 1 || g.White == 1) {
				board = g.Board
			}
		}
	}
	if _, err := e.ts.Finish(ctx, beijing, "", ev.ID); err != nil {
		t.Fatal(err)
	}
	report, err := e.ts.EventReport(ctx, ev.ID)
	if err != nil || len(report.Proposals) != 1 {
		t.Fatalf("proposals: %+v %v", report.Proposals, err)
	}
	app, err := e.cs.Approve(ctx, beijing, "", report.Proposals[0].ApplicationID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.VoidResult(ctx, fixture.Staff, "", ev.ID, tournaments.VoidInput{Round: 1, Board: board, Side: tournaments.VoidBoth, Reason: "下假棋"}); err != nil {
		t.Fatal(err)
	}
	return app.CertificateNumber
}

// TestCertificatesToReviewInChromium: staff find the two certificates whose
// basis was voided on their workspace, keep one with a note and revoke the
// other through the confirmation; both leave the list, and verification
// shows the revoked one as revoked.
func TestCertificatesToReviewInChromium(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	kept, revoked := e.flaggedCertificate(t, "甲"), e.flaggedCertificate(t, "乙")
	_, staffTok := e.tokens(t)
	ctx := browser(t)
	u := e.srv.URL
	run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
		chromedp.SendKeys(css(`[data-testid="login-token"]`), staffTok),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="reviews"]`)))
	for _, n := range []string{kept, revoked} {
		if got := text(t, ctx, `[data-testid="review-`+n+`"]`); !strings.Contains(got, "下假棋") || !strings.Contains(got, "1段") {
			t.Fatalf("review row of %s: %q", n, got)
		}
	}
	row := `[data-testid="review-` + kept + `"] `
	run(t, ctx, "keep", chromedp.SendKeys(css(row+`[data-testid="review-keep-note"]`), "另有三胜成绩"),
		chromedp.Click(css(row+`[data-testid="review-keep"]`)), chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="ok"]`); got != "证书予以保留，复核标记已清除。" {
		t.Fatalf("after keeping: %q", got)
	}
	row = `[data-testid="review-` + revoked + `"] `
	run(t, ctx, "revoke", chromedp.SendKeys(css(row+`[data-testid="review-revoke-reason"]`), "成绩作废，升段不成立"),
		chromedp.Click(css(row+`[data-testid="review-revoke"]`)), chromedp.WaitVisible(css(`[data-testid="confirm-submit"]`)),
		chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	html, err := chromedp.Run(ctx, chromedp.OuterHTML(css(`main`)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(html, `data-testid="reviews"`) {
		t.Fatal("the reviews are still listed")
	}
	for n, want := range map[string]certs.CertStatus{kept: certs.CertValid, revoked: certs.CertRevoked} {
		if v, err := e.cs.Verify(context.Background(), n); err != nil || v.Certificate.Status != want {
			t.Errorf("%s: %s %v, want %s", n, v.Certificate.Status, err, want)
		}
	}
}
