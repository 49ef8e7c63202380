package certs

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"golang.org/x/text/width"
)

// Kind is a certificate series: dan certificates carry the 9-digit number,
// kyu certificates a series of their own.
type Kind string

const (
	DanSeries Kind = "dan"
	KyuSeries Kind = "kyu"
)

// Series limits: a dan serial has 4 digits, a kyu serial 5.
const (
	MaxDanSerial = 9999
	MaxKyuSerial = 99999
)

// KindOf says which series a rank's certificate belongs to.
func KindOf(r registry.Rank) Kind {
	if r > 0 {
		return DanSeries
	}
	return KyuSeries
}

// Year is the two-digit year of t in China Standard Time.
func Year(t time.Time) int { return t.In(ledger.ChinaTime).Year() % 100 }

// IssueDate is the calendar date of t in China Standard Time.
func IssueDate(t time.Time) time.Time {
	y, m, d := t.In(ledger.ChinaTime).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Number is a parsed certificate number.
type Number struct {
	Kind   Kind
	Prefix string // issuing body's province prefix, "000" for the association
	Year   int    // two digits
	Serial int
}

// String writes the number: dan "PPPYYSSSS" (9 digits), kyu "KPPPYYSSSSS".
func (n Number) String() string {
	if n.Kind == KyuSeries {
		return fmt.Sprintf("K%s%02d%0*d", n.Prefix, n.Year, serialDigits(n.Kind), n.Serial)
	}
	return fmt.Sprintf("%s%02d%0*d", n.Prefix, n.Year, serialDigits(n.Kind), n.Serial)
}

// serialDigits is the width of a number's serial, zero-padded (issuance
// writes the number in SQL from the text before it and the serial).
func serialDigits(k Kind) int {
	if k == KyuSeries {
		return 5
	}
	return 4
}

// NewNumber checks the parts of a number and builds it.
func NewNumber(kind Kind, prefix string, year, serial int) (Number, error) {
	max := MaxDanSerial
	if kind == KyuSeries {
		max = MaxKyuSerial
	}
	switch {
	case !knownPrefix(prefix):
		return Number{}, fmt.Errorf("prefix %q is not a province prefix or the association's 000", prefix)
	case year < 0 || year > 99:
		return Number{}, fmt.Errorf("year %d does not fit two digits", year)
	case serial < 1 || serial > max:
		return Number{}, fmt.Errorf("serial %d is outside 1..%d", serial, max)
	}
	return Number{Kind: kind, Prefix: prefix, Year: year, Serial: serial}, nil
}

func knownPrefix(p string) bool {
	if p == registry.AssociationPrefix {
		return true
	}
	// a province's prefix is its code and a 0 (one lookup, no copy of the
	// table with the association appended: this runs on every verification)
	if len(p) != 3 || p[2] != '0' {
		return false
	}
	pr, ok := registry.ProvinceByCode(p[:2])
	return ok && pr.Prefix == p
}

// ParseNumber reads a certificate number as a person types it: full-width
// digits and letters (１１０…, Ｋ) are read as ASCII, spaces, hyphens and
// dashes between groups and a closing full stop (。 or .) are ignored. Dan
// numbers are 9 digits, kyu numbers a K followed by 10 digits. The error
// says what is wrong with the number.
func ParseNumber(s string) (Number, error) {
	t := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\u00a0', '\u3000', '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212', '\uff0d':
			return -1
		}
		return r
	}, width.Fold.String(strings.TrimSpace(s)))
	t = strings.TrimRight(t, ".。．")
	if t == "" {
		return Number{}, ReasonNumberEmpty.New()
	}
	kind, digits, want := DanSeries, t, 9
	if t[0] == 'K' || t[0] == 'k' {
		kind, digits, want = KyuSeries, t[1:], 10
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return Number{}, ReasonNumberCharacters.New("number", s)
		}
	}
	if len(digits) != want {
		if kind == KyuSeries {
			return Number{}, ReasonKyuNumberLength.New("number", s, "digits", strconv.Itoa(len(digits)))
		}
		return Number{}, ReasonDanNumberLength.New("number", s, "digits", strconv.Itoa(len(digits)))
	}
	year, _ := strconv.Atoi(digits[3:5])
	serial, _ := strconv.Atoi(digits[5:])
	max := MaxDanSerial
	if kind == KyuSeries {
		max = MaxKyuSerial
	}
	switch {
	case !knownPrefix(digits[:3]):
		return Number{}, ReasonNumberPrefix.New("number", s, "prefix", digits[:3])
	case serial < 1 || serial > max:
		return Number{}, ReasonNumberSerial.New("number", s, "serial", strconv.Itoa(serial), "max", strconv.Itoa(max))
	}
	return NewNumber(kind, digits[:3], year, serial)
}
