package certs

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Bulk loading (the national data set): certification's rows written with
// COPY in the caller's transaction, in their final state, exactly as the
// services leave them; the caller writes the events the services would
// have written (ledger.BulkAppend) with the payloads below.

// BulkApplication is an application row with the certificate it led to.
type BulkApplication struct {
	Application
	CertificateID int64
}

// BulkCertificate is a certificate row with what Certificate does not show.
type BulkCertificate struct {
	Certificate
	PreviousRank registry.Rank
	GrantedAt    time.Time
}

// BulkRoster is a roster submission with the numbers and snapshot it stored.
type BulkRoster struct {
	RosterSubmission
	Numbers  []string
	Snapshot []RosterRow
}

// BulkSet is every certification row of a data load.
type BulkSet struct {
	Orders       []Order
	Appraisers   []Appraiser
	Applications []BulkApplication
	Notices      []Notice
	Objections   []Objection
	Certificates []BulkCertificate
	Rosters      []BulkRoster
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// copyRows copies n rows made by row into table.
func copyRows(ctx context.Context, tx pgx.Tx, table string, cols []string, n int, row func(i int) ([]any, error)) error {
	i := 0
	_, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromFunc(func() ([]any, error) {
		if i >= n {
			return nil, nil
		}
		r, err := row(i)
		i++
		return r, err
	}))
	if err != nil {
		return fmt.Errorf("copy %d rows of %s: %w", n, table, err)
	}
	return nil
}

// CopyAll writes the set: orders, appraisers, applications, notices,
// objections, certificates (the series' last serials kept consistent with
// them) and roster submissions, and moves the id sequences past the rows.
func CopyAll(ctx context.Context, tx pgx.Tx, set BulkSet) error {
	err := copyRows(ctx, tx, "certificate_orders", []string{"agency_prefix", "year", "dan_count", "kyu_count", "status", "ordered_at",
		"ordered_by", "decided_at", "decided_by", "note"}, len(set.Orders), func(i int) ([]any, error) {
		o := set.Orders[i]
		return []any{o.AgencyPrefix, int16(o.Year), o.DanCount, o.KyuCount, string(o.Status), o.OrderedAt, o.OrderedBy, o.DecidedAt,
			nullText(o.DecidedBy), o.Note}, nil
	})
	if err != nil {
		return err
	}
	err = copyRows(ctx, tx, "appraisers", []string{"id", "name", "agency_prefix", "player_id", "qualification", "status", "recommended_at",
		"decided_at", "decided_by"}, len(set.Appraisers), func(i int) ([]any, error) {
		a := set.Appraisers[i]
		return []any{a.ID, a.Name, a.AgencyPrefix, nullID(a.PlayerID), a.Qualification, string(a.Status), a.RecommendedAt, a.DecidedAt,
			nullText(a.DecidedBy)}, nil
	})
	if err != nil {
		return err
	}
	err = copyRows(ctx, tx, "applications", []string{"id", "player_id", "agency_prefix", "target_rank", "basis", "event_ref", "record_ref",
		"evidence", "appraiser_id", "status", "applied_at", "applied_by", "decided_at", "decided_by", "reason", "certificate_id", "player_name",
		"event_id", "placed", "wins", "games", "group_name", "earned_rank"},
		len(set.Applications), func(i int) ([]any, error) {
			a := set.Applications[i]
			return []any{a.ID, a.PlayerID, a.AgencyPrefix, int16(a.TargetRank), string(a.Basis), a.EventRef, a.RecordRef, a.Evidence,
				nullID(a.AppraiserID), string(a.Status), a.AppliedAt, a.AppliedBy, a.DecidedAt, nullText(a.DecidedBy), a.Reason,
				nullID(a.CertificateID), a.PlayerName, nullID(a.EventID), a.Placing, a.Wins, a.Games, a.Group, int16(a.EarnedRank)}, nil
		})
	if err != nil {
		return err
	}
	err = copyRows(ctx, tx, "notices", []string{"id", "application_id", "player_name", "gender", "province_code", "agency_prefix", "agency_name",
		"rank", "basis", "basis_detail", "published_at", "ends_at", "status", "closed_at"}, len(set.Notices), func(i int) ([]any, error) {
		n := set.Notices[i]
		return []any{n.ID, n.ApplicationID, n.PlayerName, string(n.Gender), n.ProvinceCode, n.AgencyPrefix, n.AgencyName, int16(n.Rank),
			string(n.Basis), n.BasisDetail, n.PublishedAt, n.EndsAt, string(n.Status), n.ClosedAt}, nil
	})
	if err != nil {
		return err
	}
	err = copyRows(ctx, tx, "objections", []string{"id", "notice_id", "name", "contact", "reason", "address", "network", "lodged_at",
		"status", "ruled_at", "ruled_by", "ruling"}, len(set.Objections), func(i int) ([]any, error) {
		o := set.Objections[i]
		return []any{o.ID, o.NoticeID, o.Name, o.Contact, o.Reason, o.Address, objectionNetwork(o.Address), o.LodgedAt, string(o.Status),
			o.RuledAt, nullText(o.RuledBy), o.Ruling}, nil
	})
	if err != nil {
		return err
	}
	err = copyRows(ctx, tx, "certificates", []string{"id", "number", "kind", "issuing_prefix", "year", "serial", "player_id", "rank",
		"previous_rank", "basis", "application_id", "issued_at", "granted_at", "issue_date", "athlete_grade", "status", "status_reason",
		"holder_name", "issuing_body"}, len(set.Certificates), func(i int) ([]any, error) {
		c := set.Certificates[i]
		year, serial := any(int16(Year(c.IssuedAt))), any(nil)
		if c.Number != "" {
			n, err := ParseNumber(c.Number)
			if err != nil {
				return nil, fmt.Errorf("certificate %d: %w", c.ID, err)
			}
			year, serial = int16(n.Year), n.Serial
		}
		return []any{c.ID, nullText(c.Number), string(c.Kind), c.IssuingPrefix, year, serial, c.PlayerID, int16(c.Rank),
			int16(c.PreviousRank), string(c.Basis), nullID(c.ApplicationID), c.IssuedAt, c.GrantedAt, c.IssueDate, string(c.AthleteGrade),
			string(c.Status), c.StatusReason, c.PlayerName, c.IssuingBody}, nil
	})
	if err != nil {
		return err
	}
	err = copyRows(ctx, tx, "roster_submissions", []string{"id", "agency_prefix", "year", "submitted_at", "submitted_by", "row_count",
		"numbers", "snapshot", "log_size", "log_hash"}, len(set.Rosters), func(i int) ([]any, error) {
		r := set.Rosters[i]
		snap, err := json.Marshal(r.Snapshot)
		if err != nil {
			return nil, fmt.Errorf("roster snapshot: %w", err)
		}
		return []any{r.ID, r.AgencyPrefix, r.Year, r.SubmittedAt, r.SubmittedBy, r.Rows, r.Numbers, string(snap), r.LogSize, r.LogHash}, nil
	})
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO certificate_series (prefix, year, kind, last_serial, used)
		SELECT issuing_prefix, year, kind, max(serial), count(*) FILTER (WHERE NOT from_paper)
		FROM certificates WHERE serial IS NOT NULL GROUP BY issuing_prefix, year, kind
		ON CONFLICT (prefix, year, kind) DO UPDATE SET last_serial = greatest(certificate_series.last_serial, EXCLUDED.last_serial),
			used = EXCLUDED.used`); err != nil {
		return fmt.Errorf("series after a bulk load: %w", err)
	}
	for _, t := range []string{"appraisers", "applications", "notices", "objections", "certificates", "roster_submissions"} {
		if err := ledger.MoveSequence(ctx, tx, t); err != nil {
			return err
		}
	}
	return nil
}

// The payloads below are those the services write for each action.

// SweeperActor is who the log names for certificates issued when a notice ends.
func SweeperActor() ledger.Actor { return sweeper() }

// RosterRowOf is the roster row of a valid dan certificate and its holder.
func RosterRowOf(c Certificate, p registry.Player) RosterRow {
	body := c.IssuingBody
	if c.IssuingPrefix == registry.AssociationPrefix {
		body = IssuerZH
	}
	return RosterRow{Number: c.Number, Name: p.Name, Gender: genderZH(p.Gender), BirthDate: p.BirthDate.Format(time.DateOnly),
		IDKind: idKindZH(p.IDKind), IDNumber: p.IDNumber, Rank: c.Rank.Chinese(), IssueDate: c.IssueDate.Format(time.DateOnly),
		Issuer: IssuerZH, Applicant: body, Prefix: c.IssuingPrefix, Basis: basisZH(c.Basis), AthleteGrade: gradeZH(c.AthleteGrade), Status: "有效"}
}

// RosterDifference lists what of a is not in b, in a's order.
func RosterDifference(a, b []string) []string { return difference(a, b) }
