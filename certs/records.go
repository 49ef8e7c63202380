package certs

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// The reads below serve the annual audit and the ratings: what an agency
// issued in a year, and what the public objected to. They take a Querier so
// that a snapshot can read them in its own transaction.

// CertificatesIssued lists the certificates the body with the prefix issued
// in the calendar year (Beijing), oldest first: every status, numbered or
// not.
func CertificatesIssued(ctx context.Context, q ledger.Querier, issuingPrefix string, year int) ([]Certificate, error) {
	from := time.Date(year, 1, 1, 0, 0, 0, 0, ledger.ChinaTime)
	rows, err := q.Query(ctx, certificateSelect+` WHERE c.issuing_prefix = $1 AND c.issue_date >= $2 AND c.issue_date < $3
		ORDER BY c.issued_at, c.id`, issuingPrefix, from, from.AddDate(1, 0, 0))
	if err != nil {
		return nil, fmt.Errorf("certificates issued by %s in %d: %w", issuingPrefix, year, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Certificate, error) { return scanCertificate(r) })
}

// CertifiedPlayers returns, for each player the body with the prefix has
// certified, his newest valid certificate.
func CertifiedPlayers(ctx context.Context, q ledger.Querier, issuingPrefix string) (map[int64]Certificate, error) {
	rows, err := q.Query(ctx, `SELECT DISTINCT ON (c.player_id) `+certificateColumns+` FROM certificates c`+certificateJoins+`
		WHERE c.issuing_prefix = $1 AND c.status = 'valid'
		ORDER BY c.player_id, c.granted_at DESC, c.rank DESC, c.id DESC`, issuingPrefix)
	if err != nil {
		return nil, fmt.Errorf("players certified by %s: %w", issuingPrefix, err)
	}
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Certificate, error) { return scanCertificate(r) })
	if err != nil {
		return nil, fmt.Errorf("players certified by %s: %w", issuingPrefix, err)
	}
	out := make(map[int64]Certificate, len(cs))
	for _, c := range cs {
		out[c.PlayerID] = c
	}
	return out, nil
}

// NoticeRecord is a notice with every objection to it and its ruling.
type NoticeRecord struct {
	Notice     Notice
	Objections []Objection
}

// NoticesOf lists the notices of an agency published from from (inclusive)
// to to (exclusive), each with its objections, oldest first.
func NoticesOf(ctx context.Context, q ledger.Querier, agencyPrefix string, from, to time.Time) ([]NoticeRecord, error) {
	rows, err := q.Query(ctx, noticeSelect+` WHERE n.agency_prefix = $1 AND n.published_at >= $2 AND n.published_at < $3
		ORDER BY n.published_at, n.id`, agencyPrefix, from, to)
	if err != nil {
		return nil, fmt.Errorf("notices of %s: %w", agencyPrefix, err)
	}
	ns, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Notice, error) { return scanNotice(r) })
	if err != nil {
		return nil, fmt.Errorf("notices of %s: %w", agencyPrefix, err)
	}
	out := make([]NoticeRecord, len(ns))
	index := map[int64]int{}
	ids := make([]int64, len(ns))
	for i, n := range ns {
		out[i].Notice, index[n.ID], ids[i] = n, i, n.ID
	}
	orows, err := q.Query(ctx, `SELECT `+objectionColumns+` FROM objections WHERE notice_id = ANY($1) ORDER BY id`, ids)
	if err != nil {
		return nil, fmt.Errorf("objections to notices of %s: %w", agencyPrefix, err)
	}
	os, err := pgx.CollectRows(orows, func(r pgx.CollectableRow) (Objection, error) { return scanObjection(r) })
	if err != nil {
		return nil, fmt.Errorf("objections to notices of %s: %w", agencyPrefix, err)
	}
	for _, o := range os {
		i := index[o.NoticeID]
		out[i].Objections = append(out[i].Objections, o)
	}
	return out, nil
}

// ObjectionOnNotice is an objection with the notice it is about.
type ObjectionOnNotice struct {
	Objection Objection
	Notice    Notice
}

// OpenObjections lists the objections waiting for a ruling with their
// notices (staff), in two queries however many there are.
func (s *Service) OpenObjections(ctx context.Context, actor ledger.Actor) ([]ObjectionOnNotice, error) {
	all, err := s.ListObjections(ctx, actor, 0, true)
	if err != nil {
		return nil, err
	}
	// a fold is ruled as one: its lead stands for it (Folded counts the rest)
	obs := all[:0]
	for _, o := range all {
		if o.FoldedInto == 0 {
			obs = append(obs, o)
		}
	}
	ids := make([]int64, 0, len(obs))
	for _, o := range obs {
		ids = append(ids, o.NoticeID)
	}
	rows, err := s.db.Query(ctx, noticeSelect+` WHERE n.id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("notices of open objections: %w", err)
	}
	ns, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Notice, error) { return scanNotice(r) })
	if err != nil {
		return nil, fmt.Errorf("notices of open objections: %w", err)
	}
	byID := make(map[int64]Notice, len(ns))
	for _, n := range ns {
		byID[n.ID] = n
	}
	out := make([]ObjectionOnNotice, len(obs))
	for i, o := range obs {
		out[i] = ObjectionOnNotice{Objection: o, Notice: byID[o.NoticeID]}
	}
	return out, nil
}
