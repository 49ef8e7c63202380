package certs

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dankyu/dankyu/ledger"
)

// MaxBatch bounds one batch verification (an admissions office's list).
const MaxBatch = 1000

// BatchRow is one claim to check: a certificate number and, optionally, the
// name of the person who claims it.
type BatchRow struct {
	Number string
	Name   string
}

// BatchVerdict is what one row comes to.
type BatchVerdict string

const (
	VerdictValid     BatchVerdict = "valid"
	VerdictRevoked   BatchVerdict = "revoked"
	VerdictReissued  BatchVerdict = "reissued"
	VerdictNotFound  BatchVerdict = "not_found"
	VerdictMalformed BatchVerdict = "malformed"
	// VerdictOtherHolder: the certificate exists, but the name given is not
	// its holder's.
	VerdictOtherHolder BatchVerdict = "other_holder"
	// VerdictUnderReview: the certificate's record disagrees with its
	// logged events (ReasonUnderReview); nothing of it is shown.
	VerdictUnderReview BatchVerdict = "under_review"
)

// BatchResult is one row's verdict, with the certificate when found and the
// refusal when the number is malformed.
type BatchResult struct {
	Row         BatchRow
	Verdict     BatchVerdict
	Number      string // as normalised
	Certificate *Certificate
	Problem     *ledger.Error
	// HolderWithheld: the holder is a minor the claim did not name, so
	// Certificate carries no name or player id.
	HolderWithheld bool
}

// ReasonBatchTooLarge refuses a batch over MaxBatch rows.
var ReasonBatchTooLarge = ledger.NewReason(ledger.Invalid, "BATCH_TOO_LARGE",
	"一次最多核验 {max} 个证书编号，本次有 {rows} 个。", "a batch checks at most {max} numbers; this one has {rows}.")

// VerifyBatch checks many claims at once, in one query: every row gets a
// verdict, in the order given.
func (s *Service) VerifyBatch(ctx context.Context, rows []BatchRow) ([]BatchResult, error) {
	if len(rows) > MaxBatch {
		return nil, ReasonBatchTooLarge.OnField("numbers", "max", strconv.Itoa(MaxBatch), "rows", strconv.Itoa(len(rows)))
	}
	out := make([]BatchResult, len(rows))
	var numbers []string
	for i, r := range rows {
		out[i].Row = r
		n, err := ParseNumber(r.Number)
		if err != nil {
			e, _ := ledger.AsError(err)
			out[i].Verdict, out[i].Problem = VerdictMalformed, e
			continue
		}
		out[i].Number = n.String()
		numbers = append(numbers, out[i].Number)
	}
	found := map[string]Verification{}
	if len(numbers) > 0 {
		// the rows, then their events, each certificate checked once
		cs, err := readChecked(ctx, s.db, `WHERE c.number = ANY($1)`, numbers)
		if err != nil {
			return nil, fmt.Errorf("verify a batch: %w", err)
		}
		for _, c := range cs {
			found[c.Number] = s.checked(ctx, c.Number, c)
		}
	}
	for i := range out {
		if out[i].Verdict == VerdictMalformed {
			continue
		}
		v, ok := found[out[i].Number]
		c := v.Certificate
		switch {
		case !ok:
			out[i].Verdict = VerdictNotFound
			continue
		case v.UnderReview != nil:
			out[i].Verdict, out[i].Problem = VerdictUnderReview, v.UnderReview
			continue
		case c.Status == CertRevoked:
			out[i].Verdict = VerdictRevoked
		case c.Status == CertReissued:
			out[i].Verdict = VerdictReissued
		default:
			out[i].Verdict = VerdictValid
		}
		name := strings.TrimSpace(out[i].Row.Name)
		if name != "" && !sameName(name, c.PlayerName) {
			out[i].Verdict = VerdictOtherHolder
		}
		if v.HolderMinor && (name == "" || !sameName(name, c.PlayerName)) {
			// a minor's name only to who names him
			c.PlayerName, c.PlayerID = "", 0
			out[i].HolderWithheld = true
		}
		out[i].Certificate = &c
	}
	return out, nil
}

// sameName compares names as people write them: spaces and case aside.
func sameName(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }
	return norm(a) == norm(b)
}

// MaxClaimLine bounds one line of a batch: a claim is a number and a name,
// and longer lines are cut (at a character) before they are read.
const MaxClaimLine = 512

// ParseBatch reads a pasted or uploaded list (CSV or a spreadsheet's
// copied cells): one claim per line, the number and optionally the name.
// The number ends at the first comma, semicolon or tab (ASCII or
// full-width), ideographic comma, or run of spaces (ASCII or ideographic)
// followed by something that cannot continue a number, so "110 26 0001
// 张三" still reads as a spaced number and a name. A line whose first
// column holds no digit but which has a number further on is read name
// first ("李明轩，110260005", "李明轩 110260005"). Further columns, empty
// lines and a first line without any digit (the header) are skipped.
func ParseBatch(text string) []BatchRow {
	var rows []BatchRow
	text = strings.TrimPrefix(text, "\ufeff")
	for len(text) > 0 {
		line := text
		if i := strings.IndexAny(text, "\r\n"); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		number, name := splitClaim(cutLine(line))
		if !startsNumber(number) {
			if n, m, ok := splitNameFirst(cutLine(line)); ok {
				number, name = n, m
			}
		}
		if number == "" {
			continue
		}
		if len(rows) == 0 && !hasDigit(number) {
			continue // the header
		}
		rows = append(rows, BatchRow{Number: number, Name: name})
	}
	return rows
}

// startsNumber reports whether s begins as a number does: a digit, or a
// kyu number's K before one.
func startsNumber(s string) bool {
	r, size := utf8.DecodeRuneInString(s)
	if r == 'K' || r == 'k' || r == 'Ｋ' || r == 'ｋ' {
		r, _ = utf8.DecodeRuneInString(s[size:])
	}
	return (r >= '0' && r <= '9') || (r >= '０' && r <= '９')
}

func hasDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789０１２３４５６７８９")
}

// splitNameFirst reads a line that gives the name before the number: the
// number starts at the token holding the line's first digit (a kyu
// number's K with it), the name is the first column before it.
func splitNameFirst(line string) (number, name string, ok bool) {
	d := strings.IndexFunc(line, func(r rune) bool { return (r >= '0' && r <= '9') || (r >= '０' && r <= '９') })
	if d < 0 {
		return "", "", false
	}
	start := d
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(line[:start])
		if r != 'K' && r != 'k' && r != 'Ｋ' && r != 'ｋ' {
			break
		}
		start -= size
	}
	if start > 0 {
		// the number must start a token: after a space or a column break
		if r, _ := utf8.DecodeLastRuneInString(line[:start]); !unicode.IsSpace(r) && !isColumnBreak(r) {
			return "", "", false
		}
	}
	name = line[:start]
	if j := strings.IndexFunc(name, isColumnBreak); j >= 0 {
		name = name[:j]
	}
	number, _ = splitClaim(line[start:])
	return number, strings.TrimSpace(name), number != ""
}

// cutLine bounds a line to MaxClaimLine bytes without splitting a character.
func cutLine(s string) string {
	if len(s) <= MaxClaimLine {
		return s
	}
	n := MaxClaimLine
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// isColumnBreak reports the separators that always end a column.
func isColumnBreak(r rune) bool {
	switch r {
	case ',', '，', '、', '\t', ';', '；':
		return true
	}
	return false
}

// continuesNumber reports the characters a number may go on with after a
// space between its groups: digits and dashes, as ParseNumber reads them.
func continuesNumber(r rune) bool {
	switch {
	case r >= '0' && r <= '9', r >= '０' && r <= '９':
		return true
	}
	switch r {
	case '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212', '\uff0d':
		return true
	}
	return false
}

// splitClaim splits one line into its number and name, both trimmed; the
// name ends at the next column break (the sheet's own further columns).
func splitClaim(line string) (number, name string) {
	line = strings.TrimSpace(line)
	end, rest := len(line), len(line)
	for i, r := range line {
		if isColumnBreak(r) {
			end, rest = i, i+utf8.RuneLen(r)
			break
		}
		if !unicode.IsSpace(r) {
			continue
		}
		// a run of spaces: the number goes on only if a digit or dash follows
		j := i + strings.IndexFunc(line[i:], func(r rune) bool { return !unicode.IsSpace(r) })
		if next, _ := utf8.DecodeRuneInString(line[j:]); !continuesNumber(next) && !isColumnBreak(next) {
			end, rest = i, j
			break
		}
	}
	number, name = line[:end], line[rest:]
	if j := strings.IndexFunc(name, isColumnBreak); j >= 0 {
		name = name[:j]
	}
	return strings.TrimSpace(number), strings.TrimSpace(name)
}
