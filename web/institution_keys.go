package web

import (
	"context"
	"net/http"
	"strconv"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/kit"
)

// institutionKeys are the keys institutions verify certificates with
// (X-Api-Key): the registry's calls, which the API's RegistryService makes
// too, each deciding under the access policy who may.
type institutionKeys interface {
	IssueInstitutionKey(ctx context.Context, actor ledger.Actor, in registry.InstitutionKeyInput) (string, registry.InstitutionKey, error)
	ListInstitutionKeys(ctx context.Context, actor ledger.Actor) ([]registry.InstitutionKey, error)
	RevokeInstitutionKey(ctx context.Context, actor ledger.Actor, idemKey string, id int64, reason string) (registry.InstitutionKey, error)
	InstitutionKeyUsage(ctx context.Context, actor ledger.Actor, id int64, limit int) (registry.InstitutionKey, []registry.KeyUsage, error)
}

// keyPages are the association's pages of institution keys: the list, a
// new key (shown once, on the answer to its form), revoking one after a
// confirmation page, and a key's use per window.
type keyPages struct {
	*kit.Site
	keys institutionKeys
}

// keyUsageWindows is how many of a key's latest windows its page shows.
const keyUsageWindows = 200

func (p *keyPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /workspace/institution-keys", p.list)
	mux.HandleFunc("POST /workspace/institution-keys", p.issue)
	mux.HandleFunc("GET /workspace/institution-keys/{id}", p.usage)
	p.Confirmed(mux, "/workspace/institution-keys/{id}/revoke", kit.Confirmation{What: "confirm_revoke_key", Back: toKeys,
		Subject: p.keySubject, Check: p.mayRevoke}, p.PostFields(toKeys, p.failList, p.revoke))
}

func toKeys(*http.Request) string { return "/workspace/institution-keys" }

// keyForm is the new key's form as typed.
type keyForm struct {
	Institution, Kind, Quota, Per string
}

// keysView is the keys page; New is a key just issued, shown this once.
type keysView struct {
	Keys    []registry.InstitutionKey
	Form    keyForm
	New     string
	NewInfo registry.InstitutionKey
	OK      string
	Errs    kit.FormErrors
	Idem    string
	CSRF    string
}

func (p *keyPages) list(w http.ResponseWriter, r *http.Request) {
	if _, ok := p.SignedIn(w, r); !ok {
		return
	}
	p.show(w, r, http.StatusOK, keysView{OK: r.URL.Query().Get("ok"), Form: keyForm{Per: "day"}})
}

// show lists the keys as the registry lets the signed-in actor see them:
// its refusal (not staff) is the page's answer.
func (p *keyPages) show(w http.ResponseWriter, r *http.Request, code int, v keysView) {
	pg := p.Page(w, r, "institution_keys")
	ks, err := p.keys.ListInstitutionKeys(r.Context(), p.Actor(r))
	if err != nil {
		p.Refuse(w, r, pg, err)
		return
	}
	v.Keys, v.Idem, v.CSRF = ks, kit.RandomHex(12), pg.CSRF
	w.Header().Set("Cache-Control", "no-store") // a new key may be on it
	p.Render(w, r, code, keysPage(pg, v))
}

// keyFields are the new key's form's fields, beside which a refusal shows.
var keyFields = []string{"institution", "kind", "quota", "per"}

func (p *keyPages) failList(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string, _ error) {
	p.show(w, r, code, keysView{Errs: kit.FormErrors{Form: errText}, Form: keyForm{Per: "day"}})
}

// issue makes a key and shows it on the answer itself, once: the registry
// keeps only its hash, so it is neither redirected to nor logged, and a
// repeat of the form lands on the list.
func (p *keyPages) issue(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	form := keyForm{Institution: r.PostFormValue("institution"), Kind: r.PostFormValue("kind"), Quota: r.PostFormValue("quota"), Per: r.PostFormValue("per")}
	claim := p.ClaimForm(r)
	if claim.Repeat != "" {
		http.Redirect(w, r, claim.Repeat, http.StatusSeeOther)
		return
	}
	if !claim.OK() {
		p.show(w, r, claim.Status, keysView{Form: form, Errs: kit.FormErrors{Form: p.Texts(kit.LangFrom(w, r))[claim.Refused]}})
		return
	}
	refuse := func(err error) {
		claim.Settle("")
		l := kit.LangFrom(w, r)
		p.show(w, r, kit.HTTPStatus(err), keysView{Form: form, Errs: kit.FieldErrors(l, p.UserError(r, p.Page(w, r, ""), err), err, keyFields...)})
	}
	quota, err := kit.FormInt(r, "quota")
	if err != nil {
		refuse(err)
		return
	}
	key, info, err := p.keys.IssueInstitutionKey(r.Context(), a, registry.InstitutionKeyInput{Institution: form.Institution,
		Kind: form.Kind, Quota: int(quota), Per: form.Per})
	if err != nil {
		refuse(err)
		return
	}
	claim.Settle(toKeys(r))
	p.show(w, r, http.StatusOK, keysView{New: key, NewInfo: info, Form: keyForm{Per: "day"}})
}

func (p *keyPages) revoke(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, ok := kit.PathID(r)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	_, err := p.keys.RevokeInstitutionKey(r.Context(), a, key, id, r.PostFormValue("reason"))
	return kit.Done("key_revoked"), err
}

// mayRevoke refuses the confirmation page as the registry would refuse
// the revocation: to anyone but staff, for an unknown key.
func (p *keyPages) mayRevoke(r *http.Request, a ledger.Actor) error {
	id, ok := kit.PathID(r)
	if !ok {
		return ledger.ErrNotFound
	}
	_, _, err := p.keys.InstitutionKeyUsage(r.Context(), a, id, 1)
	return err
}

// keySubject names the key of the path on its confirmation page, as the
// registry shows it to the signed-in actor (nothing to one it refuses).
func (p *keyPages) keySubject(r *http.Request, _ kit.Page) string {
	id, ok := kit.PathID(r)
	if !ok {
		return ""
	}
	k, _, err := p.keys.InstitutionKeyUsage(r.Context(), p.Actor(r), id, 1)
	if err != nil {
		return ""
	}
	return k.Shown + "… " + k.Institution
}

// usageView is a key's page: its record and its use per window.
type usageView struct {
	Key       registry.InstitutionKey
	Windows   []registry.KeyUsage
	TotalUsed int64
}

func (p *keyPages) usage(w http.ResponseWriter, r *http.Request) {
	if _, ok := p.SignedIn(w, r); !ok {
		return
	}
	pg := p.Page(w, r, "institution_key_usage")
	id, ok := kit.PathID(r)
	if !ok {
		p.Fail(w, r, ledger.ErrNotFound)
		return
	}
	k, use, err := p.keys.InstitutionKeyUsage(r.Context(), p.Actor(r), id, keyUsageWindows)
	if err != nil {
		p.Refuse(w, r, pg, err)
		return
	}
	v := usageView{Key: k, Windows: use}
	for _, u := range use {
		v.TotalUsed += int64(u.Used)
	}
	pg.Title = pg.T["institution_key_usage"] + " " + strconv.FormatInt(k.ID, 10)
	w.Header().Set("Cache-Control", "no-store")
	p.Render(w, r, http.StatusOK, keyUsagePage(pg, v))
}
