package ledger

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ReasonInvalidText refuses text the registry cannot keep or show safely:
// PostgreSQL refuses NUL in text (which would surface as an internal
// error), and control characters and broken UTF-8 garble pages and files.
var ReasonInvalidText = NewReason(Invalid, "INVALID_TEXT",
	"含有不能保存的字符（空字符、控制字符或无效的 UTF-8 编码）。",
	"contains characters that cannot be kept (NUL, control characters or invalid UTF-8).")

// Text checks one required free-text input: it returns the value trimmed,
// line ends as "\n", or a refusal naming the field: REQUIRED when empty,
// TOO_LONG above max characters, INVALID_TEXT for invalid UTF-8 or a
// control character other than tab and newline.
func Text(field, value string, max int) (string, error) {
	v, err := OptionalText(field, value, max)
	if err == nil && v == "" {
		return "", ReasonRequired.OnField(field)
	}
	return v, err
}

// OptionalText is Text for an input that may be left empty.
func OptionalText(field, value string, max int) (string, error) {
	if !utf8.ValidString(value) {
		return "", ReasonInvalidText.OnField(field)
	}
	v := strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(value, "\r\n", "\n"), "\r", "\n"))
	if strings.ContainsFunc(v, func(r rune) bool { return unicode.IsControl(r) && r != '\t' && r != '\n' }) {
		return "", ReasonInvalidText.OnField(field)
	}
	if utf8.RuneCountInString(v) > max {
		return "", ReasonTooLong.OnField(field, "max", strconv.Itoa(max))
	}
	return v, nil
}

// SpreadsheetCell is a text cell for a CSV export that spreadsheets read
// as text: a cell starting with = + - @ (or tab or carriage return) would
// be run as a formula (=HYPERLINK(…)), so it gets a leading single quote.
func SpreadsheetCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// OneLine is s with its line breaks and other control characters as
// spaces, for a value written into a line-based file (an h-file header, a
// player line), where a line break would start a line of its own.
func OneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// maxEcho is how much of a refused value a message quotes.
const maxEcho = 500

// Echo is a value as a refusal quotes it: valid UTF-8 without control
// characters, at most 500 characters and "…", so a hostile value is not
// sent back (or logged) at full length.
func Echo(v string) string {
	v = OneLine(strings.ToValidUTF8(v, "\uFFFD"))
	n := 0
	for i := range v {
		if n == maxEcho {
			return v[:i] + "…"
		}
		n++
	}
	return v
}
