package web

import (
	"fmt"
	"strings"

	"github.com/go-pdf/fpdf"
)

// newCJKPDF starts an A4 PDF (orientation "P" or "L") in the page's
// language that writes Chinese in the embedded TrueType font and ASCII in
// latinFont (see textBox): the certificates' and the audit report's.
func newCJKPDF(orientation string, font []byte, p Page, title string) (*fpdf.Fpdf, error) {
	pdf := fpdf.New(orientation, "mm", "A4", "")
	pdf.SetTitle(title, true)
	pdf.SetCreator("dankyu", false)
	pdf.SetLang(string(p.Lang))
	pdf.AddUTF8FontFromBytes(certFontFamily, "", font)
	if err := pdf.Error(); err != nil {
		return nil, fmt.Errorf("PDF font: %w", err)
	}
	return pdf, nil
}

// wrapText breaks text into lines no wider than w at size points, each
// run measured in its font: at spaces where there are any, else (Chinese)
// between any two characters.
func wrapText(pdf *fpdf.Fpdf, text string, size, w float64) []string {
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, r := range para {
			next := line + string(r)
			if line != "" && runsWidth(pdf, runs(next), size) > w {
				cut := len(line)
				if i := strings.LastIndexByte(line, ' '); i > 0 && r != ' ' {
					cut = i
				}
				lines = append(lines, strings.TrimRight(line[:cut], " "))
				next = strings.TrimLeft(line[cut:], " ") + string(r)
			}
			line = next
		}
		lines = append(lines, line)
	}
	return lines
}
