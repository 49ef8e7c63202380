package kit

import (
	"slices"

	"github.com/dankyu/dankyu/ledger"
)

// FormErrors are a refused form's words: the refusal beside the field it
// names when the form has that field, else above the form.
type FormErrors struct {
	Form   string            // above the form
	Fields map[string]string // beside a field, by its name
}

// FieldErrors places a refusal: errText (the refusal as UserError words
// it, or any other failure of the form) above the form, unless err names
// one of fields, the form's; then err's message goes beside that field
// (without the field's label, which stands there already).
func FieldErrors(lang Lang, errText string, err error, fields ...string) FormErrors {
	if e, ok := ledger.AsError(err); ok && e.Field != "" && slices.Contains(fields, e.Field) {
		return FormErrors{Fields: map[string]string{e.Field: e.Message(lang)}}
	}
	return FormErrors{Form: errText}
}
