package web

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
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
	// staff; those older than OverdueAfter at Now are flagged.
	Overdue      []certs.Notice
	OverdueAfter time.Duration
	Now          time.Time
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
	OK   string
	Err  string
	Idem string
	CSRF string
}

func (p *certPages) workspacePage(w http.ResponseWriter, r *http.Request) {
	a, ok := p.signedIn(w, r)
	if !ok {
		return
	}
	p.showWorkspace(w, r, a, http.StatusOK, "")
}

func (p *certPages) showWorkspace(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string) {
	ctx := r.Context()
	ws := workspace{Actor: a, Err: errText, OK: r.URL.Query().Get("ok"), Idem: randomHex(12), CSRF: p.formToken(w, r)}
	if code != http.StatusOK {
		ws.OK = ""
	}
	var err error
	q := certs.ApplicationQuery{Limit: 100}
	if a.IsStaff() {
		q.Status = certs.AppApplied
	}
	if ws.Apps, err = p.certs.ListApplications(ctx, a, q); err != nil {
		p.fail(w, r, err)
		return
	}
	if ws.Orders, err = p.certs.ListOrders(ctx, a, ""); err != nil {
		p.fail(w, r, err)
		return
	}
	agency, year := "", p.now().In(ledger.ChinaTime).Year()
	ws.Year = year
	if a.Kind == ledger.AgencyActor {
		agency = a.Agency
		if ws.Quota, err = p.certs.QuotaOf(ctx, a, agency, year); err != nil {
			p.fail(w, r, err)
			return
		}
	}
	if ws.Submissions, err = p.certs.RosterSubmissions(ctx, a, year); err != nil {
		p.fail(w, r, err)
		return
	}
	if ws.Appraisers, err = p.certs.ListAppraisers(ctx, agency); err != nil {
		p.fail(w, r, err)
		return
	}
	if a.IsStaff() {
		if ws.Objections, err = p.certs.OpenObjections(ctx, a); err != nil {
			p.fail(w, r, err)
			return
		}
		if ws.Overdue, err = p.certs.OverdueNotices(ctx, a); err != nil {
			p.fail(w, r, err)
			return
		}
		if ws.DeclaredHigh, err = p.ranks.DeclaredHighRanks(ctx, a); err != nil {
			p.fail(w, r, err)
			return
		}
		if ws.Reviews, err = p.certs.CertificatesForReview(ctx, a); err != nil {
			p.fail(w, r, err)
			return
		}
		ws.OverdueAfter, ws.Now = p.certs.OverdueAfter(), p.now()
	}
	p.render(w, r, code, workspaceView(p.page(w, r, "workspace"), ws))
}

// failOnWorkspace shows the workspace again with a refusal; the
// workspace's forms (and the tournament form on it) fail here.
func (p *certPages) failOnWorkspace(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string) {
	p.showWorkspace(w, r, a, code, errText)
}

// onWorkspace wraps a workspace form post.
func (p *certPages) onWorkspace(fn action) http.HandlerFunc {
	return p.post(func(*http.Request) string { return "/workspace" }, p.failOnWorkspace, fn)
}

func (p *certPages) decideApplication(r *http.Request, a ledger.Actor, key string) (outcome, error) {
	id, ok := pathID(r)
	if !ok {
		return outcome{}, ledger.ErrNotFound
	}
	if r.PostFormValue("decision") == "reject" {
		_, err := p.certs.Reject(r.Context(), a, key, id, r.PostFormValue("reason"))
		return done("rejected"), err
	}
	app, err := p.certs.Approve(r.Context(), a, key, id)
	if err == nil && app.Status == certs.AppOnNotice {
		return done("on_notice"), nil
	}
	return done("issued"), err
}

func (p *certPages) placeOrder(r *http.Request, a ledger.Actor, key string) (outcome, error) {
	dan, err := formInt(r, "dan_count")
	if err != nil {
		return outcome{}, err
	}
	kyu, err := formInt(r, "kyu_count")
	if err != nil {
		return outcome{}, err
	}
	year, err := formInt(r, "year")
	if err != nil {
		return outcome{}, err
	}
	_, err = p.certs.PlaceOrder(r.Context(), a, key, certs.OrderInput{AgencyPrefix: r.PostFormValue("agency"), Year: int(year),
		DanCount: int(dan), KyuCount: int(kyu)})
	return done("ordered"), err
}

func (p *certPages) decideOrder(r *http.Request, a ledger.Actor, key string) (outcome, error) {
	year, err := strconv.Atoi(r.PathValue("year"))
	if err != nil {
		return outcome{}, ledger.ErrNotFound
	}
	grant := r.PostFormValue("decision") == "grant"
	_, err = p.certs.DecideOrder(r.Context(), a, key, certs.OrderDecision{AgencyPrefix: r.PathValue("agency"), Year: int(year),
		Grant: grant, Note: r.PostFormValue("note")})
	if !grant {
		return done("order_refused"), err
	}
	return done("order_granted"), err
}

func (p *certPages) recommendAppraiser(r *http.Request, a ledger.Actor, key string) (outcome, error) {
	_, err := p.certs.RecommendAppraiser(r.Context(), a, key, certs.AppraiserInput{Name: r.PostFormValue("name"),
		AgencyPrefix: r.PostFormValue("agency"), Qualification: r.PostFormValue("qualification")})
	return done("recommended"), err
}

func (p *certPages) setAppraiser(r *http.Request, a ledger.Actor, key string) (outcome, error) {
	id, ok := pathID(r)
	if !ok {
		return outcome{}, ledger.ErrNotFound
	}
	_, err := p.certs.SetAppraiserStatus(r.Context(), a, key, id, certs.AppraiserStatus(r.PostFormValue("status")))
	return done("appraiser_set"), err
}

func (p *certPages) ruleObjection(r *http.Request, a ledger.Actor, key string) (outcome, error) {
	id, ok := pathID(r)
	if !ok {
		return outcome{}, ledger.ErrNotFound
	}
	uphold := r.PostFormValue("decision") == "uphold"
	_, err := p.certs.RuleObjection(r.Context(), a, key, id, uphold, r.PostFormValue("ruling"))
	return done("ruled"), err
}

// ruleObjections dismisses the ticked objections of one notice with one ruling.
func (p *certPages) ruleObjections(r *http.Request, a ledger.Actor, key string) (outcome, error) {
	id, ok := pathID(r)
	if !ok {
		return outcome{}, ledger.ErrNotFound
	}
	var ids []int64
	for _, v := range r.PostForm["objection"] {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return outcome{}, reasonNotANumber.OnField("objection_ids", "value", v)
		}
		ids = append(ids, n)
	}
	_, err := p.certs.RuleObjections(r.Context(), a, key, id, ids, r.PostFormValue("ruling"))
	return done("ruled"), err
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

func (p *certPages) keepCertificate(r *http.Request, a ledger.Actor, key string) (outcome, error) {
	_, err := p.certs.KeepCertificate(r.Context(), a, key, r.PostFormValue("number"), r.PostFormValue("note"))
	return done("certificate_kept"), err
}

func (p *certPages) revoke(r *http.Request, a ledger.Actor, key string) (outcome, error) {
	_, err := p.certs.Revoke(r.Context(), a, key, r.PostFormValue("number"), r.PostFormValue("reason"))
	return done("revoked"), err
}

// roster downloads the roster as CSV or as an Excel workbook with text cells.
func (p *certPages) roster(format string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, ok := p.signedIn(w, r)
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
			pg := p.page(w, r, "workspace")
			http.Error(w, p.userError(r, pg, err), httpStatus(err))
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="roster-%s.%s"`, agency, format))
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(buf.Bytes())
	}
}

func (p *certPages) submitRoster(r *http.Request, a ledger.Actor, key string) (outcome, error) {
	_, err := p.certs.SubmitRoster(r.Context(), a, key, "")
	return done("roster_submitted"), err
}
