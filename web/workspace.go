package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
)

// workspace is what an agency's or the staff's page shows.
type workspace struct {
	Actor      ledger.Actor
	Apps       []certs.Application
	Orders     []certs.Order
	Quota      certs.Quota
	Appraisers []certs.Appraiser
	Objections []objectionRow
	Apply      applyForm
	OK         string
	Err        string
	Idem       string
	CSRF       string
}

type objectionRow struct {
	Objection certs.Objection
	Notice    certs.Notice
}

// applyForm is the application form as typed.
type applyForm struct {
	PlayerID, TargetRank, Basis, EventRef, RecordRef, Evidence, AppraiserID string
}

func (p *portal) workspacePage(w http.ResponseWriter, r *http.Request) {
	a := p.actor(r)
	if a.Kind == ledger.Public {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	p.showWorkspace(w, r, a, http.StatusOK, applyForm{}, "")
}

func (p *portal) showWorkspace(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, f applyForm, errText string) {
	ctx := r.Context()
	ws := workspace{Actor: a, Apply: f, Err: errText, OK: r.URL.Query().Get("ok"), Idem: randomHex(12), CSRF: p.formToken(w, r)}
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
	agency := ""
	if a.Kind == ledger.AgencyActor {
		agency = a.Agency
		year := p.now().In(ledger.ChinaTime).Year()
		if ws.Quota, err = p.certs.QuotaOf(ctx, a, agency, year); err != nil {
			p.fail(w, r, err)
			return
		}
	}
	if ws.Appraisers, err = p.certs.ListAppraisers(ctx, agency); err != nil {
		p.fail(w, r, err)
		return
	}
	if a.IsStaff() {
		obs, err := p.certs.ListObjections(ctx, a, 0, true)
		if err != nil {
			p.fail(w, r, err)
			return
		}
		for _, o := range obs {
			n, err := p.certs.GetNotice(ctx, o.NoticeID)
			if err != nil {
				p.fail(w, r, err)
				return
			}
			ws.Objections = append(ws.Objections, objectionRow{o, n})
		}
	}
	p.render(w, r, code, workspaceView(p.page(w, r, "workspace"), ws))
}

// act wraps a workspace form post: sign-in and form token checks, then the
// action; success redirects back with a message key, failure shows the
// workspace again with the error and the form as typed.
func (p *portal) act(fn func(r *http.Request, a ledger.Actor, key string) (string, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a := p.actor(r)
		if a.Kind == ledger.Public {
			http.Redirect(w, r, "/login", http.StatusSeeOther)
			return
		}
		f := applyForm{PlayerID: r.PostFormValue("player_id"), TargetRank: r.PostFormValue("target_rank"), Basis: r.PostFormValue("basis"),
			EventRef: r.PostFormValue("event_ref"), RecordRef: r.PostFormValue("record_ref"), Evidence: r.PostFormValue("evidence"),
			AppraiserID: r.PostFormValue("appraiser_id")}
		if !p.formOK(r) {
			p.showWorkspace(w, r, a, http.StatusForbidden, f, messages(langFrom(w, r))["form_expired"])
			return
		}
		ok, err := fn(r, a, r.PostFormValue("idem"))
		if err != nil {
			pg := p.page(w, r, "workspace")
			p.showWorkspace(w, r, a, httpStatus(err), f, p.userError(r, pg, err))
			return
		}
		if strings.HasPrefix(ok, "/") { // the action made a page of its own
			http.Redirect(w, r, ok, http.StatusSeeOther)
			return
		}
		http.Redirect(w, r, "/workspace?ok="+ok+"#top", http.StatusSeeOther)
	}
}

func formInt(r *http.Request, field string) (int64, error) {
	v := strings.TrimSpace(r.PostFormValue(field))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, reasonNotANumber.OnField(field, "value", v)
	}
	return n, nil
}

func (p *portal) submitApplication(r *http.Request, a ledger.Actor, key string) (string, error) {
	player, err := formInt(r, "player_id")
	if err != nil {
		return "", err
	}
	appraiser, err := formInt(r, "appraiser_id")
	if err != nil {
		return "", err
	}
	_, err = p.certs.Apply(r.Context(), a, key, certs.ApplicationInput{PlayerID: player, TargetRank: r.PostFormValue("target_rank"),
		Basis: r.PostFormValue("basis"), EventRef: r.PostFormValue("event_ref"), RecordRef: r.PostFormValue("record_ref"),
		Evidence: r.PostFormValue("evidence"), AppraiserID: appraiser})
	return "applied", err
}

func (p *portal) decideApplication(r *http.Request, a ledger.Actor, key string) (string, error) {
	id, ok := pathID(r)
	if !ok {
		return "", ledger.ErrNotFound
	}
	if r.PostFormValue("decision") == "reject" {
		_, err := p.certs.Reject(r.Context(), a, key, id, r.PostFormValue("reason"))
		return "rejected", err
	}
	app, err := p.certs.Approve(r.Context(), a, key, id)
	if err == nil && app.Status == certs.AppOnNotice {
		return "on_notice", nil
	}
	return "issued", err
}

func (p *portal) placeOrder(r *http.Request, a ledger.Actor, key string) (string, error) {
	dan, err := formInt(r, "dan_count")
	if err != nil {
		return "", err
	}
	kyu, err := formInt(r, "kyu_count")
	if err != nil {
		return "", err
	}
	year, err := formInt(r, "year")
	if err != nil {
		return "", err
	}
	_, err = p.certs.PlaceOrder(r.Context(), a, key, certs.OrderInput{AgencyPrefix: r.PostFormValue("agency"), Year: int(year),
		DanCount: int(dan), KyuCount: int(kyu)})
	return "ordered", err
}

func (p *portal) decideOrder(r *http.Request, a ledger.Actor, key string) (string, error) {
	year, err := strconv.Atoi(r.PathValue("year"))
	if err != nil {
		return "", ledger.ErrNotFound
	}
	grant := r.PostFormValue("decision") == "grant"
	_, err = p.certs.DecideOrder(r.Context(), a, key, certs.OrderDecision{AgencyPrefix: r.PathValue("agency"), Year: int(year),
		Grant: grant, Note: r.PostFormValue("note")})
	if !grant {
		return "order_refused", err
	}
	return "order_granted", err
}

func (p *portal) recommendAppraiser(r *http.Request, a ledger.Actor, key string) (string, error) {
	_, err := p.certs.RecommendAppraiser(r.Context(), a, key, certs.AppraiserInput{Name: r.PostFormValue("name"),
		AgencyPrefix: r.PostFormValue("agency"), Qualification: r.PostFormValue("qualification")})
	return "recommended", err
}

func (p *portal) setAppraiser(r *http.Request, a ledger.Actor, key string) (string, error) {
	id, ok := pathID(r)
	if !ok {
		return "", ledger.ErrNotFound
	}
	_, err := p.certs.SetAppraiserStatus(r.Context(), a, key, id, certs.AppraiserStatus(r.PostFormValue("status")))
	return "appraiser_set", err
}

func (p *portal) ruleObjection(r *http.Request, a ledger.Actor, key string) (string, error) {
	id, ok := pathID(r)
	if !ok {
		return "", ledger.ErrNotFound
	}
	uphold := r.PostFormValue("decision") == "uphold"
	_, err := p.certs.RuleObjection(r.Context(), a, key, id, uphold, r.PostFormValue("ruling"))
	return "ruled", err
}

func (p *portal) revoke(r *http.Request, a ledger.Actor, key string) (string, error) {
	_, err := p.certs.Revoke(r.Context(), a, key, r.PostFormValue("number"), r.PostFormValue("reason"))
	return "revoked", err
}

func (p *portal) roster(w http.ResponseWriter, r *http.Request) {
	a := p.actor(r)
	if a.Kind == ledger.Public {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	agency := r.URL.Query().Get("agency")
	if a.Kind == ledger.AgencyActor {
		agency = a.Agency
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="roster-%s.csv"`, agency))
	w.Header().Set("Cache-Control", "no-store")
	if _, err := p.certs.WriteRoster(r.Context(), a, agency, w); err != nil {
		w.Header().Del("Content-Disposition")
		pg := p.page(w, r, "workspace")
		http.Error(w, p.userError(r, pg, err), httpStatus(err))
	}
}
