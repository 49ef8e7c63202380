package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
)

// TestAuditReachableInChromium: the audit is in the navigation of staff and
// of an agency (issue 24: no link led to it), and staff record a new
// agency's first-year decision on its page, through the confirmation page:
// Shanghai's stock of next year, refused before, is then granted. Recorded
// twice, the second is refused with the form as typed.
func TestAuditReachableInChromium(t *testing.T) {
	e := newAuditEnv(t)
	agencyTok, staffTok := e.tokens(t)
	bg := context.Background()
	stock := e.year + 1
	if _, err := e.cs.PlaceOrder(bg, fixture.Staff, "", certs.OrderInput{AgencyPrefix: "310", Year: stock, DanCount: 5, KyuCount: 5}); err != nil {
		t.Fatal(err)
	}
	grant := certs.OrderDecision{AgencyPrefix: "310", Year: stock, Grant: true}
	if _, err := e.cs.DecideOrder(bg, fixture.Staff, "", grant); err == nil {
		t.Fatal("Shanghai's stock granted without an audit or a first-year decision")
	}
	ctx := browser(t)
	u := e.srv.URL
	login := func(tok string) {
		run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
			chromedp.SendKeys(css(`[data-testid="login-token"]`), tok),
			chromedp.Click(css(`[data-testid="login-submit"]`)),
			chromedp.WaitVisible(css(`[data-testid="nav-audit"]`)))
	}
	login(agencyTok)
	run(t, ctx, "the agency follows the audit link", chromedp.Click(css(`[data-testid="nav-audit"]`)), chromedp.WaitVisible(css(`[data-testid="title"]`)))
	if got := text(t, ctx, `[data-testid="title"]`); !strings.HasPrefix(got, "年审") {
		t.Fatalf("the agency's audit page: %q", got)
	}
	run(t, ctx, "sign out", chromedp.Click(css(`[data-testid="logout"]`)), chromedp.WaitVisible(css(`[data-testid="nav-login"]`)))

	login(staffTok)
	year := strconv.Itoa(stock)
	run(t, ctx, "staff follow the audit link and fill the first-year form", chromedp.Click(css(`[data-testid="nav-audit"]`)),
		chromedp.WaitVisible(css(`[data-testid="bootstrap-form"]`)),
		chromedp.SetValue(css(`[data-testid="bootstrap-agency"]`), "310"),
		chromedp.SetValue(css(`[data-testid="bootstrap-year"]`), year),
		chromedp.SendKeys(css(`[data-testid="bootstrap-note"]`), "新设机构，首年放行"),
		chromedp.Click(css(`[data-testid="bootstrap-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="confirm-heading"]`)))
	if got := text(t, ctx, `[data-testid="confirm-subject"]`); !strings.HasSuffix(got, " · "+year) || strings.HasPrefix(got, "310") {
		t.Fatalf("the confirmation names %q", got)
	}
	if _, err := e.cs.DecideOrder(bg, fixture.Staff, "", grant); err == nil {
		t.Fatal("granted before the confirmation")
	}
	run(t, ctx, "confirm", chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="ok"]`); got != "首年决定已记录，该年度库存可以批准。" {
		t.Fatalf("after confirming: %q", got)
	}
	if o, err := e.cs.DecideOrder(bg, fixture.Staff, "", grant); err != nil || o.Status != certs.OrderGranted {
		t.Fatalf("Shanghai's stock after the first-year decision: %+v, %v", o, err)
	}
	// the same decision again is refused, the form as typed
	run(t, ctx, "again", chromedp.Navigate(u+"/workspace/audit"), chromedp.WaitVisible(css(`[data-testid="bootstrap-form"]`)),
		chromedp.SetValue(css(`[data-testid="bootstrap-agency"]`), "310"),
		chromedp.SetValue(css(`[data-testid="bootstrap-year"]`), year),
		chromedp.SendKeys(css(`[data-testid="bootstrap-note"]`), "再次"),
		chromedp.Click(css(`[data-testid="bootstrap-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="confirm-submit"]`)),
		chromedp.Click(css(`[data-testid="confirm-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="form-error"]`)))
	agency, err := chromedp.Run(ctx, chromedp.Value(css(`[data-testid="bootstrap-agency"]`)))
	if err != nil {
		t.Fatal(err)
	}
	note, err := chromedp.Run(ctx, chromedp.Value(css(`[data-testid="bootstrap-note"]`)))
	if err != nil {
		t.Fatal(err)
	}
	if agency != "310" || note != "再次" {
		t.Fatalf("the refused form came back with %q, %q", agency, note)
	}
}
