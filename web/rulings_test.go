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

// TestOverdueNoticesAndBulkRuling: staff see a notice held open past its
// end by objections, flagged once overdue, with when it proceeds at the
// ruling deadline and identical objections folded into one row, and
// dismiss its ticked objections with one ruling, which issues the
// certificate.
func TestOverdueNoticesAndBulkRuling(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	_, staffTok := e.tokens(t)
	ctx := context.Background()
	agency := fixture.Agency("110")
	p := fixture.Player(t, e.reg, "110", "钱七", "3d", "1980-02-02", 7)
	app, err := e.cs.Apply(ctx, agency, "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "4d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "4d", p.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if app, err = e.cs.Approve(ctx, agency, "", app.ID); err != nil {
		t.Fatal(err)
	}
	form := url.Values{}
	for i := range 5 {
		o, err := e.cs.LodgeObjection(ctx, "", certs.ObjectionInput{NoticeID: app.NoticeID, Name: "刷", Contact: fmt.Sprint(i), Reason: "spam",
			Address: fmt.Sprintf("198.51.%d.1", i)})
		if err != nil {
			t.Fatal(err)
		}
		form.Add("objection", fmt.Sprint(o.ID))
	}
	e.clock.Advance(7*24*time.Hour + 4*24*time.Hour) // four days past the end: overdue (72 h)
	c := client(t)
	e.signIn(t, c, staffTok)
	_, page, _ := fetch(t, c, "GET", e.srv.URL+"/workspace?lang=en", nil)
	// the five identical objections are one fold, listed once; the notice says when it proceeds regardless
	for _, want := range []string{`data-testid="overdue-notice"`, `data-testid="overdue-flag"`, `data-testid="bulk-ruling-form"`,
		`data-testid="overdue-proceeds"`, `data-testid="folded-count">(+4 identical`} {
		if !strings.Contains(page, want) {
			t.Fatalf("workspace lacks %s", want)
		}
	}
	form.Set("csrf", csrfOf(t, page))
	form.Set("ruling", "duplicates")
	code, _, hdr := fetch(t, c, "POST", fmt.Sprintf("%s/workspace/notices/%d/dismissals", e.srv.URL, app.NoticeID), form)
	if code != http.StatusSeeOther || !strings.Contains(hdr.Get("Location"), "ok=ruled") {
		t.Fatalf("bulk ruling: %d %s", code, hdr.Get("Location"))
	}
	n, err := e.cs.GetNotice(ctx, app.NoticeID)
	if err != nil || n.Status != certs.NoticeIssued || n.CertificateNumber == "" {
		t.Fatalf("notice after the bulk ruling: %+v %v", n, err)
	}
	_, page, _ = fetch(t, c, "GET", e.srv.URL+"/workspace", nil)
	if strings.Contains(page, `data-testid="overdue-notice"`) {
		t.Fatal("the notice is still listed as overdue")
	}
}
