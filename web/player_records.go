package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/kit"
)

// PlayerRecords are staff's acts on a player's record that the gRPC API
// offers too: transfer to another province, club or school, family,
// honorary 8 dan, and merging a duplicate record (the same calls:
// registry.Service, records.Merger).
type PlayerRecords interface {
	TransferPlayer(ctx context.Context, actor ledger.Actor, key string, id int64, toProvince string) (registry.Player, error)
	RecordHonoraryDan(ctx context.Context, actor ledger.Actor, key string, id int64, basis string) (registry.Player, error)
	// A club or school from a date, and two players of one family (an
	// event's pairing may keep them apart).
	SetAffiliation(ctx context.Context, actor ledger.Actor, key string, in registry.AffiliationInput) (registry.Affiliation, error)
	LinkFamily(ctx context.Context, actor ledger.Actor, key string, a, b int64) error
}

// Merger merges a duplicate record of a person into the one kept
// (internal/records.Merger, which moves what every package holds).
type Merger interface {
	Merge(ctx context.Context, actor ledger.Actor, key string, keep, dup int64) error
}

// recordPages are staff's page of one player's record.
type recordPages struct {
	*kit.Site
	reg     Registry
	records PlayerRecords
	merger  Merger // nil: no merge form
}

// recordsView is that page: the player, the duplicates found by name to
// pick from, and the form refused last (Act) as typed, with its refusal.
type recordsView struct {
	Player registry.Player
	Affs   []registry.Affiliation
	Find   string
	Found  []registry.Player
	Merge  bool
	Staff  bool
	Act    string
	Vals   url.Values
	Errs   kit.FormErrors
	OK     string
	Idem   string
	CSRF   string
}

func (v recordsView) val(act, field string) string {
	if v.Act != act {
		return ""
	}
	return v.Vals.Get(field)
}

func (v recordsView) errs(act string) kit.FormErrors {
	if v.Act != act {
		return kit.FormErrors{}
	}
	return v.Errs
}

type recordAct struct {
	name   string
	fields []string
	ok     string
	do     func(p *recordPages, r *http.Request, a ledger.Actor, key string, id int64) error
}

var recordActs = []recordAct{
	{"transfer", []string{"province_code"}, "player_transferred", func(p *recordPages, r *http.Request, a ledger.Actor, key string, id int64) error {
		_, err := p.records.TransferPlayer(r.Context(), a, key, id, r.PostFormValue("province_code"))
		return err
	}},
	{"honorary", []string{"basis"}, "honorary_recorded", func(p *recordPages, r *http.Request, a ledger.Actor, key string, id int64) error {
		_, err := p.records.RecordHonoraryDan(r.Context(), a, key, id, r.PostFormValue("basis"))
		return err
	}},
	{"affiliation", []string{"kind", "name", "from"}, "affiliation_set", func(p *recordPages, r *http.Request, a ledger.Actor, key string, id int64) error {
		_, err := p.records.SetAffiliation(r.Context(), a, key, registry.AffiliationInput{PlayerID: id, Kind: r.PostFormValue("kind"),
			Name: r.PostFormValue("name"), From: r.PostFormValue("from")})
		return err
	}},
	{"family", []string{"player_b"}, "family_linked", func(p *recordPages, r *http.Request, a ledger.Actor, key string, id int64) error {
		other, err := kit.FormInt(r, "player_b")
		if err != nil {
			return err
		}
		if other == 0 {
			return reasonFamilyNumber.OnField("player_b")
		}
		return p.records.LinkFamily(r.Context(), a, key, id, other)
	}},
	{"merge", []string{"duplicate"}, "players_merged", func(p *recordPages, r *http.Request, a ledger.Actor, key string, id int64) error {
		dup, err := kit.FormInt(r, "duplicate")
		if err != nil {
			return err
		}
		if dup == 0 {
			return reasonPickDuplicate.OnField("duplicate")
		}
		err = p.merger.Merge(r.Context(), a, key, id, dup)
		if e, ok := ledger.AsError(err); ok && e.Field == "duplicate_id" {
			moved := *e // the API's field is the form's duplicate
			moved.Field = "duplicate"
			err = &moved
		}
		return err
	}},
}

// reasonPickDuplicate refuses a merge without a record picked.
var reasonPickDuplicate = ledger.NewReason(ledger.Invalid, "PORTAL_MERGE_PICK",
	"请先按姓名查找并选定要并入的重复档案。", "find the duplicate record by name and pick it first.")

// reasonFamilyNumber refuses a family link without the other player's
// registry number.
var reasonFamilyNumber = ledger.NewReason(ledger.Invalid, "PORTAL_FAMILY_NUMBER",
	"请填写同一家庭另一名棋手的登记号。", "enter the registry number of the other player of the family.")

// newRecordPages serves the page when reg records transfers and honorary ranks.
func newRecordPages(s *kit.Site, reg Registry, merger Merger) *recordPages {
	p := &recordPages{Site: s, reg: reg, merger: merger}
	p.records, _ = reg.(PlayerRecords)
	return p
}

func (p *recordPages) routes(mux *http.ServeMux) {
	if p.records == nil {
		return
	}
	mux.HandleFunc("GET /workspace/players/{id}/records", func(w http.ResponseWriter, r *http.Request) {
		p.show(w, r, http.StatusOK, recordsView{})
	})
	for _, act := range recordActs {
		if act.name == "merge" && p.merger == nil {
			continue
		}
		back := func(r *http.Request) string { return "/workspace/players/" + r.PathValue("id") + "/records" }
		fail := func(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string, err error) {
			p.show(w, r, code, recordsView{Act: act.name, Vals: r.PostForm, Errs: kit.FieldErrors(kit.LangFrom(w, r), errText, err, act.fields...)})
		}
		do := p.PostFields(back, fail, func(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
			id, ok := kit.PathID(r)
			if !ok {
				return kit.Outcome{}, ledger.ErrNotFound
			}
			return kit.Done(act.ok), act.do(p, r, a, key, id)
		})
		p.Confirmed(mux, "/workspace/players/{id}/records/"+act.name, kit.Confirmation{What: "rec_confirm_" + act.name, Back: back,
			Labels: map[string]string{"province_code": "province", "basis": "honorary_basis", "duplicate": "rec_duplicate",
				"kind": "rec_aff_kind", "name": "rec_aff_name", "from": "rec_aff_from", "player_b": "rec_family_other"},
			Subject: p.subject, Show: p.showValue}, do)
	}
}

// subject names the player of the path as people know him: name, registry
// number, province.
func (p *recordPages) subject(r *http.Request, pg kit.Page) string {
	id, ok := kit.PathID(r)
	if !ok {
		return ""
	}
	pl, err := p.reg.GetPlayer(r.Context(), id)
	if err != nil {
		return ""
	}
	return playerLabel(pg, pl)
}

// playerLabel is a player as a person knows him: name, registry number, province, birth year.
func playerLabel(pg kit.Page, pl registry.Player) string {
	return pl.Name + " · " + pg.T["registry_number"] + " " + strconv.FormatInt(pl.ID, 10) + " · " +
		kit.ProvinceOf(pg.Lang, pl.ProvinceCode) + " · " + strconv.Itoa(pl.BirthDate.Year())
}

func (p *recordPages) showValue(r *http.Request, pg kit.Page, field, value string) string {
	switch field {
	case "province_code":
		return kit.ProvinceOf(pg.Lang, value)
	case "kind":
		return pg.T["rr_aff_"+value]
	case "duplicate", "player_b":
		id, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return ""
		}
		pl, err := p.reg.GetPlayer(r.Context(), id)
		if err != nil {
			return ""
		}
		return playerLabel(pg, pl)
	}
	return ""
}

func (p *recordPages) show(w http.ResponseWriter, r *http.Request, code int, v recordsView) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	id, ok := kit.PathID(r)
	if !ok {
		p.Fail(w, r, ledger.ErrNotFound)
		return
	}
	pl, err := p.reg.GetPlayer(r.Context(), id)
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	v.Player, v.Merge, v.Staff = pl, p.merger != nil, a.IsStaff()
	if v.Affs, err = p.reg.Affiliations(r.Context(), id); err != nil {
		p.Fail(w, r, err)
		return
	}
	if v.Find = strings.TrimSpace(r.URL.Query().Get("find")); v.Find != "" {
		found, err := p.reg.SearchPlayers(r.Context(), a, registry.PlayerQuery{Name: v.Find, PageSize: 50})
		if err != nil {
			p.Fail(w, r, err)
			return
		}
		for _, f := range found.Players {
			if f.ID != id {
				v.Found = append(v.Found, f)
			}
		}
	}
	v.Idem, v.CSRF = kit.RandomHex(12), p.FormToken(w, r)
	if code == http.StatusOK {
		v.OK = r.URL.Query().Get("ok")
	}
	pg := p.Page(w, r, "rec_title")
	p.Render(w, r, code, recordsPage(pg, v))
}
