package kit

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

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
	if label := FieldLabel(pg.T, e.Field); label != "" {
		msg = label + pg.T["field_sep"] + msg
	}
	return msg
}

// fieldItem is one step of a field path into a list: groups[0].
var fieldItem = regexp.MustCompile(`^([a-z_]+)\[(\d+)\]$`)

// FieldLabel is the label of the field a refusal names, in the page's
// language: its own label (field_<name>), or for a path into a list
// (groups[0].target_rank) the item numbered as a reader counts from one
// (field_<list>_item: "第1组") joined to the label of its field
// (field_<list>.<field>, else field_<field>). A field without a label
// is left unnamed ("") rather than shown as the program names it.
func FieldLabel(t map[string]string, field string) string {
	if field == "" {
		return ""
	}
	if l := t["field_"+field]; l != "" {
		return l
	}
	var parts []string
	list := ""
	for seg := range strings.SplitSeq(field, ".") {
		if m := fieldItem.FindStringSubmatch(seg); m != nil {
			format := t["field_"+m[1]+"_item"]
			if format == "" {
				return ""
			}
			i, _ := strconv.Atoi(m[2])
			parts, list = append(parts, fmt.Sprintf(format, i+1)), m[1]
			continue
		}
		l := t["field_"+list+"."+seg]
		if l == "" {
			l = t["field_"+seg]
		}
		if l == "" {
			return ""
		}
		parts, list = append(parts, l), ""
	}
	return strings.Join(parts, t["field_path_sep"])
}
