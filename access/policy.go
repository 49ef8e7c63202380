// Package access is the one permission policy: named capabilities, who may
// exercise each over what a province owns, and the suspension check, used
// by every domain package and by both transports, so that the portal and
// gRPC decide alike.
package access

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// Capability is something an actor may be allowed to do.
type Capability int

const (
	WritePlayers         Capability = iota + 1 // register or change a province's players
	SeeIdentity                                // see a player's full identity number and birth date
	ReadApplications                           // read a province's applications and orders
	Apply                                      // apply for kyu to 5 dan for a province's player
	DecideApplication                          // approve or reject kyu to 5 dan of a province
	ApplyHighDan                               // apply for and approve 6 and 7 dan (the association's)
	StopNotice                                 // reject an application while it is on public notice
	OrderStock                                 // order a province's certificate stock
	DecideOrder                                // grant or refuse an order
	ReadQuota                                  // read a province's stock and its use
	RecommendAppraiser                         // recommend an appraiser of a province
	DecideAppraiser                            // approve or withdraw an appraiser
	RuleObjection                              // rule on objections to a notice
	Revoke                                     // revoke a certificate
	Reissue                                    // reissue a certificate a province issued
	ExportRoster                               // export a province's roster with full identities
	RunEvent                                   // create, import and run a province's tournaments
	RunNationalEvent                           // create, import and run national tournaments
	ManageAgencies                             // create, suspend and reactivate agencies
	ManageTokens                               // create, revoke and list API tokens
	RecordRanks                                // record honorary 8 dan, review declared ranks
	MergeRecords                               // merge two records of one person
	ReadStatistics                             // read the detailed statistics (per agency, objections)
	SubmitPaper                                // submit a province's paper certificates for staff to confirm
	SuspendPlayers                             // suspend a player from competition (停赛)
	OpenAudit                                  // open a year's audits and recompute their snapshots
	RuleAudit                                  // add, confirm or dismiss findings, rule on an audit, bootstrap an agency
	ReadAudit                                  // read a province's audit, its indicators and findings
	ReplyFinding                               // answer a finding of a province's audit
	AppealAudit                                // appeal (复议) the ruling on a province's own audit
	DecideAppeal                               // hear an appeal and uphold or change the ruling
	PublishAudit                               // close and publish (通报) a year's audit outcomes
	DecideIdentityChange                       // approve or reject an agency's change of a player's birth date or identity number
	KeepNationalList                           // keep the list of nationally recognised events, recognise national champions (特别认定)
	VoidConfirmedResult                        // void a result the chief referee has confirmed (art. 23, after the round is final)
	TuneRatingParams                           // tune the rating parameters on the registry's games, read their versions
)

// rule says who may exercise a capability.
type rule int

const (
	staffOnly   rule = iota // association staff (and the system's own tools)
	ownActive               // staff, or the owning province's agency while it is active
	ownEvenIdle             // staff, or the owning province's agency, even suspended (reading its own records)
)

// capability is a capability's rule and its wording in refusals.
type capability struct {
	rule   rule
	zh, en string
}

// describe returns a capability's rule and wording.
func describe(c Capability) (capability, bool) {
	switch c {
	case WritePlayers:
		return capability{ownActive, "登记或修改棋手", "register or change players"}, true
	case SeeIdentity:
		return capability{ownActive, "查看完整身份证件号码", "see full identity numbers"}, true
	case ReadApplications:
		return capability{ownEvenIdle, "查看申请和预订", "read applications and orders"}, true
	case Apply:
		return capability{ownActive, "申请段级位证书", "apply for certificates"}, true
	case DecideApplication:
		return capability{ownActive, "审批段级位申请", "decide applications"}, true
	case ApplyHighDan:
		return capability{staffOnly, "申请或审批业余6段、7段", "apply for or approve 6 and 7 dan"}, true
	case StopNotice:
		return capability{staffOnly, "驳回公示中的申请", "reject an application on public notice"}, true
	case OrderStock:
		return capability{ownActive, "预订证书", "order certificate stock"}, true
	case DecideOrder:
		return capability{staffOnly, "批准或驳回证书预订", "grant or refuse orders"}, true
	case ReadQuota:
		return capability{ownEvenIdle, "查看证书配额", "read certificate stock"}, true
	case RecommendAppraiser:
		return capability{ownActive, "推荐鉴定人", "recommend appraisers"}, true
	case DecideAppraiser:
		return capability{staffOnly, "批准或撤销鉴定人", "approve or withdraw appraisers"}, true
	case RuleObjection:
		return capability{staffOnly, "裁定异议", "rule on objections"}, true
	case Revoke:
		return capability{staffOnly, "撤销证书", "revoke certificates"}, true
	case Reissue:
		return capability{ownActive, "补发证书", "reissue certificates"}, true
	case ExportRoster:
		return capability{ownActive, "导出棋手名册", "export the roster"}, true
	case RunEvent:
		return capability{ownActive, "举办和管理比赛", "run tournaments"}, true
	case RunNationalEvent:
		return capability{staffOnly, "举办全国性比赛", "run national tournaments"}, true
	case ManageAgencies:
		return capability{staffOnly, "管理代理机构", "manage agencies"}, true
	case ManageTokens:
		return capability{staffOnly, "管理访问令牌和机构密钥", "manage access tokens and institution keys"}, true
	case RecordRanks:
		return capability{staffOnly, "记录荣誉段位、复核自报段位", "record honorary ranks and review declared ranks"}, true
	case MergeRecords:
		return capability{staffOnly, "合并同一人的重复记录", "merge two records of one person"}, true
	case SubmitPaper:
		return capability{ownActive, "提交纸质证书补录", "submit paper certificates for recording"}, true
	case ReadStatistics:
		return capability{staffOnly, "查看详细统计", "read the detailed statistics"}, true
	case SuspendPlayers:
		return capability{staffOnly, "对棋手作出停赛处罚", "suspend players from competition"}, true
	case OpenAudit:
		return capability{staffOnly, "开启年审", "open the annual audits"}, true
	case RuleAudit:
		return capability{staffOnly, "处理年审问题、作出年审结论", "decide findings and rule on audits"}, true
	case ReadAudit:
		return capability{ownEvenIdle, "查看年审", "read the annual audit"}, true
	case ReplyFinding:
		return capability{ownEvenIdle, "答复年审问题", "reply to audit findings"}, true
	case AppealAudit:
		return capability{ownEvenIdle, "对年审结论申请复议", "appeal an audit ruling"}, true
	case DecideAppeal:
		return capability{staffOnly, "对年审复议作出决定", "decide audit appeals"}, true
	case PublishAudit:
		return capability{staffOnly, "通报年审结果", "publish the audit outcomes"}, true
	case DecideIdentityChange:
		return capability{staffOnly, "审核棋手出生日期或证件号码的变更", "decide changes of a player's birth date or identity number"}, true
	case KeepNationalList:
		return capability{staffOnly, "维护全国性认可赛事名单、特别认定全国冠军", "keep the list of national events and recognise national champions"}, true
	case VoidConfirmedResult:
		// a confirmed result is final for the organiser (it may not even
		// correct it); overturning it is the association's act, so an
		// organiser cannot undo its own event's record after the fact
		return capability{staffOnly, "取消已经裁判长确认的成绩", "void a result the chief referee confirmed"}, true
	case TuneRatingParams:
		// new parameters recompute every rating in the registry: the
		// association's act, as the recompute is
		return capability{staffOnly, "调校等级分参数", "tune the rating parameters"}, true
	}
	return capability{}, false
}

// lastCapability is the highest Capability value.
const lastCapability = TuneRatingParams

// Capabilities lists every capability, for tests and documentation.
func Capabilities() []Capability {
	out := make([]Capability, 0, int(lastCapability))
	for c := Capability(1); c <= lastCapability; c++ {
		out = append(out, c)
	}
	return out
}

func (c Capability) String() string {
	if d, ok := describe(c); ok {
		return d.en
	}
	return fmt.Sprintf("capability %d", int(c))
}

// The refusals of the policy.
var (
	ReasonNeedsToken = ledger.NewReason(ledger.Unauthenticated, "NEEDS_TOKEN",
		"{action}需要代理机构或协会工作人员的令牌，请先登录。",
		"to {action} you need an agency or staff token; sign in first.")
	ReasonStaffOnly = ledger.NewReason(ledger.PermissionDenied, "STAFF_ONLY",
		"只有中国围棋协会工作人员可以{action}。",
		"only association staff may {action}.")
	ReasonOtherProvince = ledger.NewReason(ledger.PermissionDenied, "OTHER_PROVINCE",
		"代理机构 {agency} 只能为本省{action}，这一项属于 {owner}。",
		"agency {agency} may {action} only for its own province; this belongs to {owner}.")
	ReasonAgencySuspended = ledger.NewReason(ledger.PermissionDenied, "AGENCY_SUSPENDED",
		"代理机构 {agency} 已被暂停，暂停期间不能{action}。",
		"agency {agency} is suspended and may not {action} until it is reactivated.")
)

// Agencies tells whether an agency may act: it exists and is not suspended.
type Agencies interface {
	AgencyActive(ctx context.Context, q ledger.Querier, prefix string) (bool, error)
}

// Policy decides who may do what.
type Policy struct {
	agencies Agencies
}

// New returns the policy over the agencies' standing.
func New(agencies Agencies) *Policy { return &Policy{agencies: agencies} }

// Require returns nil when actor may exercise c over what the province with
// prefix owner owns (000 for the association's own), else the refusal: the
// public is Unauthenticated, everyone else PermissionDenied. q is the
// transaction the change runs in, so a suspension committed before it is
// seen.
func (p *Policy) Require(ctx context.Context, q ledger.Querier, actor ledger.Actor, c Capability, owner string) error {
	return p.require(actor, c, owner, func() (bool, error) { return p.agencies.AgencyActive(ctx, q, actor.Agency) })
}

// AgencyQueuer is Agencies that can queue the standing's read on a batch:
// active and err are set when the batch's results are read.
type AgencyQueuer interface {
	QueueAgencyActive(b *pgx.Batch, prefix string, active *bool, err *error)
}

// Standing is an agency's standing read ahead by Queue.
type Standing struct {
	active bool
	err    error
}

// Queue queues on b, for an agency actor, the read of its standing that
// Require would make, so that it is sent with the transaction's other
// reads instead of in a round trip of its own; nil when nothing is to be
// read (staff, the public) or the agencies cannot queue it. b must be sent
// in the transaction the change runs in, before RequireRead.
func (p *Policy) Queue(b *pgx.Batch, actor ledger.Actor) *Standing {
	aq, ok := p.agencies.(AgencyQueuer)
	if !ok || actor.IsStaff() || actor.Kind != ledger.AgencyActor {
		return nil
	}
	st := &Standing{}
	aq.QueueAgencyActive(b, actor.Agency, &st.active, &st.err)
	return st
}

// RequireRead is Require with the agency's standing read ahead (st from
// Queue, its batch sent); a nil st reads it as Require does.
func (p *Policy) RequireRead(ctx context.Context, q ledger.Querier, actor ledger.Actor, c Capability, owner string, st *Standing) error {
	if st == nil {
		return p.Require(ctx, q, actor, c, owner)
	}
	return p.require(actor, c, owner, func() (bool, error) { return st.active, st.err })
}

// require decides; standing reads the agency's standing when the decision
// needs it.
func (p *Policy) require(actor ledger.Actor, c Capability, owner string, standing func() (bool, error)) error {
	d, ok := describe(c)
	if !ok {
		return fmt.Errorf("unknown capability %d", int(c))
	}
	action := ledger.Words("action", d.zh, d.en)
	switch {
	case actor.IsStaff():
		return nil
	case actor.Kind != ledger.AgencyActor:
		return ReasonNeedsToken.With(action)
	case d.rule == staffOnly:
		return ReasonStaffOnly.With(action)
	case owner != actor.Agency:
		return ReasonOtherProvince.With(action, ledger.Value("agency", actor.Agency), ledger.Value("owner", owner))
	case d.rule == ownEvenIdle:
		return nil
	}
	active, err := standing()
	if err != nil {
		return fmt.Errorf("%s: standing of agency %s: %w", c, actor.Agency, err)
	}
	if !active {
		return ReasonAgencySuspended.With(action, ledger.Value("agency", actor.Agency))
	}
	return nil
}

// Allows reports whether actor may exercise c over owner's; for deciding
// what a page offers. A failed lookup allows nothing.
func (p *Policy) Allows(ctx context.Context, q ledger.Querier, actor ledger.Actor, c Capability, owner string) bool {
	return p.Require(ctx, q, actor, c, owner) == nil
}

// RequireSignedIn refuses the public before anything else is looked at, for
// requests whose owner is known only once their input is checked.
func RequireSignedIn(actor ledger.Actor, c Capability) error {
	if actor.Kind == ledger.AgencyActor || actor.IsStaff() {
		return nil
	}
	d, _ := describe(c)
	return ReasonNeedsToken.With(ledger.Words("action", d.zh, d.en))
}
