package ledger_test

import (
	"strings"
	"testing"

	"github.com/dankyu/dankyu/ledger"
)

func TestText(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		want     string
		code     string // "" accepts
	}{
		{"trimmed", "  王小明 ", 10, "王小明", ""},
		{"tab and newline kept, CRLF as LF", "a\tb\r\nc\rd", 10, "a\tb\nc\nd", ""},
		{"empty", "  ", 10, "", "REQUIRED"},
		{"NUL", "王\x00明", 10, "", "INVALID_TEXT"},
		{"escape", "a\x1b[31m", 10, "", "INVALID_TEXT"},
		{"C1 control", "a\u0085b", 10, "", "INVALID_TEXT"},
		{"DEL", "a\x7f", 10, "", "INVALID_TEXT"},
		{"invalid UTF-8", "a\xffb", 10, "", "INVALID_TEXT"},
		{"characters, not bytes", strings.Repeat("长", 10), 10, strings.Repeat("长", 10), ""},
		{"too long", strings.Repeat("长", 11), 10, "", "TOO_LONG"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ledger.Text("name", tt.in, tt.max)
			if tt.code == "" {
				if err != nil || got != tt.want {
					t.Fatalf("Text(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
				}
				return
			}
			e, ok := ledger.AsError(err)
			if !ok || e.Reason.Code() != tt.code || e.Field != "name" || ledger.KindOf(err) != ledger.Invalid {
				t.Fatalf("Text(%q) = %q, %v; want %s on name", tt.in, got, err, tt.code)
			}
		})
	}
	if v, err := ledger.OptionalText("note", " ", 10); v != "" || err != nil {
		t.Fatalf("OptionalText of blank = %q, %v", v, err)
	}
}

func TestSpreadsheetCellAndEcho(t *testing.T) {
	for in, want := range map[string]string{"=1+1": "'=1+1", "+1": "'+1", "-1": "'-1", "@A1": "'@A1", "\tx": "'\tx",
		"\rx": "'\rx", "王小明": "王小明", "": "", "a=b": "a=b"} {
		if got := ledger.SpreadsheetCell(in); got != want {
			t.Errorf("SpreadsheetCell(%q) = %q, want %q", in, got, want)
		}
	}
	if got := ledger.OneLine("a\r\nb\x00c"); got != "a  b c" {
		t.Errorf("OneLine = %q", got)
	}
	if got := ledger.Echo(strings.Repeat("长", 600) + "\xff"); got != strings.Repeat("长", 500)+"…" {
		t.Errorf("Echo kept %d characters", len([]rune(got)))
	}
}
