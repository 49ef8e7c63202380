package kit

import (
	"testing"

	"github.com/dankyu/dankyu/ledger"
)

func TestFieldErrors(t *testing.T) {
	nameTooLong := ledger.ReasonTooLong.OnField("name")
	tests := []struct {
		name   string
		err    error
		fields []string
		want   FormErrors
	}{
		{"a refusal of a field of the form goes beside it", nameTooLong, []string{"prefix", "name"},
			FormErrors{Fields: map[string]string{"name": nameTooLong.Message(English)}}},
		{"a refusal of another field goes above", nameTooLong, []string{"prefix"}, FormErrors{Form: "text"}},
		{"a refusal of no field goes above", ledger.ReasonTooLong.New(), []string{"name"}, FormErrors{Form: "text"}},
		{"an error without a code goes above", ledger.ErrConflict, []string{"name"}, FormErrors{Form: "text"}},
		{"a failure before the action goes above", nil, []string{"name"}, FormErrors{Form: "text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FieldErrors(English, "text", tt.err, tt.fields...)
			if got.Form != tt.want.Form || len(got.Fields) != len(tt.want.Fields) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for f, msg := range tt.want.Fields {
				if got.Fields[f] != msg || msg == "" {
					t.Errorf("field %s: %q, want %q", f, got.Fields[f], msg)
				}
			}
		})
	}
}
