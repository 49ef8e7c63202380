package certs

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestParseBatch(t *testing.T) {
	text := "\ufeff证书编号,姓名,学校\r\n110260001,王五,北大\r\n\r\n１１０２６０００２\t李四\n 000-27-0001 ,  张 三 \nnonsense\n"
	got := ParseBatch(text)
	want := []BatchRow{{"110260001", "王五"}, {"１１０２６０００２", "李四"}, {"000-27-0001", "张 三"}, {"nonsense", ""}}
	if len(got) != len(want) {
		t.Fatalf("rows = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestParseBatchSeparators: every separator an admissions office pastes
// yields the whole name, whatever its byte length (issue 24: a full-width
// comma used to cost the name its first byte).
func TestParseBatchSeparators(t *testing.T) {
	for _, c := range []struct{ line, number, name string }{
		{"110260005，李明轩", "110260005", "李明轩"},
		{"110260005、李明轩", "110260005", "李明轩"},
		{"110260005,李明轩", "110260005", "李明轩"},
		{"110260005\t李明轩", "110260005", "李明轩"},
		{"110260005;李明轩", "110260005", "李明轩"},
		{"110260005；李明轩", "110260005", "李明轩"},
		{"110260005 李明轩", "110260005", "李明轩"},
		{"110260005    李明轩  ", "110260005", "李明轩"},
		{"110260005\u3000李明轩", "110260005", "李明轩"},
		{"110260005\u3000\u3000李明轩\u3000", "110260005", "李明轩"},
		{"110260005 ， 李明轩 ，北大", "110260005", "李明轩"},
		{"110260005，李明轩\t北大附中", "110260005", "李明轩"},
		{"110 26 0005 李明轩", "110 26 0005", "李明轩"},
		{"110-26-0005 Kim Ji-hoon", "110-26-0005", "Kim Ji-hoon"},
		{"K1102600001 李明轩", "K1102600001", "李明轩"},
		{"110260005", "110260005", ""},
		{"110260005，", "110260005", ""},
		{"\ufeff110260005，李明轩\r\n", "110260005", "李明轩"},
		{"１１０２６０００５　李明轩", "１１０２６０００５", "李明轩"},
		// name first
		{"李明轩，110260005", "110260005", "李明轩"},
		{"李明轩、110260005", "110260005", "李明轩"},
		{"李明轩\t110260005", "110260005", "李明轩"},
		{"李明轩 110260005", "110260005", "李明轩"},
		{"李明轩,110260005", "110260005", "李明轩"},
		{"李明轩\u3000110 26 0005", "110 26 0005", "李明轩"},
		{"Kim Ji-hoon, 110-26-0005", "110-26-0005", "Kim Ji-hoon"},
		{"李明轩 K1102600001，北大", "K1102600001", "李明轩"},
		{"李明轩，北大附中，110260005", "110260005", "李明轩"},
		{"李明轩K1102600001", "李明轩K1102600001", ""},
	} {
		got := ParseBatch(c.line)
		if len(got) != 1 || got[0] != (BatchRow{c.number, c.name}) {
			t.Errorf("ParseBatch(%q) = %+v, want [{%q %q}]", c.line, got, c.number, c.name)
		}
	}
}

// TestParseBatchLines: lines end at CR, LF or CRLF, and an overlong line is
// cut at a character boundary rather than inside one.
func TestParseBatchLines(t *testing.T) {
	got := ParseBatch("110260001，甲\r110260002，乙\r\n110260003，丙\n")
	if len(got) != 3 || got[0].Name != "甲" || got[1].Name != "乙" || got[2].Name != "丙" {
		t.Fatalf("rows = %+v", got)
	}
	long := "110260001，" + strings.Repeat("李", MaxClaimLine)
	got = ParseBatch(long)
	if len(got) != 1 || !utf8.ValidString(got[0].Name) || len(got[0].Name) > MaxClaimLine || !strings.HasPrefix(got[0].Name, "李李") {
		t.Fatalf("an overlong line gave %d rows, name of %d bytes, valid %v", len(got), len(got[0].Name), utf8.ValidString(got[0].Name))
	}
}

func FuzzParseBatch(f *testing.F) {
	f.Add("110260001,王五\n")
	f.Add("证书编号\t姓名\n１１０２６０００１\t李四")
	f.Add("\ufeff110260005，李明轩\r\n110 26 0006\u3000王五、北大\r")
	f.Add("110260005 ； Kim Ji-hoon;x")
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range ParseBatch(s) {
			if r.Number == "" {
				t.Fatalf("a row without a number from %q", s)
			}
			for _, v := range []string{r.Number, r.Name} {
				if len(v) > MaxClaimLine || strings.ContainsAny(v, "\r\n") || strings.TrimSpace(v) != v {
					t.Fatalf("field %q of %q is overlong, spans lines or is untrimmed", v, s)
				}
				if utf8.ValidString(s) && !utf8.ValidString(v) {
					t.Fatalf("field %q of valid %q is not valid UTF-8", v, s)
				}
			}
			if strings.ContainsFunc(r.Number, isColumnBreak) || strings.ContainsFunc(r.Name, isColumnBreak) {
				t.Fatalf("row %+v of %q holds a separator", r, s)
			}
			if strings.ContainsFunc(r.Number, unicode.IsSpace) {
				// spaces inside a number only ever sit between its groups
				if i := strings.LastIndexFunc(r.Number, unicode.IsSpace); !continuesNumber([]rune(r.Number[i:])[1]) {
					t.Fatalf("number %q of %q runs on into a name", r.Number, s)
				}
			}
		}
	})
}
