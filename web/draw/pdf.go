package draw

import (
	"fmt"
	"strings"

	"github.com/go-pdf/fpdf"
)

// newCJKPDF starts an A4 PDF (orientation "P" or "L") in the language
// that writes Chinese in the embedded TrueType font and ASCII in latinFont
// (see textBox): the certificates' and the audit report's.
func newCJKPDF(orientation string, font []byte, lang, title string) (*fpdf.Fpdf, error) {
	pdf := fpdf.New(orientation, "mm", "A4", "")
	pdf.SetTitle(title, true)
	pdf.SetCreator("dankyu", false)
	pdf.SetLang(lang)
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

// cjkGlyph writes the middle dot of a minority name (阿卜杜·买买提) as
// the katakana middle dot, the one the CJK font has: the Latin font
// writes ASCII only, and Droid Sans Fallback lacks U+00B7.
func cjkGlyph(r rune) rune {
	if r == '\u00b7' {
		return '\u30fb'
	}
	return r
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
	rs := runs(strings.Map(cjkGlyph, text))
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
