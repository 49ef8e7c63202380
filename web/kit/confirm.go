package kit

import (
	"net/http"

	"github.com/dankyu/dankyu/ledger"
	"net/url"
	"sort"
	"strings"
)

// Confirmation is a destructive action's confirmation page: what it does
// (a message key) and where cancelling leads.
type Confirmation struct {
	What string
	Back func(r *http.Request) string
	// Labels are the message keys of fields not labelled as in refusals
	Labels map[string]string
	// Subject names what the action is done to (a holder, an event, an
	// agency), as its records say; nil or "" for none.
	Subject func(r *http.Request, pg Page) string
	// Show words a field's value as the reader knows it (a participant's
	// name for his number, 黑方 for black); nil or "" shows it as sent.
	Show func(r *http.Request, pg Page, field, value string) string
	// Check refuses, before the confirmation page, what the action would
	// refuse of its fields anyway (an unknown number, an empty reason);
	// Refused then shows the form again with the refusal. Nil: no check.
	Check   func(r *http.Request, a ledger.Actor) error
	Refused FieldFailPage
}

// confirmField is a field of the form being confirmed, with its label.
type confirmField struct {
	Name, Label, Value string
	Shown              string // the value as the page shows it
}

// confirmView is the confirmation page: what is about to be done, to what,
// and the form that does it.
type confirmView struct {
	What    string
	Subject string
	Action  string
	Fields  []confirmField
	Back    string
	Idem    string
	CSRF    string
}

// notEchoed are the fields a confirmation does not carry over.
var notEchoed = map[string]bool{"csrf": true, "idem": true, "confirm": true, "lang": true}

// Confirmed registers a destructive action: GET pattern+"/confirm" (with
// the form's fields in its query) shows what it will do and a form that
// posts them with confirm=yes to POST pattern, which does it; a post
// without confirm=yes is sent to the confirmation page first. No
// JavaScript needed.
func (s *Site) Confirmed(mux *http.ServeMux, pattern string, c Confirmation, do http.Handler) {
	mux.HandleFunc("GET "+pattern+"/confirm", func(w http.ResponseWriter, r *http.Request) {
		a, ok := s.SignedIn(w, r)
		if !ok {
			return
		}
		if c.Check != nil {
			if err := c.Check(r, a); err != nil {
				if c.Refused == nil || ledger.KindOf(err) == ledger.Internal {
					s.Refuse(w, r, s.Page(w, r, ""), err)
					return
				}
				c.Refused(w, r, a, HTTPStatus(err), s.UserError(r, s.Page(w, r, ""), err), err)
				return
			}
		}
		pg := s.Page(w, r, "confirm")
		pg.Title = pg.T[c.What]
		action := SitePath(strings.TrimSuffix(r.URL.Path, "/confirm"))
		v := confirmView{What: pg.T[c.What], Action: action, Back: c.Back(r), Idem: RandomHex(12), CSRF: pg.CSRF}
		if c.Subject != nil {
			v.Subject = c.Subject(r, pg)
		}
		q := r.URL.Query()
		names := make([]string, 0, len(q))
		for k := range q {
			if !notEchoed[k] {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		for _, k := range names {
			for _, val := range q[k] {
				label := pg.T["field_"+k]
				if key, ok := c.Labels[k]; ok {
					label = pg.T[key]
				}
				if label == "" {
					label = k
				}
				shown := val
				if c.Show != nil {
					if s := c.Show(r, pg, k, val); s != "" {
						shown = s
					}
				}
				v.Fields = append(v.Fields, confirmField{Name: k, Label: label, Value: val, Shown: shown})
			}
		}
		s.Render(w, r, http.StatusOK, confirmPage(pg, v))
	})
	mux.HandleFunc("POST "+pattern, func(w http.ResponseWriter, r *http.Request) {
		if r.PostFormValue("confirm") == "yes" {
			do.ServeHTTP(w, r)
			return
		}
		q := url.Values{}
		for k, vs := range r.PostForm {
			if !notEchoed[k] {
				q[k] = vs
			}
		}
		to := SitePath(r.URL.Path) + "/confirm"
		if len(q) > 0 {
			to += "?" + q.Encode()
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
	})
}
