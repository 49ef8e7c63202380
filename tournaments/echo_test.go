package tournaments

import (
	"strings"
	"testing"
)

// TestImportErrorsEchoLittle: a refusal or warning of an import quotes at
// most a short piece of a hostile file's line, however long the line.
func TestImportErrorsEchoLittle(t *testing.T) {
	huge := strings.Repeat("X", 3<<19) // 1.5 MB: twice of it stays under MaxImportBytes
	tests := []struct {
		name, format, data string
	}{
		{"opengotha player twice", "", `<Tournament><Players><Player name="` + huge + `" firstName="a"/><Player name="` + huge + `" firstName="a"/></Players></Tournament>`},
		{"opengotha unknown players", "", `<Tournament><Players><Player name="a"/></Players><Games><Game roundNumber="1" blackPlayer="` + huge + `" whitePlayer="` + huge + `" result="RESULT_WHITEWINS"/></Games></Tournament>`},
		{"opengotha unknown result", "", `<Tournament><Players><Player name="a"/><Player name="b"/></Players><Games><Game roundNumber="1" blackPlayer="a" whitePlayer="b" result="` + huge + `"/></Games></Tournament>`},
		{"opengotha bad xml", "", `<Tournament></` + huge + `>`},
		{"pairgoth type", "", `{"type":"` + huge + `"}`},
		{"unknown format", huge, "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Import([]byte(tt.data), tt.format)
			if err == nil {
				t.Fatal("imported")
			}
			// a refusal quotes a clipped piece of the file, or none of it
			if msg := err.Error(); len(msg) > 1000 || strings.Contains(msg, strings.Repeat("X", maxEcho+1)) {
				t.Errorf("error of %d bytes: %.300s", len(msg), msg)
			}
		})
	}
	// a file with something played: one with nothing is refused (FILE_NO_GAMES)
	imp, err := Import([]byte(`<Tournament><Players><Player name="a" rank="`+huge+`" egfPin="`+huge+`"/><Player name="`+huge[:300]+`"/></Players>`+
		`<Games><Game roundNumber="1" blackPlayer="a" whitePlayer="`+huge[:300]+`" result="RESULT_BOTHLOSE_BYDEF"/></Games></Tournament>`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Warnings) == 0 {
		t.Fatal("no warnings")
	}
	for _, w := range imp.Warnings {
		if s := w.String(); len(s) > 1000 {
			t.Errorf("warning of %d bytes: %.300s", len(s), s)
		}
	}
}
