package web

import (
	"net/http"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/kit"
)

// identityPages are the queue of changes of players' birth dates and
// identity documents: staff approve or reject those that wait; an agency
// sees its own province's.
type identityPages struct {
	*kit.Site
	reg Registry
}

func (p *identityPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /workspace/identity-changes", p.Get(p.queue))
	mux.Handle("POST /workspace/identity-changes/{id}/approve", p.Post(toIdentityChanges, p.fail, p.decide(true)))
	mux.Handle("POST /workspace/identity-changes/{id}/reject", p.Post(toIdentityChanges, p.fail, p.decide(false)))
}

func toIdentityChanges(*http.Request) string { return "/workspace/identity-changes" }

// identityQueue is the queue page: the changes waiting, then the latest decided.
type identityQueue struct {
	Pending, Decided []registry.IdentityChange
	Staff            bool
	OK, Err          string
	CSRF             string
}

func (p *identityPages) queue(w http.ResponseWriter, r *http.Request) error {
	if _, ok := p.SignedIn(w, r); !ok {
		return nil
	}
	p.show(w, r, http.StatusOK, identityQueue{OK: r.URL.Query().Get("ok")})
	return nil
}

func (p *identityPages) show(w http.ResponseWriter, r *http.Request, code int, v identityQueue) {
	a := p.Actor(r)
	pg := p.Page(w, r, "identity_changes")
	all, err := p.reg.ListIdentityChanges(r.Context(), a, registry.IdentityChangeQuery{Limit: registry.MaxPageSize})
	if err != nil {
		if ledger.KindOf(err) == ledger.Internal {
			p.Fail(w, r, err)
			return
		}
		v.Err = p.UserError(r, pg, err)
	}
	for _, c := range all {
		if c.Status == registry.ChangePending {
			v.Pending = append(v.Pending, c)
		} else {
			v.Decided = append(v.Decided, c)
		}
	}
	v.Staff, v.CSRF = a.IsStaff(), pg.CSRF
	w.Header().Set("Cache-Control", "no-store")
	p.Render(w, r, code, identityQueuePage(pg, v))
}

func (p *identityPages) fail(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string) {
	p.show(w, r, code, identityQueue{Err: errText})
}

func (p *identityPages) decide(approve bool) kit.Action {
	return func(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
		id, ok := kit.PathID(r)
		if !ok {
			return kit.Outcome{}, ledger.ErrNotFound
		}
		if _, err := p.reg.DecideIdentityChange(r.Context(), a, key, id, approve, r.PostFormValue("reason")); err != nil {
			return kit.Outcome{}, err
		}
		if approve {
			return kit.Done("identity_approved"), nil
		}
		return kit.Done("identity_rejected"), nil
	}
}

// requester names who asked a change as people say it: the agency's name,
// or the staff member's.
func requester(p kit.Page, by string) string {
	return p.StoredActor(by)
}
