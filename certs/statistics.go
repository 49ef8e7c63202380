package certs

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Stats are the counts of certification: certificates by province, year,
// rank and basis, holders per registered player, notices and objections.
// A reissue replaces a certificate and is not counted again.
type Stats struct {
	Year       int             // the calendar year (Beijing) of the per-year tables
	Years      []YearCount     // certificates issued in each year up to Year, oldest first
	Provinces  []ProvinceCount // in Year, by province prefix; holders and players as at Year's end
	Ranks      []RankCount     // in Year, lowest rank first
	Bases      []BasisCount    // in Year, every basis
	Notices    NoticeCounts    // notices published in Year and their objections
	Agencies   []AgencyCount   // in Year, by agency; only in the detailed (staff) statistics
	HasDetails bool            // whether Agencies was read
}

// YearCount is the certificates issued in one calendar year.
type YearCount struct {
	Year, Certificates int
}

// ProvinceCount is one province's certificates of the year, and its
// holders of a valid dan certificate against its registered players.
type ProvinceCount struct {
	Prefix       string // the province's certificate prefix (the agency that applied)
	Certificates int
	Holders      int // players holding a valid 1 dan or higher certificate at the year's end
	Players      int // players registered by the year's end
}

// HoldersPer10k is the holders per 10 000 registered players, 0 without players.
func (p ProvinceCount) HoldersPer10k() float64 {
	if p.Players == 0 {
		return 0
	}
	return float64(p.Holders) * 10000 / float64(p.Players)
}

// RankCount is the certificates of one rank.
type RankCount struct {
	Rank         registry.Rank
	Certificates int
}

// BasisCount is the certificates of one basis.
type BasisCount struct {
	Basis        Basis
	Certificates int
}

// NoticeCounts are the notices and the objections to them.
type NoticeCounts struct {
	Notices, Open, Issued, Failed                     int
	Objections, Pending, Upheld, Dismissed, Withdrawn int // objections by outcome; Withdrawn are closed unruled (the notice ended another way, or they lapsed)
}

// AgencyCount is one agency's year: certificates by basis, revocations,
// notices and objections.
type AgencyCount struct {
	Prefix       string
	Certificates int
	ByBasis      map[Basis]int
	Revoked      int // of the year's certificates, those revoked by its end
	Notices      NoticeCounts
}

// Statistics reads the counts for the calendar year (Beijing) as q sees
// them, each as it stood at the year's end (a past year does not change
// with later revocations, registrations or rulings); with details it also
// counts per agency.
func Statistics(ctx context.Context, q ledger.Querier, year int, details bool) (Stats, error) {
	from := time.Date(year, 1, 1, 0, 0, 0, 0, ledger.ChinaTime)
	to := from.AddDate(1, 0, 0)
	st := Stats{Year: year, HasDetails: details}
	if err := st.readCertificates(ctx, q, from, to); err != nil {
		return Stats{}, err
	}
	if err := st.readHolders(ctx, q, to); err != nil {
		return Stats{}, err
	}
	if err := st.readNotices(ctx, q, from, to); err != nil {
		return Stats{}, err
	}
	if !details {
		st.Agencies = nil
	}
	return st, nil
}

// certificateChanged is when a certificate stopped being valid (revoked or
// replaced); one loaded in bulk without that time reads as changed when issued.
const certificateChanged = `coalesce(c.status_at, c.issued_at)`

// certificateProvince is the province a certificate counts for: the agency
// that applied (also for the association's 6–7 dan), else its issuer.
const certificateProvince = `coalesce(a.agency_prefix, c.issuing_prefix)`

func (st *Stats) readCertificates(ctx context.Context, q ledger.Querier, from, to time.Time) error {
	rows, err := q.Query(ctx, `SELECT extract(year FROM c.issue_date)::int, count(*) FROM certificates c
		WHERE c.replaces IS NULL AND c.issue_date < $1 GROUP BY 1 ORDER BY 1`, to)
	if err != nil {
		return fmt.Errorf("certificates per year: %w", err)
	}
	for rows.Next() {
		var y YearCount
		if err := rows.Scan(&y.Year, &y.Certificates); err != nil {
			rows.Close()
			return fmt.Errorf("certificates per year: %w", err)
		}
		st.Years = append(st.Years, y)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("certificates per year: %w", err)
	}

	rows, err = q.Query(ctx, `SELECT `+certificateProvince+`, c.rank, c.basis, count(*), count(*) FILTER (WHERE c.status = 'revoked' AND `+certificateChanged+` < $2)
		FROM certificates c LEFT JOIN applications a ON a.id = c.application_id
		WHERE c.replaces IS NULL AND c.issue_date >= $1 AND c.issue_date < $2
		GROUP BY 1, 2, 3`, from, to)
	if err != nil {
		return fmt.Errorf("certificates of %d: %w", st.Year, err)
	}
	defer rows.Close()
	provinces, ranks, bases := map[string]int{}, map[registry.Rank]int{}, map[Basis]int{}
	agencies := map[string]int{}
	for rows.Next() {
		var prefix string
		var rank registry.Rank
		var basis Basis
		var n, revoked int
		if err := rows.Scan(&prefix, &rank, &basis, &n, &revoked); err != nil {
			return fmt.Errorf("certificates of %d: %w", st.Year, err)
		}
		provinces[prefix] += n
		ranks[rank] += n
		bases[basis] += n
		a := st.agency(agencies, prefix)
		a.Certificates += n
		a.ByBasis[basis] += n
		a.Revoked += revoked
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("certificates of %d: %w", st.Year, err)
	}
	for prefix, n := range provinces {
		st.Provinces = append(st.Provinces, ProvinceCount{Prefix: prefix, Certificates: n})
	}
	for r, n := range ranks {
		st.Ranks = append(st.Ranks, RankCount{Rank: r, Certificates: n})
	}
	sort.Slice(st.Ranks, func(i, j int) bool { return st.Ranks[i].Rank < st.Ranks[j].Rank })
	for _, b := range Bases() {
		st.Bases = append(st.Bases, BasisCount{Basis: b, Certificates: bases[b]})
	}
	return nil
}

// agency returns the agency's row, made on first use; index maps prefixes
// to rows (indexes, as the slice grows).
func (st *Stats) agency(index map[string]int, prefix string) *AgencyCount {
	i, ok := index[prefix]
	if !ok {
		i = len(st.Agencies)
		index[prefix] = i
		st.Agencies = append(st.Agencies, AgencyCount{Prefix: prefix, ByBasis: map[Basis]int{}})
	}
	return &st.Agencies[i]
}

// readHolders counts, per province, the players holding a valid dan
// certificate at end (issued before it, not revoked or replaced before
// it), and the players registered before it (the registry's).
func (st *Stats) readHolders(ctx context.Context, q ledger.Querier, end time.Time) error {
	rows, err := q.Query(ctx, `SELECT `+certificateProvince+`, count(DISTINCT c.player_id)
		FROM certificates c LEFT JOIN applications a ON a.id = c.application_id
		WHERE c.kind = 'dan' AND c.issued_at < $1 AND (c.status = 'valid' OR `+certificateChanged+` >= $1) GROUP BY 1`, end)
	if err != nil {
		return fmt.Errorf("holders per province: %w", err)
	}
	defer rows.Close()
	holders := map[string]int{}
	for rows.Next() {
		var prefix string
		var n int
		if err := rows.Scan(&prefix, &n); err != nil {
			return fmt.Errorf("holders per province: %w", err)
		}
		holders[prefix] = n
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("holders per province: %w", err)
	}
	players, err := registry.PlayersPerProvince(ctx, q, end)
	if err != nil {
		return err
	}
	byPrefix := map[string]int{}
	for code, n := range players {
		if p, ok := registry.ProvinceByCode(code); ok {
			byPrefix[p.Prefix] += n
		}
	}
	index := map[string]int{}
	for i, p := range st.Provinces {
		index[p.Prefix] = i
	}
	for _, m := range []map[string]int{holders, byPrefix} {
		for prefix := range m {
			if _, ok := index[prefix]; !ok {
				index[prefix] = len(st.Provinces)
				st.Provinces = append(st.Provinces, ProvinceCount{Prefix: prefix})
			}
		}
	}
	for i := range st.Provinces {
		st.Provinces[i].Holders = holders[st.Provinces[i].Prefix]
		st.Provinces[i].Players = byPrefix[st.Provinces[i].Prefix]
	}
	sort.Slice(st.Provinces, func(i, j int) bool { return st.Provinces[i].Prefix < st.Provinces[j].Prefix })
	return nil
}

func (st *Stats) readNotices(ctx context.Context, q ledger.Querier, from, to time.Time) error {
	// a notice and its objections as they stood at the year's end: still
	// open if closed (ruled) after it, objections lodged after it left out
	rows, err := q.Query(ctx, `SELECT n.agency_prefix, CASE WHEN n.closed_at IS NULL OR n.closed_at >= $2 THEN 'open' ELSE n.status END,
			count(DISTINCT n.id), count(o.id), count(o.id) FILTER (WHERE o.status = 'open' OR o.ruled_at >= $2),
			count(o.id) FILTER (WHERE o.status = 'upheld' AND o.ruled_at < $2), count(o.id) FILTER (WHERE o.status = 'dismissed' AND o.ruled_at < $2),
			count(o.id) FILTER (WHERE o.status IN ('closed', 'lapsed') AND o.ruled_at < $2)
		FROM notices n LEFT JOIN objections o ON o.notice_id = n.id AND o.lodged_at < $2
		WHERE n.published_at >= $1 AND n.published_at < $2 GROUP BY 1, 2`, from, to)
	if err != nil {
		return fmt.Errorf("notices of %d: %w", st.Year, err)
	}
	defer rows.Close()
	agencies := map[string]int{}
	for i, a := range st.Agencies {
		agencies[a.Prefix] = i
	}
	for rows.Next() {
		var prefix string
		var status NoticeStatus
		var c NoticeCounts
		if err := rows.Scan(&prefix, &status, &c.Notices, &c.Objections, &c.Pending, &c.Upheld, &c.Dismissed, &c.Withdrawn); err != nil {
			return fmt.Errorf("notices of %d: %w", st.Year, err)
		}
		switch status {
		case NoticeOpen:
			c.Open = c.Notices
		case NoticeIssued:
			c.Issued = c.Notices
		case NoticeFailed:
			c.Failed = c.Notices
		}
		st.Notices.add(c)
		st.agency(agencies, prefix).Notices.add(c)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("notices of %d: %w", st.Year, err)
	}
	sort.Slice(st.Agencies, func(i, j int) bool { return st.Agencies[i].Prefix < st.Agencies[j].Prefix })
	return nil
}

func (c *NoticeCounts) add(o NoticeCounts) {
	c.Notices += o.Notices
	c.Open += o.Open
	c.Issued += o.Issued
	c.Failed += o.Failed
	c.Objections += o.Objections
	c.Pending += o.Pending
	c.Upheld += o.Upheld
	c.Dismissed += o.Dismissed
	c.Withdrawn += o.Withdrawn
}

// Statistics reads the counts for a year (0: the clock's year in Beijing):
// the public summary, or with details (staff only) per agency too.
func (s *Service) Statistics(ctx context.Context, actor ledger.Actor, year int, details bool) (Stats, error) {
	if details {
		if err := s.requireStaff(ctx, actor, access.ReadStatistics); err != nil {
			return Stats{}, err
		}
	}
	if year == 0 {
		year = s.store.Now().In(ledger.ChinaTime).Year()
	}
	if year < 2000 || year > 2999 {
		return Stats{}, ReasonStatisticsYear.OnField("year", "year", fmt.Sprint(year))
	}
	return Statistics(ctx, s.db, year, details)
}

// CountCell is the certificates of one year, province and rank, with how
// many of them are revoked now.
type CountCell struct {
	Year         int
	Prefix       string // the province's certificate prefix, as in Stats.Provinces
	Rank         registry.Rank
	Certificates int
	Revoked      int
}

// CertificateCounts are the public statistics crossed: certificates by
// calendar year (Beijing issue date), province and rank, counted as
// Statistics counts them (a reissue not again), oldest year first. The
// cells are at most years × provinces × ranks, a few thousand.
func (s *Service) CertificateCounts(ctx context.Context) ([]CountCell, error) {
	rows, err := s.db.Query(ctx, `SELECT extract(year FROM c.issue_date)::int, `+certificateProvince+`, c.rank,
			count(*), count(*) FILTER (WHERE c.status = 'revoked')
		FROM certificates c LEFT JOIN applications a ON a.id = c.application_id
		WHERE c.replaces IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`)
	if err != nil {
		return nil, fmt.Errorf("certificate counts: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (CountCell, error) {
		var c CountCell
		err := r.Scan(&c.Year, &c.Prefix, &c.Rank, &c.Certificates, &c.Revoked)
		return c, err
	})
}
