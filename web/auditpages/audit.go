// Package auditpages is the portal's annual audit (年审): the staff's
// national table of a year's audits, an agency's audit (scorecard,
// drill-down, findings, ruling) with its report (page, PDF, CSV), and the
// supervision the agencies' page shows.
package auditpages

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/kit"
)

// Audits is what the annual audit's pages use.
type Audits interface {
	Definitions() []audit.Definition
	OpenYear(ctx context.Context, actor ledger.Actor, key string, year int) (audit.Opened, error)
	Audit(ctx context.Context, actor ledger.Actor, agency string, year int) (audit.Audit, error)
	ListAudits(ctx context.Context, actor ledger.Actor, year int) ([]audit.Audit, error)
	IndicatorItems(ctx context.Context, actor ledger.Actor, agency string, year int, key string) ([]audit.Item, error)
	AddFinding(ctx context.Context, actor ledger.Actor, key string, in audit.FindingInput) (audit.Finding, error)
	DecideFinding(ctx context.Context, actor ledger.Actor, key string, id int64, confirm bool, note string) (audit.Finding, error)
	ReplyToFinding(ctx context.Context, actor ledger.Actor, key string, id int64, text string) (audit.Finding, error)
	Rule(ctx context.Context, actor ledger.Actor, key string, in audit.RulingInput) (audit.Ruling, error)
	Issuance(ctx context.Context, actor ledger.Actor, year, years int) (audit.Issuance, error)
	Supervisions(ctx context.Context, day time.Time) (map[string]audit.Ruling, error)
	PreviewYear(ctx context.Context, actor ledger.Actor, key string, year int) (audit.Previewed, error)
	Appeal(ctx context.Context, actor ledger.Actor, key string, in audit.AppealInput) (audit.Appeal, error)
	DecideAppeal(ctx context.Context, actor ledger.Actor, key string, in audit.AppealDecision) (audit.Ruling, error)
	PublishYear(ctx context.Context, actor ledger.Actor, key string, in audit.PublishInput) (audit.Publication, error)
	Bootstrap(ctx context.Context, actor ledger.Actor, key string, in audit.BootstrapInput) (audit.Bootstrap, error)
	Published
}

// Pages are the staff's national table of a year's audits, an agency's
// audit (scorecard, drill-down, findings, ruling) and the forms on them.
type Pages struct {
	*kit.Site
	audits Audits
	font   *kit.FontFile // the report PDF's, shared with the certificates'
	charts chartCache
	cells  cellCache
	pages  sync.Pool // renderWhole's buffers
}

// New returns the audit's pages over the site; font is the report PDF's
// (the certificates' too).
func New(site *kit.Site, audits Audits, font *kit.FontFile) *Pages {
	return &Pages{Site: site, audits: audits, font: font}
}

// Routes registers the audit's pages.
func (p *Pages) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /workspace/audit", p.year)
	mux.HandleFunc("GET /workspace/audit.csv", p.Get(p.csv))
	mux.Handle("POST /workspace/audit", p.Post(func(r *http.Request) string { return "/workspace/audit" }, p.failOnYear, p.open))
	mux.Handle("POST /workspace/audit/preview", p.Post(func(r *http.Request) string { return "/workspace/audit" }, p.failOnYear, p.preview))
	mux.Handle("POST /workspace/audit/publish", p.Post(func(r *http.Request) string { return "/workspace/audit" }, p.failOnYear, p.publish))
	p.Confirmed(mux, "/workspace/audit/bootstrap", kit.Confirmation{What: "confirm_bootstrap", Back: func(*http.Request) string { return "/workspace/audit" },
		Labels: map[string]string{"agency": "agency", "stock_year": "audit_bootstrap_stock_year", "note": "audit_bootstrap_note"},
		Subject: func(r *http.Request, pg kit.Page) string {
			return pg.AgencyName(r.URL.Query().Get("agency")) + " · " + r.URL.Query().Get("stock_year")
		}},
		p.PostFields(func(*http.Request) string { return "/workspace/audit" }, p.failBootstrap, p.bootstrap))
	mux.HandleFunc("GET /workspace/audit/{agency}/{year}", p.agency)
	mux.HandleFunc("GET /workspace/audit/{agency}/{year}/{key}", p.items)
	mux.HandleFunc("GET /workspace/audit/{agency}/{year}/report", p.report)
	mux.HandleFunc("GET /workspace/audit/{agency}/{year}/report.pdf", p.reportPDF)
	mux.HandleFunc("GET /workspace/audit/{agency}/{year}/report.csv", p.reportCSV)
	mux.Handle("GET /static/audit-report.css", kit.CSSHandler(auditReportCSS))
	mux.Handle("POST /workspace/audit/{agency}/{year}/findings", p.onAudit(p.addFinding))
	mux.Handle("POST /workspace/audit/{agency}/{year}/findings/{id}", p.onAudit(p.decideFinding))
	mux.Handle("POST /workspace/audit/{agency}/{year}/findings/{id}/reply", p.onAudit(p.reply))
	mux.Handle("POST /workspace/audit/{agency}/{year}/ruling", p.onAudit(p.rule))
	mux.Handle("POST /workspace/audit/{agency}/{year}/appeal", p.onAudit(p.appeal))
	mux.Handle("POST /workspace/audit/{agency}/{year}/appeal/decision", p.onAudit(p.decideAppeal))
}

// auditView is what the audit's pages show.
type auditView struct {
	Year    int
	Defs    []audit.Definition
	Audits  []audit.Audit // the year's table
	Audit   *audit.Audit  // one agency's
	Def     audit.Definition
	Items   []audit.Item // a drill-down
	OK, Err string
	Idem    string
	CSRF    string
	Staff   bool
	Sort    tableSort
	Cells   map[string]string // agency → its indicator cells (HTML)
	Issued  string            // the national table's charts (SVG)
	Trend   string
	Now     time.Time
	// Published is the year's publication (通报), nil before it
	Published *audit.Publication
	// Boot is the first-year decision's form as typed, and its refusal.
	Boot     bootstrapForm
	BootErrs kit.FormErrors
}

// bootstrapForm is the first-year decision as staff type it.
type bootstrapForm struct {
	Agency, StockYear, Note string
}

var agencyPattern = regexp.MustCompile(`^[0-9]{3}$`)

// auditPath is the page of one agency's audit; ok says the path values were sound.
func auditPath(r *http.Request) (agency string, year int, ok bool) {
	agency = r.PathValue("agency")
	year, err := strconv.Atoi(r.PathValue("year"))
	return agency, year, err == nil && agencyPattern.MatchString(agency)
}

// auditYear reads ?year=; without it, the audit year decided last: the one
// that ended on 30 November (in December the year itself).
func (p *Pages) auditYear(r *http.Request) int {
	if y, err := strconv.Atoi(strings.TrimSpace(r.URL.Query().Get("year"))); err == nil {
		return y
	}
	now := p.Now().In(ledger.ChinaTime)
	if now.Month() == time.December {
		return now.Year()
	}
	return now.Year() - 1
}

func (p *Pages) view(w http.ResponseWriter, r *http.Request, a ledger.Actor) auditView {
	return auditView{Defs: p.audits.Definitions(), OK: r.URL.Query().Get("ok"), Idem: kit.RandomHex(12), CSRF: p.FormToken(w, r), Staff: a.IsStaff(),
		Now: p.Now()}
}

func (p *Pages) year(w http.ResponseWriter, r *http.Request) {
	p.showYear(w, r, http.StatusOK, "")
}

func (p *Pages) showYear(w http.ResponseWriter, r *http.Request, code int, errText string) {
	p.showYearWith(w, r, code, func(v *auditView) { v.Err = errText })
}

// showYearWith shows the year's table, set (a refused form's values and
// words) before it is drawn.
func (p *Pages) showYearWith(w http.ResponseWriter, r *http.Request, code int, set func(v *auditView)) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	pg := p.Page(w, r, "audit")
	v := p.view(w, r, a)
	v.Year = p.auditYear(r)
	v.Boot.StockYear = strconv.Itoa(p.Now().In(ledger.ChinaTime).Year() + 1)
	set(&v)
	if y, err := strconv.Atoi(r.PostFormValue("year")); err == nil && r.Method == http.MethodPost {
		v.Year = y
	}
	as, err := p.audits.ListAudits(r.Context(), a, v.Year)
	if err != nil {
		p.Refuse(w, r, pg, err)
		return
	}
	v.Sort = sortOf(r, v.Defs)
	sortAudits(as, v.Sort.Key, v.Sort.Desc)
	v.Audits = as
	if len(as) > 0 && !as[0].Preview {
		if v.Published, err = publishedOf(r.Context(), p.audits, v.Year); err != nil {
			p.Refuse(w, r, pg, err)
			return
		}
	}
	v.Cells = p.cells.get(pg, v.Defs, as)
	if len(as) > 0 {
		iss, err := p.audits.Issuance(r.Context(), a, v.Year, trendYears)
		if err != nil {
			p.Refuse(w, r, pg, err)
			return
		}
		agencies := make([]string, len(as))
		for i, au := range as {
			agencies[i] = au.AgencyPrefix
		}
		trendOf := ""
		if !a.IsStaff() {
			trendOf = a.Agency
		}
		v.Issued, v.Trend = p.charts.get(pg, agencies, trendOf, iss)
	}
	p.renderWhole(w, r, code, auditYearPage(pg, v))
}

// failBootstrap shows the year's page again with the first-year form as
// typed, the refusal beside its field.
func (p *Pages) failBootstrap(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string, err error) {
	p.showYearWith(w, r, code, func(v *auditView) {
		v.Boot = bootstrapForm{Agency: r.PostFormValue("agency"), StockYear: r.PostFormValue("stock_year"), Note: r.PostFormValue("note")}
		v.BootErrs = kit.FieldErrors(kit.LangFrom(w, r), errText, err, "agency", "stock_year", "note")
	})
}

func (p *Pages) bootstrap(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	year, err := kit.FormInt(r, "stock_year")
	if err != nil {
		return kit.Outcome{}, err
	}
	_, err = p.audits.Bootstrap(r.Context(), a, key, audit.BootstrapInput{AgencyPrefix: r.PostFormValue("agency"), StockYear: int(year),
		Note: r.PostFormValue("note")})
	if e, ok := ledger.AsError(err); ok && e.Field == "year" {
		// the form's year is the stock year (its "year" is the table's)
		moved := *e
		moved.Field = "stock_year"
		err = &moved
	}
	return kit.Done("audit_bootstrapped"), err
}

func (p *Pages) failOnYear(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string) {
	p.showYear(w, r, code, errText)
}

func (p *Pages) open(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	year, err := kit.FormInt(r, "year")
	if err != nil {
		return kit.Outcome{}, err
	}
	_, err = p.audits.OpenYear(r.Context(), a, key, int(year))
	return kit.GoTo("/workspace/audit?year=" + strconv.Itoa(int(year)) + "&ok=audit_opened"), err
}

func (p *Pages) preview(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	year, err := kit.FormInt(r, "year")
	if err != nil {
		return kit.Outcome{}, err
	}
	_, err = p.audits.PreviewYear(r.Context(), a, key, int(year))
	return kit.GoTo("/workspace/audit?year=" + strconv.Itoa(int(year)) + "&ok=audit_previewed"), err
}

func (p *Pages) publish(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	year, err := kit.FormInt(r, "year")
	if err != nil {
		return kit.Outcome{}, err
	}
	_, err = p.audits.PublishYear(r.Context(), a, key, audit.PublishInput{Year: int(year), Note: r.PostFormValue("note"),
		Early: r.PostFormValue("early") == "on"})
	return kit.GoTo("/workspace/audit?year=" + strconv.Itoa(int(year)) + "&ok=audit_published"), err
}

func (p *Pages) appeal(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	agency, year, _ := auditPath(r)
	_, err := p.audits.Appeal(r.Context(), a, key, audit.AppealInput{AgencyPrefix: agency, Year: year, Reason: r.PostFormValue("reason")})
	return kit.Done("audit_appealed"), err
}

func (p *Pages) decideAppeal(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	agency, year, _ := auditPath(r)
	d := audit.AppealDecision{AgencyPrefix: agency, Year: year, Uphold: r.PostFormValue("decision") != "change", Note: r.PostFormValue("decision_note")}
	if !d.Uphold {
		in, err := rulingForm(r)
		if err != nil {
			return kit.Outcome{}, err
		}
		d.Ruling = in
	}
	_, err := p.audits.DecideAppeal(r.Context(), a, key, d)
	return kit.Done("appeal_decided"), err
}

func (p *Pages) agency(w http.ResponseWriter, r *http.Request) {
	p.showAgency(w, r, http.StatusOK, "")
}

func (p *Pages) showAgency(w http.ResponseWriter, r *http.Request, code int, errText string) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	pg := p.Page(w, r, "audit")
	agency, year, ok := auditPath(r)
	if !ok {
		p.Refuse(w, r, pg, ledger.ErrNotFound)
		return
	}
	au, err := p.audits.Audit(r.Context(), a, agency, year)
	if err != nil {
		p.Refuse(w, r, pg, err)
		return
	}
	v := p.view(w, r, a)
	v.Year, v.Audit, v.Err = year, &au, errText
	p.Render(w, r, code, auditAgencyPage(pg, v))
}

func (p *Pages) items(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	pg := p.Page(w, r, "audit")
	agency, year, ok := auditPath(r)
	if !ok {
		p.Refuse(w, r, pg, ledger.ErrNotFound)
		return
	}
	key := r.PathValue("key")
	items, err := p.audits.IndicatorItems(r.Context(), a, agency, year, key)
	if err != nil {
		p.Refuse(w, r, pg, err)
		return
	}
	// the page names the audit by its path; IndicatorItems has checked it
	v := p.view(w, r, a)
	v.Year, v.Audit, v.Items = year, &audit.Audit{AgencyPrefix: agency, Year: year}, items
	for _, d := range v.Defs {
		if d.Key == key {
			v.Def = d
			break
		}
	}
	p.Render(w, r, http.StatusOK, auditItemsPage(pg, v))
}

// onAudit wraps a form post of an agency's audit page: back there, or
// there again with the refusal.
func (p *Pages) onAudit(fn kit.Action) http.HandlerFunc {
	back := func(r *http.Request) string {
		agency, year, _ := auditPath(r)
		return "/workspace/audit/" + agency + "/" + strconv.Itoa(year)
	}
	fail := func(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string) {
		p.showAgency(w, r, code, errText)
	}
	return p.Post(back, fail, func(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
		if _, _, ok := auditPath(r); !ok {
			return kit.Outcome{}, ledger.ErrNotFound
		}
		return fn(r, a, key)
	})
}

func (p *Pages) addFinding(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	agency, year, _ := auditPath(r)
	_, err := p.audits.AddFinding(r.Context(), a, key, audit.FindingInput{AgencyPrefix: agency, Year: year,
		Category: audit.Family(r.PostFormValue("category")), Severity: audit.Severity(r.PostFormValue("severity")),
		Evidence: r.PostFormValue("evidence")})
	return kit.Done("finding_added"), err
}

func (p *Pages) decideFinding(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, ok := kit.PathID(r)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	confirm := r.PostFormValue("decision") == "confirm"
	_, err := p.audits.DecideFinding(r.Context(), a, key, id, confirm, r.PostFormValue("note"))
	if confirm {
		return kit.Done("finding_confirmed"), err
	}
	return kit.Done("finding_dismissed"), err
}

func (p *Pages) reply(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, ok := kit.PathID(r)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	_, err := p.audits.ReplyToFinding(r.Context(), a, key, id, r.PostFormValue("reply"))
	return kit.Done("finding_replied"), err
}

func (p *Pages) rule(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	agency, year, _ := auditPath(r)
	in, err := rulingForm(r)
	if err != nil {
		return kit.Outcome{}, err
	}
	in.AgencyPrefix, in.Year = agency, year
	_, err = p.audits.Rule(r.Context(), a, key, in)
	return kit.Done("audit_ruled"), err
}

// rulingForm reads a ruling's fields (the ruling form's, and an appeal
// decision's change).
func rulingForm(r *http.Request) (audit.RulingInput, error) {
	in := audit.RulingInput{Outcome: audit.Outcome(r.PostFormValue("outcome")),
		Measures: r.PostFormValue("measures"), Note: r.PostFormValue("note")}
	for _, c := range []struct {
		field string
		to    **int
	}{{"dan_cap", &in.DanCap}, {"kyu_cap", &in.KyuCap}} {
		if strings.TrimSpace(r.PostFormValue(c.field)) == "" {
			continue
		}
		n, err := kit.FormInt(r, c.field)
		if err != nil {
			return in, err
		}
		v := int(n)
		*c.to = &v
	}
	until, err := audit.ParseSupervisionUntil(strings.TrimSpace(r.PostFormValue("supervision_until")))
	if err != nil {
		return in, err
	}
	in.SupervisionUntil = until
	in.StaffApprovesHighDan = r.PostFormValue("staff_approves_high_dan") == "on"
	return in, nil
}

// indicatorName is an indicator's name in the page's language.
func indicatorName(l kit.Lang, d audit.Definition) string {
	if l == kit.English {
		return d.NameEN
	}
	return d.NameZH
}

func familyName(l kit.Lang, f audit.Family) string {
	zh, en := audit.FamilyWords(f)
	if l == kit.English {
		return en
	}
	return zh
}

// formatValue shows an indicator's value in its unit.
func formatValue(unit string, v float64) string {
	switch unit {
	case "share":
		return strconv.FormatFloat(100*v, 'f', 1, 64) + " %"
	case "per_1000_players":
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	// at most four decimals: a spread of 3.7064999999999997 reads 3.7065
	return strconv.FormatFloat(math.Round(v*1e4)/1e4, 'f', -1, 64)
}

// unitOf is the unit of an indicator key.
func unitOf(defs []audit.Definition, key string) string {
	for _, d := range defs {
		if d.Key == key {
			return d.Unit
		}
	}
	return ""
}

// dateBJ is a moment's date in Beijing.
func dateBJ(t time.Time) string { return t.In(ledger.ChinaTime).Format(time.DateOnly) }

// csv downloads a year's scorecards, one row per agency and indicator, with
// the snapshot's position and each agency's ruling: the table staff keep.
func (p *Pages) csv(w http.ResponseWriter, r *http.Request) error {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return nil
	}
	pg := p.Page(w, r, "audit")
	year := p.auditYear(r)
	as, err := p.audits.ListAudits(r.Context(), a, year)
	if err != nil {
		http.Error(w, p.UserError(r, pg, err), kit.HTTPStatus(err))
		return nil
	}
	defs := p.audits.Definitions()
	rows := [][]string{{pg.T["agency"], pg.T["year"], pg.T["audit_position"], pg.T["audit_family"], "key", pg.T["audit_indicator"],
		pg.T["audit_value"], pg.T["audit_count"], "base", pg.T["audit_median"], pg.T["audit_spread"], "mark", pg.T["audit_ruling"]}}
	for _, au := range as {
		ruling := ""
		if au.Ruling != nil {
			ruling = pg.T["audit_outcome_"+string(au.Ruling.Outcome)]
		}
		for i, in := range au.Indicators {
			name := ""
			if i < len(defs) {
				name = indicatorName(pg.Lang, defs[i])
			}
			rows = append(rows, []string{au.AgencyPrefix, strconv.Itoa(au.Year), strconv.FormatInt(au.Position, 10), familyName(pg.Lang, in.Family), in.Key, name,
				strconv.FormatFloat(in.Value, 'g', -1, 64), strconv.FormatInt(in.Count, 10), strconv.FormatInt(in.Base, 10),
				strconv.FormatFloat(in.Median, 'g', -1, 64), strconv.FormatFloat(in.Spread, 'g', -1, 64), string(in.Mark), ruling})
		}
	}
	data, err := kit.SpreadsheetCSV(rows)
	if err != nil {
		return fmt.Errorf("audit csv %d: %w", year, err)
	}
	kit.SendCSV(w, fmt.Sprintf("audit-%d.csv", year), data)
	return nil
}

// findingEvidence words a finding that a red mark opened from its
// indicator, in the page's language; staff's own findings keep their text.
func findingEvidence(p kit.Page, v auditView, f audit.Finding) (string, bool) {
	if f.Indicator == "" {
		return "", false
	}
	for i, in := range v.Audit.Indicators {
		if in.Key != f.Indicator {
			continue
		}
		name := in.Key
		if i < len(v.Defs) {
			name = indicatorName(p.Lang, v.Defs[i])
		}
		unit := unitOf(v.Defs, in.Key)
		return fmt.Sprintf(p.T["audit_evidence"], name, formatValue(unit, in.Value), in.Count, formatValue(unit, in.Median), formatValue(unit, in.Spread)), true
	}
	return "", false
}

// itemNote words a drill-down item's note where it is the registry's own
// vocabulary (a game's results); other notes are data (an event's name).
func itemNote(p kit.Page, it audit.Item) (string, bool) {
	if it.Kind != "game" || it.Note == "" {
		return "", false
	}
	var out []string
	for _, r := range strings.Split(it.Note, " → ") {
		w, ok := p.T["result_"+r]
		if !ok {
			return "", false
		}
		out = append(out, w)
	}
	return strings.Join(out, " → "), true
}

// provinceOfPrefix names an agency's province by its prefix, in the page's language.
func provinceOfPrefix(l kit.Lang, prefix string) string {
	if pr, ok := registry.ProvinceByPrefix(prefix); ok {
		return kit.ProvinceName(l, pr)
	}
	return prefix
}
