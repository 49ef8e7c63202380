package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/kit"
)

// applyPages are the application's steps on the workspace: find the player
// by name, pick one of the agency's players found, fill in the rest.
type applyPages struct {
	*kit.Site
	certs  Certs
	reg    Registry
	events EventLister
}

// EventLister lists the registry's events the application form offers as
// the evidence of a tournament, 6-dan or 7-dan application.
type EventLister interface {
	ListEvents(ctx context.Context, organiser string, limit int) ([]tournaments.Event, error)
}

func (p *applyPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /workspace/apply", p.applyPage)
	mux.Handle("POST /workspace/applications", p.PostFields(func(*http.Request) string { return "/workspace" }, p.failApply, p.submit))
}

// applyForm is the application form as typed.
type applyForm struct {
	PlayerID, TargetRank, Basis, EventID, Evidence, AppraisalSessionID string
}

// applyStep is the application page: the name searched, the players
// found (or the one chosen), the appraisers to choose from, the form as typed.
type applyStep struct {
	Name       string
	Players    []registry.Player
	Searched   bool
	Events     []tournaments.Event // the registry's recent events, to choose the evidence from
	Form       applyForm
	Errs       kit.FormErrors
	Idem, CSRF string
}

func (p *applyPages) applyPage(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	p.show(w, r, a, http.StatusOK, applyStep{Name: strings.TrimSpace(q.Get("name")), Form: applyForm{PlayerID: q.Get("player")}})
}

// show finds the players of the step (by name, else the chosen one) and
// renders it.
func (p *applyPages) show(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, st applyStep) {
	ctx := r.Context()
	pg := p.Page(w, r, "apply")
	if st.Name != "" {
		page, err := p.reg.SearchPlayers(ctx, a, registry.PlayerQuery{Name: st.Name, ProvinceCode: agencyProvince(a), PageSize: 50})
		if err != nil && ledger.KindOf(err) == ledger.Internal {
			p.Fail(w, r, err)
			return
		}
		if err != nil && st.Errs.Form == "" {
			st.Errs.Form = p.UserError(r, pg, err)
		}
		st.Players, st.Searched = page.Players, true
	}
	if id, err := strconv.ParseInt(st.Form.PlayerID, 10, 64); err == nil && id > 0 {
		found := false
		for _, pl := range st.Players {
			found = found || pl.ID == id
		}
		if !found {
			if pl, err := p.reg.GetPlayer(ctx, id); err == nil {
				st.Players = append([]registry.Player{pl}, st.Players...)
			}
		}
	}
	if p.events != nil {
		es, err := p.events.ListEvents(ctx, "", 200)
		if err != nil {
			p.Fail(w, r, err)
			return
		}
		for _, e := range es {
			if e.Status == "finished" || e.Source != "" {
				st.Events = append(st.Events, e)
			}
		}
	}
	st.Idem, st.CSRF = kit.RandomHex(12), pg.CSRF
	p.Render(w, r, code, applyStepPage(pg, st))
}

// applyFields are the fields of the application form, by the names
// refusals give them.
var applyFields = []string{"player_id", "target_rank", "basis", "event_id", "evidence", "appraisal_session_id", "appraiser_id"}

// failApply shows the application page again as typed, the refusal beside
// the field it names.
func (p *applyPages) failApply(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string, err error) {
	st := applyStep{Name: r.PostFormValue("name"), Errs: kit.FieldErrors(kit.LangFrom(w, r), errText, err, applyFields...),
		Form: applyForm{PlayerID: r.PostFormValue("player_id"), TargetRank: r.PostFormValue("target_rank"), Basis: r.PostFormValue("basis"),
			EventID: r.PostFormValue("event_id"), Evidence: r.PostFormValue("evidence"),
			AppraisalSessionID: r.PostFormValue("appraisal_session_id")}}
	p.show(w, r, a, code, st)
}

func (p *applyPages) submit(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	if strings.TrimSpace(r.PostFormValue("player_id")) == "" {
		return kit.Outcome{}, reasonPickPlayer.OnField("player_id")
	}
	player, err := kit.FormInt(r, "player_id")
	if err != nil {
		return kit.Outcome{}, err
	}
	session, err := kit.FormInt(r, "appraisal_session_id")
	if err != nil {
		return kit.Outcome{}, err
	}
	event, err := kit.FormInt(r, "event_id")
	if err != nil {
		return kit.Outcome{}, err
	}
	_, err = p.certs.Apply(r.Context(), a, key, certs.ApplicationInput{PlayerID: player, TargetRank: r.PostFormValue("target_rank"),
		Basis: r.PostFormValue("basis"), EventID: event, Evidence: r.PostFormValue("evidence"), AppraisalSessionID: session})
	return kit.Done("applied"), err
}
