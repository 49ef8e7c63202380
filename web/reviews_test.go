package web_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// TestCertificatesToReviewInChromium: staff find the two certificates whose
// basis was voided on their workspace, keep one with a note and revoke the
// other through the confirmation; both leave the list, and verification
// shows the revoked one as revoked.
func TestCertificatesToReviewInChromium(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	day := e.clock.Now().In(ledger.ChinaTime).Format("2006-01-02")
	kept := fixture.FlaggedCertificate(t, e.reg, e.cs, e.ts, day, "甲", 300)
	revoked := fixture.FlaggedCertificate(t, e.reg, e.cs, e.ts, day, "乙", 310)
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
