package certs

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// The reads the portal's paper-certificate pages need besides the acts
// (ImportPaper, SubmitPaper, DecidePaper): an agency's check of its file
// before it submits it, and the submissions waiting for staff.

// CheckPaper checks a file of paper certificates as the actor's act on it
// would, changing nothing: staff's as ImportPaper's dry run, an agency's
// as SubmitPaper checks it (only holders of its own province).
func (s *Service) CheckPaper(ctx context.Context, actor ledger.Actor, in PaperInput) (PaperResult, error) {
	if err := access.RequireSignedIn(actor, access.SubmitPaper); err != nil {
		return PaperResult{}, err
	}
	prov, agency := registry.ProvinceByPrefix(actor.Agency)
	if !agency {
		in.DryRun = true
		return s.ImportPaper(ctx, actor, "", in)
	}
	return ledger.Mutate(ctx, s.store, actor, "", "CheckPaperSubmission", nil, func(tx *ledger.Tx, now time.Time) (PaperResult, error) {
		if err := s.policy.Require(ctx, tx, actor, access.SubmitPaper, prov.Prefix); err != nil {
			return PaperResult{}, err
		}
		return s.importPaperTx(ctx, tx, now, actor, PaperInput{Data: in.Data, DryRun: true, Skip: in.Skip}, prov.Code)
	})
}

// MaxPaperSubmissionsListed bounds a list of submissions.
const MaxPaperSubmissionsListed = 200

// ListPaperSubmissions lists paper submissions, newest first: staff every
// agency's, an agency its own; status "" lists every status.
func (s *Service) ListPaperSubmissions(ctx context.Context, actor ledger.Actor, status string) ([]PaperSubmission, error) {
	if err := access.RequireSignedIn(actor, access.SubmitPaper); err != nil {
		return nil, err
	}
	agency := ""
	if !actor.IsStaff() {
		agency = actor.Agency
	}
	rows, err := s.store.DB().Query(ctx, `SELECT id, agency_prefix, submitted_at, submitted_by, row_count, status, note FROM paper_submissions
		WHERE ($1 = '' OR agency_prefix = $1) AND ($2 = '' OR status = $2) ORDER BY id DESC LIMIT $3`, agency, status, MaxPaperSubmissionsListed)
	if err != nil {
		return nil, ledger.PgErr(err, "list paper submissions")
	}
	defer rows.Close()
	var out []PaperSubmission
	for rows.Next() {
		var sub PaperSubmission
		if err := rows.Scan(&sub.ID, &sub.AgencyPrefix, &sub.SubmittedAt, &sub.SubmittedBy, &sub.Rows, &sub.Status, &sub.Note); err != nil {
			return nil, ledger.PgErr(err, "read paper submission")
		}
		out = append(out, sub)
	}
	if err := rows.Err(); err != nil {
		return nil, ledger.PgErr(err, "list paper submissions")
	}
	return out, nil
}

// GetPaperSubmission is one submission with its file checked as of now
// (what confirming it would record), for staff or the agency that sent it.
func (s *Service) GetPaperSubmission(ctx context.Context, actor ledger.Actor, id int64) (PaperSubmission, error) {
	if err := access.RequireSignedIn(actor, access.SubmitPaper); err != nil {
		return PaperSubmission{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, "", "GetPaperSubmission", nil, func(tx *ledger.Tx, now time.Time) (PaperSubmission, error) {
		sub := PaperSubmission{ID: id}
		var (
			data []byte
			skip []int32
		)
		err := tx.QueryRow(ctx, `SELECT agency_prefix, submitted_at, submitted_by, data, skip_lines, row_count, status, note FROM paper_submissions
			WHERE id = $1`, id).Scan(&sub.AgencyPrefix, &sub.SubmittedAt, &sub.SubmittedBy, &data, &skip, &sub.Rows, &sub.Status, &sub.Note)
		if err != nil {
			return PaperSubmission{}, ledger.RowErr(err, fmt.Sprintf("paper submission %d", id), ReasonNoSuchPaperSubmission.New("submission", strconv.FormatInt(id, 10)))
		}
		if !actor.IsStaff() && actor.Agency != sub.AgencyPrefix {
			// another agency's submission is as if it did not exist
			return PaperSubmission{}, ReasonNoSuchPaperSubmission.New("submission", strconv.FormatInt(id, 10))
		}
		lines := make([]int, len(skip))
		for i, l := range skip {
			lines[i] = int(l)
		}
		prov, _ := registry.ProvinceByPrefix(sub.AgencyPrefix)
		if sub.Result, err = s.importPaperTx(ctx, tx, now, actor, PaperInput{Data: data, DryRun: true, Skip: lines}, prov.Code); err != nil {
			return PaperSubmission{}, err
		}
		return sub, nil
	})
}
