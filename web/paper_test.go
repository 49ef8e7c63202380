package web_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
)

// TestPaperCertificatesOnThePortal (issue 24): Beijing's clerk pastes its
// register of paper certificates; the check (the confirmation step) shows
// each line with the registered player it matched by name and registry
// number, and refuses the line whose holder is not registered until it is
// ticked to be left out; the clerk submits. Staff open the pending
// submission, are refused without a decision (beside the field, the note
// kept), then record it after the confirmation page; the number verifies.
func TestPaperCertificatesOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	agency, staff := e.tokens(t)
	a := fixture.Player(t, e.reg, "110", "纸证甲", "", "1980-01-01", 61)
	register := "证书编号,姓名,证件号码,段位,发证日期\n" +
		"110150001," + a.Name + "," + a.IDNumber + ",2段,2015-04-01\n" +
		"110150002,无名氏," + fixture.ResidentID("110", "1981-01-01", 62) + ",1段,2015-04-01\n"
	ctx := browser(t)
	signInAs(t, e, ctx, agency)
	run(t, ctx, "check the register", chromedp.Navigate(e.srv.URL+"/workspace"), chromedp.Click(css(`[data-testid="paper-link"]`)),
		chromedp.WaitVisible(css(`[data-testid="paper-form"]`)), chromedp.SetValue(css(`[data-testid="paper-text"]`), register),
		chromedp.Click(css(`[data-testid="paper-check"]`)), chromedp.WaitVisible(css(`[data-testid="paper-rows"]`)))
	if got, want := text(t, ctx, `[data-testid="paper-holder-2"]`), "纸证甲 · 登记号 "+strconv.FormatInt(a.ID, 10); got != want {
		t.Errorf("line 2's holder: %q, want %q", got, want)
	}
	if got := text(t, ctx, `[data-testid="paper-problems-3"]`); !strings.Contains(got, "尚未登记") {
		t.Errorf("line 3's problems: %q", got)
	}
	if got := text(t, ctx, `[data-testid="paper-blocked"]`); got == "" {
		t.Error("a register with a refused line offers to confirm it")
	}
	run(t, ctx, "leave out line 3", chromedp.Click(css(`[data-testid="paper-skip-3"]`)), chromedp.Click(css(`[data-testid="paper-recheck"]`)),
		chromedp.WaitVisible(css(`[data-testid="confirm-submit"]`)))
	if got := text(t, ctx, `[data-testid="paper-summary"]`); got != "可补录 1 行；有问题 0 行；不计 1 行。" {
		t.Errorf("summary after leaving line 3 out: %q", got)
	}
	run(t, ctx, "submit", chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[role="status"]`)))
	if got := text(t, ctx, `[role="status"]`); got != "已提交，待协会确认。" {
		t.Fatalf("after submitting: %q", got)
	}
	if v, _ := e.cs.Verify(context.Background(), "110150001"); v.Found {
		t.Fatal("a paper certificate verifies before staff confirmed it")
	}

	sctx := browser(t)
	signInAs(t, e, sctx, staff)
	run(t, sctx, "open the submission", chromedp.Navigate(e.srv.URL+"/workspace"), chromedp.Click(css(`[data-testid="paper-link"]`)),
		chromedp.Click(css(`[data-testid="paper-open"]`)), chromedp.WaitVisible(css(`[data-testid="paper-decide-form"]`)),
		chromedp.SendKeys(css(`[data-testid="paper-note"]`), "核对原件无误"), chromedp.Click(css(`[data-testid="paper-decide-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="field-error-decision"]`)))
	if note, err := chromedp.Run(sctx, chromedp.Value(css(`[data-testid="paper-note"]`))); err != nil || note != "核对原件无误" {
		t.Errorf("the refused decision lost its note: %q, %v", note, err)
	}
	run(t, sctx, "decide", chromedp.Click(css(`[data-testid="paper-decision-confirm"]`)), chromedp.Click(css(`[data-testid="paper-decide-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="confirm-heading"]`)))
	page := text(t, sctx, `main`)
	for _, w := range []string{"北京", "确认补录", "核对原件无误", "2 行"} {
		if !strings.Contains(page, w) {
			t.Errorf("the confirmation page lacks %q:\n%s", w, page)
		}
	}
	run(t, sctx, "confirm", chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[role="status"]`)))
	if got := text(t, sctx, `[role="status"]`); got != "该申请的证书已补录。" {
		t.Fatalf("after deciding: %q", got)
	}
	if v, _ := e.cs.Verify(context.Background(), "110150001"); !v.Found || !v.Certificate.FromPaper || v.Certificate.PlayerID != a.ID {
		t.Fatalf("after confirmation: %+v", v)
	}
}

// TestStaffImportPaperOnThePortal: staff's check of a register is the
// confirmation; confirming records the certificates at once, and the same
// confirmation sent twice records them once.
func TestStaffImportPaperOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	_, staff := e.tokens(t)
	a := fixture.Player(t, e.reg, "310", "纸证乙", "", "1980-01-01", 63)
	register := "证书编号,姓名,证件号码,段位,发证日期\n310120007," + a.Name + "," + a.IDNumber + ",3段,2012-09-09\n"
	ctx := browser(t)
	signInAs(t, e, ctx, staff)
	run(t, ctx, "check", chromedp.Navigate(e.srv.URL+"/workspace/paper"), chromedp.SetValue(css(`[data-testid="paper-text"]`), register),
		chromedp.Click(css(`[data-testid="paper-check"]`)), chromedp.WaitVisible(css(`[data-testid="confirm-submit"]`)))
	if got := text(t, ctx, `[data-testid="paper-problems-2"]`); got != "可补录" {
		t.Errorf("line 2: %q", got)
	}
	run(t, ctx, "record", chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[role="status"]`)))
	if got := text(t, ctx, `[role="status"]`); got != "纸质证书已补录。" {
		t.Fatalf("after recording: %q", got)
	}
	// the confirmation again (back, then the same form): answered, not recorded twice
	run(t, ctx, "again", chromedp.NavigateBack(), chromedp.WaitVisible(css(`[data-testid="confirm-submit"]`)),
		chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[role="status"], [role="alert"]`)))
	if v, _ := e.cs.Verify(context.Background(), "310120007"); !v.Found || !v.Certificate.FromPaper {
		t.Fatalf("after recording: %+v", v)
	}
}

// TestPaperPagesInOneLanguage: the upload, the check (with a refused
// line) and a submission, as the agency and as staff, hold no interface
// text of the other language in zh-CN or in English.
func TestPaperPagesInOneLanguage(t *testing.T) {
	e := newPortalEnv(t)
	agency, staff := e.tokens(t)
	a := fixture.Player(t, e.reg, "110", "纸证丙", "", "1980-01-01", 64)
	register := "证书编号,姓名,证件号码,段位,发证日期\n" +
		"110150001," + a.Name + "," + a.IDNumber + ",2段,2015-04-01\n" +
		"110150002,无名氏," + fixture.ResidentID("110", "1981-01-01", 65) + ",1段,2015-13-01\n"
	sub, err := e.cs.SubmitPaper(context.Background(), fixture.Agency("110"), "", certs.PaperInput{Data: []byte(register), Skip: []int{3}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{agency, staff} {
		c := client(t)
		e.signIn(t, c, tok)
		for _, lang := range []string{"zh-CN", "en"} {
			_, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace/paper?lang="+lang, nil)
			_, preview, _ := fetch(t, c, "POST", e.srv.URL+"/workspace/paper/check?lang="+lang, url.Values{"csrf": {csrfOf(t, page)}, "text": {register}})
			_, one, _ := fetch(t, c, "GET", e.srv.URL+"/workspace/paper/"+strconv.FormatInt(sub.ID, 10)+"?lang="+lang, nil)
			if !strings.Contains(preview, `data-testid="paper-problems-3"`) || !strings.Contains(one, `data-testid="paper-rows"`) {
				t.Fatalf("%s: the check or the submission shows no rows", lang)
			}
			for name, p := range map[string]string{"upload": page, "check": preview, "submission": one} {
				if bad := otherLanguage(interfaceText(t, p, lang), lang); len(bad) > 0 {
					t.Errorf("%s %s page: other language %q", lang, name, bad)
				}
			}
		}
	}
}

// TestPaperCheckRefusedKeepsText: a pasted register the check refuses as a
// whole (no identity column) comes back as typed, the refusal beside the
// file, and nothing is recorded.
func TestPaperCheckRefusedKeepsText(t *testing.T) {
	e := newPortalEnv(t)
	agency, _ := e.tokens(t)
	c := client(t)
	e.signIn(t, c, agency)
	_, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace/paper", nil)
	pasted := "证书编号,姓名,段位,发证日期\n110150001,某甲,2段,2015-04-01\n"
	code, body, _ := fetch(t, c, "POST", e.srv.URL+"/workspace/paper/check", url.Values{"csrf": {csrfOf(t, page)}, "text": {pasted}})
	if code != 400 || !strings.Contains(body, `data-testid="field-error-file"`) || !strings.Contains(body, "110150001,某甲,2段,2015-04-01") {
		t.Fatalf("a register without identity numbers: %d, the refusal beside the file and the text kept expected", code)
	}
	code, body, _ = fetch(t, c, "POST", e.srv.URL+"/workspace/paper/check", url.Values{"csrf": {csrfOf(t, page)}, "text": {"  "}})
	if code != 400 || !strings.Contains(body, "请上传文件或粘贴名册内容") {
		t.Fatalf("an empty check: %d", code)
	}
}
