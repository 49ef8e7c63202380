package registry

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/width"
)

// IDDefect names what is wrong with a resident ID number.
type IDDefect string

const (
	DefectNone       IDDefect = ""
	DefectLength     IDDefect = "length"
	DefectCharacters IDDefect = "characters"
	DefectRegion     IDDefect = "region"
	DefectDate       IDDefect = "date"
	DefectCheckDigit IDDefect = "check digit"
)

// IDError explains why an ID number is invalid: the defect, an English
// detail, and the parts a message in any language needs (the character's
// position, what was found and what was wanted).
type IDError struct {
	Defect   IDDefect
	Detail   string
	Position int
	Got      string
	Want     string
}

func (e *IDError) Error() string { return string(e.Defect) + ": " + e.Detail }

// ResidentID is a checked 18-character resident identity number.
type ResidentID struct {
	Number    string // upper-case, 18 characters
	Region    string // first six digits
	BirthDate time.Time
}

// isResidencePermitRegion reports the region codes of the residence permits
// for Hong Kong, Macao and Taiwan residents, which share the resident ID format.
func isResidencePermitRegion(r string) bool {
	return r == "810000" || r == "820000" || r == "830000"
}

// idCheckChars maps the ISO 7064 MOD 11-2 remainder to the check character.
const idCheckChars = "10X98765432"

// ResidentIDCheck is the ISO 7064 MOD 11-2 check character of a resident
// ID's first 17 digits (which the caller has checked are digits).
func ResidentIDCheck(first17 string) byte {
	// the weight of digit i is 2^(17-i) mod 11: 7, 9, 10, 5, 8, 4, 2, 1, 6, 3, …
	sum, w := 0, 1
	for i := 16; i >= 0; i-- {
		w = w * 2 % 11
		sum += int(first17[i]-'0') * w
	}
	return idCheckChars[sum%11]
}

// ParseResidentID checks an 18-character resident ID: its length, characters,
// region code, birth date and ISO 7064 MOD 11-2 check digit. now bounds the
// birth date: nobody is registered before being born.
func ParseResidentID(s string, now time.Time) (ResidentID, error) {
	// full-width digits and Ｘ, as Chinese input methods type them, are the
	// same number; length and positions count characters, not bytes
	n := strings.ToUpper(width.Narrow.String(strings.TrimSpace(s)))
	rs := []rune(n)
	if len(rs) != 18 {
		got := strconv.Itoa(len(rs))
		return ResidentID{}, &IDError{Defect: DefectLength, Detail: "has " + got + " characters, want 18", Got: got, Want: "18"}
	}
	for i, c := range rs[:17] {
		if c < '0' || c > '9' {
			return ResidentID{}, &IDError{Defect: DefectCharacters, Detail: fmt.Sprintf("character %d is %q, want a digit", i+1, c),
				Position: i + 1, Got: string(c), Want: "0-9"}
		}
	}
	if c := rs[17]; (c < '0' || c > '9') && c != 'X' {
		return ResidentID{}, &IDError{Defect: DefectCharacters, Detail: fmt.Sprintf("character 18 is %q, want a digit or X", c),
			Position: 18, Got: string(c), Want: "0-9, X"}
	}
	region := n[:6]
	if _, ok := ProvinceByCode(region[:2]); !ok && !isResidencePermitRegion(region) {
		return ResidentID{}, &IDError{Defect: DefectRegion, Detail: fmt.Sprintf("region code %s is not a province-level division", region), Got: region}
	}
	birth, err := time.Parse("20060102", n[6:14])
	if err != nil {
		return ResidentID{}, &IDError{Defect: DefectDate, Detail: fmt.Sprintf("birth date %s is not a calendar date", n[6:14]), Got: n[6:14]}
	}
	if birth.Year() < 1900 || birth.After(now) {
		return ResidentID{}, &IDError{Defect: DefectDate, Detail: fmt.Sprintf("birth date %s is out of range", birth.Format(time.DateOnly)), Got: birth.Format(time.DateOnly)}
	}
	if want := ResidentIDCheck(n[:17]); n[17] != want {
		return ResidentID{}, &IDError{Defect: DefectCheckDigit, Detail: fmt.Sprintf("is %c, want %c", n[17], want), Got: string(n[17]), Want: string(want)}
	}
	return ResidentID{Number: n, Region: region, BirthDate: birth}, nil
}

// MaskIdentity hides all but a few characters of an identity number, for
// public pages and logs.
func MaskIdentity(n string) string {
	r := []rune(n)
	switch {
	case len(r) >= 10:
		return string(r[:3]) + strings.Repeat("*", len(r)-5) + string(r[len(r)-2:])
	case len(r) > 2:
		return string(r[:1]) + strings.Repeat("*", len(r)-2) + string(r[len(r)-1:])
	default:
		return strings.Repeat("*", len(r))
	}
}
