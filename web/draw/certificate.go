package draw

import (
	"bytes"
	"fmt"
	"io"
	"strings"

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
	// Reissue is the mark of a reissue (补发), "" on a first issue;
	// ReissueNote names the number it replaces.
	Reissue, ReissueNote string
	// Signatures are the labels of the signature lines (会长, 秘书长).
	Signatures []string
	SealIssuer string // the issuer's name in the seal's area
	Seal       string // the words under it (公章)
	SealDate   string // the date written under the seal
	Scan       string // the line under the QR code
	QRText     string // what the QR code holds: the link, then '#' and the signed seal
	Link       string // the link printed under the QR code
}

// certFontFamily names the TrueType font the PDF embeds (subset).
const certFontFamily = "cjk"

// CertificatesPDF writes the sheets as one A4 landscape PDF, a page each:
// the issuer, the title, the statement, the holder's rows, the signature
// lines and the seal's area, and a QR code of the link and seal. font is a
// TrueType font with the Chinese glyphs; lang and title are the
// document's; none is the one line of a PDF without a sheet.
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

// The page's regions, in mm on A4 landscape (297 × 210): the text
// column on the left, the QR code and the seal on the right.
const (
	pageW      = 297.0
	labelX     = 32.0
	labelW     = 40.0
	valueX     = 74.0
	valueW     = 112.0
	rowH       = 8.6
	qrX, qrY   = 212.0, 70.0
	qrSize     = 52.0
	sealCX     = 238.0
	sealCY     = 164.0
	sealRadius = 19.0
	// minValueSize is as small as a value is written: a longer one wraps
	// onto a second line instead of shrinking out of sight.
	minValueSize = 10.0
)

var (
	red   = [3]int{150, 30, 30}
	black = [3]int{20, 20, 20}
	grey  = [3]int{110, 110, 110}
)

func color(pdf *fpdf.Fpdf, c [3]int) {
	pdf.SetTextColor(c[0], c[1], c[2])
	pdf.SetDrawColor(c[0], c[1], c[2])
}

func certPage(pdf *fpdf.Fpdf, s CertificateSheet, qrName string) error {
	pdf.AddPage()
	// a double border, as on the stock
	color(pdf, red)
	pdf.SetLineWidth(1.2)
	pdf.Rect(10, 10, pageW-20, 190, "D")
	pdf.SetLineWidth(0.3)
	pdf.Rect(14, 14, pageW-28, 182, "D")

	textBox(pdf, 40, 22, pageW-80, 9, s.Issuer, 18, "C")
	textBox(pdf, 40, 33, pageW-80, 15, s.Title, 32, "C")
	if s.Reissue != "" {
		// the reissue mark, boxed in the top right corner like a stamp
		pdf.SetLineWidth(0.8)
		pdf.Rect(238, 22, 38, 14, "D")
		textBox(pdf, 238, 24, 38, 10, s.Reissue, 20, "C")
	}

	// the statement, on up to two lines; a long name wraps, it never shrinks away
	color(pdf, black)
	y := 53.0
	for _, l := range fitLines(pdf, s.Statement, 15, 11, pageW-60, 2) {
		textBox(pdf, 30, y, pageW-60, 8, l.text, l.size, "C")
		y += 8
	}

	y = max(y+3, 72)
	pdf.SetLineWidth(0.2)
	for _, r := range s.Rows {
		color(pdf, grey)
		textBox(pdf, labelX, y, labelW, rowH, r[0], 11, "L")
		color(pdf, black)
		lines := fitLines(pdf, r[1], 13.5, minValueSize, valueW, 2)
		lh := rowH / float64(len(lines))
		for i, l := range lines {
			textBox(pdf, valueX, y+float64(i)*lh, valueW, lh, l.text, l.size, "L")
		}
		pdf.Line(valueX, y+rowH, valueX+valueW, y+rowH)
		y += rowH + 1
	}
	if s.ReissueNote != "" {
		color(pdf, red)
		textBox(pdf, labelX, y+1, valueX+valueW-labelX, 6, s.ReissueNote, 11, "L")
		y += 7
	}

	// the signature lines, under the rows
	color(pdf, black)
	sy := max(y+6, 176.0)
	x := labelX
	for _, label := range s.Signatures {
		textBox(pdf, x, sy, 40, 8, label, 12, "L")
		lx := x + min(runsWidth(pdf, runs(label), 12), 40) + 3
		pdf.Line(lx, sy+7.5, x+78, sy+7.5)
		x += 86
	}

	// the seal's area: a dashed circle over the issuer's name and the date
	color(pdf, red)
	pdf.SetLineWidth(0.4)
	pdf.SetDashPattern([]float64{1.5, 1.2}, 0)
	pdf.Circle(sealCX, sealCY, sealRadius, "D")
	pdf.SetDashPattern(nil, 0)
	textBox(pdf, sealCX-sealRadius+3, sealCY-6, 2*sealRadius-6, 6, s.SealIssuer, 11, "C")
	textBox(pdf, sealCX-sealRadius+3, sealCY+1, 2*sealRadius-6, 6, s.Seal, 10, "C")
	color(pdf, black)
	textBox(pdf, sealCX-30, sealCY+sealRadius+2, 60, 6, s.SealDate, 12, "C")

	if s.QRText != "" {
		png, err := qrcode.Encode(s.QRText, qrcode.Medium, 1024)
		if err != nil {
			return fmt.Errorf("QR code of %s: %w", s.Link, err)
		}
		opts := fpdf.ImageOptions{ImageType: "PNG"}
		pdf.RegisterImageOptionsReader(qrName, opts, bytes.NewReader(png))
		pdf.ImageOptions(qrName, qrX, qrY, qrSize, qrSize, false, opts, 0, s.Link)
		textBox(pdf, qrX-15, qrY+qrSize+1, qrSize+30, 6, s.Scan, 10, "C")
		color(pdf, grey)
		textBox(pdf, qrX-20, qrY+qrSize+7, qrSize+40, 4, s.Link, 6.5, "C")
		pdf.LinkString(qrX-20, qrY+qrSize+7, qrSize+40, 4, s.Link)
	}
	return pdf.Error()
}

// line is one line of text at the size it is written.
type line struct {
	text string
	size float64
}

// fitLines is text at size, or smaller down to least, on as few lines
// as fit in w, at most n: the largest size at which it fits on n lines
// (at least, the last line takes the rest and textBox shrinks it).
func fitLines(pdf *fpdf.Fpdf, text string, size, least, w float64, n int) []line {
	var wrapped []string
	s := size
	for ; s >= least; s -= 0.5 {
		if runsWidth(pdf, runs(text), s) <= w {
			return []line{{text, s}}
		}
		if wrapped = wrapText(pdf, text, s, w); len(wrapped) <= n {
			break
		}
	}
	s = max(s, least)
	if len(wrapped) > n {
		sep := ""
		if strings.Contains(text, " ") {
			sep = " "
		}
		wrapped = append(wrapped[:n-1], strings.Join(wrapped[n-1:], sep))
	}
	out := make([]line, len(wrapped))
	for i, l := range wrapped {
		out[i] = line{l, s}
	}
	return out
}
