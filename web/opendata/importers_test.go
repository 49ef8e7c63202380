package opendata_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The two pairing programs' readers of the EGD rating list, as their
// sources state the format (OpenGotha's RatingList for type EGF, pairgoth's
// EGFRatingsHandler), written again here as rules: what our file must
// satisfy to be imported. Neither reader is copied; each function follows
// the reader's documented steps and fails where the reader would.

// ratedPlayer is what a reader takes from a player's line.
type ratedPlayer struct {
	PIN, Name, FirstName, Country, Club, Grade string
	Rating                                     int
}

// decodeISO885915 reads the file as OpenGotha does (ISO-8859-15). The
// bytes 0xA4, 0xA6, 0xA8, 0xB4, 0xB8 and 0xBC–0xBE are the characters
// where ISO-8859-15 differs from Latin-1; a list of names has none, and
// reading one is a failure here.
func decodeISO885915(b []byte) (string, error) {
	var s strings.Builder
	for i, c := range b {
		switch c {
		case 0xA4, 0xA6, 0xA8, 0xB4, 0xB8, 0xBC, 0xBD, 0xBE:
			return "", fmt.Errorf("byte %d: 0x%X differs between Latin-1 and ISO-8859-15", i, c)
		}
		s.WriteRune(rune(c))
	}
	return s.String(), nil
}

// readOpenGotha applies OpenGotha's EGF rules: the publication date is the
// 11 characters after a "(" on a line whose third blank-separated word
// starts with "20"; a line of 10 characters or more whose columns 1–8 are
// digits is a player, read by columns (name 11–47 split at the first
// blank, country 49–51, club 53–56, grade 60–62, rating 71–74, which must
// be an integer: the reader does not catch a bad one, so one bad line
// loses the whole list).
func readOpenGotha(data []byte) (date string, out []ratedPlayer, err error) {
	text, err := decodeISO885915(data)
	if err != nil {
		return "", nil, err
	}
	digits := regexp.MustCompile(`^[0-9]*$`)
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		if pos := strings.Index(line, "("); pos >= 0 {
			s := line[pos:]
			words := strings.Split(s, " ")
			if len(words) >= 3 && len(words[2]) >= 2 && words[2][:2] == "20" {
				if len(s) < 12 {
					return "", nil, fmt.Errorf("line %d: date too short: %q", n+1, s)
				}
				date = s[1:12]
			}
		}
		if len(line) < 10 {
			continue
		}
		pin := line[1:9]
		if !digits.MatchString(pin) {
			continue
		}
		if len(line) < 75 {
			return "", nil, fmt.Errorf("line %d: a player's line ends before the rating's columns: %q", n+1, line)
		}
		nf := line[11:48]
		name, first := nf, "x"
		if pos := strings.Index(nf, " "); pos > 0 {
			name = strings.TrimSpace(nf[:pos])
			first = strings.TrimSpace(nf[pos+1:])
		}
		rating, err := strconv.Atoi(strings.TrimSpace(line[71:75]))
		if err != nil {
			return "", nil, fmt.Errorf("line %d: rating %q is no integer: the import would stop", n+1, line[71:75])
		}
		out = append(out, ratedPlayer{PIN: pin, Name: name, FirstName: first, Country: strings.TrimSpace(line[49:52]),
			Club: strings.TrimSpace(line[53:57]), Grade: strings.TrimSpace(line[60:63]), Rating: rating})
	}
	return date, out, nil
}

// pairgoth's letters of a name, and its pattern of a player's line.
const pgAtom = "[-._`'a-zA-ZÀ-ÿ]"

var (
	pgLine      = regexp.MustCompile(`^\s+(?P<egf>\d{8})\s+(?P<name>` + pgAtom + `+)\s(?P<firstname>` + pgAtom + `+)?,?\s+(?P<country>[A-Z]{2})\s+(?P<club>\S{1,4})\s+(?P<rank>[1-9][0-9]?[kdp])\s+(?P<promotion>[1-9][0-9]?[kdp]|--)\s+(?P<rating>-?[0-9]+)\s+(?P<nt>[0-9]+)\s+(?P<last>\S+)\s*$`)
	pgPlayerish = regexp.MustCompile(`^\s+\d+`)
)

// readPairgoth applies pairgoth's EGF rules: the first line starting with
// "(" is the date, "(dd MMM yyyy)" in English; every line of blanks then
// digits (but for "(undefined)" and "Anonymous" ones) is a player and must
// match its pattern whole, else the reader drops it with an error — here,
// a failure. The text is decoded by the response's charset.
func readPairgoth(data []byte, contentType string) (time.Time, []ratedPlayer, error) {
	if !strings.Contains(strings.ToLower(contentType), "charset=iso-8859-15") {
		return time.Time{}, nil, fmt.Errorf("content type %q: the reader would decode it as UTF-8", contentType)
	}
	text, err := decodeISO885915(data)
	if err != nil {
		return time.Time{}, nil, err
	}
	lines := strings.Split(text, "\n")
	var date time.Time
	found := false
	for _, l := range lines {
		if strings.HasPrefix(l, "(") {
			s := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(l), "("), ")")
			if date, err = time.Parse("02 Jan 2006", s); err != nil {
				return time.Time{}, nil, fmt.Errorf("date line %q: %w", l, err)
			}
			found = true
			break
		}
	}
	if !found {
		return time.Time{}, nil, fmt.Errorf("no line starts with (")
	}
	var out []ratedPlayer
	for n, l := range lines {
		if !pgPlayerish.MatchString(l) || strings.Contains(l, "(undefined)") || strings.Contains(l, "Anonymous") {
			continue
		}
		m := pgLine.FindStringSubmatch(l)
		if m == nil {
			return time.Time{}, nil, fmt.Errorf("line %d: could not parse line: %q", n+1, l)
		}
		g := func(name string) string { return m[pgLine.SubexpIndex(name)] }
		rating, _ := strconv.Atoi(g("rating"))
		out = append(out, ratedPlayer{PIN: g("egf"), Name: g("name"), FirstName: g("firstname"), Country: g("country"),
			Club: g("club"), Grade: g("rank"), Rating: rating})
	}
	return date, out, nil
}
