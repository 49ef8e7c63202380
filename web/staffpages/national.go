package staffpages

import (
	"context"
	"net/http"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/web/kit"
)

// NationalList is the association's list of nationally recognised events
// (6 dan) and its special recognitions of national champions (7 dan).
type NationalList interface {
	NationalEvents(ctx context.Context) ([]certs.NationalEvent, error)
	Recognitions(ctx context.Context) ([]certs.Recognition, error)
	ListNationalEvent(ctx context.Context, actor ledger.Actor, key string, in certs.NationalEventInput) (certs.NationalEvent, error)
	UnlistNationalEvent(ctx context.Context, actor ledger.Actor, key string, eventID int64, reason string) error
	RecognizeChampion(ctx context.Context, actor ledger.Actor, key string, eventID, playerID int64, note string) (certs.Recognition, error)
}

// nationalView is the staff's page of the national list.
type nationalView struct {
	Events       []certs.NationalEvent
	Recognitions []certs.Recognition
	OK           string
	Errs         kit.FormErrors
	Idem, CSRF   string
}

func toNational(*http.Request) string { return "/workspace/national" }

func (p *Pages) nationalRoutes(mux *http.ServeMux) {
	if p.national == nil {
		return
	}
	mux.HandleFunc("GET /workspace/national", p.nationalPage)
	mux.Handle("POST /workspace/national", p.PostFields(toNational, p.failNational, p.listNational))
	mux.Handle("POST /workspace/national/{id}/unlist", p.PostFields(toNational, p.failNational, p.unlistNational))
	mux.Handle("POST /workspace/national/recognitions", p.PostFields(toNational, p.failNational, p.recognize))
}

func (p *Pages) nationalPage(w http.ResponseWriter, r *http.Request) {
	if !p.staffOnly(w, r) {
		return
	}
	p.showNational(w, r, http.StatusOK, nationalView{OK: r.URL.Query().Get("ok")})
}

func (p *Pages) showNational(w http.ResponseWriter, r *http.Request, code int, v nationalView) {
	var err error
	if v.Events, err = p.national.NationalEvents(r.Context()); err != nil {
		p.Fail(w, r, err)
		return
	}
	if v.Recognitions, err = p.national.Recognitions(r.Context()); err != nil {
		p.Fail(w, r, err)
		return
	}
	pg := p.Page(w, r, "national_list")
	v.Idem, v.CSRF = kit.RandomHex(12), pg.CSRF
	p.Render(w, r, code, nationalPage(pg, v))
}

func (p *Pages) failNational(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string, err error) {
	p.showNational(w, r, code, nationalView{Errs: kit.FieldErrors(kit.LangFrom(w, r), errText, err, "event_id", "max_placing", "player_id", "note", "reason")})
}

func (p *Pages) listNational(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	event, err := kit.FormInt(r, "event_id")
	if err != nil {
		return kit.Outcome{}, err
	}
	placing, err := kit.FormInt(r, "max_placing")
	if err != nil {
		return kit.Outcome{}, err
	}
	_, err = p.national.ListNationalEvent(r.Context(), a, key, certs.NationalEventInput{EventID: event, MaxPlacing: int(placing),
		Championship: r.PostFormValue("championship") != "", Note: r.PostFormValue("note")})
	return kit.Done("national_listed"), err
}

func (p *Pages) unlistNational(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, _ := kit.PathID(r)
	return kit.Done("national_unlisted"), p.national.UnlistNationalEvent(r.Context(), a, key, id, r.PostFormValue("reason"))
}

func (p *Pages) recognize(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	event, err := kit.FormInt(r, "event_id")
	if err != nil {
		return kit.Outcome{}, err
	}
	player, err := kit.FormInt(r, "player_id")
	if err != nil {
		return kit.Outcome{}, err
	}
	_, err = p.national.RecognizeChampion(r.Context(), a, key, event, player, r.PostFormValue("note"))
	return kit.Done("champion_recognised"), err
}
