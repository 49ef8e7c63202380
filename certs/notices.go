package certs

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"
	"golang.org/x/text/unicode/norm"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// NoticeStatus is where a public notice stands.
type NoticeStatus string

const (
	NoticeOpen   NoticeStatus = "open"   // within its period, or waiting for a ruling
	NoticeIssued NoticeStatus = "issued" // the rank stands: certificate issued
	NoticeFailed NoticeStatus = "failed" // an objection was upheld or the application rejected
)

// Notice is the public announcement (公示) of a 4–7 dan.
type Notice struct {
	ID                int64
	ApplicationID     int64
	PlayerName        string
	Gender            registry.Gender
	ProvinceCode      string
	AgencyPrefix      string
	AgencyName        string
	Rank              registry.Rank
	Basis             Basis
	BasisDetail       string
	PublishedAt       time.Time
	EndsAt            time.Time
	Status            NoticeStatus
	ClosedAt          *time.Time
	Objections        int
	OpenObjections    int
	CertificateNumber string
	// AppraisalSessionID is the appraisal session behind a rank by
	// appraisal (its public page: PublicAppraisal); 0 for another basis.
	AppraisalSessionID int64
	// EventID is the registry event the application rests on (tournament,
	// 6 and 7 dan; 0 for other bases and for applications filed before
	// checked evidence) and PlayerID its player: the notice links to the
	// event's crosstable and to his games there.
	EventID  int64
	PlayerID int64
}

const noticeSelect = `SELECT n.id, n.application_id, n.player_name, n.gender, n.province_code, n.agency_prefix, n.agency_name,
	n.rank, n.basis, n.basis_detail, n.published_at, n.ends_at, n.status, n.closed_at,
	(SELECT count(*) FROM objections o WHERE o.notice_id = n.id),
	(SELECT count(*) FROM objections o WHERE o.notice_id = n.id AND o.status = 'open'),
	coalesce((SELECT c.number FROM applications a JOIN certificates c ON c.id = a.certificate_id WHERE a.id = n.application_id), ''),
	coalesce((SELECT a.appraisal_session_id FROM applications a WHERE a.id = n.application_id), 0),
	coalesce((SELECT a.event_id FROM applications a WHERE a.id = n.application_id), 0),
	coalesce((SELECT a.player_id FROM applications a WHERE a.id = n.application_id), 0)
	FROM notices n`

func scanNotice(r pgx.Row) (Notice, error) {
	var n Notice
	err := r.Scan(&n.ID, &n.ApplicationID, &n.PlayerName, &n.Gender, &n.ProvinceCode, &n.AgencyPrefix, &n.AgencyName,
		&n.Rank, &n.Basis, &n.BasisDetail, &n.PublishedAt, &n.EndsAt, &n.Status, &n.ClosedAt,
		&n.Objections, &n.OpenObjections, &n.CertificateNumber,
		&n.AppraisalSessionID, &n.EventID, &n.PlayerID)
	return n, err
}

func noticeID(id int64) string { return strconv.FormatInt(id, 10) }

// publish puts an approved 4–7 dan application on public notice.
func (s *Service) publish(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, app Application, p registry.Player) (Notice, error) {
	agencyName, err := registry.AgencyName(ctx, tx, app.AgencyPrefix)
	if err != nil {
		return Notice{}, err
	}
	var appraiser string
	if app.Basis == Appraisal {
		_ = tx.QueryRow(ctx, `SELECT name FROM appraisers WHERE id = $1`, app.AppraiserID).Scan(&appraiser)
	}
	detail := NoticeBasisDetail(app, appraiser)
	var id int64
	err = tx.QueryRow(ctx, `INSERT INTO notices (application_id, player_name, gender, province_code, agency_prefix, agency_name,
		rank, basis, basis_detail, published_at, ends_at, status)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open') RETURNING id`,
		app.ID, p.Name, p.Gender, p.ProvinceCode, app.AgencyPrefix, agencyName, app.TargetRank, app.Basis, detail,
		now, now.Add(s.cfg.NoticePeriod)).Scan(&id)
	if err != nil {
		return Notice{}, ledger.PgErr(err, "publish notice")
	}
	n, err := scanNotice(tx.QueryRow(ctx, noticeSelect+` WHERE n.id = $1`, id))
	if err != nil {
		return Notice{}, ledger.PgErr(err, "read notice")
	}
	err = ledger.Append(ctx, tx, now, actor, "notice", noticeID(id),
		NewNoticePublishedPayload(n))
	return n, err
}

func closeNotice(ctx context.Context, tx *ledger.Tx, now time.Time, id int64, st NoticeStatus, why string) error {
	if _, err := tx.Exec(ctx, `UPDATE notices SET status = $2, closed_at = $3 WHERE id = $1`, id, st, now); err != nil {
		return ledger.PgErr(err, "close notice")
	}
	if st == NoticeFailed {
		if _, err := tx.Exec(ctx, `UPDATE objections SET status = 'closed', ruled_at = $2, ruling = $3
			WHERE notice_id = $1 AND status = 'open'`, id, now, why); err != nil {
			return ledger.PgErr(err, "close objections")
		}
	}
	return nil
}

// GetNotice returns one notice.
func (s *Service) GetNotice(ctx context.Context, id int64) (Notice, error) {
	n, err := scanNotice(s.db.QueryRow(ctx, noticeSelect+` WHERE n.id = $1`, id))
	if err != nil {
		return Notice{}, ledger.RowErr(err, fmt.Sprintf("notice %d", id), ReasonNoSuchNotice.New("notice", noticeID(id)))
	}
	return n, nil
}

// NoticeQuery selects notices; empty fields match anything.
type NoticeQuery struct {
	ProvinceCode string
	Rank         registry.Rank
	// State: "current" (open), "past" (issued or failed) or "" for both.
	State     string
	PageSize  int
	PageToken string
}

// NoticePage is one page of notices, newest first.
type NoticePage struct {
	Notices       []Notice
	NextPageToken string
}

// ListNotices lists notices newest first, a page at a time.
func (s *Service) ListNotices(ctx context.Context, q NoticeQuery) (NoticePage, error) {
	size := q.PageSize
	if size <= 0 || size > 100 {
		size = 50
	}
	if q.ProvinceCode != "" {
		if _, ok := registry.ProvinceByCode(q.ProvinceCode); !ok {
			return NoticePage{}, registry.ReasonNotAProvinceCode.OnField("province_code", "value", q.ProvinceCode)
		}
	}
	if q.Rank != 0 && !NeedsNotice(q.Rank) {
		return NoticePage{}, ReasonNotAnnounced.OnField("rank")
	}
	var statuses []string
	switch q.State {
	case "":
		statuses = []string{"open", "issued", "failed"}
	case "current":
		statuses = []string{"open"}
	case "past":
		statuses = []string{"issued", "failed"}
	default:
		return NoticePage{}, ReasonNoticeState.OnField("state")
	}
	before := int64(1) << 62
	if q.PageToken != "" {
		b, err := base64.RawURLEncoding.DecodeString(q.PageToken)
		if err == nil {
			before, err = strconv.ParseInt(strings.TrimPrefix(string(b), "before:"), 10, 64)
		}
		if err != nil {
			return NoticePage{}, registry.ReasonPageToken.OnField("page_token")
		}
	}
	// one query per filter, not ($1 = '' OR col = $1): a cached statement
	// falls into a generic plan that cannot pick the filter's index
	args := []any{statuses, before, size + 1}
	where := `n.status = ANY($1) AND n.id < $2`
	if q.ProvinceCode != "" {
		args = append(args, q.ProvinceCode)
		where += ` AND n.province_code = $` + strconv.Itoa(len(args))
	}
	if q.Rank != 0 {
		args = append(args, int(q.Rank))
		where += ` AND n.rank = $` + strconv.Itoa(len(args))
	}
	rows, err := s.db.Query(ctx, noticeSelect+` WHERE `+where+` ORDER BY n.id DESC LIMIT $3`, args...)
	if err != nil {
		return NoticePage{}, fmt.Errorf("list notices: %w", err)
	}
	var page NoticePage
	page.Notices, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Notice, error) { return scanNotice(r) })
	if err != nil {
		return NoticePage{}, fmt.Errorf("list notices: %w", err)
	}
	if len(page.Notices) > size {
		page.Notices = page.Notices[:size]
		page.NextPageToken = base64.RawURLEncoding.EncodeToString([]byte("before:" + strconv.FormatInt(page.Notices[size-1].ID, 10)))
	}
	return page, nil
}

// ObjectionStatus is where an objection stands.
type ObjectionStatus string

const (
	ObjectionOpen      ObjectionStatus = "open"
	ObjectionUpheld    ObjectionStatus = "upheld"
	ObjectionDismissed ObjectionStatus = "dismissed"
	ObjectionClosed    ObjectionStatus = "closed" // the notice ended another way
	// ObjectionLapsed: nobody ruled on it by the ruling deadline, and the
	// notice proceeded (Config.RulingDeadline).
	ObjectionLapsed ObjectionStatus = "lapsed"
)

// Objection is a member of the public's objection to a notice. Contact and
// address are personal data: staff see them, the public sees counts only.
type Objection struct {
	ID       int64
	NoticeID int64
	Name     string
	Contact  string
	Reason   string
	Address  string
	LodgedAt time.Time
	Status   ObjectionStatus
	RuledAt  *time.Time
	RuledBy  string
	Ruling   string
	// FoldedInto is the objection this one is folded into (0: none), the
	// fold's lead, an open objection of the notice with the same text
	// normalised or from the same objector when this one was lodged; a
	// ruling on any objection of a fold rules all of it. Folded is how
	// many are folded into this one.
	FoldedInto int64
	Folded     int
}

// ObjectionInput is what anyone submits; Address is the caller's network
// address, filled in by the transport.
type ObjectionInput struct {
	NoticeID int64
	Name     string
	Contact  string
	Reason   string
	Address  string
}

const objectionColumns = `id, notice_id, name, contact, reason, address, lodged_at, status, ruled_at, coalesce(ruled_by, ''), ruling,
	coalesce(fold_of, 0), (SELECT count(*) FROM objections f WHERE f.fold_of = objections.id)`

func scanObjection(r pgx.Row) (Objection, error) {
	var o Objection
	err := r.Scan(&o.ID, &o.NoticeID, &o.Name, &o.Contact, &o.Reason, &o.Address, &o.LodgedAt, &o.Status, &o.RuledAt, &o.RuledBy, &o.Ruling,
		&o.FoldedInto, &o.Folded)
	return o, err
}

// ReasonKey is an objection's text as folding compares it: compatibility
// forms unified (full-width letters and digits, as Chinese input methods
// type them, read as the plain ones), letters in lower case, and spaces,
// punctuation and symbols left out, so that "他没有参加比赛！" and
// "他 没有参加比赛" are one objection. Bounded by the text it reads.
func ReasonKey(reason string) string {
	var b strings.Builder
	for _, r := range norm.NFKC.String(reason) {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	if b.Len() == 0 { // all punctuation: compared as typed
		return strings.TrimSpace(reason)
	}
	return b.String()
}

// objectionNetwork is the network an address counts in: its /24 (IPv4) or
// /64 (IPv6), the usual allotment of one subscriber; else the address.
func objectionNetwork(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap()
	bits := 24
	if a.Is6() {
		bits = 64
	}
	p, _ := a.Prefix(bits)
	return p.String()
}

func checkText(field, v string, max int) (string, error) { return ledger.Text(field, v, max) }

// CheckObjection checks an objection's fields as LodgeObjection does,
// without the database, and returns them trimmed: the portal checks a
// form before spending the client's hourly budget, so a form refused for
// its input costs nothing (issue 24).
func CheckObjection(in ObjectionInput) (ObjectionInput, error) {
	var err error
	if in.NoticeID <= 0 {
		return in, ReasonNoSuchNotice.OnField("notice_id", "notice", strconv.FormatInt(in.NoticeID, 10))
	}
	if in.Name, err = checkText("name", in.Name, 50); err != nil {
		return in, err
	}
	if in.Contact, err = checkText("contact", in.Contact, 100); err != nil {
		return in, err
	}
	if in.Reason, err = checkText("reason", in.Reason, 2000); err != nil {
		return in, err
	}
	return in, nil
}

// LodgeObjection records an objection to an open notice. No account is
// needed; the number per address and per notice is limited.
func (s *Service) LodgeObjection(ctx context.Context, key string, in ObjectionInput) (Objection, error) {
	in, err := CheckObjection(in)
	if err != nil {
		return Objection{}, err
	}
	if in.Address == "" {
		in.Address = "unknown"
	}
	// The public share one actor: scope their idempotency keys by address.
	actor := ledger.Actor{Kind: ledger.Public}
	if key != "" {
		key = in.Address + "/" + key
	}
	return ledger.Mutate(ctx, s.store, actor, key, "LodgeObjection", in, func(tx *ledger.Tx, now time.Time) (Objection, error) {
		var (
			status NoticeStatus
			ends   time.Time
		)
		err := tx.QueryRow(ctx, `SELECT status, ends_at FROM notices WHERE id = $1 FOR UPDATE`, in.NoticeID).Scan(&status, &ends)
		if err != nil {
			return Objection{}, ledger.RowErr(err, fmt.Sprintf("notice %d", in.NoticeID), ReasonNoSuchNotice.New("notice", noticeID(in.NoticeID)))
		}
		if status != NoticeOpen || !now.Before(ends) {
			return Objection{}, ReasonNoticePeriodOver.New("notice", noticeID(in.NoticeID), "ends", ends.In(ledger.ChinaTime).Format("2006-01-02 15:04"))
		}
		// the same objection again (same contact, same reason) is the first one
		dup, err := scanObjection(tx.QueryRow(ctx, `SELECT `+objectionColumns+` FROM objections
			WHERE notice_id = $1 AND status = 'open' AND lower(contact) = lower($2) AND reason = $3 ORDER BY id LIMIT 1`,
			in.NoticeID, in.Contact, in.Reason))
		if err == nil {
			return dup, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return Objection{}, ledger.PgErr(err, "find duplicate objection")
		}
		// limits per address and per network, none per notice: a flood
		// from elsewhere never refuses a newcomer
		network := objectionNetwork(in.Address)
		// the same text (normalised) or the same objector as an open
		// objection is folded into it: one ruling for the lot
		key := ReasonKey(in.Reason)
		var lead int64
		err = tx.QueryRow(ctx, `SELECT id FROM objections WHERE notice_id = $1 AND status = 'open' AND fold_of IS NULL
			AND (reason_key = $2 OR lower(contact) = lower($3)) ORDER BY id LIMIT 1`, in.NoticeID, key, in.Contact).Scan(&lead)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return Objection{}, ledger.PgErr(err, "find the objection to fold into")
		}
		var foldOf *int64
		if lead != 0 {
			foldOf = &lead
		}
		var fromAddress, fromNetwork int
		if err := tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE address = $2), count(*) FROM objections WHERE notice_id = $1 AND network = $3`,
			in.NoticeID, in.Address, network).Scan(&fromAddress, &fromNetwork); err != nil {
			return Objection{}, ledger.PgErr(err, "count objections")
		}
		if fromAddress >= s.cfg.ObjectionsPerAddress {
			return Objection{}, ReasonObjectionsPerAddress.New("max", strconv.Itoa(s.cfg.ObjectionsPerAddress))
		}
		if fromNetwork >= s.cfg.ObjectionsPerNetwork {
			return Objection{}, ReasonObjectionsPerNetwork.New("max", strconv.Itoa(s.cfg.ObjectionsPerNetwork))
		}
		o, err := scanObjection(tx.QueryRow(ctx, `INSERT INTO objections (notice_id, name, contact, reason, address, network, lodged_at, status, fold_of, reason_key)
			VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9) RETURNING `+objectionColumns, in.NoticeID, in.Name, in.Contact, in.Reason, in.Address, network, now,
			foldOf, key))
		if err != nil {
			return Objection{}, ledger.PgErr(err, "lodge objection")
		}
		// the log names the objector and the reason; contact details stay in the objections table
		err = ledger.Append(ctx, tx, now, actor, "notice", noticeID(in.NoticeID),
			NewObjectionLodgedPayload(o))
		return o, err
	})
}

// ListObjections lists the objections to one notice (0: every notice), open
// ones only when openOnly is set; staff only, as they show contacts.
func (s *Service) ListObjections(ctx context.Context, actor ledger.Actor, notice int64, openOnly bool) ([]Objection, error) {
	if err := s.requireStaff(ctx, actor, access.RuleObjection); err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT `+objectionColumns+` FROM objections
		WHERE ($1 = 0 OR notice_id = $1) AND (NOT $2 OR status = 'open') ORDER BY id`, notice, openOnly)
	if err != nil {
		return nil, fmt.Errorf("list objections: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Objection, error) { return scanObjection(r) })
}

// maxRuling bounds a ruling on an objection.
const maxRuling = 2000

// RuleObjection upholds an objection, which fails the application with no
// number consumed, or dismisses it; the ruling rules every objection of its
// fold alike (those folded into the same lead: the same text, or the same
// objector). When the period is over and nothing is left open, the
// certificate is issued at once.
func (s *Service) RuleObjection(ctx context.Context, actor ledger.Actor, key string, id int64, uphold bool, ruling string) (Objection, error) {
	if err := s.requireStaff(ctx, actor, access.RuleObjection); err != nil {
		return Objection{}, err
	}
	ruling, err := ledger.OptionalText("ruling", ruling, maxRuling)
	if err != nil {
		return Objection{}, err
	}
	if ruling == "" {
		return Objection{}, ReasonRulingRequired.OnField("ruling")
	}
	req := []any{id, uphold, ruling}
	return ledger.Mutate(ctx, s.store, actor, key, "RuleObjection", req, func(tx *ledger.Tx, now time.Time) (Objection, error) {
		var notice, lead int64
		if err := tx.QueryRow(ctx, `SELECT notice_id, coalesce(fold_of, id) FROM objections WHERE id = $1`, id).Scan(&notice, &lead); err != nil {
			return Objection{}, ledger.RowErr(err, fmt.Sprintf("objection %d", id), ReasonNoSuchObjection.New("objection", strconv.FormatInt(id, 10)))
		}
		// lock order: notice, objections, application, player, series, event log
		var ends time.Time
		var app int64
		if err := tx.QueryRow(ctx, `SELECT ends_at, application_id FROM notices WHERE id = $1 FOR UPDATE`, notice).Scan(&ends, &app); err != nil {
			return Objection{}, ledger.PgErr(err, "notice")
		}
		if _, err := tx.Exec(ctx, `SELECT 1 FROM objections WHERE id = $1 OR fold_of = $1 ORDER BY id FOR UPDATE`, lead); err != nil {
			return Objection{}, ledger.PgErr(err, "lock the fold")
		}
		o, err := scanObjection(tx.QueryRow(ctx, `SELECT `+objectionColumns+` FROM objections WHERE id = $1`, id))
		if err != nil {
			return Objection{}, ledger.PgErr(err, "objection")
		}
		if o.Status != ObjectionOpen {
			return Objection{}, ReasonObjectionRuled.New("objection", strconv.FormatInt(id, 10), "status", string(o.Status))
		}
		status := ObjectionDismissed
		if uphold {
			status = ObjectionUpheld
		}
		rows, err := tx.Query(ctx, `UPDATE objections SET status = $2, ruled_at = $3, ruled_by = $4, ruling = $5
			WHERE (id = $1 OR fold_of = $1) AND status = 'open' RETURNING id`, lead, status, now, actor.String(), ruling)
		if err != nil {
			return Objection{}, ledger.PgErr(err, "rule objection")
		}
		ruled, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return Objection{}, ledger.PgErr(err, "rule objection")
		}
		folded := []int64{}
		for _, f := range ruled {
			if f != id {
				folded = append(folded, f)
			}
		}
		slices.Sort(folded)
		o.Status, o.RuledAt, o.RuledBy, o.Ruling = status, &now, actor.String(), ruling
		if uphold {
			if err := closeNotice(ctx, tx, now, notice, NoticeFailed, fmt.Sprintf("objection %d was upheld", id)); err != nil {
				return Objection{}, err
			}
			if _, err := tx.Exec(ctx, `UPDATE applications SET status = 'failed', reason = $2 WHERE id = $1`, app,
				fmt.Sprintf("objection %d upheld: %s", id, ruling)); err != nil {
				return Objection{}, ledger.PgErr(err, "fail application")
			}
			if err := ledger.Append(ctx, tx, now, actor, "notice", noticeID(notice),
				ObjectionUpheldPayload{Folded: folded, ObjectionID: id, Ruling: ruling}); err != nil {
				return Objection{}, err
			}
			return o, ledger.Append(ctx, tx, now, actor, "application", appID(app),
				ApplicationFailedPayload{ObjectionID: id})
		}
		var open int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM objections WHERE notice_id = $1 AND status = 'open'`, notice).Scan(&open); err != nil {
			return Objection{}, ledger.PgErr(err, "count objections")
		}
		if open == 0 && !now.Before(ends) {
			if _, err := s.finalize(ctx, tx, now, actor, notice, app); err != nil {
				return Objection{}, err
			}
		}
		return o, ledger.Append(ctx, tx, now, actor, "notice", noticeID(notice),
			ObjectionDismissedPayload{Folded: folded, ObjectionID: id, Ruling: ruling})
	})
}

// finalize issues the certificate of a notice whose period is over with
// nothing open; the caller holds the notice's row lock.
func (s *Service) finalize(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, notice, appID int64) (Certificate, error) {
	app, err := applicationTx(ctx, tx, appID)
	if err != nil {
		return Certificate{}, err
	}
	if app.Status != AppOnNotice {
		return Certificate{}, ReasonNotOnNotice.New("application", strconv.FormatInt(app.ID, 10), "status", string(app.Status))
	}
	p, err := registry.PlayerTx(ctx, tx, app.PlayerID, true)
	if err != nil {
		return Certificate{}, err
	}
	if err := identityReady(ctx, tx, app, p, now, nil); err != nil { // the notice stays open until the holder's identity is settled
		return Certificate{}, err
	}
	// marked before the serial is taken (the certificate's insert links
	// it), so that the series row stays locked for fewer statements
	if _, err := tx.Exec(ctx, `UPDATE applications SET status = 'issued' WHERE id = $1`, app.ID); err != nil {
		return Certificate{}, ledger.PgErr(err, "mark application issued")
	}
	c, err := s.issueTx(ctx, tx, now, actor, issueInput{player: p, rank: app.TargetRank, basis: app.Basis, issuer: issuerOf(app), applicationID: app.ID})
	if err != nil {
		return Certificate{}, err
	}
	if err := closeNotice(ctx, tx, now, notice, NoticeIssued, ""); err != nil {
		return Certificate{}, err
	}
	return c, ledger.Append(ctx, tx, now, actor, "notice", noticeID(notice),
		NoticeCompletedPayload{ApplicationID: app.ID, Certificate: c.Number})
}

// Sweep issues the certificates of every notice whose period has ended, by
// the service's clock (never the database's: lodging an objection and ruling
// on one decide by the same clock), with no open objection — or with open
// ones past the ruling deadline, which then lapse (lapse). Each notice is claimed with
// SKIP LOCKED in its own transaction, so several server processes may sweep
// at once and a crash loses nothing. It returns the certificates issued and
// the notices that could not be finished (e.g. no stock left), with why.
func (s *Service) Sweep(ctx context.Context) ([]Certificate, error) {
	var (
		issued []Certificate
		errs   []error
		failed = []int64{}
	)
	for {
		var (
			c    Certificate
			done bool
			id   int64
		)
		err := ledger.Transact(ctx, s.store, func(tx *ledger.Tx) error {
			var app int64
			// the service's clock, the same one lodging and ruling read
			now := s.store.Now().UTC().Truncate(time.Microsecond)
			// due: ended with nothing open, or ended longer ago than the
			// ruling deadline whatever is open
			var ends time.Time
			err := tx.QueryRow(ctx, `SELECT n.id, n.application_id, n.ends_at FROM notices n
				WHERE n.status = 'open' AND n.ends_at <= $2 AND n.id <> ALL($1)
				  AND (n.ends_at <= $3 OR NOT EXISTS (SELECT 1 FROM objections o WHERE o.notice_id = n.id AND o.status = 'open'))
				ORDER BY n.ends_at LIMIT 1 FOR UPDATE OF n SKIP LOCKED`, failed, now, now.Add(-s.cfg.RulingDeadline)).Scan(&id, &app, &ends)
			if errors.Is(err, pgx.ErrNoRows) {
				done = true
				return nil
			}
			if err != nil {
				return fmt.Errorf("find due notices: %w", err)
			}
			if err := s.lapse(ctx, tx, now, id, ends); err != nil {
				return err
			}
			c, err = s.finalize(ctx, tx, now, sweeper(), id, app)
			return err
		})
		switch {
		case done:
			return issued, errors.Join(errs...)
		case err != nil && (ctx.Err() != nil || id == 0):
			return issued, errors.Join(append(errs, err)...)
		case err != nil:
			errs = append(errs, fmt.Errorf("notice %d: %w", id, err))
			failed = append(failed, id)
		default:
			issued = append(issued, c)
		}
	}
}

// lapse closes, as the sweeper lets a notice that ended at ends proceed,
// the objections still open past the ruling deadline: nobody ruled on them
// in time, so they hold the notice no longer (a flood cannot hold a rank
// back for ever). They stay on record with status lapsed and the event
// objections.lapsed says which and why; staff may still revoke the
// certificate should one prove right. The caller holds the notice's lock.
func (s *Service) lapse(ctx context.Context, tx *ledger.Tx, now time.Time, notice int64, ends time.Time) error {
	rows, err := tx.Query(ctx, `UPDATE objections SET status = 'lapsed', ruled_at = $2, ruled_by = $3
		WHERE notice_id = $1 AND status = 'open' RETURNING id`, notice, now, sweeper().String())
	if err != nil {
		return ledger.PgErr(err, "lapse objections")
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return ledger.PgErr(err, "lapse objections")
	}
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	ruleBy := ends.Add(s.cfg.RulingDeadline).UTC()
	params := map[string]string{"deadline": ruleBy.In(ledger.ChinaTime).Format("2006-01-02 15:04")}
	return ledger.Append(ctx, tx, now, sweeper(), "notice", noticeID(notice),
		ObjectionsLapsedPayload{Code: NoteObjectionLapsed.Code(), ObjectionIDs: ids, Params: params, RuleBy: ruleBy})
}

// RulingDeadline is how long past its end objections may hold a notice
// open before they lapse and the notice proceeds.
func (s *Service) RulingDeadline() time.Duration { return s.cfg.RulingDeadline }
