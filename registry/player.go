package registry

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/width"

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
	// Rank is the certified rank: the newest valid certificate's (set only
	// by certification, or by staff for honorary 8 dan); NoRank without one.
	Rank Rank
	// DeclaredRank is what the agency enters without a certificate (自报):
	// for seeding and pairing, shown as declared, never above 3 dan.
	DeclaredRank Rank
	// RankCertified: certification has set the rank at least once.
	RankCertified bool
	// HonoraryBasis says why staff recorded an honorary 8 dan.
	HonoraryBasis string
	// MergedInto is the record this one was merged into (0: none): a second
	// record of the same person, kept for its history.
	MergedInto int64
	CreatedAt  time.Time
	UpdatedAt  time.Time
	// LatinName is the Latin name the agency stated ("" : the pinyin of
	// Name, see LatinOf); ExternalIDs his ids with other bodies by scheme
	// ("egd" → EGD PIN). Both are set by their own logged actions.
	LatinName   string
	ExternalIDs map[string]string
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
	// Rank is the declared rank (30k … 3d, or empty): 4 to 7 dan come only
	// from certificates, honorary 8 dan only from staff.
	Rank string
	// ChangeReason says why a registered player's birth date or identity
	// document changes (required then, at most MaxChangeReason characters;
	// unused at registration).
	ChangeReason string
}

// HighestDeclared is the highest rank an agency may enter without a certificate.
const HighestDeclared Rank = 3

// PlayingRank is the rank events seed by: the certified one, else the declared.
func (p Player) PlayingRank() Rank {
	if p.Rank != NoRank {
		return p.Rank
	}
	return p.DeclaredRank
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

// MaxNameLen is the most characters of a player's (or a guest's) name.
const MaxNameLen = 64

// Validate checks every field and returns the player it describes (without
// id, agency or timestamps). The first defect found is returned as a field refusal (*ledger.Error with Field set).
func (in PlayerInput) Validate(now time.Time) (Player, error) {
	p := Player{
		Gender:       in.Gender,
		Nationality:  strings.ToUpper(strings.TrimSpace(in.Nationality)),
		IDKind:       in.IDKind,
		ProvinceCode: strings.TrimSpace(in.ProvinceCode),
	}
	var err error
	if p.Name, err = ledger.Text("name", in.Name, MaxNameLen); err != nil {
		return Player{}, err
	}
	if p.Gender != Male && p.Gender != Female {
		return Player{}, ReasonGender.OnField("gender")
	}
	birth, err := time.Parse(time.DateOnly, strings.TrimSpace(in.BirthDate))
	if err != nil {
		return Player{}, ReasonNotADate.OnField("birth_date", "value", in.BirthDate)
	}
	if birth.Year() < 1900 || birth.After(now) {
		return Player{}, ReasonDateOutOfRange.OnField("birth_date", "value", birth.Format(time.DateOnly))
	}
	p.BirthDate = birth
	if p.Nationality == "" {
		p.Nationality = "CN"
	}
	if !isUpperAlnum(p.Nationality, 2, 2, false) {
		return Player{}, ReasonNationality.OnField("nationality", "value", in.Nationality)
	}
	if _, ok := ProvinceByCode(p.ProvinceCode); !ok {
		return Player{}, ReasonNotAProvinceCode.OnField("province_code", "value", in.ProvinceCode)
	}
	switch p.IDKind {
	case ResidentIDCard:
		id, err := ParseResidentID(in.IDNumber, now)
		if err != nil {
			return Player{}, idRefusal(err)
		}
		if !id.BirthDate.Equal(birth) {
			return Player{}, ReasonIDBirthMismatch.OnField("identity_number", "in_number", id.BirthDate.Format(time.DateOnly),
				"given", birth.Format(time.DateOnly))
		}
		p.IDNumber = id.Number
	case Passport:
		if p.Nationality == "CN" {
			return Player{}, ReasonResidentIDRequired.OnField("identity_kind")
		}
		n := strings.ToUpper(width.Narrow.String(strings.TrimSpace(in.IDNumber)))
		if !isUpperAlnum(n, 5, 20, true) {
			return Player{}, ReasonPassport.OnField("identity_number")
		}
		p.IDNumber = n
	default:
		return Player{}, ReasonIdentityKind.OnField("identity_kind")
	}
	p.DeclaredRank, err = ParseRank(in.Rank)
	switch {
	case err != nil:
		return Player{}, ReasonRank.OnField("rank", "value", in.Rank)
	case p.DeclaredRank == HonoraryDan8:
		return Player{}, ReasonHonoraryByStaff.OnField("rank")
	case p.DeclaredRank > HighestDeclared:
		return Player{}, ReasonDeclaredTooHigh.FieldWith("rank", ledger.Words("rank", p.DeclaredRank.Chinese(), p.DeclaredRank.String()))
	}
	return p, nil
}

// IsFieldError reports whether err is a validation error of one input field.
func IsFieldError(err error) bool { return ledger.KindOf(err) == ledger.Invalid }

// idRefusal words a resident ID defect as a refusal of identity_number, by
// its code and parts (never IDError's English detail, which is for logs).
func idRefusal(err error) error {
	const f = "identity_number"
	var ie *IDError
	if !errors.As(err, &ie) {
		return ReasonIDInvalid.OnField(f)
	}
	switch ie.Defect {
	case DefectLength:
		return ReasonIDLength.OnField(f, "length", ie.Got)
	case DefectCharacters:
		return ReasonIDCharacter.OnField(f, "position", strconv.Itoa(ie.Position), "char", ie.Got)
	case DefectRegion:
		return ReasonIDRegion.OnField(f, "region", ie.Got)
	case DefectDate:
		return ReasonIDDate.OnField(f, "date", ie.Got)
	case DefectCheckDigit:
		return ReasonIDCheckDigit.OnField(f, "got", ie.Got, "want", ie.Want)
	}
	return ReasonIDInvalid.OnField(f)
}
