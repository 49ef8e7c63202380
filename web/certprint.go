package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
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
	// Verify gives the logged events of a certificate: its seal names the
	// log index of its issuance.
	Verify(ctx context.Context, number string) (certs.Verification, error)
}

// Holders gives the holder's details a paper certificate prints.
type Holders interface {
	GetPlayer(ctx context.Context, id int64) (registry.Player, error)
}

// CertificateSealer signs a printed certificate's seal with the event
// log's key (the ledger's Notary), so it verifies offline against /log/key.
type CertificateSealer interface {
	SignStatement(purpose string, body []byte) (ledger.StatementSignature, error)
}

// printPages are the printable certificates: an A4 landscape page to print
// from the browser, the same as a PDF, a year's certificates of an agency
// as one PDF, and the QR code of the certificate's link and seal. A
// revoked or replaced number prints only its void page.
type printPages struct {
	*kit.Site
	certs   Printer
	holders Holders
	sealer  CertificateSealer // nil: the QR code holds the link alone
	links   certLinks
	font    *kit.FontFile
}

// certSheet is one certificate as printed: the certificate, the body that
// applied, the holder's details that tell him from a namesake, and what
// its QR code holds.
type certSheet struct {
	Cert      certs.Certificate
	Applicant string
	Gender    registry.Gender
	BirthDate time.Time
	IDTail    string // the identity number's last four characters
	Link      string // the certificate's online status, with its token
	QRText    string // Link, then '#' and the signed seal ("" without a sealer)
}

func (p *printPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /certificates/{number}", p.sheet)
	mux.HandleFunc("GET /certificates/{number}/pdf", p.pdf)
	mux.HandleFunc("GET /certificates/{number}/qr.png", p.qr)
	mux.HandleFunc("GET /workspace/certificates.pdf", p.yearPDF)
	mux.Handle("GET /static/certificate.css", kit.CSSHandler(certificateCSS))
}

// certificate finds the certificate of the path's number for the signed-in
// actor; the public is sent to sign in, a refusal shown, a certificate no
// longer valid answered with its void page (false: answered).
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
	if c.Status != certs.CertValid {
		pg := p.Page(w, r, "print")
		pg.Title = pg.T["void_title"] + " · " + c.Number
		// 410: the number existed and is void for good
		p.Render(w, r, http.StatusGone, voidPage(pg, c))
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
	s, err := p.sheetOf(r, c)
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	pg := p.Page(w, r, "print")
	pg.Title = c.PlayerName + " · " + c.Number
	s.Applicant = applicantName(pg, c)
	p.Render(w, r, http.StatusOK, certificateSheet(pg, s))
}

func (p *printPages) pdf(w http.ResponseWriter, r *http.Request) {
	c, ok := p.certificate(w, r)
	if !ok {
		return
	}
	s, err := p.sheetOf(r, c)
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	pg := p.Page(w, r, "print")
	s.Applicant = applicantName(pg, c)
	p.writePDF(w, r, pg, "certificate-"+c.Number+".pdf", []certSheet{s})
}

// sheetOf is certificate c as printed: the holder's details, the link to
// its online status and its seal signed with the log's key.
func (p *printPages) sheetOf(r *http.Request, c certs.Certificate) (certSheet, error) {
	ctx := r.Context()
	s := certSheet{Cert: c, Link: p.links.url(p.base(r), c.Number)}
	pl, err := p.holders.GetPlayer(ctx, c.PlayerID)
	if err != nil {
		return certSheet{}, fmt.Errorf("holder of certificate %s: %w", c.Number, err)
	}
	s.Gender, s.BirthDate = pl.Gender, pl.BirthDate
	if id := []rune(strings.TrimSpace(pl.IDNumber)); len(id) >= 4 {
		s.IDTail = string(id[len(id)-4:])
	}
	s.QRText = s.Link
	if p.sealer == nil {
		return s, nil
	}
	v, err := p.certs.Verify(ctx, c.Number)
	if err != nil {
		return certSheet{}, fmt.Errorf("events of certificate %s: %w", c.Number, err)
	}
	if !v.Found || v.UnderReview != nil || len(v.Events) == 0 {
		// a certificate whose record disagrees with its log is not sealed
		return certSheet{}, certs.ReasonUnderReview.New("number", c.Number)
	}
	seal := certs.SealOf(c, v.Events[0].ID-1) // event n is leaf n-1
	sig, err := p.sealer.SignStatement(certs.SealPurpose, seal.Body())
	if err != nil {
		return certSheet{}, fmt.Errorf("seal of certificate %s: %w", c.Number, err)
	}
	s.QRText = s.Link + "#" + certs.SealText(seal.Body(), sig)
	return s, nil
}

// base is the portal's address as users reach it.
func (p *printPages) base(r *http.Request) string {
	return portalBase(p.links.publicURL, r)
}

// portalBase is publicURL, or without it the request's scheme and host.
func portalBase(publicURL string, r *http.Request) string {
	if b := strings.TrimRight(publicURL, "/"); b != "" {
		return b
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
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
		if sheets[i], err = p.sheetOf(r, c); err != nil {
			p.Fail(w, r, err)
			return
		}
		sheets[i].Applicant = applicantName(pg, c)
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
// language: the customary statement, the holder's name, gender, date of
// birth and the last four characters of his identity number (two
// namesakes of one rank hold different papers), rank, number, issue date,
// applicant, athlete-grade eligibility; a reissue marked 补发 with the
// number it replaces; the signature lines and the seal's area.
func printedSheet(p kit.Page, s certSheet) draw.CertificateSheet {
	c := s.Cert
	title := p.T["print_title_dan"]
	if c.Kind == certs.KyuSeries {
		title = p.T["print_title_kyu"]
	}
	rows := [][2]string{
		{p.T["holder"], c.PlayerName},
		{p.T["gender"], sheetGender(p, s.Gender)},
		{p.T["birth_date"], sheetDate(p, s.BirthDate)},
		{p.T["print_id_tail"], idTail(s.IDTail)},
		{p.T["rank"], kit.RankName(p.Lang, c.Rank)},
		{p.T["cert_number"], c.Number},
		{p.T["issue_date"], sheetDate(p, c.IssueDate)},
		{p.T["applied_by"], s.Applicant},
		{p.T["athlete_grade"], p.T["grade_"+string(c.AthleteGrade)]},
	}
	out := draw.CertificateSheet{Issuer: p.T["association"], Title: title, Rows: rows, Scan: p.T["print_scan"],
		QRText: s.QRText, Link: s.Link, Statement: statement(p, c),
		Signatures: []string{p.T["print_sign_president"], p.T["print_sign_secretary"]},
		SealIssuer: p.T["association"], Seal: p.T["print_seal"], SealDate: sheetDate(p, c.IssueDate)}
	if c.Replaces != "" {
		out.Reissue = p.T["print_reissue"]
		out.ReissueNote = strings.ReplaceAll(p.T["print_reissue_note"], "{number}", c.Replaces)
	}
	return out
}

// statement is the certificate's customary sentence in the page's language.
func statement(p kit.Page, c certs.Certificate) string {
	return strings.NewReplacer("{name}", c.PlayerName, "{rank}", kit.RankName(p.Lang, c.Rank), "{issuer}", p.T["association"]).
		Replace(p.T["print_statement"])
}

func sheetGender(p kit.Page, g registry.Gender) string {
	switch g {
	case registry.Male:
		return p.T["print_male"]
	case registry.Female:
		return p.T["print_female"]
	}
	return "—"
}

// sheetDate is a date as a certificate writes it: 2026年11月30日, or 30 November 2026.
func sheetDate(p kit.Page, d time.Time) string {
	if d.IsZero() {
		return "—"
	}
	if p.Lang == kit.English {
		return d.Format("2 January 2006")
	}
	return fmt.Sprintf("%d年%d月%d日", d.Year(), int(d.Month()), d.Day())
}

// idTail is the identity number's last four characters behind a mask:
// never the whole number.
func idTail(tail string) string {
	if tail == "" {
		return "—"
	}
	return "**** " + tail
}

// qr is the QR code of a certificate's link and seal, for the printable
// page: printed only by who may print the certificate, as its token and
// seal are.
func (p *printPages) qr(w http.ResponseWriter, r *http.Request) {
	c, ok := p.certificate(w, r)
	if !ok {
		return
	}
	s, err := p.sheetOf(r, c)
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	png, err := qrcode.Encode(s.QRText, qrcode.Medium, 768)
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, no-store")
	_, _ = w.Write(png)
}

// certificateCSS lays the printable certificate out on A4 landscape; in
// print only the sheet is shown.
const certificateCSS = `
@page { size: A4 landscape; margin: 0; }
.sheet { box-sizing: border-box; width: 297mm; min-height: 210mm; padding: 12mm 20mm; margin: 1em auto;
  border: 1.2mm double #962020; background: #fff; color: #141414; position: relative; }
.sheet .issuer { text-align: center; color: #962020; font-size: 18pt; margin: 4mm 0 0; }
.sheet .reissue { position: absolute; right: 20mm; top: 12mm; border: 0.8mm solid #962020; color: #962020;
  font-size: 20pt; padding: 1mm 4mm; margin: 0; }
.sheet h2 { text-align: center; color: #962020; font-size: 32pt; margin: 3mm 0 5mm; letter-spacing: 0.2em; }
.sheet .statement { text-align: center; font-size: 15pt; margin: 0 0 6mm; }
.sheet dl { display: grid; grid-template-columns: 40mm 112mm; row-gap: 2mm; font-size: 13pt; margin: 0 0 0 12mm; }
.sheet dt { color: #6e6e6e; }
.sheet dd { margin: 0; border-bottom: 0.3mm solid #141414; overflow-wrap: anywhere; }
.sheet .reissue-note { color: #962020; margin: 2mm 0 0 12mm; }
.sheet .signatures { position: absolute; left: 32mm; bottom: 16mm; display: flex; gap: 20mm; font-size: 12pt; }
.sheet .signatures span { display: inline-block; width: 70mm; border-bottom: 0.3mm solid #141414; }
.sheet .seal { position: absolute; right: 40mm; bottom: 14mm; width: 38mm; height: 38mm; border: 0.4mm dashed #962020;
  border-radius: 50%; display: flex; flex-direction: column; align-items: center; justify-content: center; color: #962020; }
.sheet .seal .seal-date { color: #141414; position: relative; top: 14mm; white-space: nowrap; }
.sheet .qr { position: absolute; right: 22mm; top: 62mm; width: 56mm; text-align: center; font-size: 9pt; }
.sheet .qr img { width: 52mm; height: 52mm; }
.sheet .qr .url { word-break: break-all; font-size: 7pt; }
.void { border: 1.2mm solid #962020; padding: 1em 1.5em; margin: 1em auto; max-width: 40em; }
.void .void-mark { color: #962020; font-size: 3em; letter-spacing: 0.3em; margin: 0; }
.void .void-head { font-size: 1.2em; font-weight: bold; }
@media print {
  header, footer, .no-print { display: none !important; }
  body, main { margin: 0; padding: 0; max-width: none; }
  .sheet { margin: 0; width: 297mm; height: 210mm; page-break-after: always; }
}
`
