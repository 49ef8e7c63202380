package certs

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

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
)

// BatchResult is one row's verdict, with the certificate when found and the
// refusal when the number is malformed.
type BatchResult struct {
	Row         BatchRow
	Verdict     BatchVerdict
	Number      string // as normalised
	Certificate *Certificate
	Problem     *ledger.Error
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
	found := map[string]Certificate{}
	if len(numbers) > 0 {
		q, err := s.db.Query(ctx, certificateSelect+` WHERE c.number = ANY($1)`, numbers)
		if err != nil {
			return nil, fmt.Errorf("verify a batch: %w", err)
		}
		cs, err := pgx.CollectRows(q, func(r pgx.CollectableRow) (Certificate, error) { return scanCertificate(r) })
		if err != nil {
			return nil, fmt.Errorf("verify a batch: %w", err)
		}
		for _, c := range cs {
			found[c.Number] = c
		}
	}
	for i := range out {
		if out[i].Verdict == VerdictMalformed {
			continue
		}
		c, ok := found[out[i].Number]
		switch {
		case !ok:
			out[i].Verdict = VerdictNotFound
			continue
		case c.Status == CertRevoked:
			out[i].Verdict = VerdictRevoked
		case c.Status == CertReissued:
			out[i].Verdict = VerdictReissued
		default:
			out[i].Verdict = VerdictValid
		}
		if name := strings.TrimSpace(out[i].Row.Name); name != "" && !sameName(name, c.PlayerName) {
			out[i].Verdict = VerdictOtherHolder
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

// ParseBatch reads a pasted or uploaded list (CSV or a spreadsheet's
// copied cells): one claim per line, the number and optionally the name,
// separated by a comma or a tab; further columns, empty lines and a first
// line without any digit (the header) are skipped.
func ParseBatch(text string) []BatchRow {
	var rows []BatchRow
	for _, line := range strings.Split(strings.ReplaceAll(strings.TrimPrefix(text, "\ufeff"), "\r", ""), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		number, name := line, ""
		if i := strings.IndexAny(line, ",，\t"); i >= 0 {
			number, name = line[:i], line[i+1:]
			if j := strings.IndexAny(name, ",，\t"); j >= 0 {
				name = name[:j] // further columns are the sheet's own
			}
		}
		number, name = strings.TrimSpace(number), strings.TrimSpace(name)
		if number == "" {
			continue
		}
		if len(rows) == 0 && !strings.ContainsAny(number, "0123456789０１２３４５６７８９") {
			continue // the header
		}
		rows = append(rows, BatchRow{Number: number, Name: name})
	}
	return rows
}
