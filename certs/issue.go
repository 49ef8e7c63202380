package certs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/text/width"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// CertStatus is a certificate's standing.
type CertStatus string

const (
	CertValid    CertStatus = "valid"
	CertRevoked  CertStatus = "revoked"
	CertReissued CertStatus = "reissued" // replaced by a new number
)

// Certificate is an issued rank.
type Certificate struct {
	ID            int64
	Number        string // empty for a kyu grade without a printed certificate
	Kind          Kind
	IssuingPrefix string
	IssuingBody   string
	PlayerID      int64
	PlayerName    string
	Rank          registry.Rank
	Basis         Basis
	ApplicationID int64
	IssuedAt      time.Time
	IssueDate     time.Time // the China Standard Time date
	AthleteGrade  AthleteGrade
	Status        CertStatus
	StatusReason  string
	Replaces      string // number of the certificate this one replaced
	ReplacedBy    string // number of the certificate that replaced this one
	FromPaper     bool   // recorded from a paper certificate issued before the registry
	// PrintedNumber is the number of a paper certificate numbered in a
	// format older than today's (Number is then empty).
	PrintedNumber string
	// PaperBasis is what a certificate recorded from paper (basis
	// paper_record, or its reissue) was granted for, as the register
	// states it; "" when the register does not say.
	PaperBasis Basis
}

// certificateSelect reads certificates with the names they were issued
// under: the holder's as printed, the issuing body's.
const certificateSelect = `SELECT ` + certificateColumns + ` FROM certificates c` + certificateJoins

// certificateColumns are certificateSelect's columns, of c joined with the
// certificates it replaced (old) and was replaced by (nw).
const certificateColumns = `c.id, coalesce(c.number, ''), c.kind, c.issuing_prefix, c.issuing_body,
	c.player_id, c.holder_name, c.rank, c.basis, coalesce(c.application_id, 0), c.issued_at, c.issue_date, c.athlete_grade,
	c.status, c.status_reason, coalesce(old.number, ''), coalesce(nw.number, ''), c.from_paper, coalesce(c.printed_number, ''),
	c.paper_basis`

const certificateJoins = `
	LEFT JOIN certificates old ON old.id = c.replaces
	LEFT JOIN certificates nw ON nw.id = c.replaced_by`

func scanCertificate(r pgx.Row) (Certificate, error) {
	var c Certificate
	err := r.Scan(&c.ID, &c.Number, &c.Kind, &c.IssuingPrefix, &c.IssuingBody, &c.PlayerID, &c.PlayerName, &c.Rank, &c.Basis,
		&c.ApplicationID, &c.IssuedAt, &c.IssueDate, &c.AthleteGrade, &c.Status, &c.StatusReason, &c.Replaces, &c.ReplacedBy, &c.FromPaper, &c.PrintedNumber,
		&c.PaperBasis)
	return c, err
}

type issueInput struct {
	player        registry.Player
	rank          registry.Rank
	basis         Basis
	issuer        string
	applicationID int64
	replaces      int64
	// replacesNumber is the number of the certificate replaced (id replaces)
	replacesNumber string
	grantedAt      time.Time // zero: now
	// a reissue keeps the original's athlete grade and paper basis
	// (grade nil: the grade of rank and basis)
	grade      *AthleteGrade
	paperBasis Basis
	// before: statements the caller pipelines ahead of issuance's reads
	// (nil: none), sent with them
	before *pgx.Batch
	// last: the change takes no lock after this issue (one certificate,
	// then only the log's append at commit), so the log's lock and end
	// can be read with the certificate's insert. Not for a change that
	// issues several: the log's lock would come before the next series'
	// row lock, against the order every issuer takes them in.
	last bool
}

// usedStock is the numbered certificates of a series issued in the
// registry (its counter): serials held by paper records took no stock of
// this registry.
func usedStock(ctx context.Context, q ledger.Querier, prefix string, yy int, kind Kind) (int, error) {
	var used int
	err := q.QueryRow(ctx, `SELECT used FROM certificate_series WHERE prefix = $1 AND year = $2 AND kind = $3`, prefix, yy, kind).Scan(&used)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, ledger.PgErr(err, "read used stock")
	}
	return used, nil
}

// queueGrantedStock queues on b the read of an agency's granted count of
// one kind for a full year: granted and ok (there is a grant) are set when
// b's results are read, a failed read worded by word.
func queueGrantedStock(b *pgx.Batch, agency string, year int, kind Kind, granted *int, ok *bool, word func(error) error) {
	col := "dan_count"
	if kind == KyuSeries {
		col = "kyu_count"
	}
	b.Queue(`SELECT `+col+` FROM certificate_orders WHERE agency_prefix = $1 AND year = $2 AND status = 'granted'`,
		agency, year).QueryRow(func(r pgx.Row) error {
		err := r.Scan(granted)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return word(err)
		}
		*ok = true
		return nil
	})
}

// grantedStock is an agency's granted count of one kind for a full year,
// and whether there is a grant: queueGrantedStock's read sent alone, its
// error (the read's, or the batch's before it) worded here once.
func grantedStock(ctx context.Context, tx *ledger.Tx, agency string, year int, kind Kind) (int, bool, error) {
	var n int
	var ok bool
	b := &pgx.Batch{}
	queueGrantedStock(b, agency, year, kind, &n, &ok, func(err error) error { return err })
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return 0, false, ledger.PgErr(err, "read granted stock")
	}
	return n, ok, nil
}

func noStock(agency string, year int, kind Kind) error {
	return ReasonNoStock.With(ledger.Value("agency", agency), ledger.Value("year", strconv.Itoa(year)), kindWords(kind))
}

func stockUsedUp(agency string, year int, kind Kind, granted int) error {
	return ReasonStockUsedUp.With(ledger.Value("agency", agency), ledger.Value("year", strconv.Itoa(year)), kindWords(kind),
		ledger.Value("granted", strconv.Itoa(granted)))
}

// checkStock refuses early, at approval, an application whose certificate
// could not be issued today for want of stock.
func (s *Service) checkStock(ctx context.Context, tx *ledger.Tx, app Application, now time.Time) error {
	issuer := issuerOf(app)
	if issuer == registry.AssociationPrefix || !s.Printed(app.TargetRank) {
		return nil
	}
	kind, full := KindOf(app.TargetRank), now.In(ledger.ChinaTime).Year()
	granted, ok, err := grantedStock(ctx, tx, issuer, full, kind)
	if err != nil {
		return err
	}
	if !ok {
		return noStock(issuer, full, kind)
	}
	used, err := usedStock(ctx, tx, issuer, Year(now), kind)
	if err != nil {
		return err
	}
	if used >= granted {
		return stockUsedUp(issuer, full, kind, granted)
	}
	return nil
}

// issueTx issues a certificate inside tx. The series row lock is taken as
// late as possible (everything that does not need the serial comes first),
// because concurrent issuers of one series wait on it until commit.
func (s *Service) issueTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, in issueInput) (Certificate, error) {
	kind, yy, full := KindOf(in.rank), Year(now), now.In(ledger.ChinaTime).Year()
	c := Certificate{Kind: kind, IssuingPrefix: in.issuer, PlayerID: in.player.ID, PlayerName: in.player.Name, Rank: in.rank,
		Basis: in.basis, ApplicationID: in.applicationID, IssuedAt: now, IssueDate: IssueDate(now),
		AthleteGrade: AthleteGradeFor(in.rank, in.basis), Status: CertValid, PaperBasis: in.paperBasis, Replaces: in.replacesNumber}
	if in.grade != nil {
		c.AthleteGrade = *in.grade
	}
	printed := s.Printed(in.rank)
	// what issuance reads and writes before the serial (with what the
	// caller queued in in.before), pipelined in one round trip: none of it
	// depends on the rest
	b := in.before
	if b == nil {
		b = &pgx.Batch{}
	}
	granted, hasStock := 0, false
	if printed && in.issuer != registry.AssociationPrefix {
		queueGrantedStock(b, in.issuer, full, kind, &granted, &hasStock, func(err error) error { return fmt.Errorf("read granted stock: %w", err) })
	}
	if in.issuer != registry.AssociationPrefix {
		registry.QueueAgencyName(b, in.issuer, &c.IssuingBody)
	}
	grantedAt := in.grantedAt
	if grantedAt.IsZero() {
		grantedAt = now
		// a fresh certificate is the newest: the rank follows it
		if err := registry.QueueSetRank(ctx, b, tx, now, actor, in.player.ID, in.player.Rank, in.rank, "certificate issued"); err != nil {
			return Certificate{}, err
		}
	}
	if b.Len() > 0 {
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return Certificate{}, ledger.PgErr(err, "before the serial")
		}
	}
	if printed && in.issuer != registry.AssociationPrefix && !hasStock {
		return Certificate{}, noStock(in.issuer, full, kind)
	}
	var replaces, application any
	if in.replaces != 0 {
		replaces = in.replaces
	}
	if in.applicationID != 0 {
		application = in.applicationID
	}
	// The serial is taken, then the certificate inserted unless a
	// certificate recorded from paper holds that serial (the series stays
	// gapless: every serial is issued here or recorded from paper), in
	// which case the next serial is taken. Both are one statement (a
	// data-modifying WITH), which also links the application: the series
	// row is locked by its first part, so the lock is held for no round
	// trip before the event-log append but the append's own. The insert
	// still skips a serial that a paper record committed while this
	// issuer waited for the row (ON CONFLICT DO NOTHING sees committed
	// rows its snapshot does not, and waits for one being written), and
	// is not made when the serial is past the series or the stock is used
	// up (refused below, the transaction rolled back).
	max := MaxDanSerial
	if kind == KyuSeries {
		max = MaxKyuSerial
	}
	var grantedArg any
	if hasStock {
		grantedArg = granted
	}
	for count := 1; ; count = 0 {
		insert := &pgx.Batch{}
		var (
			err        error
			id         *int64
			last, used int
			locked     bool // the statement took the log's lock
		)
		if printed {
			// the number's text before its serial, and the serial's digits
			first, nerr := NewNumber(kind, in.issuer, yy, 1)
			if nerr != nil {
				return Certificate{}, fmt.Errorf("issue certificate: %w", nerr)
			}
			head, width := first.String(), serialDigits(kind)
			head = head[:len(head)-width]
			insert.Queue(`WITH s AS (INSERT INTO certificate_series (prefix, year, kind, last_serial, used) VALUES ($2, $3, $1, 1, $17)
				ON CONFLICT (prefix, year, kind) DO UPDATE SET last_serial = certificate_series.last_serial + 1,
					used = certificate_series.used + $17
				RETURNING last_serial, used),
			c AS (INSERT INTO certificates (number, kind, issuing_prefix, year, serial, player_id, rank, previous_rank, basis,
				application_id, issued_at, granted_at, issue_date, athlete_grade, status, replaces, holder_name, issuing_body, paper_basis)
				SELECT $18 || lpad(s.last_serial::text, $19, '0'), $1, $2, $3, s.last_serial, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'valid', $13, $14, $15, $16
				FROM s WHERE s.last_serial <= $20 AND ($21::int IS NULL OR s.used <= $21::int)
				ON CONFLICT (issuing_prefix, year, kind, serial) DO NOTHING RETURNING id),
			a AS (UPDATE applications SET certificate_id = c.id FROM c WHERE applications.id = $8),
			l AS (SELECT pg_advisory_xact_lock($22) FROM c WHERE $23)
			SELECT s.last_serial, s.used, c.id FROM s LEFT JOIN c ON true LEFT JOIN l ON true`,
				kind, in.issuer, yy, in.player.ID, in.rank, in.player.Rank, in.basis,
				application, now, grantedAt, c.IssueDate, c.AthleteGrade, replaces, c.PlayerName, c.IssuingBody, c.PaperBasis,
				count, head, width, max, grantedArg, ledger.LogLock, in.last).QueryRow(func(r pgx.Row) error {
				err = r.Scan(&last, &used, &id)
				locked = err == nil && id != nil && in.last
				return nil
			})
		} else {
			insert.Queue(`WITH c AS (INSERT INTO certificates (number, kind, issuing_prefix, year, serial, player_id, rank, previous_rank, basis,
				application_id, issued_at, granted_at, issue_date, athlete_grade, status, replaces, holder_name, issuing_body, paper_basis)
				VALUES (NULL, $1, $2, $3, NULL, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'valid', $13, $14, $15, $16) RETURNING id),
				a AS (UPDATE applications SET certificate_id = c.id FROM c WHERE applications.id = $8)
				SELECT id FROM c`,
				kind, in.issuer, yy, in.player.ID, in.rank, in.player.Rank, in.basis,
				application, now, grantedAt, c.IssueDate, c.AthleteGrade, replaces, c.PlayerName, c.IssuingBody, c.PaperBasis).QueryRow(func(r pgx.Row) error {
				err = r.Scan(&id)
				return nil
			})
		}
		if in.last && !printed {
			// the log's lock and end with the insert: the append at commit
			// then writes in the next round trip, the only one while the
			// series row is locked
			tx.QueueLogHead(insert)
		}
		if in.last && printed {
			// the same, the lock taken by the insert's statement once its
			// certificate is in (not when the serial is a paper record's):
			// a try that skipped a paper serial must not hold the log while
			// the next waits on a paper record being written, whose append
			// waits for the log
			tx.QueueLogEndAfter(insert, &locked)
		}
		if berr := tx.SendBatch(ctx, insert).Close(); berr != nil && err == nil {
			err = berr
		}
		if err != nil {
			return Certificate{}, ledger.PgErr(err, "issue certificate")
		}
		if !printed {
			c.ID = *id
			break
		}
		if last > max {
			return Certificate{}, ReasonSeriesFull.With(ledger.Value("prefix", in.issuer), ledger.Value("yy", fmt.Sprintf("%02d", yy)),
				kindWords(kind), ledger.Value("max", strconv.Itoa(max)))
		}
		// used counts this issue: the stock is used up when it exceeds the grant
		if hasStock && used > granted {
			return Certificate{}, stockUsedUp(in.issuer, full, kind, granted)
		}
		if id != nil {
			num, nerr := NewNumber(kind, in.issuer, yy, last)
			if nerr != nil {
				return Certificate{}, fmt.Errorf("issue certificate: %w", nerr)
			}
			c.ID, c.Number = *id, num.String()
			break
		}
	}
	return c, ledger.Append(ctx, tx, now, actor, "certificate", certEntity(c), NewCertificateIssuedPayload(c, in.replaces))
}

// certEntity names a certificate in the event log: its number, or its row id
// for an unprinted kyu grade.
func certEntity(c Certificate) string {
	if c.Number != "" {
		return c.Number
	}
	return fmt.Sprintf("#%d", c.ID)
}

// followRank sets a player's certified rank to his newest valid
// certificate's; with none left he holds no certified rank (his declared
// rank is the registry's and stays as it was).
func (s *Service) followRank(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, playerID int64, why string) error {
	p, err := registry.PlayerTx(ctx, tx, playerID, true)
	if err != nil {
		return err
	}
	var rank registry.Rank
	err = tx.QueryRow(ctx, `SELECT coalesce(
			(SELECT rank FROM certificates WHERE player_id = $1 AND status IN ('valid') ORDER BY granted_at DESC, rank DESC, id DESC LIMIT 1),
			0)`, playerID).Scan(&rank)
	if err != nil {
		return ledger.PgErr(err, "newest certificate")
	}
	return registry.SetRank(ctx, tx, now, actor, playerID, p.Rank, rank, why)
}

func certTx(ctx context.Context, tx *ledger.Tx, n Number) (Certificate, error) {
	var id int64
	if err := tx.QueryRow(ctx, `SELECT id FROM certificates WHERE number = $1 FOR UPDATE`, n.String()).Scan(&id); err != nil {
		return Certificate{}, ledger.RowErr(err, "certificate "+n.String(), ReasonNoSuchCertificate.New("number", n.String()))
	}
	return scanCertificate(tx.QueryRow(ctx, certificateSelect+` WHERE c.id = $1`, id))
}

func parseNumberField(raw string) (Number, error) {
	n, err := ParseNumber(raw)
	if e, ok := ledger.AsError(err); ok && e.Field == "" {
		e.Field = "number"
	}
	return n, err
}

// numberAndReason checks the two fields every change to a certificate takes.
func numberAndReason(number, reason string, ask ledger.Param) (Number, string, error) {
	n, err := parseNumberField(number)
	if err != nil {
		return Number{}, "", err
	}
	reason, err = ledger.OptionalText("reason", reason, maxReason)
	if err != nil {
		return Number{}, "", err
	}
	if reason == "" {
		return Number{}, "", ReasonReasonRequired.FieldWith("reason", ask)
	}
	return n, reason, nil
}

// revokeWhy asks for a revocation's reason.
var revokeWhy = ledger.Words("why", "撤销证书须写明理由，理由将在查验时显示。", "say why the certificate is revoked; it is shown on verification.")

// CheckRevoke refuses, before anything is asked of staff, what Revoke
// would refuse of the form itself: a malformed or unknown number, a
// certificate no longer valid, an empty reason (the portal's confirmation
// page asks only about a revocation that can be done).
func (s *Service) CheckRevoke(ctx context.Context, actor ledger.Actor, number, reason string) error {
	if err := s.requireStaff(ctx, actor, access.Revoke); err != nil {
		return err
	}
	n, _, err := numberAndReason(number, reason, revokeWhy)
	if err != nil {
		return err
	}
	c, err := scanCertificate(s.db.QueryRow(ctx, certificateSelect+` WHERE c.number = $1`, n.String()))
	if err != nil {
		return ledger.RowErr(err, "certificate "+n.String(), ReasonNoSuchCertificate.OnField("number", "number", n.String()))
	}
	if c.Status != CertValid {
		return ReasonCertificateNotValid.New("number", c.Number, "status", string(c.Status))
	}
	return nil
}

// Revoke withdraws a certificate (staff), with the reason shown to anyone who
// verifies it; the holder's rank falls back to his newest valid certificate.
func (s *Service) Revoke(ctx context.Context, actor ledger.Actor, key, number, reason string) (Certificate, error) {
	if err := s.requireStaff(ctx, actor, access.Revoke); err != nil {
		return Certificate{}, err
	}
	n, reason, err := numberAndReason(number, reason, revokeWhy)
	if err != nil {
		return Certificate{}, err
	}
	req := []any{n.String(), reason}
	return ledger.Mutate(ctx, s.store, actor, key, "Revoke", req, func(tx *ledger.Tx, now time.Time) (Certificate, error) {
		c, err := certTx(ctx, tx, n)
		if err != nil {
			return Certificate{}, err
		}
		if c.Status != CertValid {
			return Certificate{}, ReasonCertificateNotValid.New("number", c.Number, "status", string(c.Status))
		}
		if _, err := tx.Exec(ctx, `UPDATE certificates SET status = 'revoked', status_reason = $2, status_at = $3 WHERE id = $1`, c.ID, reason, now); err != nil {
			return Certificate{}, ledger.PgErr(err, "revoke certificate")
		}
		c.Status, c.StatusReason = CertRevoked, reason
		if err := ledger.Append(ctx, tx, now, actor, "certificate", c.Number, CertificateRevokedPayload{Reason: reason}); err != nil {
			return Certificate{}, err
		}
		return c, s.followRank(ctx, tx, now, actor, c.PlayerID, "certificate "+c.Number+" revoked")
	})
}

// Reissue replaces a lost or damaged certificate with a new number of the
// current year (staff, or the agency that issued it); the old number then
// verifies as reissued and names the new one.
func (s *Service) Reissue(ctx context.Context, actor ledger.Actor, key, number, reason string) (Certificate, error) {
	if err := access.RequireSignedIn(actor, access.Reissue); err != nil {
		return Certificate{}, err
	}
	n, reason, err := numberAndReason(number, reason, ledger.Words("why", "补发证书须写明原因（遗失、损坏、更名等）。", "say why the certificate is reissued (lost, damaged, name changed …)."))
	if err != nil {
		return Certificate{}, err
	}
	req := []any{n.String(), reason}
	return ledger.Mutate(ctx, s.store, actor, key, "Reissue", req, func(tx *ledger.Tx, now time.Time) (Certificate, error) {
		// the application first, then the certificate: the order in which
		// a withdrawn basis (WithdrawBasisTx) takes them, so that the two
		// wait for each other instead of deadlocking (the new row's key on
		// the application would otherwise wait for the withdrawal)
		if _, err := tx.Exec(ctx, `SELECT 1 FROM applications WHERE id = (SELECT application_id FROM certificates WHERE number = $1) FOR UPDATE`,
			n.String()); err != nil {
			return Certificate{}, ledger.PgErr(err, "lock the certificate's application")
		}
		old, err := certTx(ctx, tx, n)
		if err != nil {
			return Certificate{}, err
		}
		if err := s.policy.Require(ctx, tx, actor, access.Reissue, old.IssuingPrefix); err != nil {
			return Certificate{}, err
		}
		if old.Status != CertValid {
			return Certificate{}, ReasonCertificateNotValid.New("number", old.Number, "status", string(old.Status))
		}
		p, err := registry.PlayerTx(ctx, tx, old.PlayerID, true)
		if err != nil {
			return Certificate{}, err
		}
		var grantedAt time.Time
		var review string
		if err := tx.QueryRow(ctx, `SELECT granted_at, review FROM certificates WHERE id = $1`, old.ID).Scan(&grantedAt, &review); err != nil {
			return Certificate{}, ledger.PgErr(err, "read certificate")
		}
		// the new number keeps what the old one was granted for: its basis,
		// athlete grade (an appraisal's none, a paper record's unknown) and
		// the basis its paper register gave
		grade := old.AthleteGrade
		c, err := s.issueTx(ctx, tx, now, actor, issueInput{player: p, rank: old.Rank, basis: old.Basis, issuer: old.IssuingPrefix,
			applicationID: old.ApplicationID, replaces: old.ID, replacesNumber: old.Number, grantedAt: grantedAt, grade: &grade, paperBasis: old.PaperBasis})
		if err != nil {
			return Certificate{}, err
		}
		// the links' numbers, which the verification reads without joining
		// the rows, follow the links by trigger (migration 00114)
		if _, err := tx.Exec(ctx, `UPDATE certificates SET status = 'reissued', status_reason = $2, replaced_by = $3, status_at = $4 WHERE id = $1`,
			old.ID, reason, c.ID, now); err != nil {
			return Certificate{}, ledger.PgErr(err, "mark certificate reissued")
		}
		// a flag for review goes with the new number: a reissue does not clear it
		if review != "" {
			if _, err := tx.Exec(ctx, `UPDATE certificates SET review = $2 WHERE id = $1`, c.ID, review); err != nil {
				return Certificate{}, ledger.PgErr(err, "carry the review flag")
			}
		}
		if err := ledger.Append(ctx, tx, now, actor, "certificate", old.Number,
			CertificateReissuedPayload{NewNumber: c.Number, Reason: reason}); err != nil {
			return Certificate{}, err
		}
		c.Replaces = old.Number
		return c, nil
	})
}

// Verification is what anyone learns from a certificate number.
type Verification struct {
	Number      string
	Found       bool
	Certificate Certificate
	// Events are the logged events that made the certificate what it is
	// (StateActions), oldest first: their receipts go with the answer.
	Events []ledger.Event
	// UnderReview is set (ReasonUnderReview) when the certificate's row
	// disagrees with its events, in the fields Mismatch names: the answer
	// is then neither valid nor anything else the row says, and
	// Certificate holds only the number.
	UnderReview *ledger.Error
	Mismatch    []string
	// HolderMinor says the holder is under 18 today: the public sees his
	// name only when the claimant names him (ClaimMatches).
	HolderMinor bool
}

// ClaimMatches reports whether the name a claimant gives is the holder's
// (spaces and letter width aside).
func (v Verification) ClaimMatches(name string) bool {
	fold := func(s string) string { return strings.Join(strings.Fields(width.Fold.String(s)), "") }
	return v.Found && v.UnderReview == nil && fold(name) != "" && fold(name) == fold(v.Certificate.PlayerName)
}

// Issuer is who issues every certificate, whichever agency applied for it
// and whichever province numbers it (seeds: 获得中国围棋协会颁发的…证书).
const (
	IssuerZH = "中国围棋协会"
	IssuerEN = "Chinese Weiqi Association"
)

// checked is the verification of a certificate read with its events: one
// that disagrees with them is reported and answered as under review.
func (s *Service) checked(ctx context.Context, number string, c checkedCertificate) Verification {
	v := Verification{Number: number, Found: true, Certificate: c.Certificate, Events: c.events}
	if v.Mismatch = CheckAgainstLog(c.Certificate, c.events); len(v.Mismatch) > 0 {
		s.logMismatch(ctx, logEntity(c.Certificate), v.Mismatch)
		v.UnderReview = ReasonUnderReview.New("number", number)
		v.Certificate = Certificate{ID: c.ID, Number: c.Number, PrintedNumber: c.PrintedNumber}
		return v
	}
	if c.holderBirth != nil { // read with the certificate (VerifyWithTree)
		v.HolderMinor = registry.AgeOn(*c.holderBirth, s.store.Now()) < registry.AdultAge
		return v
	}
	// a player that cannot be read is taken for a minor: the name is withheld
	p, err := s.reg.GetPlayer(ctx, c.PlayerID)
	if err != nil {
		s.store.Log().Error("holder of a verified certificate", "number", number, "err", err)
	}
	v.HolderMinor = err != nil || registry.AgeOn(p.BirthDate, s.store.Now()) < registry.AdultAge
	return v
}

// Verify looks a number up and checks the certificate against its logged
// events (two queries). A malformed number is an InvalidArgument error; a
// well-formed number nobody was issued is Found == false; a certificate
// that disagrees with its events is UnderReview.
func (s *Service) Verify(ctx context.Context, number string) (Verification, error) {
	n, err := parseNumberField(number)
	if err != nil {
		// a paper certificate numbered in an older format verifies by its printed number
		if pn, ok := printedNumber(width.Fold.String(number)); ok {
			cs, perr := readChecked(ctx, s.db, `WHERE c.printed_number = $1`, pn)
			if perr == nil && len(cs) == 1 {
				return s.checked(ctx, pn, cs[0]), nil
			}
		}
		return Verification{}, err
	}
	v := Verification{Number: n.String()}
	cs, err := readChecked(ctx, s.db, `WHERE c.number = $1`, v.Number)
	switch {
	case err != nil:
		return Verification{}, fmt.Errorf("verify %s: %w", v.Number, err)
	case len(cs) == 0:
		return v, nil
	}
	return s.checked(ctx, v.Number, cs[0]), nil
}

// VerifyWithTree is Verify in one statement (the row, its events, the
// holder's birth date), its events kept for ledger.TreeSigner.ReceiptsOf
// (nil TreeRead when no certificate was found), which proves them from the
// tree head it keeps without another round trip.
func (s *Service) VerifyWithTree(ctx context.Context, number string) (Verification, *ledger.TreeRead, error) {
	n, err := parseNumberField(number)
	if err != nil {
		if pn, ok := printedNumber(width.Fold.String(number)); ok {
			cs, trees, perr := readCheckedTree(ctx, s.db, byPrinted, pn)
			if perr == nil && len(cs) == 1 {
				return s.checked(ctx, pn, cs[0]), trees[0], nil
			}
		}
		return Verification{}, nil, err
	}
	v := Verification{Number: n.String()}
	cs, trees, err := readCheckedTree(ctx, s.db, byNumber, v.Number)
	switch {
	case err != nil:
		return Verification{}, nil, fmt.Errorf("verify %s: %w", v.Number, err)
	case len(cs) == 0:
		return v, nil, nil
	}
	return s.checked(ctx, v.Number, cs[0]), trees[0], nil
}

// PlayerCertificates lists a player's certificates, newest first.
func (s *Service) PlayerCertificates(ctx context.Context, playerID int64) ([]Certificate, error) {
	rows, err := s.db.Query(ctx, certificateSelect+` WHERE c.player_id = $1 ORDER BY c.issued_at DESC, c.id DESC`, playerID)
	if err != nil {
		return nil, fmt.Errorf("certificates of player %d: %w", playerID, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Certificate, error) { return scanCertificate(r) })
}

// kindWords is a series kind as the refusals word it.
func kindWords(k Kind) ledger.Param {
	if k == KyuSeries {
		return ledger.Words("kind", "级位", "kyu")
	}
	return ledger.Words("kind", "段位", "dan")
}
