package certs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
)

// RosterSubmission is an agency's report of its roster to the association:
// when, by whom, how many rows, and what changed since its last report.
type RosterSubmission struct {
	ID           int64
	AgencyPrefix string
	Year         int
	SubmittedAt  time.Time
	SubmittedBy  string
	Rows         int
	// Added and Removed are the certificate numbers that came onto and went
	// off the roster since the agency's previous submission.
	Added, Removed []string
	First          bool // the agency's first submission
	// LogSize and LogHash are the event log's tree when it was submitted:
	// a signed checkpoint of LogSize events carries LogHash.
	LogSize int64
	LogHash []byte
}

// SubmitRoster stores a dated snapshot of the agency's roster as its report
// to the association for the year (Beijing) of the submission. It may be
// submitted again; each submission is kept.
func (s *Service) SubmitRoster(ctx context.Context, actor ledger.Actor, key, agency string) (RosterSubmission, error) {
	agency, prov, err := s.rosterAgency(ctx, actor, agency)
	if err != nil {
		return RosterSubmission{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "SubmitRoster", agency, func(tx *ledger.Tx, now time.Time) (RosterSubmission, error) {
		rows, err := rosterRows(ctx, tx, prov)
		if err != nil {
			return RosterSubmission{}, fmt.Errorf("roster of %s: %w", agency, err)
		}
		numbers := make([]string, len(rows))
		for i, r := range rows {
			numbers[i] = r.Number
		}
		snapshot, err := json.Marshal(rows)
		if err != nil {
			return RosterSubmission{}, fmt.Errorf("roster snapshot: %w", err)
		}
		sub := RosterSubmission{AgencyPrefix: agency, Year: now.In(ledger.ChinaTime).Year(), SubmittedAt: now,
			SubmittedBy: actor.String(), Rows: len(rows)}
		var previous []string
		err = tx.QueryRow(ctx, `SELECT numbers FROM roster_submissions WHERE agency_prefix = $1 ORDER BY submitted_at DESC, id DESC LIMIT 1`,
			agency).Scan(&previous)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			sub.First = true
		case err != nil:
			return RosterSubmission{}, ledger.PgErr(err, "last roster submission")
		}
		sub.Added, sub.Removed = difference(numbers, previous), difference(previous, numbers)
		head, err := ledger.TreeHead(ctx, tx)
		if err != nil {
			return RosterSubmission{}, fmt.Errorf("event tree at submission: %w", err)
		}
		sub.LogSize, sub.LogHash = head.N, head.Hash[:]
		if err := tx.QueryRow(ctx, `INSERT INTO roster_submissions (agency_prefix, year, submitted_at, submitted_by, row_count, numbers, snapshot, log_size, log_hash)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`, agency, sub.Year, now, sub.SubmittedBy, sub.Rows, numbers, snapshot,
			sub.LogSize, sub.LogHash).Scan(&sub.ID); err != nil {
			return RosterSubmission{}, ledger.PgErr(err, "submit roster")
		}
		// the log keeps what was reported, not the identities it holds
		return sub, ledger.Append(ctx, tx, now, actor, "roster", agency+"/"+strconv.Itoa(sub.Year),
			NewRosterSubmittedPayload(sub))
	})
}

// difference lists what of a is not in b, in a's order.
func difference(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, x := range b {
		in[x] = true
	}
	out := []string{}
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

// RosterSubmissions lists the roster reports of a year, newest first, each
// with what changed since the report before it: staff see every agency's,
// an agency its own.
func (s *Service) RosterSubmissions(ctx context.Context, actor ledger.Actor, year int) ([]RosterSubmission, error) {
	agency := ""
	if !actor.IsStaff() {
		if err := s.policy.Require(ctx, s.db, actor, access.ReadApplications, actor.Agency); err != nil {
			return nil, err
		}
		agency = actor.Agency
	}
	// the previous report may be of an earlier year: compare over all, then keep the year's
	rows, err := s.db.Query(ctx, `SELECT id, agency_prefix, year, submitted_at, submitted_by, row_count, numbers, previous, first, log_size, log_hash
		FROM (SELECT *, coalesce(lag(numbers) OVER (PARTITION BY agency_prefix ORDER BY submitted_at, id), '{}') AS previous,
				lag(id) OVER (PARTITION BY agency_prefix ORDER BY submitted_at, id) IS NULL AS first
			FROM roster_submissions WHERE $1 = '' OR agency_prefix = $1) s
		WHERE year = $2 ORDER BY submitted_at DESC, id DESC`, agency, year)
	if err != nil {
		return nil, fmt.Errorf("roster submissions: %w", err)
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (RosterSubmission, error) {
		var sub RosterSubmission
		var numbers, previous []string
		err := r.Scan(&sub.ID, &sub.AgencyPrefix, &sub.Year, &sub.SubmittedAt, &sub.SubmittedBy, &sub.Rows, &numbers, &previous, &sub.First, &sub.LogSize, &sub.LogHash)
		sub.Added, sub.Removed = difference(numbers, previous), difference(previous, numbers)
		return sub, err
	})
	if err != nil {
		return nil, fmt.Errorf("roster submissions: %w", err)
	}
	if all == nil {
		all = []RosterSubmission{}
	}
	return all, nil
}
