// Package staffpages is the association's tools on the portal: agencies
// (create, suspend, reactivate), tokens (create, shown once; revoke), and
// reissuing certificates (agencies too, for their province).
package staffpages

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/kit"
)

// Registry is what staff manage on the portal: agencies and tokens.
type Registry interface {
	ListAgencies(ctx context.Context) ([]registry.Agency, error)
	CreateAgency(ctx context.Context, actor ledger.Actor, key string, in registry.AgencyInput) (registry.Agency, error)
	SetAgencyStatus(ctx context.Context, actor ledger.Actor, key, prefix string, status registry.AgencyStatus, reason string) (registry.Agency, error)
	CreateToken(ctx context.Context, actor ledger.Actor, kind ledger.ActorKind, agencyPrefix, staffName string) (string, registry.TokenInfo, error)
	RevokeToken(ctx context.Context, actor ledger.Actor, id int64) error
	ListTokens(ctx context.Context) ([]registry.TokenInfo, error)
}

// Reissuer reissues a certificate (a lost or damaged one gets a new number).
type Reissuer interface {
	Reissue(ctx context.Context, actor ledger.Actor, key, number, reason string) (certs.Certificate, error)
}

// Pages are the association's tools: agencies (create, suspend,
// reactivate), tokens (create, shown once; revoke), and reissuing
// certificates (agencies too, for their province).
type Pages struct {
	*kit.Site
	reg      Registry
	certs    Reissuer
	national NationalList // nil: no page of the national list
}

// WithNational adds the page of the national list (/workspace/national).
func (p *Pages) WithNational(n NationalList) *Pages { p.national = n; return p }

// New returns the staff's pages over the site.
func New(site *kit.Site, reg Registry, certs Reissuer) *Pages {
	return &Pages{Site: site, reg: reg, certs: certs}
}

// Routes registers the staff's pages.
func (p *Pages) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /workspace/agencies", p.agenciesPage)
	mux.Handle("POST /workspace/agencies", p.PostFields(toAgencies, p.failAgencies, p.createAgency))
	mux.Handle("POST /workspace/agencies/{prefix}/reactivate", p.PostFields(toAgencies, p.failAgencies, p.reactivate))
	p.Confirmed(mux, "/workspace/agencies/{prefix}/suspend", kit.Confirmation{What: "confirm_suspend", Back: toAgencies, Subject: func(r *http.Request, pg kit.Page) string { return pg.AgencyName(r.PathValue("prefix")) }},
		p.PostFields(toAgencies, p.failAgencies, p.suspend))
	mux.HandleFunc("GET /workspace/tokens", p.tokensPage)
	mux.HandleFunc("POST /workspace/tokens", p.createToken)
	p.Confirmed(mux, "/workspace/tokens/{id}/revoke", kit.Confirmation{What: "confirm_revoke_token", Back: toTokens, Subject: p.tokenSubject},
		p.PostFields(toTokens, p.failTokens, p.revokeToken))
	mux.HandleFunc("GET /workspace/reissue", p.reissueForm)
	mux.Handle("POST /workspace/reissue", p.Post(toWorkspace, p.failReissue, p.reissue))
	p.nationalRoutes(mux)
}

func toAgencies(*http.Request) string { return "/workspace/agencies" }

// toWorkspace is where a reissue's cancel or success leads.
func toWorkspace(*http.Request) string { return "/workspace" }

// tokenSubject names whom the token of the path is for.
func (p *Pages) tokenSubject(r *http.Request, pg kit.Page) string {
	id, _ := kit.PathID(r)
	ts, err := p.reg.ListTokens(r.Context())
	if err != nil {
		return ""
	}
	for _, t := range ts {
		if t.ID == id {
			return "#" + strconv.FormatInt(id, 10) + " " + tokenHolder(pg, t)
		}
	}
	return ""
}
func toTokens(*http.Request) string { return "/workspace/tokens" }

// agencyForm is the new agency's form as typed.
type agencyForm struct {
	Prefix, Name, Contact string
}

// agenciesView is the staff's agencies page.
type agenciesView struct {
	Agencies []registry.Agency
	Form     agencyForm
	OK       string
	Errs     kit.FormErrors
	Idem     string
	CSRF     string
}

// staffOnly answers the page for staff; the public signs in, an agency is refused.
func (p *Pages) staffOnly(w http.ResponseWriter, r *http.Request) bool {
	a, ok := p.SignedIn(w, r)
	switch {
	case !ok:
		return false
	case !a.IsStaff():
		pg := p.Page(w, r, "error")
		p.Render(w, r, http.StatusForbidden, kit.MessagePage(pg, pg.T["error"], pg.T["staff_only_page"]))
		return false
	}
	return true
}

func (p *Pages) agenciesPage(w http.ResponseWriter, r *http.Request) {
	if !p.staffOnly(w, r) {
		return
	}
	p.showAgencies(w, r, http.StatusOK, agenciesView{OK: r.URL.Query().Get("ok")})
}

func (p *Pages) showAgencies(w http.ResponseWriter, r *http.Request, code int, v agenciesView) {
	as, err := p.reg.ListAgencies(r.Context())
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	pg := p.Page(w, r, "manage_agencies")
	v.Agencies, v.Idem, v.CSRF = as, kit.RandomHex(12), pg.CSRF
	p.Render(w, r, code, agenciesAdminPage(pg, v))
}

func (p *Pages) failAgencies(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string, err error) {
	var fields []string // the new agency's form; the other posts of the page are buttons
	if r.URL.Path == "/workspace/agencies" {
		fields = []string{"prefix", "name", "contact"}
	}
	v := agenciesView{Form: agencyForm{Prefix: r.PostFormValue("prefix"), Name: r.PostFormValue("name"), Contact: r.PostFormValue("contact")},
		Errs: kit.FieldErrors(kit.LangFrom(w, r), errText, err, fields...)}
	p.showAgencies(w, r, code, v)
}

func (p *Pages) createAgency(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	_, err := p.reg.CreateAgency(r.Context(), a, key, registry.AgencyInput{Prefix: r.PostFormValue("prefix"),
		Name: r.PostFormValue("name"), Contact: r.PostFormValue("contact")})
	return kit.Done("agency_created"), err
}

func (p *Pages) suspend(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	_, err := p.reg.SetAgencyStatus(r.Context(), a, key, r.PathValue("prefix"), registry.AgencySuspended, r.PostFormValue("reason"))
	return kit.Done("agency_suspended"), err
}

func (p *Pages) reactivate(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	_, err := p.reg.SetAgencyStatus(r.Context(), a, key, r.PathValue("prefix"), registry.AgencyActive, r.PostFormValue("reason"))
	return kit.Done("agency_reactivated"), err
}

// tokensView is the staff's tokens page; New is a token just created,
// shown this once.
type tokensView struct {
	Tokens   []registry.TokenInfo
	Agencies []registry.Agency
	New      string
	NewInfo  registry.TokenInfo
	OK       string
	Err      string
	CSRF     string
}

func (p *Pages) tokensPage(w http.ResponseWriter, r *http.Request) {
	if !p.staffOnly(w, r) {
		return
	}
	p.showTokens(w, r, http.StatusOK, tokensView{OK: r.URL.Query().Get("ok")})
}

func (p *Pages) showTokens(w http.ResponseWriter, r *http.Request, code int, v tokensView) {
	var err error
	if v.Tokens, err = p.reg.ListTokens(r.Context()); err != nil {
		p.Fail(w, r, err)
		return
	}
	if v.Agencies, err = p.reg.ListAgencies(r.Context()); err != nil {
		p.Fail(w, r, err)
		return
	}
	pg := p.Page(w, r, "manage_tokens")
	v.CSRF = pg.CSRF
	w.Header().Set("Cache-Control", "no-store") // a new token is on it
	p.Render(w, r, code, tokensAdminPage(pg, v))
}

func (p *Pages) failTokens(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string, _ error) {
	p.showTokens(w, r, code, tokensView{Err: errText})
}

// createToken makes a token and shows it on the answer itself, once: it
// is stored only as its hash, so it is neither redirected to nor logged.
func (p *Pages) createToken(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	// a token is made once per form: a repeat lands on the list (the
	// token itself is shown only on the first answer)
	claim := p.ClaimForm(r)
	if claim.Repeat != "" {
		http.Redirect(w, r, claim.Repeat, http.StatusSeeOther)
		return
	}
	if !claim.OK() {
		p.showTokens(w, r, claim.Status, tokensView{Err: p.Texts(kit.LangFrom(w, r))[claim.Refused]})
		return
	}
	kind, agency, staff := ledger.AgencyActor, strings.TrimSpace(r.PostFormValue("agency")), ""
	if r.PostFormValue("kind") == "staff" {
		kind, agency, staff = ledger.StaffActor, "", strings.TrimSpace(r.PostFormValue("staff_name"))
	}
	tok, info, err := p.reg.CreateToken(r.Context(), a, kind, agency, staff)
	if err != nil {
		claim.Settle("")
		pg := p.Page(w, r, "manage_tokens")
		p.showTokens(w, r, kit.HTTPStatus(err), tokensView{Err: p.UserError(r, pg, err)})
		return
	}
	claim.Settle("/workspace/tokens")
	p.showTokens(w, r, http.StatusOK, tokensView{New: tok, NewInfo: info})
}

func (p *Pages) revokeToken(r *http.Request, a ledger.Actor, _ string) (kit.Outcome, error) {
	id, ok := kit.PathID(r)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	return kit.Done("token_revoked"), p.reg.RevokeToken(r.Context(), a, id)
}

// reissueView is the reissue form as typed.
type reissueView struct {
	Number, Reason, Err, Idem, CSRF string
}

func (p *Pages) reissueForm(w http.ResponseWriter, r *http.Request) {
	if _, ok := p.SignedIn(w, r); !ok {
		return
	}
	p.showReissue(w, r, http.StatusOK, reissueView{Number: r.URL.Query().Get("number")})
}

func (p *Pages) showReissue(w http.ResponseWriter, r *http.Request, code int, v reissueView) {
	pg := p.Page(w, r, "reissue")
	v.Idem, v.CSRF = kit.RandomHex(12), pg.CSRF
	p.Render(w, r, code, reissuePage(pg, v))
}

func (p *Pages) failReissue(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string) {
	p.showReissue(w, r, code, reissueView{Number: r.PostFormValue("number"), Reason: r.PostFormValue("reason"), Err: errText})
}

// reissue gives a certificate a new number and opens the new one to print.
func (p *Pages) reissue(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	c, err := p.certs.Reissue(r.Context(), a, key, r.PostFormValue("number"), r.PostFormValue("reason"))
	if err != nil {
		return kit.Outcome{}, err
	}
	return kit.GoTo("/certificates/" + c.Number + "?reissued=1"), nil
}
