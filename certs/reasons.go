package certs

import "github.com/dankyu/dankyu/ledger"

// The refusals of certification, each with its code and its message in
// both languages (see ledger.Reason).
var (
	// numbers
	ReasonNumberEmpty = ledger.NewReason(ledger.Invalid, "NUMBER_EMPTY",
		"请填写证书编号：段位证书编号为 9 位数字，如 110260001。",
		"the certificate number is empty: a dan certificate has 9 digits, e.g. 110260001.")
	ReasonNumberCharacters = ledger.NewReason(ledger.Invalid, "NUMBER_CHARACTERS",
		"证书编号 {number} 只能由数字组成（级位证书编号以 K 开头）。",
		"certificate number {number}: only digits are allowed (a kyu number starts with K).")
	ReasonDanNumberLength = ledger.NewReason(ledger.Invalid, "DAN_NUMBER_LENGTH",
		"段位证书编号为 9 位数字（省份 3 位、年份 2 位、序号 4 位），{number} 有 {digits} 位。",
		"certificate number {number}: a dan number has 9 digits (province 3, year 2, serial 4), got {digits}.")
	ReasonKyuNumberLength = ledger.NewReason(ledger.Invalid, "KYU_NUMBER_LENGTH",
		"级位证书编号为 K 加 10 位数字，{number} 有 {digits} 位数字。",
		"certificate number {number}: a kyu number is K and 10 digits, got {digits} digits.")
	ReasonNumberPrefix = ledger.NewReason(ledger.Invalid, "NUMBER_PREFIX",
		"证书编号 {number} 的前三位 {prefix} 不是省份前缀，也不是协会的 000。",
		"certificate number {number}: prefix {prefix} is not a province prefix or the association's 000.")
	ReasonNumberSerial = ledger.NewReason(ledger.Invalid, "NUMBER_SERIAL",
		"证书编号 {number} 的序号 {serial} 超出 1–{max} 的范围。",
		"certificate number {number}: serial {serial} is outside 1..{max}.")

	// statistics
	ReasonStatisticsYear = ledger.NewReason(ledger.Invalid, "STATISTICS_YEAR",
		"统计年度 {year} 不在 2000–2999 之间。", "statistics year {year} is outside 2000..2999.")

	// stock and orders
	ReasonOrderWindowClosed = ledger.NewReason(ledger.Precondition, "ORDER_WINDOW_CLOSED",
		"证书预订只在每年 12 月 1 日至 31 日（北京时间）受理；下次受理从 {opens} 开始，预订 {year} 年的证书。",
		"certificate orders are taken from 1 to 31 December (Beijing time); the next window opens on {opens} for {year} stock.")
	ReasonOrderYear = ledger.NewReason(ledger.Invalid, "ORDER_YEAR",
		"现在预订的是 {year} 年的证书，不是 {given} 年。", "orders placed now are for {year} stock, not {given}.")
	ReasonOrderYearRequired = ledger.NewReason(ledger.Invalid, "ORDER_YEAR_REQUIRED",
		"工作人员补录预订时须填写证书年度（2005 年或以后）。", "staff recording an order give its stock year (2005 or later).")
	ReasonOrderEmpty = ledger.NewReason(ledger.Invalid, "ORDER_EMPTY",
		"预订至少需要一张证书。", "an order needs at least one certificate.")
	ReasonOrderOtherAgency = ledger.NewReason(ledger.PermissionDenied, "ORDER_OTHER_AGENCY",
		"代理机构 {agency} 只能为自己预订证书。", "agency {agency} may order only for itself.")
	ReasonOrderDecided = ledger.NewReason(ledger.Precondition, "ORDER_DECIDED",
		"{agency} 的 {year} 年证书预订已于 {date} {status}，不能再修改。",
		"the {year} order of agency {agency} was already {status} on {date}.")
	ReasonNoOrder = ledger.NewReason(ledger.NotFound, "NO_ORDER",
		"{agency} 没有 {year} 年的证书预订。", "agency {agency} has no order for {year}.")
	ReasonGrantNegative = ledger.NewReason(ledger.Invalid, "GRANT_NEGATIVE",
		"批准数量不能为负数。", "granted counts cannot be negative.")
	ReasonGrantExceedsOrder = ledger.NewReason(ledger.Invalid, "GRANT_EXCEEDS_ORDER",
		"批准数量不能超过预订数量（段位 {dan} 张、级位 {kyu} 张）。", "a grant cannot exceed the order ({dan} dan, {kyu} kyu).")
	ReasonNoStock = ledger.NewReason(ledger.Precondition, "NO_STOCK",
		"代理机构 {agency} 没有获批的 {year} 年{kind}证书：证书须在每年 12 月预订并经协会批准。",
		"agency {agency} has no granted {kind} certificate stock for {year}: orders are placed 1–31 December and granted by the association.")
	ReasonStockUsedUp = ledger.NewReason(ledger.Precondition, "STOCK_USED_UP",
		"代理机构 {agency} 已用完 {year} 年获批的全部 {granted} 张{kind}证书。",
		"agency {agency} has used all {granted} {kind} certificates granted for {year}.")
	ReasonSeriesFull = ledger.NewReason(ledger.Exhausted, "SERIES_FULL",
		"证书编号段 {prefix}-{yy}（{kind}）已满：本年度 {max} 个序号已全部使用，明年之前不能再发证。",
		"certificate series {prefix}-{yy} ({kind}) is full: all {max} serials of the year are used; no number can be issued before next year.")

	// applications
	ReasonNoSuchApplication = ledger.NewReason(ledger.NotFound, "NO_SUCH_APPLICATION",
		"没有编号为 {application} 的申请。", "there is no application {application}.")
	ReasonTargetRankRequired = ledger.NewReason(ledger.Invalid, "TARGET_RANK_REQUIRED",
		"请填写申请的段级位，如 1k 或 4d。", "is required, e.g. 1k or 4d.")
	ReasonHonoraryNeverIssued = ledger.NewReason(ledger.Invalid, "HONORARY_NEVER_ISSUED",
		"业余8段是荣誉称号，不通过申请颁发。", "8 dan is an honorary title and is never issued.")
	ReasonNotAboveRank = ledger.NewReason(ledger.Invalid, "NOT_ABOVE_RANK",
		"申请的{target}不高于棋手现有的{current}。", "{target} is not above the player's current rank {current}.")
	ReasonBasis = ledger.NewReason(ledger.Invalid, "BASIS",
		"“{value}”不是申请依据：应为比赛成绩、鉴定、全国比赛成绩或全国冠军。",
		"{value} is not one of tournament, appraisal, national_result, national_championship.")
	ReasonSixDanBasis = ledger.NewReason(ledger.Invalid, "SIX_DAN_BASIS",
		"业余6段只授予在全国性比赛中取得规定成绩的棋手（全国比赛成绩）。",
		"6 dan is granted only for a result in a national tournament (national_result).")
	ReasonSevenDanBasis = ledger.NewReason(ledger.Invalid, "SEVEN_DAN_BASIS",
		"业余7段只授予全国业余围棋冠军（全国冠军）。",
		"7 dan is granted only to a national amateur champion (national_championship).")
	ReasonHighDanBasisOnly = ledger.NewReason(ledger.Invalid, "HIGH_DAN_BASIS_ONLY",
		"“{basis}”只适用于业余6段、7段，请选择比赛成绩或鉴定。", "{basis} is a basis for 6 or 7 dan only; use tournament or appraisal.")
	ReasonEvidenceEventRequired = ledger.NewReason(ledger.Invalid, "EVIDENCE_EVENT_REQUIRED",
		"请选择取得成绩的登记赛事（赛事编号）；文字填写的赛事和成绩不能作为申请依据。",
		"choose the registry event the result comes from (event_id); an event or result given as text is no evidence.")
	ReasonEvidenceUnchecked = ledger.NewReason(ledger.Precondition, "EVIDENCE_UNCHECKED",
		"本系统未接入赛事记录，无法核对比赛成绩，暂不受理此类申请。",
		"the registry's events are not connected here, so a result cannot be checked; such applications are not taken.")
	ReasonEvidenceNoSuchEvent = ledger.NewReason(ledger.NotFound, "EVIDENCE_NO_SUCH_EVENT",
		"登记系统中没有编号为 {event} 的赛事；在别处举办的比赛须先连同成绩导入。",
		"there is no registry event {event}; an event held elsewhere is imported with its results first.")
	ReasonEvidenceNotFinished = ledger.NewReason(ledger.Precondition, "EVIDENCE_NOT_FINISHED",
		"赛事 {event}（{name}）尚未结束，没有最终成绩。", "event {event} ({name}) is not finished: it has no final result.")
	ReasonEvidenceNotAParticipant = ledger.NewReason(ledger.Precondition, "EVIDENCE_NOT_A_PARTICIPANT",
		"登记号 {player} 的棋手不是赛事 {event}（{name}）的登记参赛者。", "the player with registry no. {player} is not a registered participant of event {event} ({name}).")
	ReasonEvidenceRulesNotPublished = ledger.NewReason(ledger.Precondition, "EVIDENCE_RULES_NOT_PUBLISHED",
		"赛事 {event}（{name}）的定级规则不是赛前公布的（晚于开始日期公布，或随导入给出而未经协会认可），不能作为申请依据。",
		"event {event} ({name}) has no grading rules published before it started (they came after its start date, or with an imported file and staff have not accepted them): it is no evidence.")
	ReasonEvidenceBelowRule = ledger.NewReason(ledger.Precondition, "EVIDENCE_BELOW_RULE",
		"棋手在赛事 {event}（{name}）中第 {placing} 名、{games} 局胜 {wins} 局，按赛前公布的规则可获{earned}，达不到{target}（须{needed}）。",
		"in event {event} ({name}) the player placed {placing} with {wins} wins of {games}: the published rules earn {earned}, not {target} (needs {needed}).")
	ReasonEvidenceNotNational = ledger.NewReason(ledger.Precondition, "EVIDENCE_NOT_NATIONAL",
		"赛事 {event}（{name}）不在协会认可的全国性赛事名单上。", "event {event} ({name}) is not on the association's list of national events.")
	ReasonEvidenceNationalPlacing = ledger.NewReason(ledger.Precondition, "EVIDENCE_NATIONAL_PLACING",
		"棋手在赛事 {event}（{name}）中第 {placing} 名；授予业余6段须进入前 {needed} 名。",
		"the player placed {placing} in event {event} ({name}); 6 dan needs a placing of {needed} or better.")
	ReasonEvidenceNotChampionship = ledger.NewReason(ledger.Precondition, "EVIDENCE_NOT_CHAMPIONSHIP",
		"赛事 {event}（{name}）不是名单上的全国业余围棋锦标赛。", "event {event} ({name}) is not a listed national amateur championship.")
	ReasonEvidenceNotChampion = ledger.NewReason(ledger.Precondition, "EVIDENCE_NOT_CHAMPION",
		"棋手在赛事 {event}（{name}）中第 {placing} 名（{games} 局胜 {wins} 局），不是冠军。",
		"the player placed {placing} in event {event} ({name}) with {wins} wins of {games}: not the champion.")
	ReasonEvidenceRecognitionRequired = ledger.NewReason(ledger.Precondition, "EVIDENCE_RECOGNITION_REQUIRED",
		"授予业余7段须协会对赛事 {event}（{name}）冠军（登记号 {player}）作出特别认定。",
		"7 dan needs the association's special recognition of the player with registry no. {player} as champion of event {event} ({name}).")
	ReasonNotListed = ledger.NewReason(ledger.NotFound, "NOT_LISTED",
		"赛事 {event} 不在全国性赛事名单上。", "event {event} is not on the list of national events.")
	ReasonAlreadyRecognised = ledger.NewReason(ledger.AlreadyExists, "ALREADY_RECOGNISED",
		"登记号 {player} 的棋手已被特别认定为赛事 {event} 的冠军。", "the player with registry no. {player} is already recognised as champion of event {event}.")
	ReasonAppraiserRequired = ledger.NewReason(ledger.Invalid, "APPRAISER_REQUIRED",
		"鉴定申请须注明经协会批准的鉴定人。", "an appraisal names the approved appraiser.")
	ReasonUnderAppraisalAge = ledger.NewReason(ledger.Invalid, "UNDER_APPRAISAL_AGE",
		"通过鉴定申请段位的棋手须年满 {min} 周岁；该棋手在 {date} 为 {age} 岁。",
		"a player put forward through appraisal must be at least {min}; this player is {age} on {date}.")
	ReasonOpenApplication = ledger.NewReason(ledger.AlreadyExists, "OPEN_APPLICATION",
		"棋手{name}（登记号 {player}）已有一份 {applied} 提交的{rank}申请尚未处理，请先处理该申请。",
		"{name} (registry no. {player}) already has an open application for {rank} filed on {applied}; decide it first.")
	ReasonAppraiserNotApproved = ledger.NewReason(ledger.Precondition, "APPRAISER_NOT_APPROVED",
		"鉴定人 {appraiser} 的状态为“{status}”，尚未获协会批准。",
		"appraiser {appraiser} is {status}, not approved by the association.")
	ReasonAppraiserOtherAgency = ledger.NewReason(ledger.PermissionDenied, "APPRAISER_OTHER_AGENCY",
		"鉴定人 {appraiser} 由代理机构 {agency} 推荐，只能为该省棋手鉴定。",
		"appraiser {appraiser} was recommended by agency {agency} and appraises only that province's players.")
	ReasonAppraiserPlayerElsewhere = ledger.NewReason(ledger.PermissionDenied, "APPRAISER_PLAYER_ELSEWHERE",
		"登记号 {player} 的棋手不在代理机构 {agency} 所在省登记，不能作为其鉴定人。",
		"the player with registry no. {player} is not registered in the province of agency {agency}, so cannot be its appraiser.")
	ReasonNoSuchAppraiser = ledger.NewReason(ledger.NotFound, "NO_SUCH_APPRAISER",
		"没有编号为 {appraiser} 的鉴定人。", "there is no appraiser {appraiser}.")
	ReasonAppraiserStatus = ledger.NewReason(ledger.Invalid, "APPRAISER_STATUS",
		"状态只能是批准、驳回或撤销。", "must be approved, refused or revoked.")
	ReasonNotWaiting = ledger.NewReason(ledger.Precondition, "APPLICATION_NOT_WAITING",
		"申请 {application} 的状态为“{status}”，不在待审批状态。",
		"application {application} is {status}, not waiting for approval.")
	ReasonAlreadyHolds = ledger.NewReason(ledger.Precondition, "ALREADY_HOLDS_RANK",
		"登记号 {player} 的棋手已持有{current}，不低于申请的{target}。",
		"the player with registry no. {player} already holds {current}, not below the {target} applied for.")
	ReasonApplicationClosed = ledger.NewReason(ledger.Precondition, "APPLICATION_CLOSED",
		"申请 {application} 已经是“{status}”状态。", "application {application} is already {status}.")
	ReasonReasonRequired = ledger.NewReason(ledger.Invalid, "REASON_REQUIRED",
		"请说明理由：{why}", "{why}")

	// notices and objections
	ReasonNoSuchNotice = ledger.NewReason(ledger.NotFound, "NO_SUCH_NOTICE",
		"没有编号为 {notice} 的公示。", "there is no notice {notice}.")
	ReasonNotAnnounced = ledger.NewReason(ledger.Invalid, "RANK_NOT_ANNOUNCED",
		"只有业余4段至7段需要公示。", "only 4 to 7 dan are announced.")
	ReasonNoticeState = ledger.NewReason(ledger.Invalid, "NOTICE_STATE",
		"只能查看“公示中”“已结束”或全部公示。", "must be current, past or empty.")
	ReasonNoticePeriodOver = ledger.NewReason(ledger.Precondition, "NOTICE_PERIOD_OVER",
		"公示 {notice} 的公示期已于 {ends}（北京时间）结束，不再受理异议。",
		"the notice period of notice {notice} ended on {ends} (Beijing time); objections are no longer taken.")
	ReasonObjectionsPerAddress = ledger.NewReason(ledger.Exhausted, "OBJECTIONS_PER_ADDRESS",
		"同一地址对一则公示最多提出 {max} 条异议。", "at most {max} objections to one notice are taken from one address.")
	ReasonObjectionsPerNetwork = ledger.NewReason(ledger.Exhausted, "OBJECTIONS_PER_NETWORK",
		"同一网络对一则公示最多提出 {max} 条异议。", "at most {max} objections to one notice are taken from one network.")
	ReasonNoObjectionsNamed = ledger.NewReason(ledger.Invalid, "NO_OBJECTIONS_NAMED",
		"请选择要一并裁定的异议（最多 {max} 条）。", "choose the objections to rule on together (at most {max}).")
	ReasonObjectionOfOtherNotice = ledger.NewReason(ledger.NotFound, "OBJECTION_NOT_OF_NOTICE",
		"公示 {notice} 没有异议 {objection}。", "notice {notice} has no objection {objection}.")
	ReasonRulingRequired = ledger.NewReason(ledger.Invalid, "RULING_REQUIRED",
		"请写明裁定理由，理由将与异议一并保存。", "give the ruling's reasons; they are kept with the objection.")
	// NoteObjectionLapsed says why an objection was closed without a
	// ruling: the notice proceeded at the ruling deadline.
	NoteObjectionLapsed = ledger.NewReason(ledger.Precondition, "OBJECTION_LAPSED",
		"至 {deadline}（公示结束后的裁定期限）仍未裁定，异议失效，公示按期完成。",
		"not ruled on by {deadline}, the ruling deadline after the notice ended: the objection lapsed and the notice proceeded.")
	ReasonObjectionRuled = ledger.NewReason(ledger.Precondition, "OBJECTION_RULED",
		"异议 {objection} 已经是“{status}”状态。", "objection {objection} is already {status}.")
	ReasonNoSuchObjection = ledger.NewReason(ledger.NotFound, "NO_SUCH_OBJECTION",
		"没有编号为 {objection} 的异议。", "there is no objection {objection}.")
	ReasonNotOnNotice = ledger.NewReason(ledger.Precondition, "NOT_ON_NOTICE",
		"申请 {application} 的状态为“{status}”，不在公示中。", "application {application} is {status}, not on notice.")

	// certificates
	ReasonNoSuchCertificate = ledger.NewReason(ledger.NotFound, "NO_SUCH_CERTIFICATE",
		"没有编号为 {number} 的证书。", "there is no certificate {number}.")
	ReasonNotUnderReview = ledger.NewReason(ledger.Precondition, "NOT_UNDER_REVIEW",
		"证书 {number} 未因成绩作废而待复核，无需保留。", "certificate {number} is not flagged for review: there is nothing to keep.")
	ReasonCertificateNotValid = ledger.NewReason(ledger.Precondition, "CERTIFICATE_NOT_VALID",
		"证书 {number} 的状态为“{status}”，只能对有效证书进行此操作。",
		"certificate {number} is {status}; only a valid certificate can be changed so.")
	ReasonRosterFormat = ledger.NewReason(ledger.Invalid, "ROSTER_FORMAT",
		"“{value}”不是名册格式：应为 csv 或 xlsx。", "{value}: want csv or xlsx.")
	ReasonRosterAgency = ledger.NewReason(ledger.Invalid, "ROSTER_AGENCY",
		"“{value}”不是省级代理机构的前缀。", "{value} is not a province's agency prefix.")
)
