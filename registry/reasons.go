package registry

import "github.com/dankyu/dankyu/ledger"

// The registry's refusals, each with its code and its message in both
// languages (see ledger.Reason).
var (
	ReasonNotAProvincePrefix = ledger.NewReason(ledger.Invalid, "NOT_A_PROVINCE_PREFIX",
		"“{value}”不是省级证书编号前缀（3位数字，如北京为 110）。",
		"{value} is not the 3-digit prefix of a province, such as 110 for Beijing.")
	ReasonNotAProvinceCode = ledger.NewReason(ledger.Invalid, "NOT_A_PROVINCE_CODE",
		"“{value}”不是两位省级行政区划代码（GB/T 2260，如北京为 11）。",
		"{value} is not a two-digit GB/T 2260 province code, such as 11 for Beijing.")
	ReasonAgencyStatus = ledger.NewReason(ledger.Invalid, "AGENCY_STATUS",
		"状态只能是“正常”或“暂停”。", "must be active or suspended.")
	ReasonGender = ledger.NewReason(ledger.Invalid, "GENDER",
		"请选择男或女。", "must be male or female.")
	ReasonNotADate = ledger.NewReason(ledger.Invalid, "NOT_A_DATE",
		"“{value}”不是日期，请按 YYYY-MM-DD 填写。", "{value} is not a date in the form YYYY-MM-DD.")
	ReasonDateOutOfRange = ledger.NewReason(ledger.Invalid, "DATE_OUT_OF_RANGE",
		"日期 {value} 超出范围（1900 年以后、不晚于今天）。", "{value} is out of range (from 1900 to today).")
	ReasonNationality = ledger.NewReason(ledger.Invalid, "NATIONALITY",
		"“{value}”不是两位国家代码（ISO 3166-1，如 CN）。", "{value} is not an ISO 3166-1 alpha-2 code such as CN.")
	ReasonIDLength = ledger.NewReason(ledger.Invalid, "ID_LENGTH",
		"身份证号码应为 18 位，现为 {length} 位。", "a resident ID number has 18 characters, this one {length}.")
	ReasonIDCharacter = ledger.NewReason(ledger.Invalid, "ID_CHARACTER",
		"身份证号码第 {position} 位是“{char}”，应为数字（第 18 位可为 X）。",
		"character {position} of the ID number is {char}; want a digit (or X as the 18th).")
	ReasonIDRegion = ledger.NewReason(ledger.Invalid, "ID_REGION",
		"身份证号码的地区码 {region} 不属于任何省级行政区。", "region code {region} of the ID number is not a province-level division.")
	ReasonIDDate = ledger.NewReason(ledger.Invalid, "ID_DATE",
		"身份证号码中的出生日期 {date} 无效或超出范围。", "the birth date {date} in the ID number is not a valid date in range.")
	ReasonIDCheckDigit = ledger.NewReason(ledger.Invalid, "ID_CHECK_DIGIT",
		"身份证号码校验位是 {got}，按前 17 位计算应为 {want}，请核对号码。",
		"the check digit of the ID number is {got}, but the first 17 digits give {want}; check the number.")
	ReasonIDInvalid = ledger.NewReason(ledger.Invalid, "ID_INVALID",
		"身份证号码无效，请核对。", "the resident ID number is not valid; check it.")
	ReasonIDBirthMismatch = ledger.NewReason(ledger.Invalid, "ID_BIRTH_MISMATCH",
		"身份证号码中的出生日期为 {in_number}，与填写的出生日期 {given} 不符。",
		"the birth date in the ID number is {in_number}, but birth_date is {given}.")
	ReasonResidentIDRequired = ledger.NewReason(ledger.Invalid, "RESIDENT_ID_REQUIRED",
		"中国公民须以居民身份证号码登记。", "Chinese nationals register with their resident ID number.")
	ReasonPassport = ledger.NewReason(ledger.Invalid, "PASSPORT",
		"护照号码应为 5 到 20 位字母或数字。", "a passport number has 5 to 20 letters or digits.")
	ReasonIdentityKind = ledger.NewReason(ledger.Invalid, "IDENTITY_KIND",
		"证件类型只能是居民身份证或护照。", "must be resident_id or passport.")
	ReasonRank = ledger.NewReason(ledger.Invalid, "RANK",
		"“{value}”不是段级位：请填写如 3k（3级）或 5d（5段），级位为 30k–1k，段位为 1d–7d。",
		"{value} is not a rank: write e.g. 3k or 5d; kyu runs from 30k to 1k, dan from 1d to 7d.")
	ReasonPlayerID = ledger.NewReason(ledger.Invalid, "PLAYER_ID",
		"棋手编号应为正整数，现为 {value}。", "must be a positive player number, got {value}.")
	ReasonPageSize = ledger.NewReason(ledger.Invalid, "PAGE_SIZE",
		"每页条数不能为负数。", "must not be negative.")
	ReasonPageToken = ledger.NewReason(ledger.Invalid, "PAGE_TOKEN",
		"翻页标记无效，请从第一页重新查询。", "is not a token from a previous page; search again from the first page.")
	ReasonAlreadyRegistered = ledger.NewReason(ledger.AlreadyExists, "ALREADY_REGISTERED",
		"证件号码为 {identity} 的棋手已经登记，请查找该棋手后修改其记录。",
		"a player with identity number {identity} is already registered; find that player and change the record instead.")
	ReasonIdentityTaken = ledger.NewReason(ledger.AlreadyExists, "IDENTITY_TAKEN",
		"另一名棋手已使用证件号码 {identity}。", "another player has identity number {identity}.")
	ReasonDeclaredTooHigh = ledger.NewReason(ledger.Precondition, "DECLARED_RANK_TOO_HIGH",
		"{rank}不能自报：业余4段至7段只能通过证书申请（4段以上须经公示）取得，或补录已有的纸质证书；自报段位最高为3段。",
		"{rank} cannot be declared: 4 to 7 dan come only from a certificate application (with public notice from 4 dan) or a recorded paper certificate; a declared rank is at most 3 dan.")
	ReasonHonoraryByStaff = ledger.NewReason(ledger.Precondition, "HONORARY_BY_STAFF",
		"荣誉8段由协会工作人员连同授予依据记录，不能自报。",
		"honorary 8 dan is recorded by association staff with its basis; it cannot be declared.")
	ReasonHonoraryBasis = ledger.NewReason(ledger.Invalid, "HONORARY_BASIS",
		"请写明授予荣誉8段的依据。", "give the basis of the honorary 8 dan.")
	ReasonNoSuchAgency = ledger.NewReason(ledger.NotFound, "NO_SUCH_AGENCY",
		"代理机构 {agency} 尚未登记，请先登记代理机构。", "agency {agency} is not registered; create the agency first.")
	ReasonNoSuchPlayer = ledger.NewReason(ledger.NotFound, "NO_SUCH_PLAYER",
		"没有登记号为 {player} 的棋手。", "no player has registry no. {player}.")
	ReasonStaffName = ledger.NewReason(ledger.Invalid, "STAFF_NAME",
		"工作人员名称须为一个词，如 li.wei。", "a staff name is one word, such as li.wei.")
	ReasonTokenKind = ledger.NewReason(ledger.Invalid, "TOKEN_KIND",
		"令牌类型只能是代理机构或工作人员。", "must be agency or staff.")
	ReasonNoSuchToken = ledger.NewReason(ledger.NotFound, "NO_SUCH_TOKEN",
		"令牌 {token} 不存在或已被吊销。", "token {token} does not exist or is already revoked.")
	ReasonBadAuthorization = ledger.NewReason(ledger.Unauthenticated, "BAD_AUTHORIZATION",
		"授权信息应为“Bearer <令牌>”。", `authorization must be "Bearer <token>".`)
	ReasonNotAToken = ledger.NewReason(ledger.Unauthenticated, "NOT_A_TOKEN",
		"这不是 dankyu 令牌（令牌以 {prefix} 开头）。", "this is not a dankyu token (they start with {prefix}).")
	ReasonUnknownToken = ledger.NewReason(ledger.Unauthenticated, "UNKNOWN_TOKEN",
		"令牌无效，请核对或向协会申请新令牌。", "unknown token; check it or ask the association for a new one.")
	ReasonRevokedToken = ledger.NewReason(ledger.Unauthenticated, "REVOKED_TOKEN",
		"该令牌已被吊销，请向协会申请新令牌。", "this token was revoked; ask the association for a new one.")
)

// The refusals of a player's Latin name and external ids.
var (
	ReasonLatinName = ledger.NewReason(ledger.Invalid, "LATIN_NAME",
		"“{value}”不是拉丁字母姓名：请用拉丁字母，姓在前、名在后，中间空一格（如 Zhang Wei），不超过 64 个字符。",
		"{value} is not a Latin name: write it in Latin letters, surname first and a space before the given name (Zhang Wei), at most 64 characters.")
	ReasonExternalIDScheme = ledger.NewReason(ledger.Invalid, "EXTERNAL_ID_SCHEME",
		"“{value}”不是外部编号类别：请用 2 到 12 位小写字母或数字，以字母开头（如 egd、ffg、aga）。",
		"{value} is not a scheme of external ids: 2 to 12 lower-case letters or digits, starting with a letter (egd, ffg, aga).")
	ReasonExternalIDValue = ledger.NewReason(ledger.Invalid, "EXTERNAL_ID_VALUE",
		"“{value}”不是有效的 {scheme} 编号（EGD PIN 为 5 到 9 位数字；其他编号不超过 32 位字母、数字、- 或 .）。",
		"{value} is not a valid {scheme} id (an EGD PIN has 5 to 9 digits; other ids up to 32 letters, digits, - or .).")
	ReasonExternalIDTaken = ledger.NewReason(ledger.AlreadyExists, "EXTERNAL_ID_TAKEN",
		"{scheme} 编号 {value} 已属于棋手 {player}：一个编号只能属于一名棋手。",
		"{scheme} id {value} already belongs to player {player}: an id names one person.")
	ReasonAffiliationKind = ledger.NewReason(ledger.Invalid, "AFFILIATION_KIND",
		"“{value}”不是所属单位的种类：应为俱乐部（club）或学校（school）。", "{value}: want club or school.")
	ReasonAffiliationDate = ledger.NewReason(ledger.Invalid, "AFFILIATION_DATE",
		"“{value}”不能作为起始日期：应写成 2026-12-05 格式，且晚于当前所属单位的起始日期。",
		"{value}: want a date like 2026-12-05, after the start of the current club or school.")
	ReasonFamilySelf = ledger.NewReason(ledger.Invalid, "FAMILY_SELF",
		"亲属关系须在两名不同的棋手之间。", "a family link joins two different players.")
)
