package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/web/kit"
)

// Appraisals is what the appraisal pages need of certification.
type Appraisals interface {
	RecordAppraisal(ctx context.Context, actor ledger.Actor, key string, in certs.AppraisalInput) (certs.AppraisalSession, error)
	WithdrawAppraisal(ctx context.Context, actor ledger.Actor, key string, id int64, reason string) (certs.AppraisalSession, error)
	ListAppraisals(ctx context.Context, actor ledger.Actor, agency string, player int64) ([]certs.AppraisalSession, error)
	PublicAppraisal(ctx context.Context, id int64) (certs.AppraisalSession, error)
	ListAppraisers(ctx context.Context, agency string) ([]certs.Appraiser, error)
}

// appraisalPages are the agency's appraisal sessions (its workspace) and
// the public page of a session behind a rank on notice.
type appraisalPages struct {
	*kit.Site
	certs Appraisals
}

func (p *appraisalPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /workspace/appraisals", p.list)
	mux.Handle("POST /workspace/appraisals", p.PostFields(func(*http.Request) string { return "/workspace/appraisals" }, p.failRecord, p.record))
	mux.Handle("POST /workspace/appraisals/{id}/withdraw", p.PostFields(func(*http.Request) string { return "/workspace/appraisals" },
		p.failRecord, p.withdraw))
	mux.HandleFunc("GET /appraisals/{id}", p.Get(p.public))
	mux.HandleFunc("GET /appraisals/{id}/games/{seq}", p.Get(p.record1))
}

// formGames is how many games the form offers.
const formGames = 3

// appraisalForm is the session form as typed.
type appraisalForm struct {
	PlayerID, AppraiserID, HeldOn, Verdict, Note string
	Games                                        [formGames]certs.AppraisalGameInput
}

// appraisalsView is the workspace page: the sessions, the form.
type appraisalsView struct {
	Sessions   []certs.AppraisalSession
	Appraisers []certs.Appraiser
	Form       appraisalForm
	Errs       kit.FormErrors
	OK         string
	Idem, CSRF string
}

// appraisalFields are the fields the form places refusals beside.
var appraisalFields = []string{"player_id", "appraiser_id", "held_on", "verdict", "note", "games", "opponent", "colour", "result", "sgf", "reason"}

func (p *appraisalPages) list(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	v := appraisalsView{OK: r.URL.Query().Get("ok")}
	v.Form.PlayerID = r.URL.Query().Get("player")
	p.show(w, r, a, http.StatusOK, v)
}

func (p *appraisalPages) show(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, v appraisalsView) {
	ctx := r.Context()
	pg := p.Page(w, r, "appraisals")
	ss, err := p.certs.ListAppraisals(ctx, a, "", 0)
	if err != nil {
		if ledger.KindOf(err) == ledger.Internal {
			p.Fail(w, r, err)
			return
		}
		p.Refuse(w, r, pg, err)
		return
	}
	agency := ""
	if a.Kind == ledger.AgencyActor {
		agency = a.Agency
	}
	as, err := p.certs.ListAppraisers(ctx, agency)
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	for _, ap := range as {
		if ap.Status == certs.AppraiserApproved {
			v.Appraisers = append(v.Appraisers, ap)
		}
	}
	v.Sessions, v.Idem, v.CSRF = ss, kit.RandomHex(12), pg.CSRF
	if v.Form.HeldOn == "" {
		v.Form.HeldOn = p.Now().In(ledger.ChinaTime).Format("2006-01-02")
	}
	p.Render(w, r, code, appraisalsPage(pg, v))
}

// formOf reads the session form as typed.
func formOf(r *http.Request) appraisalForm {
	f := appraisalForm{PlayerID: r.PostFormValue("player_id"), AppraiserID: r.PostFormValue("appraiser_id"), HeldOn: r.PostFormValue("held_on"),
		Verdict: r.PostFormValue("verdict"), Note: r.PostFormValue("note")}
	for i := range formGames {
		n := strconv.Itoa(i + 1)
		f.Games[i] = certs.AppraisalGameInput{Opponent: r.PostFormValue("opponent_" + n), Colour: r.PostFormValue("colour_" + n),
			Result: r.PostFormValue("result_" + n), SGF: r.PostFormValue("sgf_" + n)}
	}
	return f
}

func (p *appraisalPages) failRecord(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string, err error) {
	p.show(w, r, a, code, appraisalsView{Form: formOf(r), Errs: kit.FieldErrors(kit.LangFrom(w, r), errText, err, appraisalFields...)})
}

func (p *appraisalPages) record(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	player, err := kit.FormInt(r, "player_id")
	if err != nil {
		return kit.Outcome{}, err
	}
	appraiser, err := kit.FormInt(r, "appraiser_id")
	if err != nil {
		return kit.Outcome{}, err
	}
	f := formOf(r)
	in := certs.AppraisalInput{AppraiserID: appraiser, PlayerID: player, HeldOn: f.HeldOn, Verdict: f.Verdict, Note: f.Note}
	for _, g := range f.Games {
		// a row left blank is no game
		if strings.TrimSpace(g.Opponent+g.Result+g.SGF) == "" {
			continue
		}
		in.Games = append(in.Games, g)
	}
	_, err = p.certs.RecordAppraisal(r.Context(), a, key, in)
	return kit.Done("appraisal_recorded"), err
}

func (p *appraisalPages) withdraw(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return kit.Outcome{}, certs.ReasonNoSuchAppraisal.New("session", r.PathValue("id"))
	}
	_, err = p.certs.WithdrawAppraisal(r.Context(), a, key, id, r.PostFormValue("reason"))
	return kit.Done("appraisal_withdrawn"), err
}

// session reads the public session of the path's id.
func (p *appraisalPages) session(r *http.Request) (certs.AppraisalSession, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return certs.AppraisalSession{}, certs.ReasonAppraisalNotPublic.New("session", r.PathValue("id"))
	}
	return p.certs.PublicAppraisal(r.Context(), id)
}

func (p *appraisalPages) public(w http.ResponseWriter, r *http.Request) error {
	s, err := p.session(r)
	if err != nil {
		return err
	}
	p.Render(w, r, http.StatusOK, appraisalPublicPage(p.Page(w, r, "appraisal"), s))
	return nil
}

// record1 sends one game's record of a public session.
func (p *appraisalPages) record1(w http.ResponseWriter, r *http.Request) error {
	s, err := p.session(r)
	if err != nil {
		return err
	}
	seq, _ := strconv.Atoi(strings.TrimSuffix(r.PathValue("seq"), ".sgf"))
	for _, g := range s.Games {
		if g.Seq == seq && g.SGF != "" {
			w.Header().Set("Content-Type", "application/x-go-sgf; charset=utf-8")
			w.Header().Set("Content-Disposition", "attachment; filename=\"appraisal-"+strconv.FormatInt(s.ID, 10)+"-"+strconv.Itoa(seq)+".sgf\"")
			_, err := w.Write([]byte(g.SGF))
			return err
		}
	}
	return certs.ReasonNoSuchAppraisal.New("session", r.PathValue("id"))
}
