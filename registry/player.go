package registry

import (
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dankyu/dankyu/ledger"
)

// Gender of a player.
type Gender string

const (
	Male   Gender = "M"
	Female Gender = "F"
)

// IdentityKind says which document identifies a player.
type IdentityKind string

const (
	ResidentIDCard IdentityKind = "resident_id"
	Passport       IdentityKind = "passport"
)

// Player is a registered player.
type Player struct {
	ID           int64
	Name         string
	Gender       Gender
	BirthDate    time.Time
	Nationality  string
	IDKind       IdentityKind
	IDNumber     string
	ProvinceCode string
	AgencyPrefix string
	Rank         Rank
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// PlayerInput is what an agency submits to register or change a player.
type PlayerInput struct {
	Name         string
	Gender       Gender
	BirthDate    string // YYYY-MM-DD
	Nationality  string // ISO 3166-1 alpha-2; "CN" when empty
	IDKind       IdentityKind
	IDNumber     string
	ProvinceCode string
	Rank         string
}

// isUpperAlnum reports whether s has between min and max characters, each A–Z
// (or 0–9 when digits is set).
func isUpperAlnum(s string, min, max int, digits bool) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z') && !(digits && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Validate checks every field and returns the player it describes (without
// id, agency or timestamps). The first defect found is returned as a *ledger.FieldError.
func (in PlayerInput) Validate(now time.Time) (Player, error) {
	p := Player{
		Name:         strings.TrimSpace(in.Name),
		Gender:       in.Gender,
		Nationality:  strings.ToUpper(strings.TrimSpace(in.Nationality)),
		IDKind:       in.IDKind,
		ProvinceCode: strings.TrimSpace(in.ProvinceCode),
	}
	if p.Name == "" {
		return Player{}, ledger.FieldErr("name", "is required")
	}
	if utf8.RuneCountInString(p.Name) > 64 {
		return Player{}, ledger.FieldErr("name", "is longer than 64 characters")
	}
	if p.Gender != Male && p.Gender != Female {
		return Player{}, ledger.FieldErr("gender", "must be male or female")
	}
	birth, err := time.Parse(time.DateOnly, strings.TrimSpace(in.BirthDate))
	if err != nil {
		return Player{}, ledger.FieldErr("birth_date", "%q is not a date in the form YYYY-MM-DD", in.BirthDate)
	}
	if birth.Year() < 1900 || birth.After(now) {
		return Player{}, ledger.FieldErr("birth_date", "%s is out of range", birth.Format(time.DateOnly))
	}
	p.BirthDate = birth
	if p.Nationality == "" {
		p.Nationality = "CN"
	}
	if !isUpperAlnum(p.Nationality, 2, 2, false) {
		return Player{}, ledger.FieldErr("nationality", "%q is not an ISO 3166-1 alpha-2 code such as CN", in.Nationality)
	}
	if _, ok := ProvinceByCode(p.ProvinceCode); !ok {
		return Player{}, ledger.FieldErr("province_code", "%q is not a two-digit GB/T 2260 province code such as 11", in.ProvinceCode)
	}
	switch p.IDKind {
	case ResidentIDCard:
		id, err := ParseResidentID(in.IDNumber, now)
		if err != nil {
			return Player{}, ledger.FieldErr("identity_number", "%v", err)
		}
		if !id.BirthDate.Equal(birth) {
			return Player{}, ledger.FieldErr("identity_number", "date: birth date in the number is %s, but birth_date is %s",
				id.BirthDate.Format(time.DateOnly), birth.Format(time.DateOnly))
		}
		p.IDNumber = id.Number
	case Passport:
		if p.Nationality == "CN" {
			return Player{}, ledger.FieldErr("identity_kind", "Chinese nationals register with their resident ID number")
		}
		n := strings.ToUpper(strings.TrimSpace(in.IDNumber))
		if !isUpperAlnum(n, 5, 20, true) {
			return Player{}, ledger.FieldErr("identity_number", "passport number must be 5 to 20 letters or digits")
		}
		p.IDNumber = n
	default:
		return Player{}, ledger.FieldErr("identity_kind", "must be resident_id or passport")
	}
	p.Rank, err = ParseRank(in.Rank)
	if err != nil {
		return Player{}, ledger.FieldErr("rank", "%v", err)
	}
	return p, nil
}

// IsFieldError reports whether err is a validation error of one input field.
func IsFieldError(err error) bool {
	var fe *ledger.FieldError
	return errors.As(err, &fe)
}
