package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/web/draw"
	"github.com/dankyu/dankyu/web/kit"
)

// DefaultCertificateFont is the TrueType font with Chinese glyphs the
// certificate PDFs embed unless Options.CertificateFont says otherwise:
// Debian's fonts-droid-fallback.
const DefaultCertificateFont = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"

// Printer is what the printable certificates take from certification.
type Printer interface {
	CertificateToPrint(ctx context.Context, actor ledger.Actor, number string) (certs.Certificate, error)
	CertificatesOfYear(ctx context.Context, actor ledger.Actor, agency string, year int) ([]certs.Certificate, error)
}

// printPages are the printable certificates: an A4 landscape page to print
// from the browser, the same as a PDF, a year's certificates of an agency
// as one PDF, and the QR code of the verification URL.
type printPages struct {
	*kit.Site
	certs     Printer
	publicURL string // the portal's address as users reach it; empty: the request's host
	font      *kit.FontFile
}

// certSheet is one certificate as printed: the certificate, the body that
// applied and its verification URL.
type certSheet struct {
	Cert      certs.Certificate
	Applicant string
	VerifyURL string
}

func (p *printPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /certificates/{number}", p.sheet)
	mux.HandleFunc("GET /certificates/{number}/pdf", p.pdf)
	mux.HandleFunc("GET /certificates/{number}/qr.png", p.Get(p.qr))
	mux.HandleFunc("GET /workspace/certificates.pdf", p.yearPDF)
	mux.Handle("GET /static/certificate.css", kit.CSSHandler(certificateCSS))
}

// verifyURL is the public verification page of a certificate number.
func (p *printPages) verifyURL(r *http.Request, number string) string {
	base := strings.TrimRight(p.publicURL, "/")
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	return base + "/verify?" + url.Values{"number": {number}}.Encode()
}

// certificate finds the certificate of the path's number for the signed-in
// actor; the public is sent to sign in, a refusal shown (false: answered).
func (p *printPages) certificate(w http.ResponseWriter, r *http.Request) (certs.Certificate, bool) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return certs.Certificate{}, false
	}
	c, err := p.certs.CertificateToPrint(r.Context(), a, r.PathValue("number"))
	if err != nil {
		p.refuse(w, r, err)
		return certs.Certificate{}, false
	}
	return c, true
}

// refuse answers a refusal of the printable pages: not found as any page
// does, another refusal on a page of its own.
func (p *printPages) refuse(w http.ResponseWriter, r *http.Request, err error) {
	if ledger.KindOf(err) == ledger.NotFound {
		p.Fail(w, r, err)
		return
	}
	p.Refuse(w, r, p.Page(w, r, "error"), err)
}

func (p *printPages) sheet(w http.ResponseWriter, r *http.Request) {
	c, ok := p.certificate(w, r)
	if !ok {
		return
	}
	pg := p.Page(w, r, "print")
	pg.Title = c.PlayerName + " · " + c.Number
	p.Render(w, r, http.StatusOK, certificateSheet(pg, certSheet{Cert: c, Applicant: applicantName(pg, c), VerifyURL: p.verifyURL(r, c.Number)}))
}

func (p *printPages) pdf(w http.ResponseWriter, r *http.Request) {
	c, ok := p.certificate(w, r)
	if !ok {
		return
	}
	pg := p.Page(w, r, "print")
	p.writePDF(w, r, pg, "certificate-"+c.Number+".pdf",
		[]certSheet{{Cert: c, Applicant: applicantName(pg, c), VerifyURL: p.verifyURL(r, c.Number)}})
}

// yearPDF is an agency's valid certificates of a year as one PDF, a page
// each, for printing on stock: staff choose the agency, an agency gets its own.
func (p *printPages) yearPDF(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	agency := strings.TrimSpace(q.Get("agency"))
	if a.Kind == ledger.AgencyActor {
		agency = a.Agency
	}
	year, err := strconv.Atoi(strings.TrimSpace(q.Get("year")))
	if err != nil {
		year = p.Now().In(ledger.ChinaTime).Year()
	}
	cs, err := p.certs.CertificatesOfYear(r.Context(), a, agency, year)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	pg := p.Page(w, r, "print")
	sheets := make([]certSheet, len(cs))
	for i, c := range cs {
		sheets[i] = certSheet{Cert: c, Applicant: applicantName(pg, c), VerifyURL: p.verifyURL(r, c.Number)}
	}
	p.writePDF(w, r, pg, fmt.Sprintf("certificates-%s-%d.pdf", agency, year), sheets)
}

func (p *printPages) writePDF(w http.ResponseWriter, r *http.Request, pg kit.Page, name string, sheets []certSheet) {
	printed := make([]draw.CertificateSheet, len(sheets))
	for i, s := range sheets {
		printed[i] = printedSheet(pg, s)
	}
	p.SendPDF(w, r, pg, p.font, name, func(w io.Writer, font []byte) error {
		return draw.CertificatesPDF(w, font, string(pg.Lang), pg.T["print_pdf_title"], pg.T["print_none"], printed)
	})
}

// printedSheet is a certificate as its PDF page words it, in the page's
// language: the holder's name, rank, number, issue date, issuer,
// applicant, athlete-grade eligibility and, unless valid, its status.
func printedSheet(p kit.Page, s certSheet) draw.CertificateSheet {
	c := s.Cert
	title := p.T["print_title_dan"]
	if c.Kind == certs.KyuSeries {
		title = p.T["print_title_kyu"]
	}
	rows := [][2]string{
		{p.T["holder"], c.PlayerName},
		{p.T["rank"], kit.RankName(p.Lang, c.Rank)},
		{p.T["cert_number"], c.Number},
		{p.T["issue_date"], c.IssueDate.Format("2006-01-02")},
		{p.T["issued_by"], p.T["association"]},
		{p.T["applied_by"], s.Applicant},
		{p.T["athlete_grade"], p.T["grade_"+string(c.AthleteGrade)]},
	}
	if c.Status != certs.CertValid {
		rows = append(rows, [2]string{p.T["status"], p.T["verify_"+string(c.Status)]})
	}
	return draw.CertificateSheet{Issuer: p.T["association"], Title: title, Rows: rows, Scan: p.T["print_scan"], VerifyURL: s.VerifyURL,
		Statement: strings.NewReplacer("{name}", c.PlayerName, "{rank}", kit.RankName(p.Lang, c.Rank), "{issuer}", p.T["association"]).
			Replace(p.T["print_statement"])}
}

// qr is the QR code of a certificate number's verification URL, for the
// printable page; it says nothing the number does not.
func (p *printPages) qr(w http.ResponseWriter, r *http.Request) error {
	n, err := certs.ParseNumber(r.PathValue("number"))
	if err != nil {
		p.refuse(w, r, err)
		return nil
	}
	png, err := qrcode.Encode(p.verifyURL(r, n.String()), qrcode.Medium, 512)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write(png)
	return nil
}

// certificateCSS lays the printable certificate out on A4 landscape; in
// print only the sheet is shown.
const certificateCSS = `
@page { size: A4 landscape; margin: 0; }
.sheet { box-sizing: border-box; width: 297mm; min-height: 210mm; padding: 14mm 20mm; margin: 1em auto;
  border: 1.2mm double #962020; background: #fff; color: #141414; position: relative; }
.sheet .issuer { text-align: center; color: #962020; font-size: 20pt; margin: 6mm 0 0; }
.sheet h2 { text-align: center; color: #962020; font-size: 34pt; margin: 4mm 0 6mm; letter-spacing: 0.2em; }
.sheet .statement { text-align: center; font-size: 16pt; margin: 0 0 8mm; }
.sheet dl { display: grid; grid-template-columns: 45mm 110mm; row-gap: 3mm; font-size: 14pt; margin: 0 0 0 20mm; }
.sheet dd { margin: 0; border-bottom: 0.3mm solid #141414; }
.sheet .qr { position: absolute; right: 25mm; top: 92mm; width: 60mm; text-align: center; font-size: 9pt; }
.sheet .qr img { width: 60mm; height: 60mm; }
.sheet .qr .url { word-break: break-all; }
@media print {
  header, footer, .no-print { display: none !important; }
  body, main { margin: 0; padding: 0; max-width: none; }
  .sheet { margin: 0; width: 297mm; height: 210mm; page-break-after: always; }
}
`
