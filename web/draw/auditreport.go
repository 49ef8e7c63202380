package draw

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-pdf/fpdf"

	"github.com/dankyu/dankyu/audit"
)

// ReportRow is one indicator of an audit report, worded in the page's
// language.
type ReportRow struct {
	Key, Family, Name, Value, Count, Base, Median, Spread string
	Mark                                                  audit.Mark
}

// ReportFinding is one finding of an audit report; Data says Evidence is
// the records' text (staff's own words) rather than the interface's.
type ReportFinding struct {
	ID, Category, Severity, Status, Evidence, Reply string
	Data                                            bool
}

// AuditReport is what the report's page, PDF and CSV show of one audit,
// worded in the page's language.
type AuditReport struct {
	Agency, AgencyName string
	Year               int
	Period             string
	Position           int64
	Rows               []ReportRow
	Findings           []ReportFinding
	Ruling             string   // the outcome, or that there is none
	Conditions         []string // caps, supervision, measures (measures are data)
	RuledBy            string
	Measures           string
}

// AuditReportPDF writes an agency's audit report as an A4 portrait PDF in
// the language: the scorecard, the findings with the agency's replies, and
// the ruling. words are the page's strings (its headings and labels).
func AuditReportPDF(w io.Writer, font []byte, lang string, words map[string]string, rep AuditReport) error {
	title := words["audit_report"] + " " + strconv.Itoa(rep.Year) + " · " + rep.Agency
	pdf, err := newCJKPDF("P", font, lang, title)
	if err != nil {
		return fmt.Errorf("audit report: %w", err)
	}
	pdf.SetAutoPageBreak(false, 0)
	glyphs := pdfGlyphs()
	const left, width, bottom = 12.0, 186.0, 284.0
	y := 0.0
	newPage := func() {
		pdf.AddPage()
		y = 14
	}
	need := func(h float64) {
		if y+h > bottom {
			newPage()
		}
	}
	line := func(text string, size, h float64) {
		for _, l := range wrapText(pdf, glyphs.Replace(text), size, width) {
			need(h)
			textBox(pdf, left, y, width, h, l, size, "L")
			y += h
		}
	}
	newPage()
	pdf.SetTextColor(150, 30, 30)
	line(words["association"]+" · "+title, 15, 8)
	pdf.SetTextColor(20, 20, 20)
	line(words["agency"]+": "+rep.Agency+" "+rep.AgencyName, 11, 6)
	line(words["audit_period"]+": "+rep.Period+"; "+words["audit_position"]+": "+strconv.FormatInt(rep.Position, 10), 9, 5)
	y += 3

	line(words["audit_indicators"], 12, 7)
	cols := []struct {
		head  string
		w     float64
		align string
	}{{words["audit_family"], 24, "L"}, {words["audit_indicator"], 74, "L"}, {words["audit_value"], 28, "L"},
		{words["audit_count"], 18, "L"}, {words["audit_median"], 22, "L"}, {words["audit_spread"], 20, "L"}}
	// a row is as tall as its longest cell: a long name wraps onto more
	// lines at the row's size rather than shrinking into its neighbour
	const lineH = 4.0
	row := func(cells []string, size float64, mark audit.Mark) {
		lines := make([][]string, len(cols))
		n := 1
		for i, c := range cols {
			lines[i] = wrapText(pdf, glyphs.Replace(cells[i]), size, c.w-1.5)
			n = max(n, len(lines[i]))
		}
		h := float64(n)*lineH + 1
		need(h)
		x := left
		for i, c := range cols {
			switch {
			case i == 2 && mark == audit.Red:
				pdf.SetTextColor(180, 0, 0)
			case i == 2 && mark == audit.Amber:
				pdf.SetTextColor(170, 100, 0)
			default:
				pdf.SetTextColor(20, 20, 20)
			}
			for j, l := range lines[i] {
				textBox(pdf, x, y+0.5+float64(j)*lineH, c.w-1.5, lineH, l, size, c.align)
			}
			x += c.w
		}
		pdf.SetTextColor(20, 20, 20)
		pdf.SetDrawColor(180, 180, 180)
		pdf.Line(left, y+h, left+width, y+h)
		y += h
	}
	heads := make([]string, len(cols))
	for i, c := range cols {
		heads[i] = c.head
	}
	row(heads, 8, "")
	for _, r := range rep.Rows {
		row([]string{r.Family, r.Name, r.Value + " · " + words["audit_mark_"+string(r.Mark)], r.Count, r.Median, r.Spread}, 8, r.Mark)
	}
	y += 4

	need(14)
	line(words["audit_findings"], 12, 7)
	if len(rep.Findings) == 0 {
		line(words["none_yet"], 9, 5)
	}
	for _, f := range rep.Findings {
		need(12)
		line("#"+f.ID+" "+f.Category+" · "+f.Severity+" · "+f.Status, 9, 5)
		line(f.Evidence, 8, 4.5)
		if f.Reply != "" {
			line(words["audit_reply"]+": "+f.Reply, 8, 4.5)
		}
		y += 1.5
	}
	y += 3
	need(14)
	line(words["audit_ruling"], 12, 7)
	line(rep.Ruling, 11, 6)
	for _, c := range rep.Conditions {
		line(c, 9, 5)
	}
	if rep.Measures != "" {
		line(words["field_measures"]+": "+rep.Measures, 9, 5)
	}
	if rep.RuledBy != "" {
		line(rep.RuledBy, 8, 4.5)
	}
	pageNumbers(pdf)
	if err := pdf.Output(w); err != nil {
		return fmt.Errorf("write audit report PDF: %w", err)
	}
	return nil
}

// pageNumbers writes "n / total" at the foot of every page.
func pageNumbers(pdf *fpdf.Fpdf) {
	n := pdf.PageCount()
	for i := 1; i <= n; i++ {
		pdf.SetPage(i)
		textBox(pdf, 12, 288, 186, 4, strconv.Itoa(i)+" / "+strconv.Itoa(n), 7, "C")
	}
}

// pdfGlyphs replaces the punctuation that neither font has (the CJK font
// lacks Latin-1's middle dot and the dashes; the built-in Latin font takes
// ASCII only) with ASCII.
func pdfGlyphs() *strings.Replacer {
	return strings.NewReplacer("·", "|", "–", "-", "—", "-", "→", "->", "≥", ">=", "×", "x")
}
