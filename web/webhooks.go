package web

import (
	"context"
	"net/http"
	"strconv"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/web/kit"
	"github.com/dankyu/dankyu/webhooks"
)

// Webhooks are the subscriptions to the registry's public events: the
// webhooks service, which the API's WebhookService serves too and which
// decides who may subscribe and whose subscriptions each sees.
type Webhooks interface {
	Subscribe(ctx context.Context, actor ledger.Actor, key, rawURL string, actions []string) (webhooks.Subscription, error)
	Unsubscribe(ctx context.Context, actor ledger.Actor, key string, id int64) (webhooks.Subscription, error)
	Subscriptions(ctx context.Context, actor ledger.Actor) ([]webhooks.Subscription, error)
	Attempts(ctx context.Context, actor ledger.Actor, id int64) ([]webhooks.Attempt, error)
}

// webhookPages are the subscriptions' pages: the list, subscribing (the
// signing secret shown once, on the answer), unsubscribing after a
// confirmation page, and a subscription's delivery attempts.
type webhookPages struct {
	*kit.Site
	hooks Webhooks
}

// webhookAttemptsShown bounds the attempts a subscription's page shows:
// the latest.
const webhookAttemptsShown = 200

func (p *webhookPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /workspace/webhooks", p.list)
	mux.HandleFunc("POST /workspace/webhooks", p.subscribe)
	mux.HandleFunc("GET /workspace/webhooks/{id}", p.attempts)
	p.Confirmed(mux, "/workspace/webhooks/{id}/unsubscribe", kit.Confirmation{What: "confirm_unsubscribe", Back: toWebhooks,
		Subject: p.subject, Check: p.mayEnd}, p.PostFields(toWebhooks, p.failList, p.unsubscribe))
}

func toWebhooks(*http.Request) string { return "/workspace/webhooks" }

// webhookForm is the subscription's form as typed.
type webhookForm struct {
	URL     string
	Actions map[string]bool
}

// webhooksView is the subscriptions page; New is one just made, with its
// secret shown this once.
type webhooksView struct {
	Subs    []webhooks.Subscription
	Staff   bool // staff see every subscriber's
	Form    webhookForm
	New     *webhooks.Subscription
	OK      string
	Errs    kit.FormErrors
	Idem    string
	CSRF    string
	Actions []string
}

func (p *webhookPages) list(w http.ResponseWriter, r *http.Request) {
	if _, ok := p.SignedIn(w, r); !ok {
		return
	}
	p.show(w, r, http.StatusOK, webhooksView{OK: r.URL.Query().Get("ok")})
}

// show lists the subscriptions the service shows the signed-in actor;
// its refusal (neither an agency nor staff) is the page's answer.
func (p *webhookPages) show(w http.ResponseWriter, r *http.Request, code int, v webhooksView) {
	pg := p.Page(w, r, "webhooks")
	a := p.Actor(r)
	subs, err := p.hooks.Subscriptions(r.Context(), a)
	if err != nil {
		p.Refuse(w, r, pg, err)
		return
	}
	v.Subs, v.Staff, v.Idem, v.CSRF, v.Actions = subs, a.IsStaff(), kit.RandomHex(12), pg.CSRF, webhooks.Actions
	w.Header().Set("Cache-Control", "no-store") // a new secret may be on it
	p.Render(w, r, code, webhooksPage(pg, v))
}

func (p *webhookPages) failList(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string, _ error) {
	p.show(w, r, code, webhooksView{Errs: kit.FormErrors{Form: errText}})
}

// subscribe makes a subscription and shows its secret on the answer
// itself, once (never redirected to nor logged); a repeat of the form
// lands on the list.
func (p *webhookPages) subscribe(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	_ = r.ParseForm()
	form := webhookForm{URL: r.PostFormValue("webhook_url"), Actions: map[string]bool{}}
	for _, act := range r.PostForm["webhook_actions"] {
		form.Actions[act] = true
	}
	claim := p.ClaimForm(r)
	if claim.Repeat != "" {
		http.Redirect(w, r, claim.Repeat, http.StatusSeeOther)
		return
	}
	if !claim.OK() {
		p.show(w, r, claim.Status, webhooksView{Form: form, Errs: kit.FormErrors{Form: p.Texts(kit.LangFrom(w, r))[claim.Refused]}})
		return
	}
	sub, err := p.hooks.Subscribe(r.Context(), a, r.PostFormValue("idem"), form.URL, r.PostForm["webhook_actions"])
	if err != nil {
		claim.Settle("")
		errs := kit.FieldErrors(kit.LangFrom(w, r), p.UserError(r, p.Page(w, r, ""), err), err, "webhook_url", "webhook_actions")
		p.show(w, r, kit.HTTPStatus(err), webhooksView{Form: form, Errs: errs})
		return
	}
	claim.Settle(toWebhooks(r))
	p.show(w, r, http.StatusOK, webhooksView{New: &sub})
}

func (p *webhookPages) unsubscribe(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, ok := kit.PathID(r)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	_, err := p.hooks.Unsubscribe(r.Context(), a, key, id)
	return kit.Done("webhook_unsubscribed"), err
}

// mayEnd refuses the confirmation page as the service would refuse the
// unsubscription: a subscription not among those it shows the actor.
func (p *webhookPages) mayEnd(r *http.Request, a ledger.Actor) error {
	id, ok := kit.PathID(r)
	if !ok {
		return ledger.ErrNotFound
	}
	_, err := p.find(r, a, id)
	return err
}

// subject names the subscription of the path on its confirmation page,
// among those the service shows the signed-in actor.
func (p *webhookPages) subject(r *http.Request, _ kit.Page) string {
	id, ok := kit.PathID(r)
	if !ok {
		return ""
	}
	if sub, err := p.find(r, p.Actor(r), id); err == nil {
		return "#" + strconv.FormatInt(id, 10) + " " + sub.URL
	}
	return ""
}

// find is the subscription id among those the service shows a (staff:
// everyone's); one not among them is refused as the service refuses it.
func (p *webhookPages) find(r *http.Request, a ledger.Actor, id int64) (webhooks.Subscription, error) {
	subs, err := p.hooks.Subscriptions(r.Context(), a)
	if err != nil {
		return webhooks.Subscription{}, err
	}
	for _, s := range subs {
		if s.ID == id {
			return s, nil
		}
	}
	return webhooks.Subscription{}, webhooks.ReasonNoSuchWebhook.New("id", strconv.FormatInt(id, 10))
}

// attemptsView is a subscription's page: its record and its latest tries.
type attemptsView struct {
	Sub      webhooks.Subscription
	Attempts []webhooks.Attempt
	Total    int
}

func (p *webhookPages) attempts(w http.ResponseWriter, r *http.Request) {
	if _, ok := p.SignedIn(w, r); !ok {
		return
	}
	pg := p.Page(w, r, "webhook_attempts")
	id, ok := kit.PathID(r)
	if !ok {
		p.Fail(w, r, ledger.ErrNotFound)
		return
	}
	as, err := p.hooks.Attempts(r.Context(), p.Actor(r), id)
	if err != nil {
		p.Refuse(w, r, pg, err)
		return
	}
	sub, err := p.find(r, p.Actor(r), id)
	if err != nil {
		// not the actor's (nor any): as the service answers over the API
		p.Refuse(w, r, pg, err)
		return
	}
	v := attemptsView{Sub: sub, Total: len(as)}
	// the latest first, at most webhookAttemptsShown (the service lists oldest first)
	for i := len(as) - 1; i >= 0 && len(v.Attempts) < webhookAttemptsShown; i-- {
		v.Attempts = append(v.Attempts, as[i])
	}
	w.Header().Set("Cache-Control", "no-store")
	p.Render(w, r, http.StatusOK, webhookAttemptsPage(pg, v))
}
