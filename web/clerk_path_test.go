package web_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/registry"
)

// TestClerkAndStaffPathInChromium is issue 17's path in zh-CN, in Chromium:
// an agency clerk registers a player, applies for 1 dan picking the player
// by name, sees the certificate issued and downloads its PDF, which reads
// back with the Chinese name and number and a QR code of the verification
// URL; then staff create an agency and a token for it, and suspend the
// agency after a confirmation page.
func TestClerkAndStaffPathInChromium(t *testing.T) {
	needTools(t, "pdftotext", "pdftoppm", "zbarimg")
	e := newPortalEnv(t)
	e.stockThisYear(t)
	agencyTok, staffTok := e.tokens(t)
	ctx := browser(t)
	u := e.srv.URL
	login := func(tok string) {
		run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
			chromedp.SendKeys(css(`[data-testid="login-token"]`), tok),
			chromedp.Click(css(`[data-testid="login-submit"]`)),
			chromedp.WaitVisible(css(`[data-testid="workspace-heading"]`)))
	}
	login(agencyTok)
	if got := text(t, ctx, `[data-testid="workspace-heading"]`); got != "工作台: 北京棋院" {
		t.Fatalf("workspace heading %q", got)
	}

	// register a player: a mistyped ID number first, refused beside its field with the form kept
	run(t, ctx, "open the player form", chromedp.Click(css(`[data-testid="workspace-player-new"]`)),
		chromedp.WaitVisible(css(`[data-testid="player-form"]`)))
	run(t, ctx, "fill in the player",
		chromedp.SendKeys(css(`[data-testid="player-name"]`), "赵云"),
		chromedp.Click(css(`[data-testid="player-gender-m"]`)),
		chromedp.SendKeys(css(`[data-testid="player-birth"]`), "1990-05-01"),
		chromedp.SendKeys(css(`[data-testid="player-id-number"]`), "110105199005010011"),
		chromedp.Click(css(`[data-testid="player-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="field-error-identity_number"]`)))
	if got := text(t, ctx, `[data-testid="field-error-identity_number"]`); !strings.Contains(got, "校验") {
		t.Errorf("identity refusal %q", got)
	}
	run(t, ctx, "correct the ID number",
		chromedp.Clear(css(`[data-testid="player-id-number"]`)),
		chromedp.SendKeys(css(`[data-testid="player-id-number"]`), "110105199005010018"),
		chromedp.Click(css(`[data-testid="player-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="ok"]`); !strings.HasPrefix(got, "棋手已登记。") {
		t.Fatalf("after registering: %q", got)
	}

	// apply for 1 dan, the player found by name
	run(t, ctx, "find the player", chromedp.Navigate(u+"/workspace"),
		chromedp.SendKeys(css(`[data-testid="apply-search-name"]`), "赵云"),
		chromedp.Click(css(`[data-testid="apply-search"]`)),
		chromedp.WaitVisible(css(`[data-testid="apply-candidate"]`)))
	if got := text(t, ctx, `[data-testid="apply-candidate"]`); !strings.Contains(got, "赵云") || !strings.Contains(got, "1990") {
		t.Fatalf("candidate %q", got)
	}
	// he wins the event the application rests on
	found, err := e.reg.SearchPlayers(context.Background(), fixture.Agency("110"), registry.PlayerQuery{Name: "赵云", ProvinceCode: "11"})
	if err != nil || len(found.Players) != 1 {
		t.Fatalf("find 赵云: %v %v", found, err)
	}
	earned := fixture.Earned(t, e.ts, "1d", found.Players[0].ID)
	run(t, ctx, "apply",
		chromedp.Click(css(`[data-testid="apply-candidate"] input`)),
		chromedp.SendKeys(css(`[data-testid="apply-rank"]`), "1d"),
		chromedp.SendKeys(css(`[data-testid="apply-event"]`), strconv.FormatInt(earned, 10)),
		chromedp.Click(css(`[data-testid="apply-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="ok"]`); got != "申请已提交。" {
		t.Fatalf("after applying: %q", got)
	}
	run(t, ctx, "approve", chromedp.Click(css(`[data-testid="approve"]`)), chromedp.WaitVisible(css(`[data-testid="application-pdf"]`)))
	if got := text(t, ctx, `[data-testid="ok"]`); got != "已批准，证书已颁发。" {
		t.Fatalf("after approving: %q", got)
	}
	number := text(t, ctx, `[data-testid="application-number"]`)

	// download the PDF as the browser does
	dir := t.TempDir()
	progress := chromedp.Events(ctx, cdpbrowser.DownloadProgress)
	run(t, ctx, "download the PDF", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		enabled := true
		_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &enabled})
		return err
	}), chromedp.Click(css(`[data-testid="application-pdf"]`)))
	deadline := time.AfterFunc(30*time.Second, func() { t.Error("the download did not complete in 30 s") })
	var file string
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("download: %v", err)
		}
		if ev.State == cdpbrowser.DownloadProgressStateCompleted {
			file = filepath.Join(dir, ev.GUID)
			break
		}
		if ev.State == cdpbrowser.DownloadProgressStateCanceled {
			t.Fatal("download cancelled")
		}
	}
	deadline.Stop()
	pdf, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pdfTextOut, qr := pdfText(t, pdf)
	for _, want := range []string{"赵云", number, "业余围棋段位证书", "1段"} {
		if !strings.Contains(pdfTextOut, want) {
			t.Errorf("the PDF lacks %q:\n%s", want, pdfTextOut)
		}
	}
	// the certificate's link with its token (this portal has no sealer: no seal after '#')
	if want := u + "/c/" + number + "/"; len(qr) != 1 || !strings.HasPrefix(qr[0], want) {
		t.Errorf("QR %q, want %q and a token", qr, want)
	} else if code, page := get(t, qr[0]); code != http.StatusOK || !strings.Contains(page, "赵云") {
		t.Errorf("the QR's link = %d: %.300s", code, page)
	}
	run(t, ctx, "sign out", chromedp.Navigate(u+"/workspace"), chromedp.Click(css(`[data-testid="logout"]`)),
		chromedp.WaitVisible(css(`[data-testid="nav-login"]`)))

	// staff: an agency, a token for it, and its suspension after a confirmation page
	login(staffTok)
	run(t, ctx, "new agency", chromedp.Click(css(`[data-testid="manage-agencies"]`)),
		chromedp.WaitVisible(css(`[data-testid="agency-form"]`)),
		chromedp.SetValue(css(`[data-testid="agency-prefix"]`), "310"),
		chromedp.SendKeys(css(`[data-testid="agency-name"]`), "上海市棋院"),
		chromedp.SendKeys(css(`[data-testid="agency-contact"]`), "021-12345678"),
		chromedp.Click(css(`[data-testid="agency-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="ok"]`); got != "代理机构已创建。" {
		t.Fatalf("after creating the agency: %q", got)
	}
	run(t, ctx, "token for it", chromedp.Click(css(`[data-testid="agency-310"] [data-testid="agency-token"]`)),
		chromedp.WaitVisible(css(`[data-testid="new-token"]`)))
	if tok := text(t, ctx, `[data-testid="new-token"]`); !strings.HasPrefix(tok, "dk_") {
		t.Fatalf("new token %q", tok)
	} else if a, err := e.reg.Authenticate(context.Background(), tok); err != nil || a.Agency != "310" {
		t.Fatalf("the new token: %+v %v", a, err)
	}
	run(t, ctx, "suspend", chromedp.Navigate(u+"/workspace/agencies"),
		chromedp.WaitVisible(css(`[data-testid="agency-310"]`)),
		chromedp.SendKeys(css(`[data-testid="agency-310"] [data-testid="suspend-reason"]`), "年审未通过"),
		chromedp.Click(css(`[data-testid="agency-310"] [data-testid="suspend"]`)),
		chromedp.WaitVisible(css(`[data-testid="confirm-form"]`)))
	if got := text(t, ctx, `[data-testid="confirm-heading"]`); got != "请确认：暂停代理机构" {
		t.Fatalf("confirmation %q", got)
	}
	if a, _ := e.reg.GetAgency(context.Background(), "310"); a.Status != registry.AgencyActive {
		t.Fatal("suspended before confirming")
	}
	run(t, ctx, "confirm", chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="agency-310"] [data-testid="agency-status"]`); got != "暂停" {
		t.Fatalf("status after suspending: %q", got)
	}
	if a, _ := e.reg.GetAgency(context.Background(), "310"); a.Status != registry.AgencySuspended {
		t.Fatal("not suspended")
	}
}
