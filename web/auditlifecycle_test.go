package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestAuditYearLifecycleOnThePortal: staff can only preview the running
// year (opening it is a form error), the preview is labelled in both
// languages; after the year ends and opens, a fail is ruled, the agency
// appeals on its audit page (a blank reason a form error), staff uphold it;
// the year is published (early, with a note, while Shanghai's reply period
// runs), and the public agencies page shows the 通报 signed out, in one
// language each.
func TestAuditYearLifecycleOnThePortal(t *testing.T) {
	e := newAuditEnv(t)
	agencyTok, staffTok := e.tokens(t)
	agency, staff := client(t), client(t)
	e.signIn(t, agency, agencyTok)
	e.signIn(t, staff, staffTok)
	y := strconv.Itoa(e.year)
	base := e.srv.URL + "/workspace/audit"
	post := func(c *http.Client, page, path string, form url.Values) (int, string) {
		t.Helper()
		_, p, _ := fetch(t, c, "GET", e.srv.URL+page, nil)
		form.Set("csrf", csrfOf(t, p))
		code, body, _ := fetch(t, c, "POST", e.srv.URL+path, form)
		return code, body
	}

	// the running year: opening refused as a form error, a preview labelled
	code, body := post(staff, "/workspace/audit?year="+y, "/workspace/audit", url.Values{"year": {y}})
	if code != http.StatusBadRequest && code != http.StatusConflict && code != http.StatusPreconditionFailed || !strings.Contains(body, `data-testid="form-error"`) ||
		!strings.Contains(body, "预览") {
		t.Fatalf("opening the running year: %d", code)
	}
	if code, _ := post(staff, "/workspace/audit?year="+y, "/workspace/audit/preview", url.Values{"year": {y}}); code != http.StatusSeeOther {
		t.Fatalf("preview: %d", code)
	}
	for _, tt := range []struct{ lang, word string }{{"zh-CN", "预览："}, {"en", "Preview:"}} {
		for _, path := range []string{"?year=" + y, "/110/" + y} {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			_, page, _ := fetch(t, staff, "GET", base+path+sep+"lang="+tt.lang, nil)
			if !strings.Contains(page, `data-testid="audit-preview-banner"`) || !strings.Contains(page, tt.word) || strings.Contains(page, `data-testid="rule-form"`) {
				t.Errorf("%s %s: no preview banner %q, or a ruling form", tt.lang, path, tt.word)
			}
		}
	}

	// opened after its end: a fail; Beijing appeals, staff uphold
	e.openYear(t)
	page110 := "/workspace/audit/110/" + y
	if code, _ := post(staff, page110, page110+"/ruling", url.Values{"outcome": {"fail"}, "note": {"记录不全"}}); code != http.StatusSeeOther {
		t.Fatalf("ruling: %d", code)
	}
	_, page, _ := fetch(t, agency, "GET", e.srv.URL+page110, nil)
	if !strings.Contains(page, `data-testid="appeal-form"`) || !strings.Contains(page, `data-testid="ruling-final"`) {
		t.Fatal("no appeal form on the agency's audit page within the reply period")
	}
	code, body = post(agency, page110, page110+"/appeal", url.Values{"reason": {"  "}})
	if code != http.StatusBadRequest || !strings.Contains(body, `data-testid="form-error"`) || !strings.Contains(body, "复议理由") && !strings.Contains(body, "理由") {
		t.Fatalf("a blank appeal: %d", code)
	}
	if code, _ := post(agency, page110, page110+"/appeal", url.Values{"reason": {"成绩改动均经裁判长签字"}}); code != http.StatusSeeOther {
		t.Fatalf("appeal: %d", code)
	}
	_, page, _ = fetch(t, staff, "GET", e.srv.URL+page110+"?lang=zh-CN", nil)
	if !strings.Contains(page, `data-testid="appeal-decide-form"`) || !strings.Contains(page, "复议待决定") || strings.Contains(page, `data-testid="rule-form"`) {
		i := strings.Index(page, `data-testid="ruling"`)
		t.Fatalf("staff see no pending appeal to decide (or a second ruling form): %s", page[max(i, 0):])
	}
	if code, _ := post(staff, page110, page110+"/appeal/decision", url.Values{"decision": {"uphold"}, "decision_note": {"维持"}}); code != http.StatusSeeOther {
		t.Fatalf("decision: %d", code)
	}
	if _, page, _ = fetch(t, agency, "GET", e.srv.URL+page110+"?lang=zh-CN", nil); !strings.Contains(page, "复议决定：维持原结论") || strings.Contains(page, `data-testid="appeal-form"`) {
		t.Fatal("the agency does not see the appeal upheld")
	}

	// published: Shanghai's ruling is not final yet, so only early, with a note
	page310 := "/workspace/audit/310/" + y
	if code, _ := post(staff, page310, page310+"/ruling", url.Values{"outcome": {"fail"}}); code != http.StatusSeeOther {
		t.Fatalf("ruling Shanghai: %d", code)
	}
	yearPage := "/workspace/audit?year=" + y
	if code, body := post(staff, yearPage, "/workspace/audit/publish", url.Values{"year": {y}}); code < 400 || !strings.Contains(body, `data-testid="form-error"`) {
		t.Fatalf("publishing with a ruling not final: %d", code)
	}
	if code, _ := post(staff, yearPage, "/workspace/audit/publish", url.Values{"year": {y}, "early": {"on"}, "note": {"上海复议期未满，先行通报"}}); code != http.StatusSeeOther {
		t.Fatalf("publish: %d", code)
	}
	public := client(t)
	for _, tt := range []struct{ lang, title, fail string }{{"zh-CN", y + " 年度年审结果通报", "不通过"}, {"en", "Audit outcomes " + y, "Fail"}} {
		code, page, _ := fetch(t, public, "GET", e.srv.URL+"/agencies?lang="+tt.lang, nil)
		if code != http.StatusOK || !strings.Contains(page, `data-testid="audit-publication"`) || !strings.Contains(page, tt.title) ||
			!strings.Contains(page, `data-testid="outcome-110"`) || !strings.Contains(page, tt.fail) {
			t.Errorf("%s: the agencies page without the publication (%d)", tt.lang, code)
		}
		for _, s := range otherLanguage(interfaceText(t, page, tt.lang), tt.lang) {
			t.Errorf("%s agencies page shows %q", tt.lang, s)
		}
	}
	// the workspace's audit pages of the closed year, each in one language
	for _, lang := range []string{"zh-CN", "en"} {
		for _, v := range []struct {
			c    *http.Client
			path string
		}{{staff, yearPage}, {staff, page110}, {agency, page110}} {
			sep := "?"
			if strings.Contains(v.path, "?") {
				sep = "&"
			}
			_, page, _ := fetch(t, v.c, "GET", e.srv.URL+v.path+sep+"lang="+lang, nil)
			for _, s := range otherLanguage(interfaceText(t, page, lang), lang) {
				t.Errorf("%s page %s shows %q", lang, v.path, s)
			}
		}
	}
}
