package certs

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// A certificate names its holder by his identity and, through appraisal,
// rests on his age: while a change of his birth date or identity document
// waits for staff (registry.PendingIdentityChange), an appraisal is not
// filed and no application of any basis is approved or issued; an
// appraisal filed before a birth date changed is not approved on it (it
// was checked against another date), and its age is checked again when it
// is approved.

// The refusals of applications waiting for an identity change.
var (
	ReasonIdentityChangeWaits = ledger.NewReason(ledger.Precondition, "IDENTITY_CHANGE_WAITS",
		"登记号 {player} 的棋手的出生日期或证件信息变更（第 {change} 号）正等待中国围棋协会审核，协会作出决定之前不能{action}。",
		"a change of the birth date or identity document of the player with registry no. {player} (no. {change}) waits for the association's decision; until it is decided you cannot {action}.")
	ReasonBirthDateChangedSinceApplied = ledger.NewReason(ledger.Precondition, "BIRTH_DATE_CHANGED_SINCE_APPLIED",
		"登记号 {player} 的棋手的出生日期在本申请提出（{applied}）之后于 {changed} 变更（第 {change} 号）；鉴定申请是按原出生日期审查的，请驳回本申请，如符合条件再重新申请。",
		"the birth date of the player with registry no. {player} changed on {changed} (change {change}), after this application was filed on {applied}; an appraisal was checked against the former date: reject it and apply again if the player qualifies.")
)

// HasCertification reports whether an application or a certificate (of
// any status) names the player, as q sees it: the registry asks it before an
// agency's registration-day correction of his identity takes effect at once.
func (s *Service) HasCertification(ctx context.Context, q ledger.Querier, playerID int64) (bool, error) {
	var has bool
	err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM applications WHERE player_id = $1)
		OR EXISTS (SELECT 1 FROM certificates WHERE player_id = $1)`, playerID).Scan(&has)
	if err != nil {
		return false, ledger.PgErr(err, fmt.Sprintf("certification of player %d", playerID))
	}
	return has, nil
}

// identity change actions, as the refusal words them
var (
	actionApplyAppraisal = ledger.Words("action", "以鉴定为依据申请段级位", "apply for a rank by appraisal")
	actionApprove        = ledger.Words("action", "审批或颁发该棋手的证书", "approve or issue the player's certificate")
)

// waitForIdentity refuses when a change of the player's identity waits for
// staff, for the action.
func waitForIdentity(ctx context.Context, q ledger.Querier, playerID int64, action ledger.Param) error {
	c, pending, err := registry.PendingIdentityChange(ctx, q, playerID)
	if err != nil || !pending {
		return err
	}
	return identityWaits(playerID, c, action)
}

func identityWaits(playerID int64, c registry.IdentityChange, action ledger.Param) error {
	return ReasonIdentityChangeWaits.With(ledger.Value("player", strconv.FormatInt(playerID, 10)),
		ledger.Value("change", strconv.FormatInt(c.ID, 10)), action)
}

// pendingChange is a player's pending identity change as read with him
// (registry.PlayerAndPendingChange); nil: not read yet.
type pendingChange struct {
	change  registry.IdentityChange
	pending bool
}

// identityReady checks, when an application is approved or its certificate
// issued (on now), that the holder's identity is settled: no change waits,
// and for an appraisal no birth date changed after it was filed and the
// player is still of the appraisal's age.
func identityReady(ctx context.Context, tx *ledger.Tx, app Application, p registry.Player, now time.Time, read *pendingChange) error {
	if read == nil {
		if err := waitForIdentity(ctx, tx, p.ID, actionApprove); err != nil {
			return err
		}
	} else if read.pending {
		return identityWaits(p.ID, read.change, actionApprove)
	}
	if app.Basis != Appraisal {
		return nil
	}
	c, changed, err := registry.BirthDateChangedAfter(ctx, tx, p.ID, app.AppliedAt)
	if err != nil {
		return err
	}
	if changed {
		return ReasonBirthDateChangedSinceApplied.New("player", strconv.FormatInt(p.ID, 10), "change", strconv.FormatInt(c.ID, 10),
			"changed", c.DecidedAt.In(ledger.ChinaTime).Format(time.DateOnly), "applied", app.AppliedAt.In(ledger.ChinaTime).Format(time.DateOnly))
	}
	if age := registry.AgeOn(p.BirthDate, now); age < MinAppraisalAge {
		return ReasonUnderAppraisalAge.New("min", strconv.Itoa(MinAppraisalAge), "age", strconv.Itoa(age),
			"date", now.In(ledger.ChinaTime).Format(time.DateOnly))
	}
	return nil
}
