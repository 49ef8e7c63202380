package web

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/kit"
)

// workspace is what an agency's or the staff's page shows.
type workspace struct {
	Actor      ledger.Actor
	Apps       []certs.Application
	Orders     []certs.Order
	Quota      certs.Quota
	Appraisers []certs.Appraiser
	Objections []certs.ObjectionOnNotice
	// Overdue are the notices past their end held open by objections, for
	// staff; those older than OverdueAfter at Now are flagged, and each
	// proceeds RulingDeadline after its end, its unruled objections lapsing.
	Overdue        []certs.Notice
	OverdueAfter   time.Duration
	RulingDeadline time.Duration
	Now            time.Time
	// Submissions are the year's roster reports (the agency's, or all for staff).
	Submissions []certs.RosterSubmission
	// DeclaredHigh are players whose declared rank (4 dan and above, stored
	// before ranks needed certificates) staff must review.
	DeclaredHigh []registry.Player
	// Reviews are valid certificates whose basis was voided, for staff to
	// revoke or keep.
	Reviews []certs.Review
	// Year is this year in Beijing.
	Year int
	// RevokeNumber and RevokeReason are a refused revocation as typed.
	RevokeNumber, RevokeReason string
	// Filter is the applications' filter as typed, with its refusal;
	// More says a next page exists.
	Filter    appFilter
	FilterErr kit.FormErrors
	More      bool
	// TournamentVals are a refused tournament form as typed (nil: none).
	TournamentVals url.Values
	OK             string
	Err            string
	Idem           string
	CSRF           string
}

func (p *certPages) workspacePage(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	p.showWorkspace(w, r, a, http.StatusOK, "")
}

func (p *certPages) showWorkspace(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string) {
	ctx := r.Context()
	ws := workspace{Actor: a, Err: errText, OK: r.URL.Query().Get("ok"), Idem: kit.RandomHex(12), CSRF: p.FormToken(w, r)}
	if code != http.StatusOK {
		ws.OK = ""
		if strings.HasPrefix(r.URL.Path, "/workspace/revoke") {
			ws.RevokeNumber, ws.RevokeReason = r.FormValue("number"), r.FormValue("reason")
		}
		if r.Method == http.MethodPost && r.URL.Path == "/workspace/tournaments" {
			ws.TournamentVals = r.PostForm // every value kept (issue 24)
		}
	}
	var err error
	q, f, ferr := readAppFilter(r, a)
	ws.Filter = f
	if ferr != nil {
		ws.FilterErr = kit.FieldErrors(kit.LangFrom(w, r), p.UserError(r, p.Page(w, r, ""), ferr), ferr, "status", "rank", "from", "to")
		if code == http.StatusOK {
			code = kit.HTTPStatus(ferr)
		}
		q, _, _ = readAppFilter(nil, a) // the unfiltered list under the refused filter
	}
	q.Limit = appPageSize + 1
	if ws.Apps, err = p.certs.ListApplications(ctx, a, q); err != nil {
		p.Fail(w, r, err)
		return
	}
	if len(ws.Apps) > appPageSize {
		ws.Apps, ws.More = ws.Apps[:appPageSize], true
	}
	if ws.Orders, err = p.certs.ListOrders(ctx, a, ""); err != nil {
		p.Fail(w, r, err)
		return
	}
	agency, year := "", p.Now().In(ledger.ChinaTime).Year()
	ws.Year = year
	if a.Kind == ledger.AgencyActor {
		agency = a.Agency
		if ws.Quota, err = p.certs.QuotaOf(ctx, a, agency, year); err != nil {
			p.Fail(w, r, err)
			return
		}
	}
	if ws.Submissions, err = p.certs.RosterSubmissions(ctx, a, year); err != nil {
		p.Fail(w, r, err)
		return
	}
	if ws.Appraisers, err = p.certs.ListAppraisers(ctx, agency); err != nil {
		p.Fail(w, r, err)
		return
	}
	if a.IsStaff() {
		if ws.Objections, err = p.certs.OpenObjections(ctx, a); err != nil {
			p.Fail(w, r, err)
			return
		}
		if ws.Overdue, err = p.certs.OverdueNotices(ctx, a); err != nil {
			p.Fail(w, r, err)
			return
		}
		if ws.DeclaredHigh, err = p.ranks.DeclaredHighRanks(ctx, a); err != nil {
			p.Fail(w, r, err)
			return
		}
		if ws.Reviews, err = p.certs.CertificatesForReview(ctx, a); err != nil {
			p.Fail(w, r, err)
			return
		}
		ws.OverdueAfter, ws.RulingDeadline, ws.Now = p.certs.OverdueAfter(), p.certs.RulingDeadline(), p.Now()
	}
	p.Render(w, r, code, workspaceView(p.Page(w, r, "workspace"), ws))
}

// failOnWorkspace shows the workspace again with a refusal; the
// workspace's forms (and the tournament form on it) fail here.
func (p *certPages) failOnWorkspace(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string) {
	p.showWorkspace(w, r, a, code, errText)
}

// onWorkspace wraps a workspace form post.
func (p *certPages) onWorkspace(fn kit.Action) http.HandlerFunc {
	return p.Post(func(*http.Request) string { return "/workspace" }, p.failOnWorkspace, fn)
}

func (p *certPages) decideApplication(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, ok := kit.PathID(r)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	if r.PostFormValue("decision") == "reject" {
		_, err := p.certs.Reject(r.Context(), a, key, id, r.PostFormValue("reason"))
		return kit.Done("rejected"), err
	}
	app, err := p.certs.Approve(r.Context(), a, key, id)
	if err == nil && app.Status == certs.AppOnNotice {
		return kit.Done("on_notice"), nil
	}
	return kit.Done("issued"), err
}

func (p *certPages) placeOrder(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	dan, err := kit.FormInt(r, "dan_count")
	if err != nil {
		return kit.Outcome{}, err
	}
	kyu, err := kit.FormInt(r, "kyu_count")
	if err != nil {
		return kit.Outcome{}, err
	}
	year, err := kit.FormInt(r, "year")
	if err != nil {
		return kit.Outcome{}, err
	}
	_, err = p.certs.PlaceOrder(r.Context(), a, key, certs.OrderInput{AgencyPrefix: r.PostFormValue("agency"), Year: int(year),
		DanCount: int(dan), KyuCount: int(kyu)})
	return kit.Done("ordered"), err
}

func (p *certPages) decideOrder(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	year, err := strconv.Atoi(r.PathValue("year"))
	if err != nil {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	grant := r.PostFormValue("decision") == "grant"
	_, err = p.certs.DecideOrder(r.Context(), a, key, certs.OrderDecision{AgencyPrefix: r.PathValue("agency"), Year: int(year),
		Grant: grant, Note: r.PostFormValue("note")})
	if !grant {
		return kit.Done("order_refused"), err
	}
	return kit.Done("order_granted"), err
}

func (p *certPages) recommendAppraiser(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	_, err := p.certs.RecommendAppraiser(r.Context(), a, key, certs.AppraiserInput{Name: r.PostFormValue("name"),
		AgencyPrefix: r.PostFormValue("agency"), Qualification: r.PostFormValue("qualification")})
	return kit.Done("recommended"), err
}

func (p *certPages) setAppraiser(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, ok := kit.PathID(r)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	_, err := p.certs.SetAppraiserStatus(r.Context(), a, key, id, certs.AppraiserStatus(r.PostFormValue("status")))
	return kit.Done("appraiser_set"), err
}

func (p *certPages) ruleObjection(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, ok := kit.PathID(r)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	uphold := r.PostFormValue("decision") == "uphold"
	_, err := p.certs.RuleObjection(r.Context(), a, key, id, uphold, r.PostFormValue("ruling"))
	return kit.Done("ruled"), err
}

// ruleObjections dismisses the ticked objections of one notice with one ruling.
func (p *certPages) ruleObjections(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, ok := kit.PathID(r)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	var ids []int64
	for _, v := range r.PostForm["objection"] {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return kit.Outcome{}, kit.ReasonNotANumber.OnField("objection_ids", "value", v)
		}
		ids = append(ids, n)
	}
	_, err := p.certs.RuleObjections(r.Context(), a, key, id, ids, r.PostFormValue("ruling"))
	return kit.Done("ruled"), err
}

// objectionNotices are the notices of the objections, each once, in order.
func objectionNotices(os []certs.ObjectionOnNotice) []certs.Notice {
	var out []certs.Notice
	seen := map[int64]bool{}
	for _, o := range os {
		if !seen[o.Notice.ID] {
			seen[o.Notice.ID] = true
			out = append(out, o.Notice)
		}
	}
	return out
}

func (p *certPages) keepCertificate(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	_, err := p.certs.KeepCertificate(r.Context(), a, key, r.PostFormValue("number"), r.PostFormValue("note"))
	return kit.Done("certificate_kept"), err
}

func (p *certPages) revoke(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	_, err := p.certs.Revoke(r.Context(), a, key, r.PostFormValue("number"), r.PostFormValue("reason"))
	return kit.Done("revoked"), err
}

// roster downloads the roster as CSV or as an Excel workbook with text cells.
func (p *certPages) roster(format string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, ok := p.SignedIn(w, r)
		if !ok {
			return
		}
		agency := r.URL.Query().Get("agency")
		if a.Kind == ledger.AgencyActor {
			agency = a.Agency
		}
		var buf bytes.Buffer
		write, ctype := p.certs.WriteRoster, "text/csv; charset=utf-8"
		if format == "xlsx" {
			write, ctype = p.certs.WriteRosterXLSX, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
		}
		if _, err := write(r.Context(), a, agency, &buf); err != nil {
			pg := p.Page(w, r, "workspace")
			http.Error(w, p.UserError(r, pg, err), kit.HTTPStatus(err))
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="roster-%s.%s"`, agency, format))
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(buf.Bytes())
	}
}

func (p *certPages) submitRoster(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	_, err := p.certs.SubmitRoster(r.Context(), a, key, "")
	return kit.Done("roster_submitted"), err
}

// toWorkspace is where a workspace action's cancel leads.
func toWorkspace(*http.Request) string { return "/workspace" }

// appPageSize is the applications one page of the workspace shows.
const appPageSize = 50

// appFilter is the workspace's filter of applications as typed: status,
// rank applied for, the days applied between, and the page (from 1).
type appFilter struct {
	Status, Rank, From, To string
	Page                   int
}

// query is the filter's URL for another page.
func (f appFilter) query(page int) string {
	q := url.Values{}
	for k, v := range map[string]string{"status": f.Status, "rank": f.Rank, "from": f.From, "to": f.To} {
		if v != "" {
			q.Set(k, v)
		}
	}
	q.Set("status_set", "1")
	q.Set("page", strconv.Itoa(page))
	return "/workspace?" + q.Encode() + "#applications"
}

// appStatuses are the statuses the filter offers.
var appStatuses = []certs.AppStatus{certs.AppApplied, certs.AppOnNotice, certs.AppIssued, certs.AppRejected, certs.AppFailed}

// readAppFilter reads the applications' filter from the URL (nil r: none):
// staff's list opens on the applications waiting for a decision.
func readAppFilter(r *http.Request, a ledger.Actor) (certs.ApplicationQuery, appFilter, error) {
	var q certs.ApplicationQuery
	f := appFilter{Page: 1}
	if r == nil || r.URL.Query().Get("status_set") == "" {
		if a.IsStaff() {
			q.Status, f.Status = certs.AppApplied, string(certs.AppApplied)
		}
		if r == nil {
			return q, f, nil
		}
	}
	v := r.URL.Query()
	if v.Get("status_set") != "" {
		f.Status = strings.TrimSpace(v.Get("status"))
	}
	f.Rank, f.From, f.To = strings.TrimSpace(v.Get("rank")), strings.TrimSpace(v.Get("from")), strings.TrimSpace(v.Get("to"))
	if n, err := strconv.Atoi(kit.Narrow(v.Get("page"))); err == nil && n > 1 && n <= 10000 {
		f.Page = n
	}
	q.Offset = (f.Page - 1) * appPageSize
	if f.Status != "" {
		ok := false
		for _, s := range appStatuses {
			ok = ok || string(s) == f.Status
		}
		if !ok {
			return q, f, reasonAppFilterStatus.OnField("status", "value", f.Status)
		}
		q.Status = certs.AppStatus(f.Status)
	}
	if f.Rank != "" {
		rank, err := registry.ParseRank(strings.ToLower(kit.Narrow(f.Rank)))
		if err != nil || rank == registry.NoRank {
			return q, f, registry.ReasonRank.OnField("rank", "value", f.Rank)
		}
		q.Rank = rank
	}
	for _, d := range []struct {
		field, value string
		into         *time.Time
	}{{"from", f.From, &q.From}, {"to", f.To, &q.To}} {
		if d.value == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, kit.Narrow(d.value))
		if err != nil {
			return q, f, reasonAppFilterDate.OnField(d.field, "value", d.value)
		}
		*d.into = t
	}
	return q, f, nil
}

// The refusals of the applications' filter.
var (
	reasonAppFilterStatus = ledger.NewReason(ledger.Invalid, "PORTAL_APP_FILTER_STATUS",
		"没有“{value}”这种申请状态。", "there is no application status {value}.")
	reasonAppFilterDate = ledger.NewReason(ledger.Invalid, "PORTAL_APP_FILTER_DATE",
		"“{value}”不是日期：请写成 2026-01-31。", "{value} is not a date like 2026-01-31.")
)
