package kit

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/text/width"

	"github.com/dankyu/dankyu/ledger"
)

// Outcome is where a form post that succeeded leads: back to the page it
// came from with a message (ok names it), or to a page of its own (to).
type Outcome struct {
	ok string
	to string
}

// Done returns to the form's page with the message key.
func Done(ok string) Outcome { return Outcome{ok: ok} }

// GoTo leads to a page of the action's own, e.g. a tournament it created.
func GoTo(url string) Outcome { return Outcome{to: url} }

// FailPage shows a form's page again with the refusal, the form as typed.
type FailPage func(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string)

// Action is what a form post does for the signed-in actor; key is the
// form's idempotency key.
type Action func(r *http.Request, a ledger.Actor, key string) (Outcome, error)

// FieldFailPage is a FailPage that also gets the refusal (nil when the
// form never reached its action), to show it beside the field it names.
type FieldFailPage func(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string, err error)

// Post is the one wrapper of every form post of a signed-in user: sign-in
// and the form token first (used up: ClaimForm), then the action; success redirects (to back
// with the message, or where the action says), a refusal shows fail's page
// with the refusal in the page's language.
func (s *Site) Post(back func(r *http.Request) string, fail FailPage, fn Action) http.HandlerFunc {
	return s.PostFields(back, func(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string, _ error) {
		fail(w, r, a, code, errText)
	}, fn)
}

// PostFields is Post whose failure page also gets the refusal.
func (s *Site) PostFields(back func(r *http.Request) string, fail FieldFailPage, fn Action) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, ok := s.SignedIn(w, r)
		if !ok {
			return
		}
		if err := r.ParseMultipartForm(16 << 20); err != nil && err != http.ErrNotMultipart {
			fail(w, r, a, http.StatusBadRequest, ReasonUploadUnreadable.New().Message(LangFrom(w, r)), nil)
			return
		}
		// the token is used up by this post: a replay is refused, a
		// repeat of it (same idempotency key) answered with where it led
		claim := s.ClaimForm(r)
		if claim.Repeat != "" {
			http.Redirect(w, r, claim.Repeat, http.StatusSeeOther)
			return
		}
		if !claim.OK() {
			fail(w, r, a, claim.Status, s.texts[LangFrom(w, r)][claim.Refused], nil)
			return
		}
		out, err := fn(r, a, r.PostFormValue("idem"))
		if err != nil {
			claim.Settle("")
			fail(w, r, a, HTTPStatus(err), s.UserError(r, s.Page(w, r, ""), err), err)
			return
		}
		to := out.to
		if to == "" {
			to = back(r) + "?ok=" + out.ok + "#top"
		}
		claim.Settle(to)
		http.Redirect(w, r, to, http.StatusSeeOther)
	}
}

// MaxFormInt bounds every whole number a form sends: the registry's
// numbers are PostgreSQL integers, and larger ones only serve to make the
// database refuse (a 500) or a loop run on.
const MaxFormInt = math.MaxInt32

// FormInt is a whole number of the form; 0 when the field is empty.
// Full-width digits and signs (５０, as Chinese input methods type them)
// are read as the same number.
func FormInt(r *http.Request, field string) (int64, error) {
	v := Narrow(r.PostFormValue(field))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, ReasonNotANumber.OnField(field, "value", v)
	}
	if err != nil || n > MaxFormInt || n < -MaxFormInt {
		return 0, ledger.ReasonOutOfRange.OnField(field, "min", strconv.Itoa(-MaxFormInt), "max", strconv.Itoa(MaxFormInt))
	}
	return n, nil
}

// Narrow is a typed number or code as ASCII: full-width digits and letters
// (as Chinese input methods type them) narrowed, spaces around trimmed.
func Narrow(s string) string { return strings.TrimSpace(width.Narrow.String(s)) }
