package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/note"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// paperEnv is a portal whose printed certificates are sealed with the
// log's key, and the services behind it.
type paperEnv struct {
	srv     *httptest.Server
	reg     *registry.Service
	cs      *certs.Service
	ts      *tournaments.Service
	clock   *fixture.Clock
	keyFile string
}

func newPaperEnv(t *testing.T) *paperEnv {
	t.Helper()
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clock := fixture.TodayClock(t)
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	skey, vkey, err := note.GenerateKey(rand.Reader, ledger.DefaultOrigin)
	if err != nil {
		t.Fatal(err)
	}
	notary, err := ledger.NewNotary(skey, vkey, ledger.NotaryOptions{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	tree := notary.Signer(pool, true).WithPublicActions(certs.PublicLogActions()...)
	h, err := web.New(ctx, store, reg, cs, ts, nil, web.Options{Log: tree, Sealer: notary})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	keyFile := filepath.Join(t.TempDir(), "log.vkey")
	if err := os.WriteFile(keyFile, []byte(vkey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fixture.Agencies(t, reg, "110")
	now := clock.Now()
	fixture.StockThrough(t, cs, "110", now, now.Add(30*24*time.Hour), 10, 10)
	return &paperEnv{srv: srv, reg: reg, cs: cs, ts: ts, clock: clock, keyFile: keyFile}
}

// issue takes a certificate of rank for p through its whole path: a
// tournament result (6 dan: a national result, applied by staff), the
// approval, for 4 dan and above the notice's period, then the sweep.
func (e *paperEnv) issue(t *testing.T, p registry.Player, rank string) certs.Certificate {
	t.Helper()
	ctx := context.Background()
	actor, in := fixture.Agency("110"), certs.ApplicationInput{PlayerID: p.ID, TargetRank: rank, Basis: "tournament"}
	if rank == "6d" {
		actor, in.Basis, in.EventID = fixture.Staff, "national_result", fixture.National(t, e.ts, e.cs, false, p.ID)
	} else {
		in.EventID = fixture.Earned(t, e.ts, rank, p.ID)
	}
	app, err := e.cs.Apply(ctx, actor, "", in)
	if err != nil {
		t.Fatal(err)
	}
	if app, err = e.cs.Approve(ctx, actor, "", app.ID); err != nil {
		t.Fatal(err)
	}
	if app.NoticeID != 0 {
		n, err := e.cs.GetNotice(ctx, app.NoticeID)
		if err != nil {
			t.Fatal(err)
		}
		e.clock.Set(n.EndsAt.Add(time.Minute))
		if _, err := e.cs.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		if app, err = e.cs.GetApplication(ctx, actor, app.ID); err != nil {
			t.Fatal(err)
		}
	}
	v, err := e.cs.Verify(ctx, app.CertificateNumber)
	if err != nil || !v.Found {
		t.Fatalf("%s for %s: %+v %v", rank, p.Name, app, err)
	}
	return v.Certificate
}

// staffClient is a browser session signed in as staff.
func (e *paperEnv) staffClient(t *testing.T) *http.Client {
	t.Helper()
	tok, _, err := e.reg.CreateToken(context.Background(), ledger.Actor{Kind: ledger.SystemActor, Name: "test"}, ledger.StaffActor, "", "li")
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	_, page := httpGet(t, c, e.srv.URL+"/login")
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no csrf field on /login")
	}
	resp, err := c.PostForm(e.srv.URL+"/login", url.Values{"csrf": {m[1]}, "token": {tok}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", resp.StatusCode)
	}
	return c
}

func httpGet(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// readPDF is what pdftotext reads of a PDF, and the QR codes zbarimg finds
// on its pages rendered to PNG by pdftoppm.
func readPDF(t *testing.T, pdf []byte) (text string, qr []string) {
	t.Helper()
	for _, tool := range []string{"pdftotext", "pdftoppm", "zbarimg"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed; .ci/run installs it", tool)
			}
			t.Skipf("%s is not installed (apt-get install poppler-utils zbar-tools)", tool)
		}
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "c.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", in, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	if b, err := exec.Command("pdftoppm", "-png", "-r", "150", in, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
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

// dankyu runs the CLI and returns its exit status and output.
func dankyu(args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb, func(string) string { return "" })
	return code, out.String() + errb.String()
}

// TestPrintedCertificateVerifiesOffline: the certificate PDF an
// association hands out — new and reissued; 1, 4 and 6 dan; in Chinese
// and English — reads back the holder's name, gender, birth date and ID
// tail, the customary wording, signature lines and seal, 补发 with the
// number replaced; its QR code decodes to the certificate's link and a
// seal that `dankyu certificate verify-offline` checks with the log's key
// alone, while a tampered seal fails; with --server the current status
// comes through the log, and after revoking it says revoked; a revoked or
// replaced number's print URL gives the 作废 page, not a certificate.
func TestPrintedCertificateVerifiesOffline(t *testing.T) {
	e := newPaperEnv(t)
	ctx := context.Background()
	zhang := fixture.Player(t, e.reg, "110", "张伟", "", "1985-06-01", 1)
	li := fixture.Player(t, e.reg, "110", "李明轩", "3d", "1990-05-01", 2)
	ouyang := fixture.Player(t, e.reg, "110", "欧阳思远", "3d", "1979-02-03", 3)
	first := e.issue(t, zhang, "1d")
	reissued, err := e.cs.Reissue(ctx, fixture.Staff, "", first.Number, "遗失补办")
	if err != nil {
		t.Fatal(err)
	}
	four, six := e.issue(t, li, "4d"), e.issue(t, ouyang, "6d")
	staff := e.staffClient(t)

	tail := func(p registry.Player) string { return p.IDNumber[len(p.IDNumber)-4:] }
	type paper struct {
		name   string
		c      certs.Certificate
		p      registry.Player
		rank   map[string]string // by language
		gender map[string]string
	}
	papers := []paper{
		{"1 dan, reissued", reissued, zhang, map[string]string{"zh-CN": "1段", "en": "1 dan"}, map[string]string{"zh-CN": "男", "en": "Male"}},
		{"4 dan", four, li, map[string]string{"zh-CN": "4段", "en": "4 dan"}, map[string]string{"zh-CN": "男", "en": "Male"}},
		{"6 dan", six, ouyang, map[string]string{"zh-CN": "6段", "en": "6 dan"}, map[string]string{"zh-CN": "男", "en": "Male"}},
	}
	wording := map[string][]string{
		"zh-CN": {"中国围棋协会", "业余围棋段位证书", "经审核", "达到业余围棋", "水平，特发此证", "会长（签字）", "秘书长（签字）", "（公章）", "扫码核验本证书", "证件号码后四位"},
		"en":    {"Chinese Weiqi Association", "Amateur Weiqi Dan Certificate", "Having been examined", "hereby awarded", "President", "Secretary-General", "(Seal)", "Scan to verify"},
	}
	birth := map[string]func(registry.Player) string{
		"zh-CN": func(p registry.Player) string { d := p.BirthDate; return d.Format("2006年1月2日") },
		"en":    func(p registry.Player) string { return p.BirthDate.Format("2 January 2006") },
	}
	seals := map[string]string{}
	for _, pp := range papers {
		for _, lang := range []string{"zh-CN", "en"} {
			t.Run(pp.name+" "+lang, func(t *testing.T) {
				code, body := httpGet(t, staff, e.srv.URL+"/certificates/"+pp.c.Number+"/pdf?lang="+lang)
				if code != http.StatusOK || !strings.HasPrefix(body, "%PDF") {
					t.Fatalf("PDF of %s = %d: %.300s", pp.c.Number, code, body)
				}
				text, qr := readPDF(t, []byte(body))
				flat := strings.Join(strings.Fields(text), " ")
				want := append([]string{pp.p.Name, pp.c.Number, pp.rank[lang], pp.gender[lang], birth[lang](pp.p), "**** " + tail(pp.p)}, wording[lang]...)
				if pp.c.Replaces != "" {
					want = append(want, map[string]string{"zh-CN": "补发", "en": "REISSUE"}[lang], first.Number)
				}
				for _, s := range want {
					if !strings.Contains(flat, s) && !strings.Contains(text, s) {
						t.Errorf("PDF text lacks %q:\n%s", s, text)
					}
				}
				if strings.Contains(text, pp.p.IDNumber) {
					t.Error("the PDF prints the whole identity number")
				}
				if pp.c.Replaces == "" && strings.Contains(flat, map[string]string{"zh-CN": "补发", "en": "REISSUE"}[lang]) {
					t.Error("a first issue is marked as a reissue")
				}
				if len(qr) != 1 {
					t.Fatalf("QR codes %q, want one", qr)
				}
				link, seal, ok := strings.Cut(qr[0], "#")
				if !ok || !strings.HasPrefix(link, e.srv.URL+"/c/"+pp.c.Number+"/") || !strings.HasPrefix(seal, "DKC1.") {
					t.Fatalf("QR %q: want the certificate's link, '#' and its seal", qr[0])
				}
				seals[pp.c.Number] = qr[0]

				// offline: the CLI checks the seal with the kept key alone
				code, out := dankyu("certificate", "verify-offline", "--key", e.keyFile, qr[0])
				if code != 0 {
					t.Fatalf("verify-offline: exit %d\n%s", code, out)
				}
				for _, s := range []string{"signature: good", pp.c.Number, pp.p.Name, pp.rank["zh-CN"], pp.c.IssueDate.Format("2006-01-02"), "not checked online"} {
					if !strings.Contains(out, s) {
						t.Errorf("verify-offline output lacks %q:\n%s", s, out)
					}
				}
			})
		}
	}

	// a tampered seal fails: a changed byte of the signed body, or of the signature
	qr := seals[four.Number]
	link, seal, _ := strings.Cut(qr, "#")
	s, err := certs.ParseSeal(qr)
	if err != nil {
		t.Fatal(err)
	}
	if s.Rank != 4 || s.Holder != "李明轩" || s.Basis != certs.Tournament {
		t.Errorf("seal of the 4 dan: %+v", s.Seal)
	}
	forged := s.Seal
	forged.Rank = 7
	raw := []byte(seal)
	if i := len(raw) - 20; raw[i] == 'A' { // a base64 character of the signature
		raw[i] = 'B'
	} else {
		raw[i] = 'A'
	}
	for name, bad := range map[string]string{
		"another rank under the signature": link + "#" + certs.SealText(forged.Body(), s.Signature),
		"a changed signature":              link + "#" + string(raw),
	} {
		if code, out := dankyu("certificate", "verify-offline", "--key", e.keyFile, bad); code != 1 || !strings.Contains(out, "signature") {
			t.Errorf("%s: exit %d\n%s", name, code, out)
		}
	}

	// online: valid now, through the log; the link shows the status
	if code, out := dankyu("certificate", "verify-offline", "--key", e.keyFile, "--server", e.srv.URL, qr); code != 0 || !strings.Contains(out, "VALID now") {
		t.Fatalf("online check of a valid certificate: exit %d\n%s", code, out)
	}
	if code, page := httpGet(t, http.DefaultClient, link); code != http.StatusOK || !strings.Contains(page, "李明轩") || !strings.Contains(page, `data-status="valid"`) {
		t.Errorf("the QR's link = %d: %.400s", code, page)
	}
	if code, _ := httpGet(t, http.DefaultClient, e.srv.URL+"/c/"+four.Number+"/AAAAAAAAAAAAAAAAAAAA"); code != http.StatusNotFound {
		t.Errorf("a guessed link = %d, want 404", code)
	}

	// revoked since printing: the seal still checks offline, the online check says revoked
	if _, err := e.cs.Revoke(ctx, fixture.Staff, "", four.Number, "成绩作假"); err != nil {
		t.Fatal(err)
	}
	if code, out := dankyu("certificate", "verify-offline", "--key", e.keyFile, "--server", e.srv.URL, qr); code != 1 || !strings.Contains(out, "REVOKED") {
		t.Errorf("online check of a revoked certificate: exit %d\n%s", code, out)
	}
	if code, out := dankyu("certificate", "verify-offline", "--key", e.keyFile, qr); code != 0 || !strings.Contains(out, "signature: good") {
		t.Errorf("offline check of a revoked certificate's seal: exit %d\n%s", code, out)
	}

	// a revoked or replaced number's print URLs give the 作废 page, never a certificate
	for _, n := range []string{four.Number, first.Number} {
		for _, path := range []string{"/certificates/" + n, "/certificates/" + n + "/pdf", "/certificates/" + n + "/qr.png"} {
			code, page := httpGet(t, staff, e.srv.URL+path+"?lang=zh-CN")
			if code != http.StatusGone || !strings.Contains(page, `data-testid="certificate-void"`) || !strings.Contains(page, "作废") ||
				strings.HasPrefix(page, "%PDF") || strings.Contains(page, "certificate-sheet") {
				t.Errorf("GET %s = %d: %.400s", path, code, page)
			}
		}
	}
	if _, page := httpGet(t, staff, e.srv.URL+"/certificates/"+first.Number); !strings.Contains(page, reissued.Number) {
		t.Errorf("the void page of a replaced number does not name its replacement %s", reissued.Number)
	}
}
