package registry

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
)

// Identity changes: a registered player's birth date and identity document
// (kind, number and the nationality a passport is unique within) are what
// the age rules and the certificates rest on, so an agency's change of them
// is held for staff (a second pair of eyes) while its other changes take
// effect at once. Staff's own change, and an agency's correction on the day
// of registration that no rule depends on yet, take effect at once; every
// change is kept in player_identity_changes with who asked, when and why.

// IdentityChangeStatus is where a change of a player's identity stands.
type IdentityChangeStatus string

const (
	ChangePending  IdentityChangeStatus = "pending"  // waits for staff
	ChangeApproved IdentityChangeStatus = "approved" // staff approved it: the player's record changed then
	ChangeRejected IdentityChangeStatus = "rejected" // staff rejected it: the record is unchanged
	ChangeApplied  IdentityChangeStatus = "applied"  // took effect at once (staff's own, or a registration-day correction)
)

// IdentityChange is a change of a player's birth date or identity document.
// Identity numbers are held masked only (the full new number stays in the
// database until the change is decided, never in this value).
type IdentityChange struct {
	ID           int64
	PlayerID     int64
	PlayerName   string
	AgencyPrefix string // the prefix of the player's province when asked
	Status       IdentityChangeStatus
	Reason       string
	RequestedAt  time.Time
	RequestedBy  string
	// Applied says why a change took effect at once (ChangeApplied):
	// AppliedByStaff or AppliedRegistrationDay.
	Applied                        string
	OldBirthDate, NewBirthDate     time.Time
	OldNationality, NewNationality string
	OldIDKind, NewIDKind           IdentityKind
	OldIDMasked, NewIDMasked       string
	DecidedAt                      *time.Time
	DecidedBy                      string
	DecisionReason                 string
}

// Why a change took effect at once.
const (
	AppliedByStaff         = "staff"
	AppliedRegistrationDay = "registration_day"
)

// BirthDateChanged reports whether the change moves the birth date.
func (c IdentityChange) BirthDateChanged() bool { return !c.OldBirthDate.Equal(c.NewBirthDate) }

// MaxChangeReason bounds the reason given for an identity change and for
// staff's decision.
const MaxChangeReason = 500

// The refusals of identity changes.
var (
	ReasonChangeReasonRequired = ledger.NewReason(ledger.Invalid, "IDENTITY_CHANGE_REASON_REQUIRED",
		"修改已登记棋手的出生日期或证件信息须写明理由（如“登记时录入错误，依据户口簿更正”），协会工作人员据此审核。",
		"say why the birth date or identity document of a registered player changes (e.g. a typo at registration, corrected from the household register); the association's staff decide on it.")
	ReasonIdentityChangePending = ledger.NewReason(ledger.Precondition, "IDENTITY_CHANGE_PENDING",
		"登记号 {player} 的棋手已有一项出生日期或证件信息的变更（第 {change} 号，{requested} 提出）等待协会审核；审核决定之前不能再提出另一项变更。",
		"the player with registry no. {player} already has a change of birth date or identity document (no. {change}, asked on {requested}) waiting for the association; no other change can be asked until it is decided.")
	ReasonNoSuchIdentityChange = ledger.NewReason(ledger.NotFound, "NO_SUCH_IDENTITY_CHANGE",
		"没有编号为 {change} 的身份信息变更。", "there is no identity change {change}.")
	ReasonIdentityChangeDecided = ledger.NewReason(ledger.Precondition, "IDENTITY_CHANGE_DECIDED",
		"身份信息变更第 {change} 号已处理（{status}），不再等待审核。",
		"identity change {change} is no longer waiting: it is {status}.")
	ReasonIdentityChangeID = ledger.NewReason(ledger.Invalid, "IDENTITY_CHANGE_ID",
		"变更编号应为正整数，现为 {value}。", "must be a positive change number, got {value}.")
	ReasonIdentityChangeStale = ledger.NewReason(ledger.Precondition, "IDENTITY_CHANGE_STALE",
		"登记号 {player} 的棋手的身份信息在提出变更第 {change} 号之后已经改动，该变更不能再批准；请驳回后由代理机构重新提出。",
		"the identity of the player with registry no. {player} changed after change {change} was asked, so it can no longer be approved; reject it and let the agency ask again.")
)

// statusWords words a change's status in both languages, for refusals.
func statusWords(st IdentityChangeStatus) ledger.Param {
	switch st {
	case ChangeApproved:
		return ledger.Words("status", "已批准", "approved")
	case ChangeRejected:
		return ledger.Words("status", "已驳回", "rejected")
	case ChangeApplied:
		return ledger.Words("status", "已直接生效", "applied at once")
	}
	return ledger.Words("status", "待审核", "pending")
}

// Certifications tells the registry whether anything of certification
// rests on a player yet (an application or a certificate, of any status);
// certs implements it, and certs.New hands itself to the registry. Without
// one, no identity change of an agency takes effect at once.
type Certifications interface {
	HasCertification(ctx context.Context, q ledger.Querier, playerID int64) (bool, error)
}

// UseCertifications has the registry ask c before an agency's
// registration-day correction takes effect at once.
func (s *Service) UseCertifications(c Certifications) { s.certs = c }

const changeColumns = `c.id, c.player_id, p.name, c.agency_prefix, c.status, c.reason, c.requested_at, c.requested_by,
	c.old_birth_date, c.new_birth_date, c.old_nationality, c.new_nationality, c.old_id_kind, c.new_id_kind,
	c.old_id_masked, c.new_id_masked, c.decided_at, c.decided_by, c.decision_reason`

const changeFrom = ` FROM player_identity_changes c JOIN players p ON p.id = c.player_id`

func scanChange(r pgx.Row) (IdentityChange, error) {
	var c IdentityChange
	err := r.Scan(&c.ID, &c.PlayerID, &c.PlayerName, &c.AgencyPrefix, &c.Status, &c.Reason, &c.RequestedAt, &c.RequestedBy,
		&c.OldBirthDate, &c.NewBirthDate, &c.OldNationality, &c.NewNationality, &c.OldIDKind, &c.NewIDKind,
		&c.OldIDMasked, &c.NewIDMasked, &c.DecidedAt, &c.DecidedBy, &c.DecisionReason)
	if c.Status == ChangeApplied {
		c.Applied = AppliedRegistrationDay
		if strings.HasPrefix(c.RequestedBy, "staff:") || strings.HasPrefix(c.RequestedBy, "system:") {
			c.Applied = AppliedByStaff
		}
	}
	return c, err
}

// identityDiffers reports whether p's identity (birth date, document kind,
// number, nationality) differs from old's.
func identityDiffers(old, p Player) bool {
	return !old.BirthDate.Equal(p.BirthDate) || old.IDKind != p.IDKind || old.IDNumber != p.IDNumber || old.Nationality != p.Nationality
}

// withIdentityOf is p with the identity of from.
func withIdentityOf(p, from Player) Player {
	p.BirthDate, p.IDKind, p.IDNumber, p.Nationality = from.BirthDate, from.IDKind, from.IDNumber, from.Nationality
	return p
}

// LoggedIdentity is what the log keeps of an identity: the number masked
// and, as in LoggedPlayer, of the birth date only the year (rows before
// issue 31 hold the full birth_date). Whether the change moves the birth
// date says BirthDateChanged of the payload holding two of them; the dates
// themselves are in the change's row, for staff.
type LoggedIdentity struct {
	// BirthDate (YYYY-MM-DD) is in rows written before issue 31 only.
	BirthDate      string       `json:"birth_date,omitempty"`
	BirthYear      int          `json:"birth_year,omitempty"`
	IdentityKind   IdentityKind `json:"identity_kind"`
	IdentityNumber string       `json:"identity_number"`
	Nationality    string       `json:"nationality"`
}

func loggedIdentity(p Player) LoggedIdentity {
	return LoggedIdentity{BirthYear: p.BirthDate.Year(), IdentityKind: p.IDKind, IdentityNumber: MaskIdentity(p.IDNumber), Nationality: p.Nationality}
}

// PendingIdentityChange returns the change of the player's identity that
// waits for staff, as q sees it (certs asks it before an application is
// filed or approved).
func PendingIdentityChange(ctx context.Context, q ledger.Querier, playerID int64) (IdentityChange, bool, error) {
	c, err := scanChange(q.QueryRow(ctx, `SELECT `+changeColumns+changeFrom+` WHERE c.player_id = $1 AND c.status = 'pending'`, playerID))
	if errors.Is(err, pgx.ErrNoRows) {
		return IdentityChange{}, false, nil
	}
	if err != nil {
		return IdentityChange{}, false, ledger.PgErr(err, fmt.Sprintf("pending identity change of player %d", playerID))
	}
	return c, true, nil
}

// PlayerAndPendingChange is PlayerTx (the row locked) and
// PendingIdentityChange in one round trip: the change's read is pipelined
// behind the lock and sees what was committed while it waited.
func PlayerAndPendingChange(ctx context.Context, tx pgx.Tx, id int64) (Player, IdentityChange, bool, error) {
	return PlayerAndPendingChangeWith(ctx, tx, id, nil)
}

// PlayerAndPendingChangeWith is PlayerAndPendingChange sending after it,
// in the same round trip, the statements of after (nil: none), whose
// results are read by their own callbacks.
func PlayerAndPendingChangeWith(ctx context.Context, tx pgx.Tx, id int64, after *pgx.Batch) (Player, IdentityChange, bool, error) {
	var (
		p          Player
		c          IdentityChange
		pErr, cErr error
	)
	b := &pgx.Batch{}
	b.Queue(`SELECT `+playerColumns+` FROM players WHERE id = $1 FOR UPDATE`, id).QueryRow(func(r pgx.Row) error {
		p, pErr = scanPlayer(r)
		return nil
	})
	b.Queue(`SELECT `+changeColumns+changeFrom+` WHERE c.player_id = $1 AND c.status = 'pending'`, id).QueryRow(func(r pgx.Row) error {
		c, cErr = scanChange(r)
		return nil
	})
	if after != nil {
		b.QueuedQueries = append(b.QueuedQueries, after.QueuedQueries...)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return Player{}, IdentityChange{}, false, playerErr(err, id)
	}
	if pErr != nil {
		return Player{}, IdentityChange{}, false, playerErr(pErr, id)
	}
	if errors.Is(cErr, pgx.ErrNoRows) {
		return p, IdentityChange{}, false, nil
	}
	if cErr != nil {
		return Player{}, IdentityChange{}, false, ledger.PgErr(cErr, fmt.Sprintf("pending identity change of player %d", id))
	}
	return p, c, true, nil
}

// BirthDateChangedAfter returns the latest change that moved the player's
// birth date and took effect (approved or applied at once) after t, as q
// sees it: an appraisal filed before it was checked against another birth
// date.
func BirthDateChangedAfter(ctx context.Context, q ledger.Querier, playerID int64, t time.Time) (IdentityChange, bool, error) {
	c, err := scanChange(q.QueryRow(ctx, `SELECT `+changeColumns+changeFrom+` WHERE c.player_id = $1
		AND c.status IN ('approved', 'applied') AND c.decided_at > $2 AND c.old_birth_date <> c.new_birth_date
		ORDER BY c.decided_at DESC, c.id DESC LIMIT 1`, playerID, t))
	if errors.Is(err, pgx.ErrNoRows) {
		return IdentityChange{}, false, nil
	}
	if err != nil {
		return IdentityChange{}, false, ledger.PgErr(err, fmt.Sprintf("identity changes of player %d", playerID))
	}
	return c, true, nil
}

// changeIdentity records a change of old's identity to p's in tx (the
// player row locked by the caller): at once for staff and for a
// registration-day correction (the row is then written by the caller), else
// held. It returns the change and whether it is held.
func (s *Service) changeIdentity(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, old, p Player, reason string) (IdentityChange, bool, error) {
	if reason == "" {
		return IdentityChange{}, false, ReasonChangeReasonRequired.OnField("change_reason")
	}
	pending, has, err := PendingIdentityChange(ctx, tx, old.ID)
	if err != nil {
		return IdentityChange{}, false, err
	}
	if has {
		var full string
		if err := tx.QueryRow(ctx, `SELECT new_id_number FROM player_identity_changes WHERE id = $1`, pending.ID).Scan(&full); err != nil {
			return IdentityChange{}, false, ledger.PgErr(err, "pending identity change")
		}
		if !actor.IsStaff() && pending.NewBirthDate.Equal(p.BirthDate) && pending.NewIDKind == p.IDKind && full == p.IDNumber &&
			pending.NewNationality == p.Nationality {
			return pending, true, nil // the form sent again with the change already asked: it still waits
		}
		return IdentityChange{}, false, ReasonIdentityChangePending.New("player", strconv.FormatInt(old.ID, 10),
			"change", strconv.FormatInt(pending.ID, 10), "requested", pending.RequestedAt.In(ledger.ChinaTime).Format(time.DateOnly))
	}
	applied := ""
	switch {
	case actor.IsStaff():
		applied = AppliedByStaff
	default:
		ok, err := s.registrationDayCorrection(ctx, tx, now, actor, old, p)
		if err != nil {
			return IdentityChange{}, false, err
		}
		if ok {
			applied = AppliedRegistrationDay
		}
	}
	prov, _ := ProvinceByCode(old.ProvinceCode)
	c := IdentityChange{PlayerID: old.ID, PlayerName: p.Name, AgencyPrefix: prov.Prefix, Status: ChangePending, Reason: reason,
		RequestedAt: now, RequestedBy: actor.String(), OldBirthDate: old.BirthDate, NewBirthDate: p.BirthDate,
		OldNationality: old.Nationality, NewNationality: p.Nationality, OldIDKind: old.IDKind, NewIDKind: p.IDKind,
		OldIDMasked: MaskIdentity(old.IDNumber), NewIDMasked: MaskIdentity(p.IDNumber)}
	full := p.IDNumber
	var decidedAt *time.Time
	if applied != "" {
		c.Status, c.Applied, c.DecidedAt, c.DecidedBy = ChangeApplied, applied, &now, actor.String()
		decidedAt, full = &now, ""
	}
	err = tx.QueryRow(ctx, `INSERT INTO player_identity_changes (player_id, agency_prefix, status, reason, requested_at, requested_by,
		old_birth_date, new_birth_date, old_nationality, new_nationality, old_id_kind, new_id_kind, old_id_masked, new_id_masked,
		new_id_number, decided_at, decided_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id`,
		c.PlayerID, c.AgencyPrefix, c.Status, reason, now, c.RequestedBy, c.OldBirthDate, c.NewBirthDate, c.OldNationality, c.NewNationality,
		c.OldIDKind, c.NewIDKind, c.OldIDMasked, c.NewIDMasked, full, decidedAt, c.DecidedBy).Scan(&c.ID)
	if err != nil {
		if errors.Is(ledger.PgErr(err, ""), ledger.ErrAlreadyExists) { // a concurrent request won the one pending slot
			return IdentityChange{}, false, ReasonIdentityChangePending.New("player", strconv.FormatInt(old.ID, 10),
				"change", "?", "requested", now.In(ledger.ChinaTime).Format(time.DateOnly))
		}
		return IdentityChange{}, false, ledger.PgErr(err, "record identity change")
	}
	entity := strconv.FormatInt(old.ID, 10)
	if applied != "" {
		return c, false, ledger.Append(ctx, tx, now, actor, "player", entity, PlayerIdentityCorrectedPayload{
			After: loggedIdentity(p), Basis: applied, Before: loggedIdentity(old), BirthDateChanged: c.BirthDateChanged(), Change: c.ID, Reason: reason})
	}
	return c, true, ledger.Append(ctx, tx, now, actor, "player", entity, PlayerIdentityChangeRequestedPayload{
		After: loggedIdentity(p), Before: loggedIdentity(old), BirthDateChanged: c.BirthDateChanged(), Change: c.ID, Reason: reason})
}

// registrationDayCorrection reports whether an agency's identity change
// corrects a typo of registration and may take effect at once: the agency
// registered the player itself, today (Beijing date); no identity change
// of his came before; nothing of certification rests on him (no certified
// rank, no application or certificate: asked of Certifications, and without
// one the answer is no); and the change leaves him on the same side of
// AdultAge (the appraisal's minimum age and the line of what the public
// sees), so it cannot open a rule that the true date closes.
func (s *Service) registrationDayCorrection(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, old, p Player) (bool, error) {
	if s.certs == nil || actor.Kind != ledger.AgencyActor || old.AgencyPrefix != actor.Agency || old.RankCertified {
		return false, nil
	}
	if old.CreatedAt.In(ledger.ChinaTime).Format(time.DateOnly) != now.In(ledger.ChinaTime).Format(time.DateOnly) {
		return false, nil
	}
	if (AgeOn(old.BirthDate, now) >= AdultAge) != (AgeOn(p.BirthDate, now) >= AdultAge) {
		return false, nil
	}
	var before bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM player_identity_changes WHERE player_id = $1)`, old.ID).Scan(&before); err != nil {
		return false, ledger.PgErr(err, "identity changes")
	}
	if before {
		return false, nil
	}
	certified, err := s.certs.HasCertification(ctx, tx, old.ID)
	if err != nil || certified {
		return false, err
	}
	return true, nil
}

// DecideIdentityChange approves or rejects a change that waits (staff
// only). An approval changes the player's record, logged as
// player.identity_change_approved and as the player.updated every change of
// a record writes; a rejection (with its reason, required) leaves it as it
// was. The full new number is not kept once decided.
func (s *Service) DecideIdentityChange(ctx context.Context, actor ledger.Actor, key string, id int64, approve bool, reason string) (IdentityChange, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.DecideIdentityChange, AssociationPrefix); err != nil {
		return IdentityChange{}, err
	}
	if id <= 0 {
		return IdentityChange{}, ReasonIdentityChangeID.OnField("id", "value", strconv.FormatInt(id, 10))
	}
	reason, err := ledger.OptionalText("reason", reason, MaxChangeReason)
	if err != nil {
		return IdentityChange{}, err
	}
	if !approve && reason == "" {
		return IdentityChange{}, ledger.ReasonRequired.OnField("reason")
	}
	req := []any{id, approve, reason}
	return ledger.Mutate(ctx, s.store, actor, key, "DecideIdentityChange", req, func(tx *ledger.Tx, now time.Time) (IdentityChange, error) {
		var playerID int64
		err := tx.QueryRow(ctx, `SELECT player_id FROM player_identity_changes WHERE id = $1`, id).Scan(&playerID)
		if err != nil {
			return IdentityChange{}, ledger.RowErr(err, "identity change", ReasonNoSuchIdentityChange.New("change", strconv.FormatInt(id, 10)))
		}
		old, err := PlayerTx(ctx, tx, playerID, true) // the player's row first, as UpdatePlayer locks it
		if err != nil {
			return IdentityChange{}, err
		}
		var full string
		if err := tx.QueryRow(ctx, `SELECT new_id_number FROM player_identity_changes WHERE id = $1 FOR UPDATE`, id).Scan(&full); err != nil {
			return IdentityChange{}, ledger.PgErr(err, "lock identity change")
		}
		c, err := scanChange(tx.QueryRow(ctx, `SELECT `+changeColumns+changeFrom+` WHERE c.id = $1`, id))
		if err != nil {
			return IdentityChange{}, ledger.PgErr(err, "identity change")
		}
		if c.Status != ChangePending {
			return IdentityChange{}, ReasonIdentityChangeDecided.With(ledger.Value("change", strconv.FormatInt(id, 10)), statusWords(c.Status))
		}
		entity := strconv.FormatInt(playerID, 10)
		status := ChangeRejected
		if approve {
			status = ChangeApproved
			if !old.BirthDate.Equal(c.OldBirthDate) || old.IDKind != c.OldIDKind || MaskIdentity(old.IDNumber) != c.OldIDMasked ||
				old.Nationality != c.OldNationality {
				return IdentityChange{}, ReasonIdentityChangeStale.New("player", entity, "change", strconv.FormatInt(id, 10))
			}
			p := old
			p.BirthDate, p.IDKind, p.IDNumber, p.Nationality, p.UpdatedAt = c.NewBirthDate, c.NewIDKind, full, c.NewNationality, now
			if taken, err := identityTaken(ctx, tx, p, playerID); err != nil || taken {
				if err == nil {
					err = ReasonIdentityTaken.New("identity", c.NewIDMasked)
				}
				return IdentityChange{}, err
			}
			if _, err := tx.Exec(ctx, `UPDATE players SET birth_date = $2, nationality = $3, id_kind = $4, id_number = $5, identity_key = $6,
				updated_at = $7 WHERE id = $1`, playerID, p.BirthDate, p.Nationality, p.IDKind, p.IDNumber, identityKey(p), now); err != nil {
				if errors.Is(ledger.PgErr(err, ""), ledger.ErrAlreadyExists) {
					return IdentityChange{}, ReasonIdentityTaken.New("identity", c.NewIDMasked)
				}
				return IdentityChange{}, ledger.PgErr(err, fmt.Sprintf("change identity of player %d", playerID))
			}
			if err := ledger.Append(ctx, tx, now, actor, "player", entity, NewPlayerUpdatedPayload(old, p)); err != nil {
				return IdentityChange{}, err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE player_identity_changes SET status = $2, decided_at = $3, decided_by = $4, decision_reason = $5,
			new_id_number = '' WHERE id = $1`, id, status, now, actor.String(), reason); err != nil {
			return IdentityChange{}, ledger.PgErr(err, "decide identity change")
		}
		c.Status, c.DecidedAt, c.DecidedBy, c.DecisionReason = status, &now, actor.String(), reason
		var p ledger.Payload = PlayerIdentityChangeRejectedPayload{Change: id, Reason: reason}
		if approve {
			p = PlayerIdentityChangeApprovedPayload{Change: id, Reason: reason}
		}
		return c, ledger.Append(ctx, tx, now, actor, "player", entity, p)
	})
}

// IdentityChangeQuery selects identity changes; zero fields match anything.
type IdentityChangeQuery struct {
	Status   IdentityChangeStatus
	PlayerID int64
	Limit    int // at most MaxPageSize; 0: 50
}

// ListIdentityChanges lists identity changes, newest first: staff see
// every province's, an agency its own province's (it asked them).
func (s *Service) ListIdentityChanges(ctx context.Context, actor ledger.Actor, q IdentityChangeQuery) ([]IdentityChange, error) {
	if err := access.RequireSignedIn(actor, access.WritePlayers); err != nil {
		return nil, err
	}
	var conds []string
	var args []any
	arg := func(v any) string { args = append(args, v); return "$" + strconv.Itoa(len(args)) }
	if !actor.IsStaff() {
		if err := s.policy.Require(ctx, s.store.DB(), actor, access.WritePlayers, actor.Agency); err != nil {
			return nil, err
		}
		conds = append(conds, "c.agency_prefix = "+arg(actor.Agency))
	}
	switch q.Status {
	case "":
	case ChangePending, ChangeApproved, ChangeRejected, ChangeApplied:
		conds = append(conds, "c.status = "+arg(string(q.Status)))
	default:
		return nil, ReasonChangeStatus.OnField("status", "value", string(q.Status))
	}
	if q.PlayerID != 0 {
		conds = append(conds, "c.player_id = "+arg(q.PlayerID))
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, MaxPageSize)
	sql := `SELECT ` + changeColumns + changeFrom
	for i, c := range conds {
		if i == 0 {
			sql += " WHERE " + c
		} else {
			sql += " AND " + c
		}
	}
	sql += " ORDER BY c.id DESC LIMIT " + arg(limit)
	rows, err := s.store.DB().Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("list identity changes: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (IdentityChange, error) { return scanChange(r) })
	if err != nil {
		return nil, fmt.Errorf("list identity changes: %w", err)
	}
	return out, nil
}

// ReasonChangeStatus refuses an unknown status of identity changes.
var ReasonChangeStatus = ledger.NewReason(ledger.Invalid, "IDENTITY_CHANGE_STATUS",
	"“{value}”不是变更状态（pending、approved、rejected、applied）。",
	"{value} is not a status of changes (pending, approved, rejected, applied).")

// BirthAsk asks for a player's birth date as it stood at a moment.
type BirthAsk struct {
	Player int64
	At     time.Time
}

// BirthDatesAt answers each ask with the player's birth date at its moment,
// as q sees the registry: the birth date a change decided after that moment
// moved away from, else the current one. The log's player events keep only
// the birth year (a full date beside the masked identity number would undo
// the mask), so a reader of the log who needs the day (the audit's minors)
// asks here. A player who does not exist has no answer.
func BirthDatesAt(ctx context.Context, q ledger.Querier, asks []BirthAsk) (map[BirthAsk]time.Time, error) {
	out := make(map[BirthAsk]time.Time, len(asks))
	if len(asks) == 0 {
		return out, nil
	}
	ids, ats := make([]int64, len(asks)), make([]time.Time, len(asks))
	for i, a := range asks {
		ids[i], ats[i] = a.Player, a.At
	}
	rows, err := q.Query(ctx, `SELECT a.i, coalesce((SELECT c.old_birth_date FROM player_identity_changes c
			WHERE c.player_id = a.id AND c.status IN ('approved', 'applied') AND c.decided_at > a.at
			AND c.old_birth_date <> c.new_birth_date ORDER BY c.decided_at, c.id LIMIT 1), p.birth_date)
		FROM unnest($1::bigint[], $2::timestamptz[]) WITH ORDINALITY AS a(id, at, i) JOIN players p ON p.id = a.id`, ids, ats)
	if err != nil {
		return nil, ledger.PgErr(err, "birth dates")
	}
	defer rows.Close()
	for rows.Next() {
		var i int64
		var birth time.Time
		if err := rows.Scan(&i, &birth); err != nil {
			return nil, ledger.PgErr(err, "birth dates")
		}
		out[asks[i-1]] = birth
	}
	if err := rows.Err(); err != nil {
		return nil, ledger.PgErr(err, "birth dates")
	}
	return out, nil
}
