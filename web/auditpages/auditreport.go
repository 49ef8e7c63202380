package auditpages

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a-h/templ"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/draw"
	"github.com/dankyu/dankyu/web/kit"
)

// The audit report: an agency's scorecard, findings and ruling as a page to
// print (A4 portrait), a PDF and a CSV, for staff and for the agency itself;
// and the national table's sorting and charts.

// trendYears is how many audit years the trend charts show.
const trendYears = 5

// newAuditReport is the audit as its report shows it, in the page's language.
func newAuditReport(p kit.Page, defs []audit.Definition, a audit.Audit) draw.AuditReport {
	rep := draw.AuditReport{Agency: a.AgencyPrefix, AgencyName: p.AgencyName(a.AgencyPrefix), Year: a.Year, Position: a.Position,
		Period: dateBJ(a.Period.Start) + " – " + dateBJ(a.Period.End.Add(-time.Second))}
	v := auditView{Defs: defs, Audit: &a}
	for i, in := range a.Indicators {
		name := in.Key
		if i < len(defs) && defs[i].Key == in.Key {
			name = indicatorName(p.Lang, defs[i])
		}
		unit := unitOf(defs, in.Key)
		rep.Rows = append(rep.Rows, draw.ReportRow{Key: in.Key, Family: familyName(p.Lang, in.Family), Name: name, Mark: in.Mark,
			Value: formatValue(unit, in.Value), Count: strconv.FormatInt(in.Count, 10), Base: strconv.FormatInt(in.Base, 10),
			Median: formatValue(unit, in.Median), Spread: formatValue(unit, in.Spread)})
	}
	for _, f := range a.Findings {
		rf := draw.ReportFinding{ID: strconv.FormatInt(f.ID, 10), Category: familyName(p.Lang, f.Category),
			Severity: p.T["audit_severity_"+string(f.Severity)], Status: p.T["finding_"+string(f.Status)], Reply: f.Reply}
		if ev, ok := findingEvidence(p, v, f); ok {
			rf.Evidence = ev
		} else {
			rf.Evidence, rf.Data = f.Evidence, true
		}
		rep.Findings = append(rep.Findings, rf)
	}
	rep.Ruling = p.T["audit_no_ruling"]
	if r := a.Ruling; r != nil {
		rep.Ruling = p.T["audit_outcome_"+string(r.Outcome)]
		if r.DanCap != nil {
			rep.Conditions = append(rep.Conditions, p.T["field_dan_cap"]+" "+strconv.Itoa(*r.DanCap))
		}
		if r.KyuCap != nil {
			rep.Conditions = append(rep.Conditions, p.T["field_kyu_cap"]+" "+strconv.Itoa(*r.KyuCap))
		}
		if r.SupervisionUntil != nil {
			rep.Conditions = append(rep.Conditions, p.T["field_supervision_until"]+" "+r.SupervisionUntil.Format(time.DateOnly))
		}
		rep.Measures = r.Measures
		rep.RuledBy = r.RuledBy + " " + kit.ChinaTime(r.RuledAt)
	}
	return rep
}

// reportCSV is the report as CSV (UTF-8 with a BOM, cells safe for a
// spreadsheet): a row per indicator, a row per finding, the ruling's row.
// The first column names the record: indicator, finding or ruling.
func reportCSV(p kit.Page, rep draw.AuditReport) ([]byte, error) {
	rows := [][]string{{"record", p.T["agency"], p.T["year"], "key", p.T["audit_family"], p.T["audit_indicator"], p.T["audit_value"], "mark",
		p.T["audit_count"], "base", p.T["audit_median"], p.T["audit_spread"], p.T["audit_severity"], p.T["status"], p.T["evidence"], p.T["audit_reply"]}}
	y := strconv.Itoa(rep.Year)
	for _, r := range rep.Rows {
		rows = append(rows, []string{"indicator", rep.Agency, y, r.Key, r.Family, r.Name, r.Value, string(r.Mark), r.Count, r.Base, r.Median, r.Spread, "", "", "", ""})
	}
	for _, f := range rep.Findings {
		rows = append(rows, []string{"finding", rep.Agency, y, f.ID, f.Category, "", "", "", "", "", "", "", f.Severity, f.Status, f.Evidence, f.Reply})
	}
	text := strings.Join(append(rep.Conditions, rep.Measures), "; ")
	rows = append(rows, []string{"ruling", rep.Agency, y, strconv.FormatInt(rep.Position, 10), "", "", rep.Ruling, "", "", "", "", "", "", rep.RuledBy, strings.Trim(text, "; "), ""})
	data, err := kit.SpreadsheetCSV(rows)
	if err != nil {
		return nil, fmt.Errorf("audit report csv: %w", err)
	}
	return data, nil
}

// reportView is the printable report with its charts.
type reportView struct {
	Report         draw.AuditReport
	Issued, Trend  string // SVG
	PDFURL, CSVURL string
	BackURL        string
}

// reportOf reads the audit in the path, or answers the request itself.
func (p *Pages) reportOf(w http.ResponseWriter, r *http.Request) (kit.Page, audit.Audit, ledger.Actor, bool) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return kit.Page{}, audit.Audit{}, a, false
	}
	pg := p.Page(w, r, "audit_report")
	agency, year, ok := auditPath(r)
	if !ok {
		p.Refuse(w, r, pg, ledger.ErrNotFound)
		return pg, audit.Audit{}, a, false
	}
	au, err := p.audits.Audit(r.Context(), a, agency, year)
	if err != nil {
		p.Refuse(w, r, pg, err)
		return pg, audit.Audit{}, a, false
	}
	return pg, au, a, true
}

func (p *Pages) report(w http.ResponseWriter, r *http.Request) {
	pg, au, a, ok := p.reportOf(w, r)
	if !ok {
		return
	}
	iss, err := p.audits.Issuance(r.Context(), a, au.Year, trendYears)
	if err != nil {
		p.Refuse(w, r, pg, err)
		return
	}
	base := "/workspace/audit/" + au.AgencyPrefix + "/" + strconv.Itoa(au.Year)
	lang := "?" + url.Values{"lang": {string(pg.Lang)}}.Encode()
	v := reportView{Report: newAuditReport(pg, p.audits.Definitions(), au), PDFURL: base + "/report.pdf" + lang, CSVURL: base + "/report.csv" + lang, BackURL: base,
		Issued: issuedChart(pg, []string{au.AgencyPrefix}, iss), Trend: trendChart(pg, au.AgencyPrefix, iss)}
	p.Render(w, r, http.StatusOK, auditReportPage(pg, v))
}

func (p *Pages) reportCSV(w http.ResponseWriter, r *http.Request) {
	pg, au, _, ok := p.reportOf(w, r)
	if !ok {
		return
	}
	b, err := reportCSV(pg, newAuditReport(pg, p.audits.Definitions(), au))
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	kit.SendCSV(w, fmt.Sprintf("audit-%s-%d.csv", au.AgencyPrefix, au.Year), b)
}

func (p *Pages) reportPDF(w http.ResponseWriter, r *http.Request) {
	pg, au, _, ok := p.reportOf(w, r)
	if !ok {
		return
	}
	rep := newAuditReport(pg, p.audits.Definitions(), au)
	p.SendPDF(w, r, pg, p.font, fmt.Sprintf("audit-%s-%d.pdf", au.AgencyPrefix, au.Year), func(w io.Writer, font []byte) error {
		return draw.AuditReportPDF(w, font, string(pg.Lang), pg.T, rep)
	})
}

// rankSeries are the stacked chart's series: kyu, then 1 to 7 dan (8 dan,
// honorary, with 7).
func rankSeries(p kit.Page) []draw.Series {
	colors := []string{"#b8c7d9", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#e6550d", "#a63603", "#54278f"}
	out := []draw.Series{{Name: p.T["audit_kyu_ranks"], Color: colors[0]}}
	for d := registry.Rank(1); d <= registry.HighestDan; d++ {
		out = append(out, draw.Series{Name: kit.RankName(p.Lang, d), Color: colors[d]})
	}
	return out
}

func rankIndex(r registry.Rank) int {
	if r < 0 {
		return 0
	}
	return int(min(r, registry.HighestDan))
}

// issuedChart is the stacked bars of the agencies' certificates by rank.
func issuedChart(p kit.Page, agencies []string, iss audit.Issuance) string {
	series := rankSeries(p)
	var rows []draw.StackRow
	for _, a := range agencies {
		vals := make([]int, len(series))
		for r, n := range iss.ByRank[a] {
			if r != registry.NoRank {
				vals[rankIndex(r)] += n
			}
		}
		rows = append(rows, draw.StackRow{Label: a, Values: vals})
	}
	return draw.StackedBars(fmt.Sprintf(p.T["audit_chart_issued"], iss.Year), "chart-issued", series, rows)
}

// trendChart is the certificates issued per audit year: one agency's, or
// the nation's when agency is "".
func trendChart(p kit.Page, agency string, iss audit.Issuance) string {
	var years []string
	var vals []int
	for _, y := range iss.Trend {
		years = append(years, strconv.Itoa(y.Year))
		if agency == "" {
			vals = append(vals, y.Total())
		} else {
			vals = append(vals, y.ByAgency[agency])
		}
	}
	name := p.T["audit_national_total"]
	if agency != "" {
		name = agency
	}
	return draw.Trend(p.T["audit_chart_trend"], "chart-trend", years, []draw.TrendLine{{Series: draw.Series{Name: name, Color: "#1d5fa8"}, Values: vals}})
}

// sortAudits orders the national table by a column: "agency" (the prefix),
// "ruling", or an indicator's key (its value); ties by prefix. An unknown
// key keeps the prefix order.
func sortAudits(as []audit.Audit, key string, desc bool) {
	valueOf := func(a audit.Audit) (float64, bool) {
		for _, in := range a.Indicators {
			if in.Key == key {
				return in.Value, true
			}
		}
		return 0, false
	}
	slices.SortStableFunc(as, func(x, y audit.Audit) int {
		c := 0
		switch key {
		case "agency", "":
			c = strings.Compare(x.AgencyPrefix, y.AgencyPrefix)
		case "ruling":
			c = strings.Compare(outcomeOf(x), outcomeOf(y))
		default:
			vx, okx := valueOf(x)
			vy, oky := valueOf(y)
			switch {
			case okx && oky:
				c = cmp.Compare(vx, vy)
			case okx:
				c = 1
			case oky:
				c = -1
			}
		}
		if desc {
			c = -c
		}
		if c == 0 {
			c = strings.Compare(x.AgencyPrefix, y.AgencyPrefix)
		}
		return c
	})
}

// tableSort is the national table's order as the request asks it.
type tableSort struct {
	Key  string
	Desc bool
}

func sortOf(r *http.Request, defs []audit.Definition) tableSort {
	q := r.URL.Query()
	key := q.Get("sort")
	if key != "agency" && key != "ruling" && !slices.ContainsFunc(defs, func(d audit.Definition) bool { return d.Key == key }) {
		key = "agency"
	}
	return tableSort{Key: key, Desc: q.Get("dir") == "desc"}
}

// sortLink is a column header's link: that column, worst (highest) first,
// or the other way when it is already so.
func sortLink(year int, s tableSort, key string) string {
	dir := "desc"
	if key == "agency" || key == "ruling" {
		dir = "asc"
	}
	if s.Key == key {
		dir = "desc"
		if s.Desc {
			dir = "asc"
		}
	}
	return "/workspace/audit?" + url.Values{"year": {strconv.Itoa(year)}, "sort": {key}, "dir": {dir}}.Encode()
}

// sortArrow marks the column the table is sorted by.
func sortArrow(s tableSort, key string) string {
	if s.Key != key {
		return ""
	}
	if s.Desc {
		return " ▼"
	}
	return " ▲"
}

// auditReportCSS lays the report out on A4 portrait; in print only the
// report is shown.
const auditReportCSS = `
@page { size: A4 portrait; margin: 12mm; }
.report { max-width: 186mm; margin: 0 auto; font-size: 10pt; }
.report table { width: 100%; border-collapse: collapse; }
.report th, .report td { border: 0.2mm solid #999; padding: 1mm 1.5mm; vertical-align: top; }
.report .mark-red { color: #b00; font-weight: bold; }
.report .mark-amber { color: #a60; }
.report section.finding { break-inside: avoid; border-top: 0.2mm solid #999; }
.report svg { max-width: 100%; height: auto; }
@media print {
  header, footer, nav, .no-print { display: none !important; }
  body, main { margin: 0; padding: 0; max-width: none; }
  .report { font-size: 9pt; }
  .report h2 { break-after: avoid; }
}
`

// Published is what the agencies' page reads of the year's publication (通报).
type Published interface {
	Publication(ctx context.Context, year int) (audit.Publication, error)
}

// publishedOf is a year's publication (year 0: the latest), nil before one.
func publishedOf(ctx context.Context, s Published, year int) (*audit.Publication, error) {
	if s == nil {
		return nil, nil
	}
	pub, err := s.Publication(ctx, year)
	if le, ok := ledger.AsError(err); ok && le.Reason == audit.ReasonNotPublished {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &pub, nil
}

// LatestPublication is the latest published year's outcomes, for the
// public agencies page; nil before any.
func LatestPublication(ctx context.Context, s Published) (*audit.Publication, error) {
	return publishedOf(ctx, s, 0)
}

// Supervisions is what the agencies' page reads of the audit.
type Supervisions interface {
	Supervisions(ctx context.Context, day time.Time) (map[string]audit.Ruling, error)
}

// SupervisedUntil is, per agency under supervision on now's day (Beijing),
// the period's last day.
func SupervisedUntil(ctx context.Context, s Supervisions, now time.Time) (map[string]string, error) {
	if s == nil {
		return nil, nil
	}
	rs, err := s.Supervisions(ctx, now)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(rs))
	for a, r := range rs {
		if r.SupervisionUntil != nil {
			out[a] = r.SupervisionUntil.Format(time.DateOnly)
		}
	}
	return out, nil
}

// SupervisedText says an agency is under supervision until the day.
func SupervisedText(p kit.Page, until string) string {
	return fmt.Sprintf(p.T["audit_supervised"], until)
}

// markCell is an indicator's value and mark, coloured by its class: written
// directly, as the national table has one for every agency and indicator.
func markCell(p kit.Page, unit string, in audit.Indicator) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		mark := html.EscapeString(string(in.Mark))
		word := html.EscapeString(p.T["audit_mark_"+string(in.Mark)])
		_, err := io.WriteString(w, `<span class="mark mark-`+mark+`" title="`+word+`">`+html.EscapeString(formatValue(unit, in.Value))+" · "+word+"</span>")
		return err
	})
}

// renderWhole renders a page into memory and sends it in one write with
// its length: the national table is large, and written piecemeal it went
// out in many small chunks.
func (p *Pages) renderWhole(w http.ResponseWriter, r *http.Request, code int, c templ.Component) {
	buf, _ := p.pages.Get().(*bytes.Buffer)
	if buf == nil {
		buf = bytes.NewBuffer(make([]byte, 0, 256<<10))
	}
	defer func() {
		if buf.Cap() <= 1<<20 { // a freak page is not kept
			buf.Reset()
			p.pages.Put(buf)
		}
	}()
	if err := c.Render(r.Context(), buf); err != nil {
		p.Fail(w, r, fmt.Errorf("render %s: %w", r.URL.Path, err))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(code)
	_, _ = w.Write(buf.Bytes())
}

// auditRows are the national table's rows, an agency each: its link, its
// ruling and a cell per indicator. Written directly into one buffer, as the
// table has a cell for every agency and indicator.
func auditRows(p kit.Page, v auditView) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		// templ's own buffered writer: the first error is the one reported
		var err error
		write := func(s string) {
			if err == nil {
				_, err = io.WriteString(w, s)
			}
		}
		for _, a := range v.Audits {
			prefix := html.EscapeString(a.AgencyPrefix)
			// the agency by its name (the prefix beside it), fixed at the
			// left while the indicators scroll
			write(`<tr data-testid="audit-row-` + prefix + `"><th scope="row" class="agency-cell" data-testid="audit-agency-` + prefix + `"><a href="` +
				html.EscapeString(string(auditLink(a.AgencyPrefix, a.Year))) + `" data-testid="audit-link-` + prefix + `"><span lang="zh-CN">` +
				html.EscapeString(p.AgencyName(a.AgencyPrefix)) + `</span></a> <span class="muted">` + prefix + `</span></th><td class="ruling-cell" data-testid="audit-ruling-` + prefix + `">`)
			if a.Ruling != nil {
				write(html.EscapeString(p.T["audit_outcome_"+outcomeOf(a)]))
			}
			write(`</td>`)
			if cells, ok := v.Cells[a.AgencyPrefix]; ok {
				write(cells)
			} else {
				write(indicatorCells(p, v.Defs, a))
			}
			write(`</tr>`)
		}
		return err
	})
}

// indicatorCells is the HTML of one agency's indicator cells in the national
// table: a function of its snapshot and the page's language alone.
func indicatorCells(p kit.Page, defs []audit.Definition, a audit.Audit) string {
	units := make(map[string]string, len(defs))
	for _, d := range defs {
		units[d.Key] = d.Unit
	}
	var b strings.Builder
	b.Grow(140 * len(a.Indicators))
	for _, in := range a.Indicators {
		word := p.T["audit_mark_"+string(in.Mark)]
		if word == "" {
			word = string(in.Mark)
		}
		word = html.EscapeString(word)
		mark := html.EscapeString(string(in.Mark))
		b.WriteString(`<td data-testid="cell-` + html.EscapeString(a.AgencyPrefix) + `-` + html.EscapeString(in.Key) + `"><span class="mark mark-` + mark + `" title="` + word + `">` +
			html.EscapeString(formatValue(units[in.Key], in.Value)) + ` · ` + word + `</span></td>`)
	}
	return b.String()
}

// cellCache keeps the national table's indicator cells of opened years, an
// agency each: a snapshot never changes once frozen (its position names it),
// so only the ruling column is written on every request.
type cellCache struct {
	mu sync.Mutex
	m  map[cellKey]string
}

type cellKey struct {
	agency   string
	year     int
	position int64
	lang     kit.Lang
}

// get is the cells of the audits (their snapshots), each drawn once per
// language.
func (c *cellCache) get(p kit.Page, defs []audit.Definition, audits []audit.Audit) map[string]string {
	cells := make(map[string]string, len(audits))
	var missing []audit.Audit
	c.mu.Lock()
	for _, a := range audits {
		if got, ok := c.m[cellKey{a.AgencyPrefix, a.Year, a.Position, p.Lang}]; ok {
			cells[a.AgencyPrefix] = got
		} else {
			missing = append(missing, a)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return cells
	}
	for _, a := range missing {
		cells[a.AgencyPrefix] = indicatorCells(p, defs, a)
	}
	c.mu.Lock()
	if c.m == nil || len(c.m)+len(missing) > 4096 {
		c.m = map[cellKey]string{}
	}
	for _, a := range missing {
		c.m[cellKey{a.AgencyPrefix, a.Year, a.Position, p.Lang}] = cells[a.AgencyPrefix]
	}
	c.mu.Unlock()
	return cells
}

// chartCache keeps the national table's charts of opened years: their
// figures are fixed by the snapshot's position, so a chart drawn once for
// a language, an order of agencies and a trend is the same until then
// (the zero value is empty).
type chartCache struct {
	mu sync.Mutex
	m  map[string][2]string
}

// get draws (or finds) the issuance and trend charts of the table.
func (c *chartCache) get(p kit.Page, agencies []string, trendOf string, iss audit.Issuance) (issued, trend string) {
	if !iss.Snapshot {
		return issuedChart(p, agencies, iss), trendChart(p, trendOf, iss)
	}
	key := strings.Join([]string{strconv.Itoa(iss.Year), strconv.FormatInt(iss.Position, 10), string(p.Lang), trendOf, strings.Join(agencies, ",")}, "|")
	c.mu.Lock()
	got, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return got[0], got[1]
	}
	issued, trend = issuedChart(p, agencies, iss), trendChart(p, trendOf, iss)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= 512 {
		c.m = map[string][2]string{}
	}
	c.m[key] = [2]string{issued, trend}
	c.mu.Unlock()
	return issued, trend
}
