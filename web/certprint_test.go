package web_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web"
)

// needTools skips (or, on CI, fails) a test when a command it reads
// documents with is missing.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed; .ci/run installs it", tool)
			}
			t.Skipf("%s is not installed (apt-get install poppler-utils zbar-tools)", tool)
		}
	}
	if _, err := os.Stat(web.DefaultCertificateFont); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("certificate font: %v; .ci/run installs fonts-droid-fallback", err)
		}
		t.Skipf("certificate font: %v (apt-get install fonts-droid-fallback)", err)
	}
}

// issueOneDan applies for and approves 1 dan for the player, which issues
// the certificate at once, and returns it.
func (e *portalEnv) issueOneDan(t *testing.T, playerID int64) certs.Certificate {
	t.Helper()
	ctx := context.Background()
	agency := fixture.Agency("110")
	app, err := e.cs.Apply(ctx, agency, "", certs.ApplicationInput{PlayerID: playerID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", playerID)})
	if err != nil {
		t.Fatal(err)
	}
	if app, err = e.cs.Approve(ctx, agency, "", app.ID); err != nil {
		t.Fatal(err)
	}
	v, err := e.cs.Verify(ctx, app.CertificateNumber)
	if err != nil || !v.Found {
		t.Fatalf("verify %q: %v %v", app.CertificateNumber, v, err)
	}
	return v.Certificate
}

// pdfText is pdftotext's reading of a PDF, and the QR codes zbarimg finds
// on its pages rendered by pdftoppm, one per line.
func pdfText(t *testing.T, pdf []byte) (text string, qr []string) {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "c.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", in, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	if b, err := exec.Command("pdftoppm", "-png", "-r", "100", in, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, b)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "page*.png"))
	if len(pages) == 0 {
		t.Fatal("pdftoppm made no page")
	}
	for _, pg := range pages {
		b, err := exec.Command("zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", pg).Output()
		if err != nil {
			t.Fatalf("zbarimg %s: %v", filepath.Base(pg), err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			qr = append(qr, strings.TrimSpace(l))
		}
	}
	return string(out), qr
}

// TestCertificatePDF: a certificate's PDF holds the Chinese name, rank,
// number, issuer and eligibility as text, and its QR code decodes to the
// verification page of its number; the printable page is A4 landscape;
// only staff and the numbering agency may print; a year's certificates of
// an agency come as one PDF, a page each.
func TestCertificatePDF(t *testing.T) {
	needTools(t, "pdftotext", "pdftoppm", "zbarimg")
	e := newPortalEnv(t)
	e.stockThisYear(t)
	agencyTok, staffTok := e.tokens(t)
	c1 := e.issueOneDan(t, e.player.ID)
	other := fixture.Player(t, e.reg, "110", "李四", "", "1985-06-01", 1)
	c2 := e.issueOneDan(t, other.ID)
	// without a sealer the QR code holds the certificate's link alone
	verifyURL := func(n string) string { return e.srv.URL + "/c/" + n + "/" }

	agency := client(t)
	e.signIn(t, agency, agencyTok)
	tests := []struct {
		name     string
		path     string
		contains []string
		qr       []string
	}{
		{"one certificate in Chinese", "/certificates/" + c1.Number + "/pdf",
			[]string{"王小明", c1.Number, "中国围棋协会", "业余围棋段位证书", "1段", c1.IssueDate.Format("2006年1月2日"), "北京棋院", "扫码核验",
				"经审核", "特发此证", "男", "1949年12月31日", "**** 002X", "会长", "秘书长", "公章"},
			[]string{verifyURL(c1.Number)}},
		{"one certificate in English", "/certificates/" + c1.Number + "/pdf?lang=en",
			[]string{"王小明", c1.Number, "Chinese Weiqi Association", "Dan Certificate", "1 dan", "Male", "31 December 1949", "President"},
			[]string{verifyURL(c1.Number)}},
		{"the year's certificates of the agency", "/workspace/certificates.pdf?lang=zh-CN&year=" + c1.IssueDate.Format("2006"),
			[]string{"王小明", "李四", c1.Number, c2.Number},
			[]string{verifyURL(c1.Number), verifyURL(c2.Number)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body, h := fetch(t, agency, "GET", e.srv.URL+tt.path, nil)
			if code != http.StatusOK || h.Get("Content-Type") != "application/pdf" {
				t.Fatalf("GET %s = %d %s: %.300s", tt.path, code, h.Get("Content-Type"), body)
			}
			text, qr := pdfText(t, []byte(body))
			for _, s := range tt.contains {
				if !strings.Contains(text, s) {
					t.Errorf("PDF text lacks %q:\n%s", s, text)
				}
			}
			if len(qr) != len(tt.qr) {
				t.Fatalf("QR codes %q, want %d", qr, len(tt.qr))
			}
			for i := range qr {
				if !strings.HasPrefix(qr[i], tt.qr[i]) || len(qr[i]) != len(tt.qr[i])+20 {
					t.Errorf("QR code %q, want %q and a token", qr[i], tt.qr[i])
				}
			}
		})
	}

	// the printable page: A4 landscape by its print stylesheet, the QR image and the PDF link
	code, page, _ := fetch(t, agency, "GET", e.srv.URL+"/certificates/"+c1.Number, nil)
	if code != http.StatusOK {
		t.Fatalf("printable page: %d", code)
	}
	for _, s := range []string{`data-testid="certificate-sheet"`, "王小明", c1.Number, "/static/certificate.css", "/certificates/" + c1.Number + "/qr.png"} {
		if !strings.Contains(page, s) {
			t.Errorf("printable page lacks %q", s)
		}
	}
	if _, css := get(t, e.srv.URL+"/static/certificate.css"); !strings.Contains(css, "size: A4 landscape") || !strings.Contains(css, "@media print") {
		t.Errorf("certificate stylesheet: %s", css)
	}
	if code, png, _ := fetch(t, agency, "GET", e.srv.URL+"/certificates/"+c1.Number+"/qr.png", nil); code != http.StatusOK || !strings.HasPrefix(png, "\x89PNG") {
		t.Errorf("QR image: %d", code)
	}
	// the QR image holds the link's token: the public is sent to sign in
	if code, _, _ := fetch(t, client(t), "GET", e.srv.URL+"/certificates/"+c1.Number+"/qr.png", nil); code != http.StatusSeeOther {
		t.Errorf("QR image for the public: %d", code)
	}

	// who may print: the public signs in first, another province's agency is refused, staff may
	ctx := context.Background()
	if _, err := e.reg.CreateAgency(ctx, ledger.Actor{Kind: ledger.StaffActor, Name: "li"}, "", registry.AgencyInput{Prefix: "310", Name: "上海市棋院"}); err != nil {
		t.Fatal(err)
	}
	shTok, _, err := e.reg.CreateToken(ctx, ledger.Actor{Kind: ledger.SystemActor, Name: "test"}, ledger.AgencyActor, "310", "")
	if err != nil {
		t.Fatal(err)
	}
	shanghai, staff := client(t), client(t)
	e.signIn(t, shanghai, shTok)
	e.signIn(t, staff, staffTok)
	for _, tt := range []struct {
		name string
		c    *http.Client
		path string
		code int
	}{
		{"public", client(t), "/certificates/" + c1.Number + "/pdf", http.StatusSeeOther},
		{"other province", shanghai, "/certificates/" + c1.Number + "/pdf", http.StatusForbidden},
		{"other province's year", shanghai, "/workspace/certificates.pdf?agency=110", http.StatusOK}, // its own: none
		{"staff", staff, "/certificates/" + c1.Number + "/pdf", http.StatusOK},
		{"staff, a year of 110", staff, "/workspace/certificates.pdf?agency=110", http.StatusOK},
		{"unknown number", staff, "/certificates/110990001/pdf", http.StatusNotFound},
		{"malformed number", staff, "/certificates/12/pdf", http.StatusBadRequest},
	} {
		if code, body, _ := fetch(t, tt.c, "GET", e.srv.URL+tt.path, nil); code != tt.code {
			t.Errorf("%s: GET %s = %d, want %d: %.200s", tt.name, tt.path, code, tt.code, body)
		}
	}
}

// TestCertificateFontMissing: without the font the PDF is refused with a
// page that names the font and how to install it.
func TestCertificateFontMissing(t *testing.T) {
	e := newPortalEnvWith(t, func(*ledger.Store) web.Options { return web.Options{CertificateFont: "/nonexistent/font.ttf"} })
	e.stockThisYear(t)
	agencyTok, _ := e.tokens(t)
	c := e.issueOneDan(t, e.player.ID)
	agency := client(t)
	e.signIn(t, agency, agencyTok)
	code, body, _ := fetch(t, agency, "GET", e.srv.URL+"/certificates/"+c.Number+"/pdf", nil)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "/nonexistent/font.ttf") || !strings.Contains(body, "fonts-droid-fallback") {
		t.Errorf("PDF without its font = %d: %.500s", code, body)
	}
}

// TestVoidCertificateNotPrinted: the agency's list offers 打印 · PDF for a
// valid certificate only and marks a revoked one void; a revoked number's
// print URLs answer the 作废 page (410), never a certificate.
func TestVoidCertificateNotPrinted(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	agencyTok, _ := e.tokens(t)
	valid := e.issueOneDan(t, e.player.ID)
	other := fixture.Player(t, e.reg, "110", "李四", "", "1985-06-01", 1)
	revoked := e.issueOneDan(t, other.ID)
	if _, err := e.cs.Revoke(context.Background(), fixture.Staff, "", revoked.Number, "成绩作假"); err != nil {
		t.Fatal(err)
	}
	agency := client(t)
	e.signIn(t, agency, agencyTok)
	_, page, _ := fetch(t, agency, "GET", e.srv.URL+"/workspace?lang=zh-CN", nil)
	if !strings.Contains(page, `href="/certificates/`+valid.Number+`/pdf"`) {
		t.Errorf("the list offers no PDF of the valid certificate %s", valid.Number)
	}
	if strings.Contains(page, `href="/certificates/`+revoked.Number+`/pdf"`) || strings.Contains(page, `href="/certificates/`+revoked.Number+`"`) {
		t.Errorf("the list offers to print the revoked certificate %s", revoked.Number)
	}
	if !strings.Contains(page, `data-testid="application-void"`) || !strings.Contains(page, "已撤销，作废，不可打印") {
		t.Error("the list does not mark the revoked certificate void")
	}
	for _, path := range []string{"/certificates/" + revoked.Number, "/certificates/" + revoked.Number + "/pdf"} {
		code, body, h := fetch(t, agency, "GET", e.srv.URL+path+"?lang=zh-CN", nil)
		if code != http.StatusGone || h.Get("Content-Type") == "application/pdf" || !strings.Contains(body, `data-testid="certificate-void"`) ||
			!strings.Contains(body, "作废") || !strings.Contains(body, "已被撤销") || !strings.Contains(body, "成绩作假") {
			t.Errorf("GET %s = %d %s: %.300s", path, code, h.Get("Content-Type"), body)
		}
	}
}

// TestMinorHolderNamedOnlyByClaimant: a certificate is found by its bare
// number, but a minor holder's name is shown only when the claimant gives
// it and it matches (or comes through the paper's link); an adult's name
// is shown as before.
func TestMinorHolderNamedOnlyByClaimant(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	minor := fixture.Player(t, e.reg, "110", "林小棋", "", fixture.BirthDate(e.clock.Now(), 12), 1)
	c := e.issueOneDan(t, minor.ID)
	adult := e.issueOneDan(t, e.player.ID)
	for _, tt := range []struct {
		name, query string
		shown       bool
		contains    []string
	}{
		{"a minor's bare number", "number=" + c.Number, false, []string{`data-testid="verify-holder-withheld"`, "未满 18 周岁", `data-status="valid"`}},
		{"a minor, his name given", "number=" + c.Number + "&name=" + url.QueryEscape(" 林小棋 "), true, []string{`data-testid="verify-claim-match"`}},
		{"a minor, another name", "number=" + c.Number + "&name=" + url.QueryEscape("林大棋"), false, []string{`data-testid="verify-claim-mismatch"`}},
		{"an adult's bare number", "number=" + adult.Number, true, []string{`data-testid="verify-holder"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, page := get(t, e.srv.URL+"/verify?lang=zh-CN&"+tt.query)
			if code != http.StatusOK {
				t.Fatalf("GET /verify?%s = %d", tt.query, code)
			}
			holder := c.PlayerName
			if strings.Contains(tt.query, adult.Number) {
				holder = adult.PlayerName
			}
			// the name given is echoed in the form: look at the verdict only
			verdict := page[strings.Index(page, `data-testid="verify-result"`):]
			if got := strings.Contains(verdict, holder); got != tt.shown {
				t.Errorf("holder %q shown: %v, want %v", holder, got, tt.shown)
			}
			if !tt.shown && strings.Contains(verdict, "/players/"+strconv.FormatInt(minor.ID, 10)) {
				t.Error("the withheld holder's player page is linked")
			}
			for _, s := range tt.contains {
				if !strings.Contains(page, s) {
					t.Errorf("page lacks %q", s)
				}
			}
		})
	}
	// the JSON answer withholds it alike
	_, js := get(t, e.srv.URL+"/verify/proof?number="+c.Number)
	if strings.Contains(js, c.PlayerName) || !strings.Contains(js, `"holder_withheld":true`) {
		t.Errorf("/verify/proof of a minor's bare number: %.400s", js)
	}
	if _, js := get(t, e.srv.URL+"/verify/proof?number="+c.Number+"&name="+url.QueryEscape(c.PlayerName)); !strings.Contains(js, c.PlayerName) {
		t.Errorf("/verify/proof with the minor's name: %.400s", js)
	}
}
