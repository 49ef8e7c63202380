package draw

import (
	"bytes"
	"fmt"
	"io"

	"github.com/go-pdf/fpdf"
	qrcode "github.com/skip2/go-qrcode"
)

// CertificateSheet is one certificate as printed, every word already in
// the page's language.
type CertificateSheet struct {
	Issuer    string      // who issues it, over the title
	Title     string      // 段位证书 or 级位证书
	Statement string      // the sentence that certifies the rank
	Rows      [][2]string // label and value, top to bottom
	Scan      string      // the line under the QR code
	VerifyURL string      // where the QR code and the line under it lead
}

// certFontFamily names the TrueType font the PDF embeds (subset).
const certFontFamily = "cjk"

// CertificatesPDF writes the sheets as one A4 landscape PDF, a page each:
// the issuer, the title, the statement, the rows and a QR code of the
// verification URL. font is a TrueType font with the Chinese glyphs; lang
// and title are the document's; none is the one line of a PDF without a
// sheet.
func CertificatesPDF(w io.Writer, font []byte, lang, title, none string, sheets []CertificateSheet) error {
	pdf, err := newCJKPDF("L", font, lang, title)
	if err != nil {
		return fmt.Errorf("certificate: %w", err)
	}
	pdf.SetAutoPageBreak(false, 0)
	for i, s := range sheets {
		if err := certPage(pdf, s, fmt.Sprintf("qr%d", i)); err != nil {
			return err
		}
	}
	if len(sheets) == 0 {
		pdf.AddPage()
		pdf.SetFont(certFontFamily, "", 16)
		pdf.SetXY(20, 100)
		pdf.CellFormat(257, 10, none, "", 0, "C", false, 0, "")
	}
	if err := pdf.Output(w); err != nil {
		return fmt.Errorf("write certificate PDF: %w", err)
	}
	return nil
}

func certPage(pdf *fpdf.Fpdf, s CertificateSheet, qrName string) error {
	pdf.AddPage()
	const pageW = 297.0
	// a double border, as on the stock
	pdf.SetDrawColor(150, 30, 30)
	pdf.SetLineWidth(1.2)
	pdf.Rect(10, 10, pageW-20, 190, "D")
	pdf.SetLineWidth(0.3)
	pdf.Rect(14, 14, pageW-28, 182, "D")

	pdf.SetTextColor(150, 30, 30)
	textBox(pdf, 20, 28, pageW-40, 10, s.Issuer, 20, "C")
	textBox(pdf, 20, 42, pageW-40, 17, s.Title, 34, "C")
	pdf.SetTextColor(20, 20, 20)
	textBox(pdf, 20, 66, pageW-40, 8, s.Statement, 16, "C")

	y := 88.0
	pdf.SetLineWidth(0.2)
	pdf.SetDrawColor(20, 20, 20)
	for _, r := range s.Rows {
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
	textBox(pdf, 190, 148, 90, 6, s.Scan, 11, "C")
	textBox(pdf, 190, 155, 90, 5, s.VerifyURL, 8, "C")
	pdf.LinkString(190, 155, 90, 5, s.VerifyURL)
	return pdf.Error()
}
