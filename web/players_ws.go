package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/kit"
)

// playerWriter registers and changes players, for the agency's workspace.
type playerWriter interface {
	RegisterPlayer(ctx context.Context, actor ledger.Actor, key string, in registry.PlayerInput) (registry.Player, error)
	UpdatePlayer(ctx context.Context, actor ledger.Actor, key string, id int64, in registry.PlayerInput) (registry.PlayerUpdate, error)
	SetLatinName(ctx context.Context, actor ledger.Actor, key string, id int64, name string) (registry.Player, error)
	SetExternalID(ctx context.Context, actor ledger.Actor, key string, id int64, scheme, value string) (registry.Player, error)
	ListIdentityChanges(ctx context.Context, actor ledger.Actor, q registry.IdentityChangeQuery) ([]registry.IdentityChange, error)
	DecideIdentityChange(ctx context.Context, actor ledger.Actor, key string, id int64, approve bool, reason string) (registry.IdentityChange, error)
}

// playerPages are the workspace's pages for players: register, edit, and
// find the agency's players by name.
type playerPages struct {
	*kit.Site
	reg Registry
}

func (p *playerPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /workspace/players", p.Get(p.list))
	mux.HandleFunc("GET /workspace/players/new", p.newForm)
	mux.HandleFunc("POST /workspace/players", p.PostFields(func(*http.Request) string { return "/workspace/players" }, p.failRegister, p.register))
	mux.HandleFunc("GET /workspace/players/{id}/edit", p.Get(p.editForm))
	mux.HandleFunc("POST /workspace/players/{id}", p.PostFields(func(*http.Request) string { return "/workspace/players" }, p.failEdit, p.update))
}

// playerForm is the player form as typed, with the refusal beside the
// field it names or above the form.
type playerForm struct {
	ID                                                     int64 // 0: a new player
	Name, Gender, BirthDate, Nationality, IDKind, IDNumber string
	ProvinceCode, Rank                                     string
	ChangeReason                                           string
	// LatinName is the Latin name the agency states ("": the pinyin,
	// Pinyin, shown as the placeholder); EGDPin his EGD PIN.
	LatinName, Pinyin, EGDPin string
	// Pending is the change of the player's identity waiting for the
	// association, shown as a notice on the edit form.
	Pending    *registry.IdentityChange
	Errs       kit.FormErrors
	Idem, CSRF string
}

// playerFields are the fields of the form, by the names refusals give them.
var playerFields = []string{"name", "gender", "birth_date", "nationality", "identity_kind", "identity_number", "province_code", "rank", "change_reason",
	"latin_name", "external_id"}

func playerFormOf(r *http.Request) playerForm {
	v := func(k string) string { return r.PostFormValue(k) }
	return playerForm{Name: v("name"), Gender: v("gender"), BirthDate: v("birth_date"), Nationality: v("nationality"),
		IDKind: v("identity_kind"), IDNumber: v("identity_number"), ProvinceCode: v("province_code"), Rank: v("rank"),
		ChangeReason: v("change_reason"), LatinName: v("latin_name"), EGDPin: v("egd_pin")}
}

func (f playerForm) input() registry.PlayerInput {
	return registry.PlayerInput{Name: f.Name, Gender: registry.Gender(f.Gender), BirthDate: strings.TrimSpace(f.BirthDate),
		Nationality: f.Nationality, IDKind: registry.IdentityKind(f.IDKind), IDNumber: f.IDNumber, ProvinceCode: f.ProvinceCode, Rank: f.Rank,
		ChangeReason: f.ChangeReason}
}

// agencyProvince is the province code of an agency's prefix ("" for staff).
func agencyProvince(a ledger.Actor) string {
	if a.Kind != ledger.AgencyActor {
		return ""
	}
	if pr, ok := registry.ProvinceByPrefix(a.Agency); ok {
		return pr.Code
	}
	return ""
}

func (p *playerPages) newForm(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	p.showForm(w, r, http.StatusOK, playerForm{Gender: string(registry.Male), Nationality: "CN", IDKind: string(registry.ResidentIDCard),
		ProvinceCode: agencyProvince(a)})
}

func (p *playerPages) showForm(w http.ResponseWriter, r *http.Request, code int, f playerForm) {
	pg := p.Page(w, r, "player_new")
	if f.ID != 0 {
		pg.Title = pg.T["player_edit"]
	}
	f.Idem, f.CSRF = kit.RandomHex(12), pg.CSRF
	p.Render(w, r, code, playerFormPage(pg, f))
}

// failWith shows the form again as typed, the refusal beside the field it names.
func (p *playerPages) failWith(w http.ResponseWriter, r *http.Request, code int, errText string, err error, f playerForm) {
	f.Errs = kit.FieldErrors(kit.LangFrom(w, r), errText, err, playerFields...)
	p.showForm(w, r, code, f)
}

func (p *playerPages) failRegister(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string, err error) {
	p.failWith(w, r, code, errText, err, playerFormOf(r))
}

func (p *playerPages) failEdit(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string, err error) {
	f := playerFormOf(r)
	f.ID, _ = kit.PathID(r)
	f.Pinyin = registry.Pinyin(f.Name)
	f.Pending = p.pendingChange(r, a, f.ID)
	p.failWith(w, r, code, errText, err, f)
}

// pendingChange is the change of the player's identity waiting for the
// association, or nil.
func (p *playerPages) pendingChange(r *http.Request, a ledger.Actor, id int64) *registry.IdentityChange {
	cs, err := p.reg.ListIdentityChanges(r.Context(), a, registry.IdentityChangeQuery{Status: registry.ChangePending, PlayerID: id, Limit: 1})
	if err != nil || len(cs) == 0 {
		return nil
	}
	return &cs[0]
}

func (p *playerPages) register(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	pl, err := p.reg.RegisterPlayer(r.Context(), a, key, playerFormOf(r).input())
	if err != nil {
		return kit.Outcome{}, err
	}
	return kit.GoTo("/workspace/players?ok=player_registered&id=" + strconv.FormatInt(pl.ID, 10)), nil
}

func (p *playerPages) update(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, ok := kit.PathID(r)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	f := playerFormOf(r)
	u, err := p.reg.UpdatePlayer(r.Context(), a, key, id, f.input())
	if err != nil {
		return kit.Outcome{}, err
	}
	// the Latin name and the EGD PIN are logged actions of their own, each
	// under the form's key (none without one)
	sub := func(suffix string) string {
		if key == "" {
			return ""
		}
		return key + suffix
	}
	if _, err := p.reg.SetLatinName(r.Context(), a, sub("-latin"), id, f.LatinName); err != nil {
		return kit.Outcome{}, err
	}
	if _, err := p.reg.SetExternalID(r.Context(), a, sub("-egd"), id, registry.EGDScheme, f.EGDPin); err != nil {
		return kit.Outcome{}, err
	}
	if u.Held != nil { // a notice, not an error: the rest is saved, the identity waits for the association
		return kit.GoTo("/workspace/players?ok=identity_change_held&change=" + strconv.FormatInt(u.Held.ID, 10)), nil
	}
	return kit.GoTo("/workspace/players?ok=player_updated&id=" + strconv.FormatInt(u.ID, 10)), nil
}

func (p *playerPages) editForm(w http.ResponseWriter, r *http.Request) error {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return nil
	}
	id, ok := kit.PathID(r)
	if !ok {
		return ledger.ErrNotFound
	}
	pl, err := p.reg.GetPlayer(r.Context(), id)
	if err != nil {
		return err
	}
	if !p.reg.SeesIdentity(r.Context(), a, pl) { // only who may change the player sees the form filled in
		pg := p.Page(w, r, "error")
		p.Render(w, r, http.StatusForbidden, kit.MessagePage(pg, pg.T["error"], pg.T["player_not_yours"]))
		return nil
	}
	rank := ""
	if pl.DeclaredRank != registry.NoRank {
		rank = pl.DeclaredRank.String()
	}
	p.showForm(w, r, http.StatusOK, playerForm{ID: pl.ID, Name: pl.Name, Gender: string(pl.Gender), BirthDate: pl.BirthDate.Format(time.DateOnly),
		Nationality: pl.Nationality, IDKind: string(pl.IDKind), IDNumber: pl.IDNumber, ProvinceCode: pl.ProvinceCode, Rank: rank,
		Pending: p.pendingChange(r, a, pl.ID), LatinName: pl.LatinName, Pinyin: registry.Pinyin(pl.Name), EGDPin: pl.ExternalIDs[registry.EGDScheme]})
	return nil
}

// playerList is the agency's players found by name.
type playerList struct {
	Name    string
	Players []registry.Player
	Total   int64
	OK      string
	OKID    string
	Change  string // the identity change just held (ok=identity_change_held)
	Err     string
	Next    string
}

// list finds the agency's players (staff: anyone's) by name, with links to
// edit each and to apply for a certificate.
func (p *playerPages) list(w http.ResponseWriter, r *http.Request) error {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return nil
	}
	q := r.URL.Query()
	pg := p.Page(w, r, "workspace_players")
	l := playerList{Name: strings.TrimSpace(q.Get("name")), OK: q.Get("ok"), OKID: q.Get("id")}
	if c, err := strconv.ParseInt(q.Get("change"), 10, 64); err == nil && c > 0 {
		l.Change = strconv.FormatInt(c, 10)
	}
	page, err := p.reg.SearchPlayers(r.Context(), a, registry.PlayerQuery{Name: l.Name, ProvinceCode: agencyProvince(a), PageToken: q.Get("page"), PageSize: 50})
	if err != nil {
		if ledger.KindOf(err) == ledger.Internal {
			return err
		}
		l.Err = p.UserError(r, pg, err)
	}
	l.Players, l.Total = page.Players, page.Total
	if page.NextPageToken != "" {
		l.Next = "/workspace/players?" + url.Values{"name": {l.Name}, "page": {page.NextPageToken}}.Encode()
	}
	p.Render(w, r, http.StatusOK, workspacePlayersPage(pg, l))
	return nil
}
