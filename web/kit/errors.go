package kit

import (
	"fmt"
	"net/http"

	"github.com/dankyu/dankyu/ledger"
)

// httpStatuses maps each kind of domain error to the status a page with a
// form error answers with.
var httpStatuses = map[ledger.Kind]int{
	ledger.Invalid:          http.StatusBadRequest,
	ledger.NotFound:         http.StatusNotFound,
	ledger.PermissionDenied: http.StatusForbidden,
	ledger.Unauthenticated:  http.StatusUnauthorized,
	ledger.AlreadyExists:    http.StatusConflict,
	ledger.Conflict:         http.StatusConflict,
	ledger.Precondition:     http.StatusConflict,
	ledger.Exhausted:        http.StatusTooManyRequests,
	ledger.Unavailable:      http.StatusServiceUnavailable,
}

// HTTPStatus maps a domain error to its HTTP status.
func HTTPStatus(err error) int {
	if st, ok := httpStatuses[ledger.KindOf(err)]; ok {
		return st
	}
	return http.StatusInternalServerError
}

// UserError is the one place the portal words a domain error: a coded
// refusal in the page's language (with the field's label when it names
// one), a refusal without a code by its kind; anything unexpected is logged
// and shown as a generic failure. No error's own text reaches a page.
func (s *Site) UserError(r *http.Request, pg Page, err error) string {
	kind := ledger.KindOf(err)
	if kind == ledger.Internal {
		s.log.ErrorContext(r.Context(), "portal error", "path", r.URL.Path, "err", err)
		return pg.T["error_text"]
	}
	e, ok := ledger.AsError(err)
	if !ok {
		s.log.DebugContext(r.Context(), "refusal without a reason code", "path", r.URL.Path, "err", err)
		return pg.T[fmt.Sprintf("error_kind_%d", kind)]
	}
	msg := e.Message(pg.Lang)
	if e.Field != "" {
		label := pg.T["field_"+e.Field]
		if label == "" {
			label = e.Field
		}
		msg = label + pg.T["field_sep"] + msg
	}
	return msg
}
