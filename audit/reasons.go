package audit

import "github.com/dankyu/dankyu/ledger"

// The refusals of the audit, each with its code and its message in both
// languages (see ledger.Reason).
var (
	ReasonYear = ledger.NewReason(ledger.Invalid, "AUDIT_YEAR",
		"年审年度 {year} 不在 2005–2999 之间。", "audit year {year} is outside 2005..2999.")
	ReasonAlreadyOpen = ledger.NewReason(ledger.Conflict, "AUDIT_ALREADY_OPEN",
		"{year} 年度的年审已于 {date} 开启；快照不会重算覆盖，可用“核对快照”检查。",
		"the {year} audits were opened on {date}; a snapshot is never overwritten (verify it instead).")
	ReasonNoAgencies = ledger.NewReason(ledger.Precondition, "AUDIT_NO_AGENCIES",
		"还没有一级代理机构，无法开启年审。", "there are no agencies to audit yet.")
	ReasonNotOpen = ledger.NewReason(ledger.NotFound, "AUDIT_NOT_OPEN",
		"代理机构 {agency} 的 {year} 年度年审尚未开启。", "the {year} audit of agency {agency} has not been opened.")
	ReasonUnknownIndicator = ledger.NewReason(ledger.Invalid, "AUDIT_UNKNOWN_INDICATOR",
		"没有名为 {key} 的年审指标。", "there is no audit indicator {key}.")
	ReasonCategory = ledger.NewReason(ledger.Invalid, "AUDIT_CATEGORY",
		"问题类别须为滥发证书、弄虚作假、不作记录、长期不作为或程序问题之一，不是 {category}。",
		"a finding's category is one of overissue, falsification, no_records, inactivity or procedure, not {category}.")
	ReasonSeverity = ledger.NewReason(ledger.Invalid, "AUDIT_SEVERITY",
		"严重程度须为低、中、高之一，不是 {severity}。", "severity is one of low, medium or high, not {severity}.")
	ReasonNoFinding = ledger.NewReason(ledger.NotFound, "AUDIT_NO_FINDING",
		"没有编号为 {id} 的年审问题。", "there is no audit finding {id}.")
	ReasonFindingDecided = ledger.NewReason(ledger.Precondition, "AUDIT_FINDING_DECIDED",
		"年审问题 {id} 已经处理（{status}），不能再次处理。", "audit finding {id} is already decided ({status}).")
	ReasonOutcome = ledger.NewReason(ledger.Invalid, "AUDIT_OUTCOME",
		"年审结论须为通过、有条件通过或不通过，不是 {outcome}。", "an audit ruling is pass, conditional or fail, not {outcome}.")
	ReasonConditionsMissing = ledger.NewReason(ledger.Invalid, "AUDIT_CONDITIONS_MISSING",
		"有条件通过须写明条件：下一年度证书数量上限、监管期限或措施至少一项。",
		"a conditional pass states its conditions: a cap on next year's stock, a supervision period or a measure.")
	ReasonConditionsOnPlain = ledger.NewReason(ledger.Invalid, "AUDIT_CONDITIONS_ON_PLAIN",
		"只有有条件通过才附带条件（数量上限、监管、措施）。",
		"only a conditional pass carries conditions (cap, supervision, measures).")
	ReasonOpenFindings = ledger.NewReason(ledger.Precondition, "AUDIT_OPEN_FINDINGS",
		"代理机构 {agency} 的 {year} 年度年审还有 {open} 个问题未处理（确认或撤销），暂不能作出通过的结论。",
		"the {year} audit of agency {agency} has {open} findings still open (confirm or dismiss them) before a pass.")
	ReasonSupervisionNeeded = ledger.NewReason(ledger.Invalid, "AUDIT_SUPERVISION_NEEDED",
		"由协会审批 4–5 段须有监管期限，请填写监管截止日期。", "staff approval of 4–5 dan needs a supervision period: give its last day.")
	ReasonSupervised = ledger.NewReason(ledger.PermissionDenied, "AUDIT_SUPERVISED",
		"代理机构 {agency} 处于监管期（至 {until}），其业余4–5段须由中国围棋协会审批。",
		"agency {agency} is under supervision until {until}: its 4 and 5 dan are approved by the association.")
	ReasonSupervisionPast = ledger.NewReason(ledger.Invalid, "AUDIT_SUPERVISION_PAST",
		"监管期限 {date} 已经过去。", "the supervision period's end {date} has already passed.")

	// the gate
	ReasonNotPassed = ledger.NewReason(ledger.Precondition, "AUDIT_NOT_PASSED",
		"代理机构 {agency} 尚未通过 {year} 年度年审（{state}），不能领取 {stock} 年度的证书。",
		"agency {agency} has not passed its {year} audit ({state}); its {stock} stock cannot be granted.")
	ReasonAboveCap = ledger.NewReason(ledger.Precondition, "AUDIT_STOCK_CAP",
		"代理机构 {agency} {year} 年度年审有条件通过，{stock} 年度证书上限为段位 {dan_cap}、级位 {kyu_cap}；本次批准段位 {dan}、级位 {kyu}，请降低数量。",
		"agency {agency} passed its {year} audit with conditions: its {stock} stock is capped at {dan_cap} dan and {kyu_cap} kyu; this grant gives {dan} dan and {kyu} kyu (lower it).")
	ReasonBootstrapExists = ledger.NewReason(ledger.Conflict, "AUDIT_BOOTSTRAP_EXISTS",
		"代理机构 {agency} 的 {stock} 年度证书已有首年放行决定。",
		"agency {agency} already has a first-year decision for its {stock} stock.")
)

// ReasonSupervisionDate refuses a supervision end that is not a date.
var ReasonSupervisionDate = ledger.NewReason(ledger.Invalid, "AUDIT_SUPERVISION_DATE",
	"监管期限须为日期（YYYY-MM-DD），不是 {value}。", "the supervision period's end is a date (YYYY-MM-DD), not {value}.")

// The refusals of the audit year's lifecycle: the preview of a running
// year, the one ruling, the appeal (复议) and the publication (通报).
var (
	ReasonYearRunning = ledger.NewReason(ledger.Precondition, "AUDIT_YEAR_RUNNING",
		"{year} 年度年审期到 {end} 才结束，现在只能开启预览（预览不产生问题，也不能据以作出结论）。",
		"audit year {year} runs until {end}: until then it can only be previewed (a preview opens no findings and no ruling can rest on it).")
	ReasonYearEnded = ledger.NewReason(ledger.Precondition, "AUDIT_YEAR_ENDED",
		"{year} 年度年审期已于 {end} 结束，请正式开启年审，不再预览。",
		"audit year {year} ended on {end}: open its audits instead of a preview.")
	ReasonPreviewOnly = ledger.NewReason(ledger.Precondition, "AUDIT_PREVIEW_ONLY",
		"代理机构 {agency} 的 {year} 年度年审只有预览，年审期结束、正式开启后才能处理问题和作出结论。",
		"the {year} audit of agency {agency} is only a preview: findings and rulings wait for the year to end and its audits to open.")
	ReasonAlreadyRuled = ledger.NewReason(ledger.Conflict, "AUDIT_ALREADY_RULED",
		"代理机构 {agency} 的 {year} 年度年审已于 {date} 作出结论（{outcome}）；结论只能经复议决定改变。",
		"the {year} audit of agency {agency} was ruled on {date} ({outcome}); a ruling changes only by the decision of an appeal.")
	ReasonNoRuling = ledger.NewReason(ledger.Precondition, "AUDIT_NO_RULING",
		"代理机构 {agency} 的 {year} 年度年审尚无结论，无从复议。",
		"the {year} audit of agency {agency} has no ruling yet to appeal.")
	ReasonAppealPeriodOver = ledger.NewReason(ledger.Precondition, "AUDIT_APPEAL_PERIOD_OVER",
		"代理机构 {agency} 的 {year} 年度年审结论的复议期已于 {until} 届满，结论已生效。",
		"the reply period of the {year} ruling on agency {agency} ended at {until}: the ruling is final.")
	ReasonAppealExists = ledger.NewReason(ledger.Conflict, "AUDIT_APPEAL_EXISTS",
		"代理机构 {agency} 已于 {date} 对 {year} 年度年审结论申请复议，每项结论只能复议一次。",
		"agency {agency} appealed its {year} ruling on {date}; a ruling is appealed once.")
	ReasonNoAppeal = ledger.NewReason(ledger.NotFound, "AUDIT_NO_APPEAL",
		"代理机构 {agency} 没有对 {year} 年度年审结论申请复议。", "agency {agency} has not appealed its {year} ruling.")
	ReasonAppealDecided = ledger.NewReason(ledger.Precondition, "AUDIT_APPEAL_DECIDED",
		"代理机构 {agency} 对 {year} 年度年审结论的复议已于 {date} 作出决定。",
		"the appeal of agency {agency} against its {year} ruling was decided on {date}.")
	ReasonAppealWorse = ledger.NewReason(ledger.Invalid, "AUDIT_APPEAL_WORSE",
		"复议决定不得加重原结论（{what}）；如维持原结论，请选择“维持”。",
		"an appeal's decision may not make the ruling stricter ({what}); to keep it, uphold it.")
	ReasonAlreadyPublished = ledger.NewReason(ledger.Conflict, "AUDIT_ALREADY_PUBLISHED",
		"{year} 年度年审结果已于 {date} 通报。", "the {year} audit outcomes were published on {date}.")
	ReasonRulingsMissing = ledger.NewReason(ledger.Precondition, "AUDIT_RULINGS_MISSING",
		"{year} 年度还有 {count} 个代理机构没有年审结论（{agencies}），不能通报。",
		"{count} agencies have no {year} ruling yet ({agencies}): the year cannot be published.")
	ReasonRulingsNotFinal = ledger.NewReason(ledger.Precondition, "AUDIT_RULINGS_NOT_FINAL",
		"{year} 年度还有 {count} 项年审结论未生效（复议期未满或复议未决：{agencies}）；如仍要通报，请勾选“提前通报”并说明理由。",
		"{count} of the {year} rulings are not final yet (reply period or appeal pending: {agencies}); to publish anyway, choose early publication and say why.")
	ReasonNotPublished = ledger.NewReason(ledger.NotFound, "AUDIT_NOT_PUBLISHED",
		"{year} 年度年审结果尚未通报。", "the {year} audit outcomes have not been published.")
)
