package web

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/go-pdf/fpdf"
	qrcode "github.com/skip2/go-qrcode"

	"github.com/dankyu/dankyu/certs"
)

// certSheet is one certificate as printed: the certificate, the words of
// the page's language, the body that applied and its verification URL.
type certSheet struct {
	Cert      certs.Certificate
	Applicant string
	VerifyURL string
}

// certFontFamily names the TrueType font the PDF embeds (subset).
const certFontFamily = "cjk"

// writeCertificatePDF writes the sheets as one A4 landscape PDF, a page
// each, in the language of t: the holder's name, rank, number, issue date,
// issuer, applicant, athlete-grade eligibility and a QR code of the
// verification URL. font is a TrueType font with the Chinese glyphs.
func writeCertificatePDF(w io.Writer, font []byte, p Page, sheets []certSheet) error {
	pdf, err := newCJKPDF("L", font, p, p.T["print_pdf_title"])
	if err != nil {
		return fmt.Errorf("certificate: %w", err)
	}
	pdf.SetAutoPageBreak(false, 0)
	for i, s := range sheets {
		if err := certPage(pdf, p, s, fmt.Sprintf("qr%d", i)); err != nil {
			return err
		}
	}
	if len(sheets) == 0 {
		pdf.AddPage()
		pdf.SetFont(certFontFamily, "", 16)
		pdf.SetXY(20, 100)
		pdf.CellFormat(257, 10, p.T["print_none"], "", 0, "C", false, 0, "")
	}
	if err := pdf.Output(w); err != nil {
		return fmt.Errorf("write certificate PDF: %w", err)
	}
	return nil
}

func certPage(pdf *fpdf.Fpdf, p Page, s certSheet, qrName string) error {
	c := s.Cert
	pdf.AddPage()
	const pageW = 297.0
	// a double border, as on the stock
	pdf.SetDrawColor(150, 30, 30)
	pdf.SetLineWidth(1.2)
	pdf.Rect(10, 10, pageW-20, 190, "D")
	pdf.SetLineWidth(0.3)
	pdf.Rect(14, 14, pageW-28, 182, "D")

	pdf.SetTextColor(150, 30, 30)
	textBox(pdf, 20, 28, pageW-40, 10, p.T["association"], 20, "C")
	title := p.T["print_title_dan"]
	if c.Kind == certs.KyuSeries {
		title = p.T["print_title_kyu"]
	}
	textBox(pdf, 20, 42, pageW-40, 17, title, 34, "C")
	pdf.SetTextColor(20, 20, 20)
	statement := strings.NewReplacer("{name}", c.PlayerName, "{rank}", rankName(p.Lang, c.Rank), "{issuer}", p.T["association"]).
		Replace(p.T["print_statement"])
	textBox(pdf, 20, 66, pageW-40, 8, statement, 16, "C")

	rows := [][2]string{
		{p.T["holder"], c.PlayerName},
		{p.T["rank"], rankName(p.Lang, c.Rank)},
		{p.T["cert_number"], c.Number},
		{p.T["issue_date"], c.IssueDate.Format("2006-01-02")},
		{p.T["issued_by"], p.T["association"]},
		{p.T["applied_by"], s.Applicant},
		{p.T["athlete_grade"], p.T["grade_"+string(c.AthleteGrade)]},
	}
	if c.Status != certs.CertValid {
		rows = append(rows, [2]string{p.T["status"], p.T["verify_"+string(c.Status)]})
	}
	y := 88.0
	pdf.SetLineWidth(0.2)
	pdf.SetDrawColor(20, 20, 20)
	for _, r := range rows {
		textBox(pdf, 35, y, 43, 10, r[0], 13, "L")
		textBox(pdf, 80, y, 108, 10, r[1], 15, "L")
		pdf.Line(80, y+10, 190, y+10)
		y += 12
	}

	png, err := qrcode.Encode(s.VerifyURL, qrcode.Medium, 512)
	if err != nil {
		return fmt.Errorf("QR code of %s: %w", s.VerifyURL, err)
	}
	opts := fpdf.ImageOptions{ImageType: "PNG"}
	pdf.RegisterImageOptionsReader(qrName, opts, bytes.NewReader(png))
	pdf.ImageOptions(qrName, 205, 86, 60, 60, false, opts, 0, s.VerifyURL)
	textBox(pdf, 190, 148, 90, 6, p.T["print_scan"], 11, "C")
	textBox(pdf, 190, 155, 90, 5, s.VerifyURL, 8, "C")
	pdf.LinkString(190, 155, 90, 5, s.VerifyURL)
	return pdf.Error()
}

// latinFont is the PDF's built-in font for runs of ASCII: the CJK font
// may lack Latin letters and digits (Droid Sans Fallback does).
const latinFont = "Helvetica"

// run is a stretch of text in one font.
type run struct {
	latin bool
	text  string
}

// runs splits text into stretches of ASCII and of everything else.
func runs(text string) []run {
	var out []run
	for _, r := range text {
		latin := r < 0x80
		if n := len(out); n > 0 && out[n-1].latin == latin {
			out[n-1].text += string(r)
			continue
		}
		out = append(out, run{latin: latin, text: string(r)})
	}
	return out
}

func setRunFont(pdf *fpdf.Fpdf, r run, size float64) {
	if r.latin {
		pdf.SetFont(latinFont, "", size)
	} else {
		pdf.SetFont(certFontFamily, "", size)
	}
}

func runsWidth(pdf *fpdf.Fpdf, rs []run, size float64) float64 {
	w := 0.0
	for _, r := range rs {
		setRunFont(pdf, r, size)
		w += pdf.GetStringWidth(r.text)
	}
	return w
}

// textBox writes text in the box at (x, y) of width w and height h,
// aligned L or C, at size points or smaller until it fits, each run in
// its font.
func textBox(pdf *fpdf.Fpdf, x, y, w, h float64, text string, size float64, align string) {
	rs := runs(text)
	width := runsWidth(pdf, rs, size)
	for size > 5 && width > w {
		size -= 0.5
		width = runsWidth(pdf, rs, size)
	}
	if align == "C" {
		x += (w - width) / 2
	}
	for _, r := range rs {
		setRunFont(pdf, r, size)
		rw := pdf.GetStringWidth(r.text)
		pdf.SetXY(x, y)
		pdf.CellFormat(rw, h, r.text, "", 0, "L", false, 0, "")
		x += rw
	}
}
