package certs_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dankyu/dankyu/certs"
)

// FuzzReasonKey: folding's key of an objection's text is a function of the
// text that ignores added spaces and punctuation (once the text has a
// letter or digit to keep), keeps valid text valid and is bounded by it.
func FuzzReasonKey(f *testing.F) {
	for _, s := range []string{"他没有参加那场比赛", "他 没有参加那场比赛！", "ＡＢＣ１２３", "!!!", "", "e\u0301", "﷽"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 2000 {
			return // the objection form's bound
		}
		k := certs.ReasonKey(s)
		if k != certs.ReasonKey(s) {
			t.Fatalf("ReasonKey(%q) not deterministic", s)
		}
		if utf8.ValidString(s) && !utf8.ValidString(k) {
			t.Fatalf("ReasonKey(%q) = %q, not valid UTF-8", s, k)
		}
		if len(k) > 18*len(s)+3 {
			t.Fatalf("ReasonKey(%q) grew to %d bytes", s, len(k))
		}
		if strings.IndexFunc(k, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0 && utf8.ValidString(s) {
			if k2 := certs.ReasonKey(s + " ，。!?"); k2 != k {
				t.Fatalf("punctuation added changed the key: %q → %q, %q", s, k, k2)
			}
		}
	})
}
