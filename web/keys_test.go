package web_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web"
	"github.com/dankyu/dankyu/webhooks"
)

// oneLanguage fails on an interface string of the other language on page.
func oneLanguage(t *testing.T, what, page, lang string) {
	t.Helper()
	if !strings.Contains(page, `<html lang="`+lang+`"`) {
		t.Errorf("%s: not a page in %s", what, lang)
		return
	}
	texts := interfaceText(t, page, lang)
	// the URL schemes, and the event kinds the API takes (which a refusal
	// of them lists as such), are written so in Chinese too
	for i, s := range texts {
		for _, a := range webhooks.Actions {
			s = strings.ReplaceAll(s, a, "")
		}
		texts[i] = strings.NewReplacer("https://", "", "http://", "").Replace(s)
	}
	for _, s := range otherLanguage(texts, lang) {
		t.Errorf("%s (%s) shows %q", what, lang, s)
	}
}

// revokedKey says err is the registry's refusal of a revoked key.
func revokedKey(err error) bool {
	le, ok := ledger.AsError(err)
	return ok && le.Reason == registry.ReasonRevokedInstitutionKey
}

// TestInstitutionKeysOnThePortal: staff issue an institution key (shown
// on the answer once: not on any later page, not on a repeat of the form,
// not in the log), see its use per window, and revoke it after a
// confirmation page; an agency is refused every page and post, as the
// registry refuses it over the API; each page is in one language.
func TestInstitutionKeysOnThePortal(t *testing.T) {
	var buf lockedBuffer
	e := newPortalEnvLogging(t, func(*ledger.Store) web.Options { return web.Options{} },
		slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	agencyTok, staffTok := e.tokens(t)
	ctx := context.Background()
	u := e.srv.URL + "/workspace/institution-keys"
	staff, agency := client(t), client(t)
	e.signIn(t, staff, staffTok)
	e.signIn(t, agency, agencyTok)
	page := func(c *http.Client, path string) string {
		t.Helper()
		code, body, _ := fetch(t, c, "GET", path, nil)
		if code != http.StatusOK {
			t.Fatalf("GET %s = %d", path, code)
		}
		return body
	}

	// the workspace links to the page for staff
	if ws := page(staff, e.srv.URL+"/workspace"); !strings.Contains(ws, `href="/workspace/institution-keys"`) {
		t.Error("the staff's workspace does not link to the institution keys")
	}
	if ws := page(agency, e.srv.URL+"/workspace"); strings.Contains(ws, `href="/workspace/institution-keys"`) {
		t.Error("an agency's workspace links to the institution keys")
	}

	// refused forms keep what was typed and name the field, in the page's language
	code, body, _ := fetch(t, staff, "POST", u, url.Values{"csrf": {csrfOf(t, page(staff, u))}, "idem": {"k0"},
		"institution": {"清华大学招生办"}, "quota": {"0"}, "per": {"day"}})
	if code != http.StatusBadRequest || !strings.Contains(body, `data-testid="field-error-quota"`) || !strings.Contains(body, `value="清华大学招生办"`) {
		t.Errorf("a quota of 0: %d", code)
	}
	oneLanguage(t, "the refused key form", body, "zh-CN")
	code, body, _ = fetch(t, staff, "POST", u+"?lang=en", url.Values{"csrf": {csrfOf(t, page(staff, u))}, "idem": {"k1"},
		"quota": {"500"}, "per": {"week"}})
	if code != http.StatusBadRequest || !strings.Contains(body, `data-testid="field-error-institution"`) {
		t.Errorf("a key for no institution: %d", code)
	}
	oneLanguage(t, "the refused key form", body, "en")
	page(staff, u+"?lang=zh-CN") // the language chosen is kept: back to Chinese

	// issued: the key on the answer, once, and nowhere after
	form := url.Values{"csrf": {csrfOf(t, page(staff, u))}, "idem": {"k2"}, "institution": {"清华大学招生办"}, "kind": {"高校"},
		"quota": {"５００"}, "per": {"day"}}
	code, body, h := fetch(t, staff, "POST", u, form)
	m := regexp.MustCompile(`data-testid="new-key">(dkk_[^<]+)<`).FindStringSubmatch(body)
	if code != http.StatusOK || m == nil || h.Get("Cache-Control") != "no-store" || !strings.Contains(body, "每天 500 次") {
		t.Fatalf("issue a key: %d %s", code, body)
	}
	key := m[1]
	if n := strings.Count(body, key); n != 1 {
		t.Errorf("the key is on its answer %d times, want once", n)
	}
	oneLanguage(t, "the new key's answer", body, "zh-CN")
	code, body, h = fetch(t, staff, "POST", u, form) // the same form again (a double click)
	if code != http.StatusSeeOther || h.Get("Location") != "/workspace/institution-keys" || strings.Contains(body, key) {
		t.Errorf("the repeated form: %d %s", code, h.Get("Location"))
	}
	list := page(staff, u)
	if strings.Contains(list, key) || !strings.Contains(list, key[:10]+"…") || !strings.Contains(list, "清华大学招生办") {
		t.Error("the list shows the key, or not its record")
	}
	oneLanguage(t, "the keys' list", list, "zh-CN")
	oneLanguage(t, "the keys' list", page(staff, u+"?lang=en"), "en")
	page(staff, u+"?lang=zh-CN") // the language chosen is kept: back to Chinese
	if strings.Contains(buf.String(), key) || strings.Contains(buf.String(), key[10:]) {
		t.Error("the key is in the log")
	}
	ks, err := e.reg.ListInstitutionKeys(ctx, fixture.Staff)
	if err != nil || len(ks) != 1 || ks[0].Quota != 500 || ks[0].Institution != "清华大学招生办" {
		t.Fatalf("keys: %+v %v", ks, err)
	}
	id := strconv.FormatInt(ks[0].ID, 10)

	// its use, as the registry counts it
	if _, err := e.reg.SpendInstitutionKey(ctx, key, 3); err != nil {
		t.Fatal(err)
	}
	use := page(staff, u+"/"+id)
	if !regexp.MustCompile(`data-testid="key-total">3<`).MatchString(use) || !strings.Contains(use, "已核验") {
		t.Errorf("the key's use: %s", use)
	}
	oneLanguage(t, "the key's use", use, "zh-CN")
	oneLanguage(t, "the key's use", page(staff, u+"/"+id+"?lang=en"), "en")
	page(staff, u+"?lang=zh-CN")
	if code, _, _ := fetch(t, staff, "GET", u+"/99", nil); code != http.StatusNotFound {
		t.Errorf("an unknown key's page: %d", code)
	}

	// an agency: refused the page, the use, the form and the revocation, as over the API
	for _, path := range []string{u, u + "/" + id, u + "/" + id + "?lang=en"} {
		code, body, _ := fetch(t, agency, "GET", path, nil)
		if code != http.StatusForbidden || strings.Contains(body, "清华大学") {
			t.Errorf("agency GET %s = %d", path, code)
		}
		if !strings.Contains(path, "lang=en") {
			oneLanguage(t, "the refusal", body, "zh-CN")
		}
	}
	if code, _, _ := fetch(t, agency, "GET", u+"/"+id+"/revoke/confirm?reason=x", nil); code != http.StatusForbidden {
		t.Errorf("agency GET of the confirmation: %d", code)
	}
	if code, _, _ := fetch(t, staff, "GET", u+"/99/revoke/confirm?reason=x", nil); code != http.StatusNotFound {
		t.Errorf("the confirmation of an unknown key: %d", code)
	}
	_, ws, _ := fetch(t, agency, "GET", e.srv.URL+"/workspace", nil)
	code, _, _ = fetch(t, agency, "POST", u, url.Values{"csrf": {csrfOf(t, ws)}, "idem": {"a1"}, "institution": {"某大学"}, "quota": {"9"}, "per": {"day"}})
	if code != http.StatusForbidden {
		t.Errorf("agency issues a key: %d", code)
	}
	_, ws, _ = fetch(t, agency, "GET", e.srv.URL+"/workspace", nil)
	code, _, _ = fetch(t, agency, "POST", u+"/"+id+"/revoke", url.Values{"csrf": {csrfOf(t, ws)}, "idem": {"a2"}, "reason": {"x"}, "confirm": {"yes"}})
	if code != http.StatusForbidden {
		t.Errorf("agency revokes a key: %d", code)
	}
	if ks, _ := e.reg.ListInstitutionKeys(ctx, fixture.Staff); len(ks) != 1 || ks[0].RevokedAt != nil {
		t.Fatalf("after the agency's posts: %+v", ks)
	}
	// the public signs in first
	if code, _, h := fetch(t, client(t), "GET", u, nil); code != http.StatusSeeOther || h.Get("Location") != "/login" {
		t.Errorf("public GET: %d %s", code, h.Get("Location"))
	}

	// revoking: a post without confirm leads to the confirmation page and changes nothing
	code, _, h = fetch(t, staff, "POST", u+"/"+id+"/revoke", url.Values{"csrf": {csrfOf(t, list)}, "reason": {"合作结束"}})
	if code != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/workspace/institution-keys/"+id+"/revoke/confirm?") {
		t.Fatalf("unconfirmed revocation: %d %s", code, h.Get("Location"))
	}
	confirm := page(staff, e.srv.URL+h.Get("Location"))
	if !strings.Contains(confirm, "请确认：吊销机构密钥") || !strings.Contains(confirm, "合作结束") || !strings.Contains(confirm, key[:10]) {
		t.Fatalf("confirmation page: %s", confirm)
	}
	oneLanguage(t, "the confirmation", confirm, "zh-CN")
	if _, err := e.reg.SpendInstitutionKey(ctx, key, 1); err != nil {
		t.Fatalf("revoked before the confirmation: %v", err)
	}
	code, _, h = fetch(t, staff, "POST", u+"/"+id+"/revoke", url.Values{"csrf": {csrfOf(t, confirm)}, "idem": {"r1"}, "reason": {"合作结束"}, "confirm": {"yes"}})
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "ok=key_revoked") {
		t.Fatalf("confirmed revocation: %d %s", code, h.Get("Location"))
	}
	if _, err := e.reg.SpendInstitutionKey(ctx, key, 1); !revokedKey(err) {
		t.Errorf("the revoked key: %v", err)
	}
	list = page(staff, u+"?ok=key_revoked")
	if !strings.Contains(list, "密钥已吊销。") || !strings.Contains(list, "已吊销") || strings.Contains(list, `data-testid="key-revoke"`) {
		t.Error("the list does not show the key revoked")
	}
	oneLanguage(t, "the keys' list", list, "zh-CN")
}

// TestWebhooksOnThePortal: an agency subscribes a URL (a refused form
// names its field in the page's language; the secret is shown on the
// answer once), sees the delivery attempts, and unsubscribes after a
// confirmation page; another agency neither sees nor ends it, staff see
// every subscription; each page is in one language.
func TestWebhooksOnThePortal(t *testing.T) {
	var hooks *webhooks.Service
	var buf lockedBuffer
	e := newPortalEnvLogging(t, func(s *ledger.Store) web.Options {
		hooks = webhooks.New(s, nil, nil, webhooks.PrivateNetworks()) // the receiver is on loopback
		return web.Options{Webhooks: hooks}
	}, slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	e.stockThisYear(t)
	agencyTok, staffTok := e.tokens(t)
	ctx := context.Background()
	fixture.Agencies(t, e.reg, "310")
	otherTok, _, err := e.reg.CreateToken(ctx, fixture.Staff, ledger.AgencyActor, "310", "")
	if err != nil {
		t.Fatal(err)
	}
	u := e.srv.URL + "/workspace/webhooks"
	agency, other, staff := client(t), client(t), client(t)
	e.signIn(t, agency, agencyTok)
	e.signIn(t, other, otherTok)
	e.signIn(t, staff, staffTok)
	page := func(c *http.Client, path string) string {
		t.Helper()
		code, body, _ := fetch(t, c, "GET", path, nil)
		if code != http.StatusOK {
			t.Fatalf("GET %s = %d", path, code)
		}
		return body
	}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }))
	t.Cleanup(receiver.Close)
	if _, err := hooks.Enqueue(ctx); err != nil { // the dispatcher starts at the log's end
		t.Fatal(err)
	}

	if ws := page(agency, e.srv.URL+"/workspace"); !strings.Contains(ws, `href="/workspace/webhooks"`) {
		t.Error("the agency's workspace does not link to the webhooks")
	}
	list := page(agency, u)
	oneLanguage(t, "the webhooks' page", list, "zh-CN")
	oneLanguage(t, "the webhooks' page", page(agency, u+"?lang=en"), "en")
	page(agency, u+"?lang=zh-CN") // the language chosen is kept: back to Chinese

	n := 0
	for _, tt := range []struct {
		url, action map[string]string // by language: the values typed, echoed on the page
		field       string
		says        map[string]string // by language: what the refusal says
	}{
		{map[string]string{"en": "ftp://example.org/hook", "zh-CN": "网址"}, map[string]string{"en": "certificate.issued", "zh-CN": "certificate.issued"}, "webhook_url",
			map[string]string{"en": "“ftp://example.org/hook” is not a URL", "zh-CN": "“网址”不是可推送的网址"}},
		{map[string]string{"en": receiver.URL, "zh-CN": receiver.URL}, nil, "webhook_actions",
			map[string]string{"en": "Choose at least one event", "zh-CN": "请至少选择一种要推送的事件"}},
		{map[string]string{"en": receiver.URL, "zh-CN": receiver.URL}, map[string]string{"en": "player.registered", "zh-CN": "登记棋手"}, "webhook_actions",
			map[string]string{"en": "“player.registered” is not an event", "zh-CN": "“登记棋手”不是可订阅的事件"}},
	} {
		for _, lang := range []string{"en", "zh-CN"} {
			n++
			form := url.Values{"csrf": {csrfOf(t, page(agency, u))}, "idem": {"bad" + strconv.Itoa(n)}, "webhook_url": {tt.url[lang]}}
			if a := tt.action[lang]; a != "" {
				form.Set("webhook_actions", a)
			}
			code, body, _ := fetch(t, agency, "POST", u+"?lang="+lang, form)
			if code != http.StatusBadRequest || !strings.Contains(body, `data-testid="field-error-`+tt.field+`"`) {
				t.Errorf("%v: %d, want the refusal beside %s", form, code, tt.field)
			}
			if !strings.Contains(body, tt.says[lang]) {
				t.Errorf("%v (%s): the refusal does not say %q", form, lang, tt.says[lang])
			}
			oneLanguage(t, "the refused subscription", body, lang)
		}
	}

	form := url.Values{"csrf": {csrfOf(t, list)}, "idem": {"s1"}, "webhook_url": {receiver.URL + "/hook"},
		"webhook_actions": {"certificate.issued", "certificate.revoked"}}
	code, body, h := fetch(t, agency, "POST", u, form)
	m := regexp.MustCompile(`data-testid="new-secret">([0-9a-f]{64})<`).FindStringSubmatch(body)
	if code != http.StatusOK || m == nil || h.Get("Cache-Control") != "no-store" {
		t.Fatalf("subscribe: %d %s", code, body)
	}
	secret := m[1]
	if n := strings.Count(body, secret); n != 1 {
		t.Errorf("the secret is on its answer %d times, want once", n)
	}
	oneLanguage(t, "the new subscription's answer", body, "zh-CN")
	code, body, h = fetch(t, agency, "POST", u, form) // the same form again
	if code != http.StatusSeeOther || h.Get("Location") != "/workspace/webhooks" || strings.Contains(body, secret) {
		t.Errorf("the repeated form: %d %s", code, h.Get("Location"))
	}
	subs, err := hooks.Subscriptions(ctx, fixture.Agency("110"))
	if err != nil || len(subs) != 1 {
		t.Fatalf("subscriptions: %+v %v", subs, err)
	}
	id := strconv.FormatInt(subs[0].ID, 10)
	list = page(agency, u)
	if strings.Contains(list, secret) || !strings.Contains(list, receiver.URL+"/hook") || !strings.Contains(list, "证书颁发、证书撤销") {
		t.Error("the list shows the secret, or not the subscription")
	}
	if strings.Contains(buf.String(), secret) {
		t.Error("the secret is in the log")
	}

	// a delivery the receiver refuses, and its attempt on the page
	e.issueOneDan(t, e.player.ID)
	if n, err := hooks.Enqueue(ctx); err != nil || n != 1 {
		t.Fatalf("enqueue: %d %v", n, err)
	}
	if _, err := hooks.Deliver(ctx); err != nil {
		t.Fatal(err)
	}
	attempts := page(agency, u+"/"+id)
	if !strings.Contains(attempts, "HTTP 503") || !strings.Contains(attempts, "待重试") {
		t.Errorf("the attempts: %s", attempts)
	}
	oneLanguage(t, "the attempts", attempts, "zh-CN")
	oneLanguage(t, "the attempts", page(agency, u+"/"+id+"?lang=en"), "en")
	page(agency, u+"?lang=zh-CN")

	// another agency sees none of it and cannot end it; staff see it
	if l := page(other, u); strings.Contains(l, receiver.URL) {
		t.Error("another agency sees the subscription")
	}
	if code, body, _ := fetch(t, other, "GET", u+"/"+id, nil); code != http.StatusNotFound || strings.Contains(body, receiver.URL) {
		t.Errorf("another agency's GET of the attempts: %d", code)
	}
	if code, _, _ := fetch(t, other, "GET", u+"/"+id+"/unsubscribe/confirm", nil); code != http.StatusNotFound {
		t.Errorf("another agency's GET of the confirmation: %d", code)
	}
	code, _, _ = fetch(t, other, "POST", u+"/"+id+"/unsubscribe", url.Values{"csrf": {csrfOf(t, page(other, u))}, "idem": {"o1"}, "confirm": {"yes"}})
	if subs, _ := hooks.Subscriptions(ctx, fixture.Staff); code != http.StatusNotFound || subs[0].Ended {
		t.Errorf("another agency unsubscribes: %d", code)
	}
	if l := page(staff, u); !strings.Contains(l, receiver.URL) || !strings.Contains(l, "北京棋院") {
		t.Error("staff do not see the agency's subscription")
	}
	if code, _, h := fetch(t, client(t), "GET", u, nil); code != http.StatusSeeOther || h.Get("Location") != "/login" {
		t.Errorf("public GET: %d %s", code, h.Get("Location"))
	}

	// unsubscribing, after its confirmation page
	code, _, h = fetch(t, agency, "POST", u+"/"+id+"/unsubscribe", url.Values{"csrf": {csrfOf(t, list)}})
	if code != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/workspace/webhooks/"+id+"/unsubscribe/confirm") {
		t.Fatalf("unconfirmed unsubscription: %d %s", code, h.Get("Location"))
	}
	confirm := page(agency, e.srv.URL+h.Get("Location"))
	if !strings.Contains(confirm, "请确认：退订事件推送") || !strings.Contains(confirm, receiver.URL) {
		t.Fatalf("confirmation: %s", confirm)
	}
	oneLanguage(t, "the confirmation", confirm, "zh-CN")
	code, _, h = fetch(t, agency, "POST", u+"/"+id+"/unsubscribe", url.Values{"csrf": {csrfOf(t, confirm)}, "idem": {"u1"}, "confirm": {"yes"}})
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "ok=webhook_unsubscribed") {
		t.Fatalf("unsubscribe: %d %s", code, h.Get("Location"))
	}
	if subs, _ := hooks.Subscriptions(ctx, fixture.Staff); !subs[0].Ended {
		t.Error("not unsubscribed")
	}
	list = page(agency, u+"?ok=webhook_unsubscribed")
	if !strings.Contains(list, "订阅已退订。") || strings.Contains(list, `data-testid="webhook-unsubscribe"`) {
		t.Error("the list does not show the subscription ended")
	}
}

// TestKeysAndWebhooksInChromium: staff follow the workspace's links in a
// Chinese browser, issue an institution key (read once from its answer),
// revoke it through the confirmation page, then subscribe a URL to two
// kinds of events (ticked boxes) and end the subscription.
func TestKeysAndWebhooksInChromium(t *testing.T) {
	var hooks *webhooks.Service
	e := newPortalEnvWith(t, func(s *ledger.Store) web.Options {
		hooks = webhooks.New(s, nil, nil, webhooks.PrivateNetworks()) // the receiver is on loopback
		return web.Options{Webhooks: hooks}
	})
	_, staffTok := e.tokens(t)
	bg := context.Background()
	ctx := browser(t)
	u := e.srv.URL
	run(t, ctx, "sign in", chromedp.Navigate(u+"/login"),
		chromedp.SendKeys(css(`[data-testid="login-token"]`), staffTok),
		chromedp.Click(css(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="nav-workspace"]`)))

	run(t, ctx, "issue a key", chromedp.Navigate(u+"/workspace"),
		chromedp.Click(css(`[data-testid="institution-keys-link"]`)),
		chromedp.WaitVisible(css(`[data-testid="key-form"]`)),
		chromedp.SendKeys(css(`[data-testid="key-institution"]`), "北京市体育局"),
		chromedp.SendKeys(css(`[data-testid="key-quota"]`), "40"),
		chromedp.SetValue(css(`[data-testid="key-per"]`), "hour"),
		chromedp.Click(css(`[data-testid="key-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="new-key"]`)))
	key := text(t, ctx, `[data-testid="new-key"]`)
	if id, err := e.reg.SpendInstitutionKey(bg, key, 1); err != nil || id == 0 {
		t.Fatalf("the key read from the page: %q %v", key, err)
	}
	if got := text(t, ctx, `[data-testid="key-state"]`); got != "正常" {
		t.Errorf("the new key's state %q", got)
	}
	run(t, ctx, "revoke it", chromedp.SendKeys(css(`[data-testid="key-revoke-reason"]`), "测试结束"),
		chromedp.Click(css(`[data-testid="key-revoke"]`)),
		chromedp.WaitVisible(css(`[data-testid="confirm-heading"]`)),
		chromedp.Click(css(`[data-testid="confirm-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="key-state"]`); !strings.HasPrefix(got, "已吊销") || !strings.Contains(got, "测试结束") {
		t.Errorf("the revoked key's state %q", got)
	}
	if _, err := e.reg.SpendInstitutionKey(bg, key, 1); !revokedKey(err) {
		t.Errorf("the revoked key: %v", err)
	}

	run(t, ctx, "subscribe", chromedp.Navigate(u+"/workspace"),
		chromedp.Click(css(`[data-testid="webhooks-link"]`)),
		chromedp.WaitVisible(css(`[data-testid="webhook-form"]`)),
		chromedp.SendKeys(css(`[data-testid="webhook-url"]`), "https://example.org/hook"),
		chromedp.Click(css(`[data-testid="webhook-action-certificate.issued"]`)),
		chromedp.Click(css(`[data-testid="webhook-action-notice.published"]`)),
		chromedp.Click(css(`[data-testid="webhook-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="new-secret"]`)))
	subs, err := hooks.Subscriptions(bg, fixture.Staff)
	if err != nil || len(subs) != 1 || !slices.Equal(subs[0].Actions, []string{"certificate.issued", "notice.published"}) {
		t.Fatalf("subscriptions: %+v %v", subs, err)
	}
	run(t, ctx, "unsubscribe", chromedp.Click(css(`[data-testid="webhook-unsubscribe"]`)),
		chromedp.WaitVisible(css(`[data-testid="confirm-heading"]`)),
		chromedp.Click(css(`[data-testid="confirm-submit"]`)),
		chromedp.WaitVisible(css(`[data-testid="ok"]`)))
	if got := text(t, ctx, `[data-testid="webhook-state"]`); got != "已退订" {
		t.Errorf("the ended subscription's state %q", got)
	}
}
