package certs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// AppStatus is where an application stands.
type AppStatus string

const (
	AppApplied  AppStatus = "applied"   // waiting for approval
	AppOnNotice AppStatus = "on_notice" // approved, 4–7 dan, announced publicly
	AppIssued   AppStatus = "issued"    // certificate issued
	AppRejected AppStatus = "rejected"  // refused by the approver
	AppFailed   AppStatus = "failed"    // an objection was upheld
)

// Application is a request for a certificate for one player.
type Application struct {
	ID           int64
	PlayerID     int64
	PlayerName   string
	AgencyPrefix string // the agency of the player's province
	TargetRank   registry.Rank
	Basis        Basis
	// EventID is the registry event a tournament, 6-dan or 7-dan
	// application rests on, and Placing, Wins, Games, Group, EarnedRank
	// the registry's statement of the player's record there when it was
	// filed; EventRef and RecordRef render it as text (and are all that
	// applications filed before checked evidence have).
	EventID     int64
	Placing     int
	Wins        int
	Games       int
	Group       string
	EarnedRank  registry.Rank
	EventRef    string
	RecordRef   string
	Evidence    string
	AppraiserID int64
	// AppraisalSessionID is the appraisal session an application by
	// appraisal rests on (0: none, or an application from before sessions).
	AppraisalSessionID int64
	Status             AppStatus
	AppliedAt          time.Time
	AppliedBy          string
	DecidedAt          *time.Time
	DecidedBy          string
	Reason             string
	CertificateNumber  string
	// CertificateStatus is the status of the certificate issued (valid,
	// revoked, reissued; "" before one): only a valid one is printed.
	CertificateStatus CertStatus
	NoticeID          int64
}

const applicationSelect = `SELECT a.id, a.player_id, a.player_name, a.agency_prefix, a.target_rank, a.basis, a.event_ref, a.record_ref,
	a.evidence, coalesce(a.appraiser_id, 0), a.status, a.applied_at, a.applied_by, a.decided_at, coalesce(a.decided_by, ''),
	a.reason, coalesce(c.number, ''), coalesce(n.id, 0), coalesce(a.appraisal_session_id, 0),
	coalesce(a.event_id, 0), a.placed, a.wins, a.games, a.group_name, a.earned_rank, coalesce(c.status, '')
	FROM applications a
	LEFT JOIN certificates c ON c.id = a.certificate_id
	LEFT JOIN notices n ON n.application_id = a.id`

func scanApplication(r pgx.Row) (Application, error) {
	var a Application
	err := r.Scan(&a.ID, &a.PlayerID, &a.PlayerName, &a.AgencyPrefix, &a.TargetRank, &a.Basis, &a.EventRef, &a.RecordRef,
		&a.Evidence, &a.AppraiserID, &a.Status, &a.AppliedAt, &a.AppliedBy, &a.DecidedAt, &a.DecidedBy,
		&a.Reason, &a.CertificateNumber, &a.NoticeID, &a.AppraisalSessionID, &a.EventID, &a.Placing, &a.Wins, &a.Games, &a.Group, &a.EarnedRank, &a.CertificateStatus)
	return a, err
}

// applicationTx locks an application and reads it, in one round trip: the
// read is pipelined behind the lock and bound (its snapshot taken) once the
// lock is held, so it sees a decision committed while this one waited.
func applicationTx(ctx context.Context, tx *ledger.Tx, id int64) (Application, error) {
	return applicationTxWith(ctx, tx, id, nil)
}

// applicationTxWith is applicationTx sending after it, in the same round
// trip, the statements of after (nil: none).
func applicationTxWith(ctx context.Context, tx *ledger.Tx, id int64, after *pgx.Batch) (Application, error) {
	var (
		a       Application
		readErr error
	)
	b := &pgx.Batch{}
	b.Queue(`SELECT 1 FROM applications WHERE id = $1 FOR UPDATE`, id)
	b.Queue(applicationSelect+` WHERE a.id = $1`, id).QueryRow(func(r pgx.Row) error {
		a, readErr = scanApplication(r)
		return nil
	})
	if after != nil {
		b.QueuedQueries = append(b.QueuedQueries, after.QueuedQueries...)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return Application{}, ledger.PgErr(err, fmt.Sprintf("lock application %d", id))
	}
	if readErr != nil {
		return Application{}, ledger.RowErr(readErr, fmt.Sprintf("application %d", id), ReasonNoSuchApplication.New("application", appID(id)))
	}
	return a, nil
}

func appID(id int64) string { return strconv.FormatInt(id, 10) }

// Apply files an application for one of the actor's players.
func (s *Service) Apply(ctx context.Context, actor ledger.Actor, key string, in ApplicationInput) (Application, error) {
	if err := access.RequireSignedIn(actor, access.Apply); err != nil {
		return Application{}, err
	}
	if in.PlayerID <= 0 {
		return Application{}, registry.ReasonPlayerID.OnField("player_id", "value", strconv.FormatInt(in.PlayerID, 10))
	}
	in, err := in.cleanText()
	if err != nil {
		return Application{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "Apply", in, func(tx *ledger.Tx, now time.Time) (Application, error) {
		return s.ApplyTx(ctx, tx, now, actor, in)
	})
}

// ApplyTx files an application inside the caller's transaction (e.g. the
// one finishing a dan-grade event), with the checks of Apply.
func (s *Service) ApplyTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, in ApplicationInput) (Application, error) {
	in, err := in.cleanText()
	if err != nil {
		return Application{}, err
	}
	p, err := registry.PlayerTx(ctx, tx, in.PlayerID, true)
	if err != nil {
		return Application{}, err
	}
	if b, err := ParseBasis(in.Basis); err == nil && b == Appraisal {
		// the age rule rests on the birth date: wait for staff's decision on a change of it
		if err := waitForIdentity(ctx, tx, p.ID, actionApplyAppraisal); err != nil {
			return Application{}, err
		}
	}
	target, basis, err := checkApplication(p, in, now)
	if err != nil {
		return Application{}, err
	}
	prov, _ := registry.ProvinceByCode(p.ProvinceCode)
	capability := access.Apply
	if AssociationIssues(target) {
		capability = access.ApplyHighDan
	}
	if err := s.policy.Require(ctx, tx, actor, capability, prov.Prefix); err != nil {
		return Application{}, err
	}
	var rec EventRecord
	var eventID any
	if NeedsEvent(basis) {
		if rec, err = s.checkEvidence(ctx, tx, basis, target, p.ID, in.EventID); err != nil {
			return Application{}, err
		}
		eventID = in.EventID
	}
	var appraiser, session any
	if basis != Appraisal {
		in.AppraiserID, in.AppraisalSessionID = 0, 0 // no appraisal behind it
	}
	if basis == Appraisal {
		sess, err := requireSession(ctx, tx, in.AppraisalSessionID, prov.Prefix, p, target, now, 0)
		if err != nil {
			return Application{}, err
		}
		if in.AppraiserID != 0 && in.AppraiserID != sess.AppraiserID {
			return Application{}, ReasonAppraisalOtherAppraiser.OnField("appraiser_id", "session", appraisalID(sess.ID),
				"appraiser", strconv.FormatInt(sess.AppraiserID, 10), "given", strconv.FormatInt(in.AppraiserID, 10))
		}
		in.AppraiserID, appraiser, session = sess.AppraiserID, sess.AppraiserID, sess.ID
	}
	var (
		openRank int16
		openAt   time.Time
	)
	err = tx.QueryRow(ctx, `SELECT target_rank, applied_at FROM applications WHERE player_id = $1 AND status IN ('applied', 'on_notice')`, p.ID).Scan(&openRank, &openAt)
	switch {
	case err == nil:
		// named as the clerk sees them: the player's name and registry
		// number, the application's date and rank (not internal ids)
		return Application{}, ReasonOpenApplication.With(ledger.Value("name", p.Name), ledger.Value("player", strconv.FormatInt(p.ID, 10)),
			ledger.Value("applied", openAt.In(ledger.ChinaTime).Format("2006-01-02")), ledger.Words("rank", registry.Rank(openRank).Chinese(), registry.Rank(openRank).String()))
	case !errors.Is(err, pgx.ErrNoRows):
		return Application{}, ledger.PgErr(err, "open applications")
	}
	filed := Application{PlayerID: p.ID, TargetRank: target, Basis: basis, AppraiserID: in.AppraiserID}
	if eventID != nil {
		filed.EventID, filed.Placing, filed.Wins, filed.Games, filed.Group, filed.EarnedRank = in.EventID, rec.Placing, rec.Wins, rec.Games, rec.Group, rec.Earned
		filed.EventRef, filed.RecordRef = eventRefText(in.EventID, rec), recordRefText(rec)
	}
	var id int64
	err = tx.QueryRow(ctx, `INSERT INTO applications (player_id, agency_prefix, target_rank, basis, event_ref, record_ref, evidence,
		appraiser_id, status, applied_at, applied_by, player_name, event_id, placed, wins, games, group_name, earned_rank, appraisal_session_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'applied', $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING id`,
		p.ID, prov.Prefix, target, basis, filed.EventRef, filed.RecordRef, in.Evidence, appraiser, now, actor.String(), p.Name,
		eventID, filed.Placing, filed.Wins, filed.Games, filed.Group, filed.EarnedRank, session).Scan(&id)
	if err != nil {
		// a concurrent application of the same player won the unique index
		return Application{}, ledger.PgErr(err, "file application")
	}
	filed.AppraisalSessionID = in.AppraisalSessionID
	err = ledger.Append(ctx, tx, now, actor, "application", appID(id), NewApplicationSubmittedPayload(filed))
	if err != nil {
		return Application{}, err
	}
	return scanApplication(tx.QueryRow(ctx, applicationSelect+` WHERE a.id = $1`, id))
}

// requireApproved checks that an appraiser is approved by the association.
// An appraisal is by an appraiser the province's agency recommended: an
// agency does not borrow another province's.
func requireApproved(ctx context.Context, tx *ledger.Tx, id int64, agency string) error {
	var st AppraiserStatus
	var of string
	err := tx.QueryRow(ctx, `SELECT status, agency_prefix FROM appraisers WHERE id = $1`, id).Scan(&st, &of)
	if errors.Is(err, pgx.ErrNoRows) {
		return ReasonNoSuchAppraiser.New("appraiser", strconv.FormatInt(id, 10))
	}
	if err != nil {
		return ledger.PgErr(err, fmt.Sprintf("appraiser %d", id))
	}
	if st != AppraiserApproved {
		return ReasonAppraiserNotApproved.New("appraiser", strconv.FormatInt(id, 10), "status", string(st))
	}
	if of != agency {
		return ReasonAppraiserOtherAgency.New("appraiser", strconv.FormatInt(id, 10), "agency", of)
	}
	return nil
}

// mayDecide checks that actor may approve or reject app: staff always; the
// active agency of the player's province for kyu to 5 dan.
// st is the actor's standing read ahead with the application (nil: read
// now).
func (s *Service) mayDecide(ctx context.Context, tx *ledger.Tx, actor ledger.Actor, app Application, st *access.Standing) error {
	if AssociationIssues(app.TargetRank) {
		return s.policy.RequireRead(ctx, tx, actor, access.ApplyHighDan, app.AgencyPrefix, st)
	}
	return s.policy.RequireRead(ctx, tx, actor, access.DecideApplication, app.AgencyPrefix, st)
}

// applicationToDecide is the application, locked, read with the actor's
// standing (which mayDecide needs) in one round trip.
func (s *Service) applicationToDecide(ctx context.Context, tx *ledger.Tx, actor ledger.Actor, id int64) (Application, error) {
	b := &pgx.Batch{}
	st := s.policy.Queue(b, actor)
	app, err := applicationTxWith(ctx, tx, id, b)
	if err != nil {
		return Application{}, err
	}
	if err := s.mayDecide(ctx, tx, actor, app, st); err != nil {
		return Application{}, err
	}
	return app, nil
}

// Approve approves an application: kyu to 3 dan are issued at once, 4 to 7
// dan go on public notice and are issued when the notice period ends with no
// open objection.
func (s *Service) Approve(ctx context.Context, actor ledger.Actor, key string, id int64) (Application, error) {
	if err := access.RequireSignedIn(actor, access.DecideApplication); err != nil {
		return Application{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "Approve", id, func(tx *ledger.Tx, now time.Time) (Application, error) {
		app, err := s.applicationToDecide(ctx, tx, actor, id)
		if err != nil {
			return Application{}, err
		}
		if app.Status != AppApplied {
			return Application{}, ReasonNotWaiting.New("application", appID(id), "status", string(app.Status))
		}
		if s.approvals != nil && !actor.IsStaff() {
			if err := s.approvals.MayApprove(ctx, tx, app.AgencyPrefix, int(app.TargetRank), now); err != nil {
				return Application{}, err
			}
		}
		// the player, locked, and his pending identity change in one round
		// trip, with the first read of the event's evidence (the standings
		// cache's check)
		evidence := &pgx.Batch{}
		readEvidence := s.queueEvidence(evidence, app.Basis, app.PlayerID, app.EventID)
		p, change, pending, err := registry.PlayerAndPendingChangeWith(ctx, tx, app.PlayerID, evidence)
		if err != nil {
			return Application{}, err
		}
		if !app.TargetRank.Outranks(p.Rank) {
			return Application{}, ReasonAlreadyHolds.With(ledger.Value("player", strconv.FormatInt(p.ID, 10)),
				ledger.Words("current", p.Rank.Chinese(), p.Rank.String()), ledger.Words("target", app.TargetRank.Chinese(), app.TargetRank.String()))
		}
		if err := identityReady(ctx, tx, app, p, now, &pendingChange{change, pending}); err != nil {
			return Application{}, err
		}
		if NeedsEvent(app.Basis) {
			// a result may have been voided or corrected, the event unlisted,
			// since the application was filed; text alone never holds
			if _, err := s.checkEvidenceRead(ctx, tx, app.Basis, app.TargetRank, app.PlayerID, app.EventID, readEvidence); err != nil {
				return Application{}, err
			}
		}
		if app.Basis == Appraisal {
			// the session may have been withdrawn, its appraiser revoked,
			// another certificate issued on it or the player's birth date
			// corrected since the application was filed
			if _, err := requireSession(ctx, tx, app.AppraisalSessionID, app.AgencyPrefix, p, app.TargetRank, app.AppliedAt, app.ID); err != nil {
				return Application{}, err
			}
		}
		if NeedsNotice(app.TargetRank) {
			if err := s.checkStock(ctx, tx, app, now); err != nil {
				return Application{}, err
			}
			n, err := s.publish(ctx, tx, now, actor, app, p)
			if err != nil {
				return Application{}, err
			}
			app.NoticeID = n.ID
			app.Status = AppOnNotice
			if _, err := tx.Exec(ctx, `UPDATE applications SET status = $2, decided_at = $3, decided_by = $4 WHERE id = $1`,
				id, app.Status, now, actor.String()); err != nil {
				return Application{}, ledger.PgErr(err, "approve application")
			}
		} else {
			// decided before the serial is taken, so that the series row
			// stays locked for as few statements as may be (the
			// certificate's insert links it to the application); sent in
			// one round trip with issuance's reads
			decide := &pgx.Batch{}
			decide.Queue(`UPDATE applications SET status = $2, decided_at = $3, decided_by = $4 WHERE id = $1`,
				id, AppIssued, now, actor.String())
			// issue before any event is appended: the series row lock comes before the event-log lock
			c, err := s.issueTx(ctx, tx, now, actor, issueInput{player: p, rank: app.TargetRank, basis: app.Basis,
				issuer: issuerOf(app), applicationID: app.ID, before: decide, last: true})
			if err != nil {
				return Application{}, err
			}
			app.CertificateNumber, app.Status = c.Number, AppIssued
		}
		app.DecidedAt, app.DecidedBy = &now, actor.String()
		err = ledger.Append(ctx, tx, now, actor, "application", appID(id),
			ApplicationApprovedPayload{Certificate: app.CertificateNumber, NoticeID: app.NoticeID, Status: app.Status})
		return app, err
	})
}

// maxReason bounds the reason of a rejection, revocation or reissue.
const maxReason = 1000

// Reject refuses an application that waits for approval or is on notice.
func (s *Service) Reject(ctx context.Context, actor ledger.Actor, key string, id int64, reason string) (Application, error) {
	if err := access.RequireSignedIn(actor, access.DecideApplication); err != nil {
		return Application{}, err
	}
	reason, err := ledger.OptionalText("reason", reason, maxReason)
	if err != nil {
		return Application{}, err
	}
	if reason == "" {
		return Application{}, ReasonReasonRequired.With(ledger.Words("why", "驳回申请须写明理由。", "say why the application is rejected."))
	}
	req := []any{id, reason}
	return ledger.Mutate(ctx, s.store, actor, key, "Reject", req, func(tx *ledger.Tx, now time.Time) (Application, error) {
		app, err := s.applicationToDecide(ctx, tx, actor, id)
		if err != nil {
			return Application{}, err
		}
		switch {
		case app.Status == AppOnNotice:
			if err := s.requireStaff(ctx, actor, access.StopNotice); err != nil {
				return Application{}, err
			}
		case app.Status != AppApplied:
			return Application{}, ReasonApplicationClosed.New("application", appID(id), "status", string(app.Status))
		}
		if err := closeApplication(ctx, tx, now, actor, app, reason, "the application was rejected"); err != nil {
			return Application{}, err
		}
		app.Status, app.DecidedAt, app.DecidedBy, app.Reason = AppRejected, &now, actor.String(), reason
		err = ledger.Append(ctx, tx, now, actor, "application", appID(id), ApplicationRejectedPayload{Reason: reason})
		return app, err
	})
}

// closeApplication rejects an open application for reason, failing its
// notice (for noticeReason) if it is on one.
func closeApplication(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, app Application, reason, noticeReason string) error {
	if app.Status == AppOnNotice {
		if err := closeNotice(ctx, tx, now, app.NoticeID, NoticeFailed, noticeReason); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE applications SET status = 'rejected', decided_at = $2, decided_by = $3, reason = $4 WHERE id = $1`,
		app.ID, now, actor.String(), reason); err != nil {
		return ledger.PgErr(err, "reject application")
	}
	return nil
}

// GetApplication returns one application to its agency or to staff.
func (s *Service) GetApplication(ctx context.Context, actor ledger.Actor, id int64) (Application, error) {
	if err := access.RequireSignedIn(actor, access.ReadApplications); err != nil {
		return Application{}, err
	}
	a, err := scanApplication(s.db.QueryRow(ctx, applicationSelect+` WHERE a.id = $1`, id))
	if err != nil {
		return Application{}, ledger.RowErr(err, fmt.Sprintf("application %d", id), ReasonNoSuchApplication.New("application", appID(id)))
	}
	if actor.Kind == ledger.AgencyActor && a.AgencyPrefix != actor.Agency {
		return Application{}, ReasonNoSuchApplication.New("application", appID(id))
	}
	return a, nil
}

// ApplicationQuery selects applications; empty fields match anything.
type ApplicationQuery struct {
	AgencyPrefix string
	Status       AppStatus
	MinRank      registry.Rank // e.g. 6 for the staff's 6–7 dan queue
	Limit        int
	// Rank, when set, is the one rank applied for; From and To (Beijing
	// dates, either may be zero) bound the day applied on; Offset skips
	// that many of the newest first (the portal's pages).
	Rank     registry.Rank
	From, To time.Time
	Offset   int
}

// ListApplications lists applications newest first: an agency sees its own.
func (s *Service) ListApplications(ctx context.Context, actor ledger.Actor, q ApplicationQuery) ([]Application, error) {
	if err := access.RequireSignedIn(actor, access.ReadApplications); err != nil {
		return nil, err
	}
	if actor.Kind == ledger.AgencyActor {
		q.AgencyPrefix = actor.Agency
	}
	if q.Limit <= 0 || q.Limit > 500 {
		q.Limit = 200
	}
	min := int(registry.LowestKyu)
	if q.MinRank != 0 {
		min = int(q.MinRank)
	}
	if q.Offset < 0 {
		q.Offset = 0
	}
	var from, to any // days in Beijing, as the page shows them
	if !q.From.IsZero() {
		from = time.Date(q.From.Year(), q.From.Month(), q.From.Day(), 0, 0, 0, 0, ledger.ChinaTime)
	}
	if !q.To.IsZero() {
		to = time.Date(q.To.Year(), q.To.Month(), q.To.Day()+1, 0, 0, 0, 0, ledger.ChinaTime)
	}
	rows, err := s.db.Query(ctx, applicationSelect+` WHERE ($1 = '' OR a.agency_prefix = $1) AND ($2 = '' OR a.status = $2)
		AND a.target_rank >= $3 AND ($5 = 0 OR a.target_rank = $5) AND ($6::timestamptz IS NULL OR a.applied_at >= $6)
		AND ($7::timestamptz IS NULL OR a.applied_at < $7) ORDER BY a.id DESC LIMIT $4 OFFSET $8`,
		q.AgencyPrefix, string(q.Status), min, q.Limit, int(q.Rank), from, to, q.Offset)
	if err != nil {
		return nil, fmt.Errorf("list applications: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Application, error) { return scanApplication(r) })
}

// issuerOf is the body whose prefix a certificate carries: the association
// for 6–7 dan, otherwise the agency of the player's province.
func issuerOf(app Application) string {
	if AssociationIssues(app.TargetRank) {
		return registry.AssociationPrefix
	}
	return app.AgencyPrefix
}
