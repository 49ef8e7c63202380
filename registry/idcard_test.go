package registry

import (
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// checkDigit computes the ISO 7064 MOD 11-2 check character of 17 digits,
// independently of ParseResidentID's loop, to build test numbers.
func checkDigit(t testing.TB, first17 string) string {
	t.Helper()
	sum, w := 0, 1
	// weight of position i (from the right, check digit at 1) is 2^(i-1) mod 11
	for i := 16; i >= 0; i-- {
		w = (w * 2) % 11
		sum += int(first17[i]-'0') * w
	}
	return string("10X98765432"[sum%11])
}

func TestParseResidentID(t *testing.T) {
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		id     string
		defect IDDefect
	}{
		{"valid (GB 11643 example)", "11010519491231002X", DefectNone},
		{"valid lower-case x", "11010519491231002x", DefectNone},
		{"valid computed", "44030420100101123" + checkDigit(t, "44030420100101123"), DefectNone},
		{"Hong Kong residence permit", "81000019900101001" + checkDigit(t, "81000019900101001"), DefectNone},
		{"too short", "1101051949123100", DefectLength},
		{"too long", "11010519491231002X1", DefectLength},
		{"letter inside", "1101051949A231002X", DefectCharacters},
		{"bad last character", "11010519491231002Y", DefectCharacters},
		{"unknown region", "99010519491231002X", DefectRegion},
		{"no such date", "11010519490231002X", DefectDate},
		{"future birth", "11010520300101002X", DefectDate},
		{"before 1900", "11010518991231002X", DefectDate},
		{"wrong check digit", "110105194912310021", DefectCheckDigit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseResidentID(tt.id, now)
			var ie *IDError
			switch {
			case tt.defect == DefectNone && err != nil:
				t.Fatalf("ParseResidentID(%s) = %v, want valid", tt.id, err)
			case tt.defect != DefectNone && !errors.As(err, &ie):
				t.Fatalf("ParseResidentID(%s) = %v, want %s defect", tt.id, err, tt.defect)
			case tt.defect != DefectNone && ie.Defect != tt.defect:
				t.Fatalf("ParseResidentID(%s) defect = %s (%v), want %s", tt.id, ie.Defect, err, tt.defect)
			}
		})
	}
}

// TestParseResidentIDFullWidth: full-width digits and Ｘ are the same
// number, and a wrong length or character is counted in characters, not
// bytes (issue 24: "应为 18 位，现为 18 位").
func TestParseResidentIDFullWidth(t *testing.T) {
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	for _, s := range []string{"１１０１０５１９４９１２３１００２Ｘ", "１１０１０５１９４９１２３１００２ｘ", "110105１９４９1231002X"} {
		id, err := ParseResidentID(s, now)
		if err != nil || id.Number != "11010519491231002X" {
			t.Errorf("ParseResidentID(%q) = %q, %v; want 11010519491231002X", s, id.Number, err)
		}
	}
	for _, c := range []struct {
		in       string
		defect   IDDefect
		got      string
		position int
	}{
		{"１１０１０５１９４９１２３１００２", DefectLength, "17", 0},
		{"11010519491231002中", DefectCharacters, "中", 18},
		{"1101051949123100中X", DefectCharacters, "中", 17},
	} {
		_, err := ParseResidentID(c.in, now)
		var ie *IDError
		if !errors.As(err, &ie) || ie.Defect != c.defect || ie.Got != c.got || ie.Position != c.position {
			t.Errorf("ParseResidentID(%q) = %+v, want %s defect with got %q at %d", c.in, err, c.defect, c.got, c.position)
		}
	}
}

// TestValidateStoresNarrowIdentity: a registration typed in full width
// stores the number every search and check reads, for either kind.
func TestValidateStoresNarrowIdentity(t *testing.T) {
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   PlayerInput
		want string
	}{
		{PlayerInput{Name: "张三", Gender: Male, BirthDate: "1949-12-31", IDKind: ResidentIDCard, IDNumber: "１１０１０５１９４９１２３１００２ｘ", ProvinceCode: "11"}, "11010519491231002X"},
		{PlayerInput{Name: "Kim", Gender: Male, BirthDate: "1990-01-01", Nationality: "KR", IDKind: Passport, IDNumber: "ｍ１２３４５６７８", ProvinceCode: "11"}, "M12345678"},
	} {
		p, err := c.in.Validate(now)
		if err != nil || p.IDNumber != c.want {
			t.Errorf("Validate(%q) = %q, %v; want %q", c.in.IDNumber, p.IDNumber, err, c.want)
		}
	}
}

func TestMaskIdentityHidesTheMiddle(t *testing.T) {
	got := MaskIdentity("11010519491231002X")
	if got != "110*************2X" {
		t.Fatalf("MaskIdentity = %q", got)
	}
	if MaskIdentity("E1234567") != "E******7" {
		t.Fatalf("MaskIdentity(passport) = %q", MaskIdentity("E1234567"))
	}
}

func FuzzParseResidentID(f *testing.F) {
	for _, s := range []string{"11010519491231002X", "", "x", "110105194912310021", "99999999999999999X"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseResidentID(s, now)
		if err != nil {
			// every defect has its own code: the generic one is for none
			if e, _ := ledger.AsError(idRefusal(err)); e == nil || e.Reason == ReasonIDInvalid {
				t.Fatalf("%q: %v refused without its defect's code", s, err)
			}
			return
		}
		if len(id.Number) != 18 || id.Number[17:] != checkDigit(t, id.Number[:17]) {
			t.Fatalf("accepted %q with a wrong check digit", s)
		}
	})
}

func TestParseRank(t *testing.T) {
	tests := []struct {
		in   string
		want Rank
		ok   bool
	}{
		{"", NoRank, true}, {"30k", -30, true}, {"1k", -1, true}, {"1d", 1, true}, {"7D", 7, true},
		{"5段", 5, true}, {"3级", -3, true}, {"2 kyu", -2, true}, {"8d", HonoraryDan8, true},
		{"５段", 5, true}, {"２Ｄ", 2, true}, {"１２ｋ", -12, true}, // full width (issue 24)
		{"31k", 0, false}, {"0d", 0, false}, {"9d", 0, false}, {"5p", 0, false}, {"dan", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseRank(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseRank(%q) = %v, %v; want %v, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
		if tt.ok && tt.want != NoRank {
			if back, _ := ParseRank(got.String()); back != got {
				t.Errorf("ParseRank(%q).String() does not round-trip", tt.in)
			}
		}
	}
}

func TestProvinces(t *testing.T) {
	ps := Provinces()
	if len(ps) != 35 {
		t.Fatalf("got %d divisions, want 34 provinces and the association", len(ps))
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if len(p.Code) != 2 || p.Prefix != p.Code+"0" || p.NameZH == "" || p.NameEN == "" || seen[p.Prefix] {
			t.Errorf("bad province row %+v", p)
		}
		seen[p.Prefix] = true
	}
	if p, ok := ProvinceByPrefix("440"); !ok || p.NameEN != "Guangdong" {
		t.Errorf("ProvinceByPrefix(440) = %+v", p)
	}
	if _, ok := ProvinceByCode("00"); ok {
		t.Errorf("the association is not a province")
	}
}

func BenchmarkParseResidentID(b *testing.B) {
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	for b.Loop() {
		if _, err := ParseResidentID("11010519491231002X", now); err != nil {
			b.Fatal(err)
		}
	}
}

// TestIDRefusalsAreCoded: each defect of a resident ID is refused by its
// own code with its parts (never IDError's English detail), and the
// Chinese message has no English word.
func TestIDRefusalsAreCoded(t *testing.T) {
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	latin, placeholder := regexp.MustCompile(`[A-Za-z]{2,}`), regexp.MustCompile(`\{[a-z_]+\}`)
	tests := []struct {
		id     string
		want   *ledger.Reason
		params map[string]string
	}{
		{"1101051949123100", ReasonIDLength, map[string]string{"length": "16"}},
		{"一二三四五六七八九十", ReasonIDLength, map[string]string{"length": "10"}},
		{"1101051949A231002X", ReasonIDCharacter, map[string]string{"position": "11", "char": "A"}},
		{"11010519491231002Y", ReasonIDCharacter, map[string]string{"position": "18", "char": "Y"}},
		{"99010519491231002X", ReasonIDRegion, map[string]string{"region": "990105"}},
		{"11010519490231002X", ReasonIDDate, map[string]string{"date": "19490231"}},
		{"11010520300101002X", ReasonIDDate, map[string]string{"date": "2030-01-01"}},
		{"110105194912310021", ReasonIDCheckDigit, map[string]string{"got": "1", "want": "X"}},
	}
	for _, tt := range tests {
		_, err := ParseResidentID(tt.id, now)
		e, ok := ledger.AsError(idRefusal(err))
		if !ok || e.Reason != tt.want || e.Field != "identity_number" || len(e.Params) != len(tt.params) {
			t.Errorf("%s: %v, want %s", tt.id, e, tt.want.Code())
			continue
		}
		for name, v := range tt.params {
			if got := e.Param(name); got != v {
				t.Errorf("%s: %s = %q, want %q", tt.id, name, got, v)
			}
		}
		if w := latin.FindString(placeholder.ReplaceAllString(e.Reason.Template(ledger.Chinese), "")); w != "" {
			t.Errorf("%s: the Chinese message has %q", e.Reason.Code(), w)
		}
	}
	if e, ok := ledger.AsError(idRefusal(errors.New("no such defect"))); !ok || e.Reason != ReasonIDInvalid || len(e.Params) != 0 {
		t.Errorf("an error of no known defect: %v", e)
	}
}
