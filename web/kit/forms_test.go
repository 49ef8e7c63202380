package kit

import (
	"errors"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/ledger"
)

// TestFormInt: full-width digits and signs are the same number (issue 24:
// "“５０”不是整数"); what is not a number is refused with its text.
func TestFormInt(t *testing.T) {
	for _, c := range []struct {
		in     string
		want   int64
		reason *ledger.Reason
	}{
		{"", 0, nil},
		{" 50 ", 50, nil},
		{"５０", 50, nil},
		{"\u3000５０\u3000", 50, nil},
		{"－３", -3, nil},
		{"5O", 0, ReasonNotANumber},
		{"五十", 0, ReasonNotANumber},
		{"９９９９９９９９９９９", 0, ledger.ReasonOutOfRange},
	} {
		r := httptest.NewRequest("POST", "/", strings.NewReader(url.Values{"n": {c.in}}.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		got, err := FormInt(r, "n")
		var e *ledger.Error
		switch {
		case c.reason == nil && (err != nil || got != c.want):
			t.Errorf("FormInt(%q) = %d, %v; want %d", c.in, got, err, c.want)
		case c.reason != nil && (!errors.As(err, &e) || e.Reason != c.reason || e.Field != "n"):
			t.Errorf("FormInt(%q) = %d, %v; want %v on n", c.in, got, err, c.reason.Code())
		}
	}
}
