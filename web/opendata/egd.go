package opendata

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/registry"
)

// The rating list as the EGD publishes it (allworld_lp.html, a plain text
// list), which is what OpenGotha's and pairgoth's "EGF" rating lists read.
// Their readers fix the layout (docs/open-data.md):
//
//   - OpenGotha (RatingList, type EGF) reads ISO-8859-15 text by columns: a
//     line of 10 characters or more whose columns 1–8 are digits is a player:
//     PIN 1–8, "Surname Given" 11–47 (split at the first space), country
//     49–51, club 53–56, grade 60–62, rating 71–74 (an integer, or the
//     whole import fails); the publication date is read after a "(" as
//     "dd Mon yyyy".
//   - pairgoth (EGFRatingsHandler) reads the first line starting with "(" as
//     "(dd MMM yyyy)", and takes each line of blanks and digits followed by
//     an 8-digit PIN, a surname and a given name of letters (a–z, À–ÿ and
//     -._`'), a 2-letter country, a club of 1–4 characters, a grade like 3d
//     or 15k, a promotion (-- here), the rating, the number of tournaments
//     and the last tournament's code, separated by blanks.
//
// Columns (0-based) of a player's line, as the EGD's own list sets them.
const (
	egdPinCol     = 1
	egdNameCol    = 11
	egdNameWidth  = 37 // columns 11–47
	egdNameMax    = 35 // two blanks at least before the country, even for a surname alone
	egdCountryCol = 49
	egdClubCol    = 53
	egdClubMax    = 4
	egdGradeCol   = 60
	egdPromoCol   = 66
	egdRatingEnd  = 75 // the rating right-aligned in 71–74
	egdEventsEnd  = 81 // the number of tournaments right-aligned in 75–80
	egdLastCol    = 83
)

// RegistryPinPrefix starts the 8-digit number the list writes in the PIN
// column for a player the EGD has given no PIN: 9 and his registry number
// in 7 digits. It is no EGD PIN (docs/open-data.md): it lets the pairing
// programs import him, and matches the CSV's registry number.
const RegistryPinPrefix = "9"

// maxPseudoPinID is the largest registry number the PIN column can carry.
const maxPseudoPinID = 9_999_999

// egdRow is one player of the list.
type egdRow struct {
	PIN     string // 8 digits
	Surname string // letters of the readers' alphabet, no blank
	Given   string // the same, may be empty
	Country string // 2 upper-case letters
	Club    string // 1–4 characters, no blank
	Grade   registry.Rank
	GoR     int
	Events  int
	Last    string // the last event's code, no blank
}

// line writes the row at the EGD's columns.
func (e egdRow) line() string {
	var b strings.Builder
	pad := func(col int) {
		for b.Len() < col {
			b.WriteByte(' ')
		}
	}
	pad(egdPinCol)
	b.WriteString(e.PIN)
	pad(egdNameCol)
	name := e.Surname
	if e.Given != "" {
		name += " " + e.Given
	}
	b.WriteString(name)
	pad(egdCountryCol)
	b.WriteString(e.Country)
	pad(egdClubCol)
	b.WriteString(e.Club)
	pad(egdGradeCol)
	b.WriteString(e.Grade.String())
	pad(egdPromoCol)
	b.WriteString("--")
	r := strconv.Itoa(e.GoR)
	pad(egdRatingEnd - len(r))
	b.WriteString(r)
	n := strconv.Itoa(min(e.Events, 99999)) // a blank before it, always
	pad(egdEventsEnd - len(n))
	b.WriteString(n)
	pad(egdLastCol)
	b.WriteString(e.Last)
	return b.String()
}

// latin1 encodes a line the list's way, ISO-8859-15: every character the
// rows hold (ASCII and À–ÿ) is one byte of the same value there.
func latin1(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF || (r >= 0xA0 && r < 0xC0) {
			r = '?' // never in a row: names are folded first
		}
		out = append(out, byte(r))
	}
	return out
}

// nameLetter reports whether the readers take c in a name: ASCII letters,
// -._`' and the Latin-1 letters À–ÿ (but not × and ÷).
func nameLetter(c rune) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', strings.ContainsRune("-._`'", c):
		return true
	case c >= 0xC0 && c <= 0xFF:
		return c != 0xD7 && c != 0xF7
	}
	return false
}

// foldWord writes a word in the readers' letters: a letter they take as
// it is, another Latin letter as its base letter without accents (ō → o,
// ǚ → u), anything else left out.
func foldWord(w string) string {
	var b strings.Builder
	for _, c := range norm.NFC.String(w) {
		if nameLetter(c) {
			b.WriteRune(c)
			continue
		}
		for _, d := range norm.NFD.String(string(c)) {
			if d < 0x80 && nameLetter(d) {
				b.WriteRune(d)
			}
		}
	}
	return b.String()
}

// egdName splits a Latin name ("Zhang Wei", surname first as the registry
// writes it) into the list's surname and given name: the first word, and
// the rest joined by hyphens (the readers split at the first blank and
// take no blank in a given name), cut to the name's columns. ok is false
// when no letter of the surname survives.
func egdName(latin string) (surname, given string, ok bool) {
	var words []string
	for _, w := range strings.Fields(latin) {
		if f := foldWord(w); f != "" {
			words = append(words, f)
		}
	}
	if len(words) == 0 {
		return "", "", false
	}
	surname = clip(words[0], egdNameMax)
	if len(words) > 1 {
		given = clip(strings.Join(words[1:], "-"), egdNameMax-len([]rune(surname))-1)
	}
	return surname, given, true
}

func clip(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if rs := []rune(s); len(rs) > n {
		return string(rs[:n])
	}
	return s
}

// egdPin is the PIN column of a player: his EGD PIN when the registry
// holds one of 8 digits, else RegistryPinPrefix and his registry number;
// ok is false when neither fits.
func egdPin(p registry.Player) (string, bool) {
	if pin := p.ExternalIDs["egd"]; len(pin) == 8 && strings.Trim(pin, "0123456789") == "" {
		return pin, true
	}
	if p.ID <= 0 || p.ID > maxPseudoPinID {
		return "", false
	}
	return fmt.Sprintf("%s%07d", RegistryPinPrefix, p.ID), true
}

// egdGrade is the grade column: the rank events seed him by (certified,
// else declared), else the grade his rating stands for; within 30 kyu to
// 9 dan, which the readers take.
func egdGrade(p registry.Player, e ratings.Estimate) registry.Rank {
	r := p.PlayingRank()
	if r == registry.NoRank {
		r = registry.Rank(e.Rank)
	}
	return min(max(r, registry.LowestKyu), 9)
}

// egdRating is the rating column: the rating on the GoR scale rounded,
// kept within the column's four characters.
func egdRating(mean float64) int {
	return min(max(int(math.Round(mean)), -999), 9999)
}

// egdClub is the club column: the province's ISO 3166-2 letters ("BJ"),
// as the registry's own EGD files write the club.
func egdClub(provinceCode string) string {
	if p, ok := registry.ProvinceByCode(provinceCode); ok && p.ISOCode() != "" {
		return p.ISOCode()
	}
	return "CN"
}

// egdHeader is the list's head: what it is, its license, and the date line
// the readers take the publication date from ("(02 Dec 2026)"). No head
// line starts with a blank or a "(" but the date's, nor holds digits in
// columns 1–8, so that no reader takes one for a player.
func egdHeader(title, source string, day time.Time) []string {
	return []string{
		title,
		"License: " + License + " " + LicenseURL + " - source: " + source,
		"Pin column: EGD PIN, or " + RegistryPinPrefix + " and the 7-digit registry number when the EGD gave none.",
		"(" + day.Format("02 Jan 2006") + ")",
		"",
		"Pin      Name                                  Co  Club   Gr    Pr    Gor    Tot  Last",
	}
}

// asciiOnly keeps a head line within the list's encoding.
func asciiOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7E {
			return -1
		}
		return r
	}, s)
}
