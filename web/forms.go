package web

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/ledger"
)

// outcome is where a form post that succeeded leads: back to the page it
// came from with a message (ok names it), or to a page of its own (to).
type outcome struct {
	ok string
	to string
}

// done returns to the form's page with the message key.
func done(ok string) outcome { return outcome{ok: ok} }

// goTo leads to a page of the action's own, e.g. a tournament it created.
func goTo(url string) outcome { return outcome{to: url} }

// failPage shows a form's page again with the refusal, the form as typed.
type failPage func(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string)

// action is what a form post does for the signed-in actor; key is the
// form's idempotency key.
type action func(r *http.Request, a ledger.Actor, key string) (outcome, error)

// fieldFailPage is a failPage that also gets the refusal (nil when the
// form never reached its action), to show it beside the field it names.
type fieldFailPage func(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string, err error)

// post is the one wrapper of every form post of a signed-in user: sign-in
// and the form token first, then the action; success redirects (to back
// with the message, or where the action says), a refusal shows fail's page
// with the refusal in the page's language.
func (s *site) post(back func(r *http.Request) string, fail failPage, fn action) http.HandlerFunc {
	return s.postFields(back, func(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string, _ error) {
		fail(w, r, a, code, errText)
	}, fn)
}

// postFields is post whose failure page also gets the refusal.
func (s *site) postFields(back func(r *http.Request) string, fail fieldFailPage, fn action) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, ok := s.signedIn(w, r)
		if !ok {
			return
		}
		if err := r.ParseMultipartForm(16 << 20); err != nil && err != http.ErrNotMultipart {
			fail(w, r, a, http.StatusBadRequest, reasonUploadUnreadable.New().Message(langFrom(w, r)), nil)
			return
		}
		if !s.formOK(r) {
			fail(w, r, a, http.StatusForbidden, s.texts[langFrom(w, r)]["form_expired"], nil)
			return
		}
		out, err := fn(r, a, r.PostFormValue("idem"))
		if err != nil {
			fail(w, r, a, httpStatus(err), s.userError(r, s.page(w, r, ""), err), err)
			return
		}
		if out.to != "" {
			http.Redirect(w, r, out.to, http.StatusSeeOther)
			return
		}
		http.Redirect(w, r, back(r)+"?ok="+out.ok+"#top", http.StatusSeeOther)
	}
}

// maxFormInt bounds every whole number a form sends: the registry's
// numbers are PostgreSQL integers, and larger ones only serve to make the
// database refuse (a 500) or a loop run on.
const maxFormInt = math.MaxInt32

func formInt(r *http.Request, field string) (int64, error) {
	v := strings.TrimSpace(r.PostFormValue(field))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, reasonNotANumber.OnField(field, "value", v)
	}
	if err != nil || n > maxFormInt || n < -maxFormInt {
		return 0, ledger.ReasonOutOfRange.OnField(field, "min", strconv.Itoa(-maxFormInt), "max", strconv.Itoa(maxFormInt))
	}
	return n, nil
}
