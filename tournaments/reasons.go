package tournaments

import "github.com/dankyu/dankyu/ledger"

// The refusals of the tournament layer, each with its code and its message
// in both languages (see ledger.Reason).
var (
	ReasonEventDate = ledger.NewReason(ledger.Invalid, "EVENT_DATE",
		"“{value}”不是日期，请按 2026-12-05 的格式填写。", "{value} is not a date like 2026-12-05.")
	ReasonEventEnd = ledger.NewReason(ledger.Invalid, "EVENT_END",
		"结束日期“{value}”应为不早于开始日期的日期。", "{value} is not a date on or after the start.")
	ReasonEventLevel = ledger.NewReason(ledger.Invalid, "EVENT_LEVEL",
		"“{value}”不是比赛级别：应为县级、市级、省级或全国。", "{value}: want county, city, province or national.")
	ReasonEventSystem = ledger.NewReason(ledger.Invalid, "EVENT_SYSTEM",
		"“{value}”不是竞赛制度：应为单循环、双循环、多循环、积分编排、麦克马洪、积分编排加淘汰、淘汰、双败淘汰、多败淘汰、多局决胜或擂台赛。",
		"{value}: want round_robin, double_round_robin, multi_round_robin, swiss, mcmahon, swiss_elimination, knockout, double_knockout, multi_elimination, match or arena.")
	ReasonEventOrder = ledger.NewReason(ledger.Invalid, "EVENT_ORDER",
		"“{value}”不是名次排列方法：应为循环赛、积分编排（总分，或按实际最高积分）、积分编排（对手分，或加对手分之和）或麦克马洪。",
		"{value}: want round_robin, swiss_total, swiss_total_reached, swiss_sos, swiss_sos_extended or mcmahon.")
	ReasonRoundsNeeded = ledger.NewReason(ledger.Invalid, "ROUNDS_NEEDED",
		"积分编排或麦克马洪制比赛须填写轮次数。", "a Swiss or McMahon event needs its number of rounds.")
	ReasonRules = ledger.NewReason(ledger.Invalid, "RULES",
		"“{value}”不是可用的规则：应为中国规则、AGA、日本规则、应氏规则或 Tromp–Taylor。",
		"{value} is not a rule set: want chinese, aga, japanese, ing or tromp-taylor.")
	ReasonGroupRank = ledger.NewReason(ledger.Invalid, "GROUP_RANK",
		"“{value}”不是 30k 到 7d 之间的段级位。", "{value} is not a rank from 30k to 7d.")
	ReasonGroupWins = ledger.NewReason(ledger.Invalid, "GROUP_WINS",
		"每个组别须填写达标胜局数（至少 1）。", "a group needs a qualifying number of wins (at least 1).")
	ReasonGroupsNeeded = ledger.NewReason(ledger.Invalid, "GROUPS_NEEDED",
		"定段赛至少要有一个组别，并写明目标段位和达标胜局数。",
		"a dan-grade event has at least one group with a target rank and a qualifying number of wins.")
	ReasonNoSuchEvent = ledger.NewReason(ledger.NotFound, "NO_SUCH_EVENT",
		"没有编号为 {event} 的比赛。", "there is no tournament {event}.")
	ReasonEventFinished = ledger.NewReason(ledger.Precondition, "EVENT_FINISHED",
		"比赛 {event} 已结束，不能再修改。", "tournament {event} is finished.")
	ReasonFieldFixed = ledger.NewReason(ledger.Precondition, "FIELD_FIXED",
		"比赛 {event} 已经开始，{system}的参赛名单已固定。", "tournament {event} has started; a {system} field is fixed.")
	ReasonParticipantRequired = ledger.NewReason(ledger.Invalid, "PARTICIPANT_REQUIRED",
		"参赛者须为已登记的棋手（棋手编号）或填写姓名的嘉宾。",
		"a participant is a registered player (player_id) or a guest with a name.")
	ReasonNoSuchGroup = ledger.NewReason(ledger.Invalid, "NO_SUCH_GROUP",
		"比赛 {event} 没有“{group}”组。", "tournament {event} has no group {group}.")
	ReasonGroupRequired = ledger.NewReason(ledger.Invalid, "GROUP_REQUIRED",
		"定段赛的每名参赛者都要分入一个组别。", "a dan-grade event puts every participant in a group.")
	ReasonNoSuchParticipant = ledger.NewReason(ledger.NotFound, "NO_SUCH_PARTICIPANT",
		"比赛 {event} 没有仍在比赛的 {number} 号参赛者。", "tournament {event} has no participant {number} still playing.")
	ReasonResultMissing = ledger.NewReason(ledger.Precondition, "RESULT_MISSING",
		"第 {round} 轮第 {board} 台还没有结果，请先录入本轮全部结果。",
		"round {round} board {board} has no result yet; enter every result first.")
	ReasonNoRoundPlayed = ledger.NewReason(ledger.Precondition, "NO_ROUND_PLAYED",
		"比赛 {event} 还没有进行任何一轮。", "tournament {event} has not played a round.")
	ReasonAllRoundsPaired = ledger.NewReason(ledger.Precondition, "ALL_ROUNDS_PAIRED",
		"比赛 {event} 的全部 {rounds} 轮都已编排。", "all {rounds} rounds of tournament {event} are paired.")
	ReasonUnmatchedPlayers = ledger.NewReason(ledger.Precondition, "UNMATCHED_PLAYERS",
		"文件中有 {count} 名棋手未对应到登记系统中的棋手（{players}）：请逐一对应或作为嘉宾加入。",
		"{count} players of the file are not matched to the registry ({players}): match them or add them as guests.")
	ReasonEGDClass = ledger.NewReason(ledger.Invalid, "EGD_CLASS",
		"“{value}”不是 EGD 比赛级别：应为 A、B、C 或 D（D 为网络比赛）。",
		"{value} is not an EGD tournament class: A, B, C or D (D for Internet events).")
	ReasonTimeControl = ledger.NewReason(ledger.Invalid, "TIME_CONTROL",
		"用时规定无效（读秒方式 {overtime}）：基本用时 0–1440 分钟，读秒方式为 byoyomi、canadian（须给出步数）、fischer 或 none，秒数 0–3600。",
		"the time limits are not valid (overtime {overtime}): basic time 0–1440 minutes, overtime byoyomi, canadian (with its stones), fischer or none, seconds 0–3600.")
	ReasonExportFormat = ledger.NewReason(ledger.Invalid, "EXPORT_FORMAT",
		"“{value}”不是导出格式：应为 h9、opengotha、csv 或 sgf_zip。", "{value}: want h9, opengotha, csv or sgf_zip.")
	ReasonResult = ledger.NewReason(ledger.Invalid, "RESULT",
		"“{value}”不是对局结果：应为黑胜、白胜、和棋、一方弃权、双方负、双方胜或无结果。",
		"{value} is not a result: want black, white, draw, black_forfeit, white_forfeit, both_lose, both_win or none.")
	ReasonWarnings = ledger.NewReason(ledger.Invalid, "WARNINGS",
		"每名棋手的警告为 0、1 或 2 次（两次警告判负）。", "are 0, 1 or 2 per player (two lose the game).")
	ReasonColours = ledger.NewReason(ledger.Invalid, "COLOURS",
		"“{value}”不是先后手的决定方式：应为抽签编排（draw）或猜先（nigiri）。", "{value}: want draw or nigiri.")
	ReasonSystemParam = ledger.NewReason(ledger.Invalid, "SYSTEM_PARAM",
		"{system}制须填写 {min} 至 {max} 之间的数（淘汰的负局数、循环的次数或决胜的局数，局数为单数）。",
		"a {system} event needs a number from {min} to {max} (losses that eliminate, cycles, or games of the series, odd).")
	ReasonTies = ledger.NewReason(ledger.Invalid, "TIES",
		"“{value}”：名次相同时应为抽签（lot）、并列（shared）或加赛（playoff）。", "{value}: want lot, shared or playoff.")
	ReasonForfeitReason = ledger.NewReason(ledger.Invalid, "FORFEIT_REASON",
		"“{value}”不是弃权原因：应为迟到、缺席、取消资格或退赛；只有弃权或双方负的结果才写原因。",
		"{value}: want late, absent, disqualified or withdrawn, and only with a forfeit or both_lose.")
	ReasonResultConfirmed = ledger.NewReason(ledger.Precondition, "RESULT_CONFIRMED",
		"第 {round} 轮第 {board} 台的结果已由裁判确认，主办单位不能再修改；如有错误请向协会提出。",
		"the result of round {round} board {board} is confirmed by the referee; the organiser cannot change it (ask the association).")
	ReasonVoidSide = ledger.NewReason(ledger.Invalid, "VOID_SIDE",
		"“{value}”：取消成绩的一方应为黑方（black）、白方（white）或双方（both）。", "{value}: want black, white or both.")
	ReasonResultVoided = ledger.NewReason(ledger.Precondition, "RESULT_VOIDED",
		"第 {round} 轮第 {board} 台的成绩已被协会判为无效，主办单位不能再修改。",
		"the result of round {round} board {board} was voided by the association; the organiser cannot change it.")
	ReasonGameDecided = ledger.NewReason(ledger.Precondition, "GAME_DECIDED",
		"第 {round} 轮第 {board} 台已有结果，不能再猜先。", "round {round} board {board} already has a result: no nigiri after it.")
	ReasonNoSuchRound = ledger.NewReason(ledger.NotFound, "NO_SUCH_ROUND",
		"比赛 {event} 没有第 {round} 轮（已编排 {rounds} 轮）。", "tournament {event} has no round {round} (rounds paired: {rounds}).")
	ReasonNotPlayed = ledger.NewReason(ledger.Precondition, "NOT_PLAYED",
		"第 {round} 轮第 {board} 台还没有结果，没有可取消的成绩。", "round {round} board {board} has no result to void.")
	ReasonDisciplineReason = ledger.NewReason(ledger.Invalid, "DISCIPLINE_REASON",
		"请写明理由。", "say why.")
	ReasonSuspensionDates = ledger.NewReason(ledger.Invalid, "SUSPENSION_DATES",
		"停赛期限应写成 2026-12-05 格式的起止日期，结束日期不早于开始日期。",
		"a suspension runs from a date to a date on or after it, like 2026-12-05.")
	ReasonSuspended = ledger.NewReason(ledger.Precondition, "SUSPENDED",
		"登记号 {player} 的棋手在 {from} 至 {to} 期间停赛，不能报名 {event} 号比赛。",
		"the player with registry no. {player} is suspended from {from} to {to} and cannot enter tournament {event}.")
	ReasonWarningCause = ledger.NewReason(ledger.Invalid, "WARNING_CAUSE",
		"“{value}”不是警告的原因：应为悔棋、着子前按钟、误提、漏提、手机、吸烟、妨碍对方或其他（写明）。",
		"{value}: want take_back, clock_before_move, wrong_capture, missed_capture, phone, smoking, disturbing or other (say what).")
	ReasonWarningNote = ledger.NewReason(ledger.Invalid, "WARNING_NOTE",
		"请写明警告的原因（至多 500 字）。", "say what the warning was for (at most 500 characters).")
	ReasonWarningGameLost = ledger.NewReason(ledger.Precondition, "WARNING_GAME_LOST",
		"{number} 号棋手在第 {round} 轮第 {board} 台已满两次警告并判负，不再记录警告。",
		"participant {number} already lost round {round} board {board} on two warnings; no further warning is recorded.")
	ReasonWarningNoSuchGame = ledger.NewReason(ledger.NotFound, "WARNING_NO_SUCH_GAME",
		"比赛 {event} 第 {round} 轮没有第 {board} 台。", "tournament {event} round {round} has no board {board}.")
	ReasonSanctionKind = ledger.NewReason(ledger.Invalid, "SANCTION_KIND",
		"“{value}”不是处罚种类：应为通报批评（reprimand）或降一个名次发放奖金（prize_one_place_lower）。",
		"{value}: want reprimand or prize_one_place_lower.")
	ReasonSanctionGuest = ledger.NewReason(ledger.Precondition, "SANCTION_GUEST",
		"{number} 号参赛者不是注册棋手，处罚无法记入其名下。", "participant {number} is a guest, not a registered player: a sanction needs a player's record.")
	ReasonPairingConstraint = ledger.NewReason(ledger.Invalid, "PAIRING_CONSTRAINT",
		"“{value}”不是有效的编排回避：积分编排比赛可在前 1–99 轮回避同一俱乐部（club）、学校（school）或亲属（family）的棋手。",
		"{value}: a Swiss or McMahon event keeps players of one club, school or family apart in its first 1–99 rounds.")
	ReasonSwissAddRounds = ledger.NewReason(ledger.Invalid, "SWISS_ADD_ROUNDS",
		"只有积分编排（含麦克马洪）比赛可以增减轮次，至多 99 轮，且不少于已编排的 {paired} 轮。",
		"only a Swiss or McMahon event changes its rounds, to at most 99 and not below the {paired} already paired.")
	ReasonNoSuchProtest = ledger.NewReason(ledger.NotFound, "NO_SUCH_PROTEST",
		"比赛 {event} 没有仍待裁决的第 {protest} 号申诉。", "tournament {event} has no open protest {protest}.")
	ReasonNigiri = ledger.NewReason(ledger.Invalid, "NIGIRI",
		"猜先须写明猜单（odd）或猜双（even）以及握子方手中的白子数（1 至 {max}）。",
		"a nigiri records the guess (odd or even) and the number of white stones held (1 to {max}).")
	ReasonNigiriEvent = ledger.NewReason(ledger.Precondition, "NIGIRI_EVENT",
		"比赛 {event} 的先后手由抽签编排决定，不猜先。", "tournament {event} assigns colours by the draw, not by nigiri.")
	ReasonBoardOrder = ledger.NewReason(ledger.Invalid, "BOARD_ORDER",
		"“{value}”：台次应为报名时指定（given），或团体赛首轮编排时按段位和等级分排定（rank）。",
		"{value}: want given, or rank (a team event's boards set by rank and rating at the first pairing).")
	ReasonBoardByRank = ledger.NewReason(ledger.Invalid, "BOARD_BY_RANK",
		"比赛 {event} 的台次在首轮编排时按段位和近期等级分排定，报名时不填台次。",
		"tournament {event} sets boards by rank and recent rating at the first pairing; enter members without a board.")
	ReasonBoardsFixed = ledger.NewReason(ledger.Precondition, "BOARDS_FIXED",
		"比赛 {event} 已编排首轮，台次一经排定不得更改（第二十五条）。",
		"tournament {event} has paired its first round; boards once set are never changed (art. 25).")
	ReasonNotTeamEvent = ledger.NewReason(ledger.Precondition, "NOT_TEAM_EVENT",
		"比赛 {event} 不是团体赛。", "tournament {event} is not a team event.")
	ReasonArenaTeams = ledger.NewReason(ledger.Invalid, "ARENA_TEAMS",
		"擂台赛是两队之间的团体赛：请勾选团体赛。", "an arena match is between two teams: make it a team event.")
	ReasonArenaUndecided = ledger.NewReason(ledger.Precondition, "ARENA_UNDECIDED",
		"擂台赛 {event} 尚未决出胜负：两队都还有未被击败的棋手。",
		"the arena match {event} is not decided: both teams still have players unbeaten.")
	ReasonTeamFormat = ledger.NewReason(ledger.Invalid, "TEAM_FORMAT",
		"“{value}”：团体赛类型应为分台定人制（fixed_boards）、定台换人制（fixed_order）、临场出人制（free_lineup）、全队轮赛制（all_play，仅循环赛）或队员总分制（total_score）；个人赛和擂台赛不选。",
		"{value}: want fixed_boards, fixed_order, free_lineup, all_play (round robins only) or total_score, for a team event other than an arena.")
	ReasonReserves = ledger.NewReason(ledger.Invalid, "RESERVES",
		"替补队员只用于定台换人制和临场出人制，每队至多 {max} 名。",
		"substitutes play only in fixed_order and free_lineup events, at most {max} a team.")
	ReasonLineupFormat = ledger.NewReason(ledger.Precondition, "LINEUP_FORMAT",
		"比赛 {event} 不按每轮出场名单编排（只有定台换人制和临场出人制）。",
		"tournament {event} does not seat teams by a lineup per round (only fixed_order and free_lineup do).")
	ReasonLineupOrder = ledger.NewReason(ledger.Invalid, "LINEUP_ORDER",
		"定台换人制：{team}队的出场名单须按队员排定的台次先后排列。",
		"fixed_order: team {team}'s lineup follows its members' fixed order.")
	ReasonLineupMissing = ledger.NewReason(ledger.Precondition, "LINEUP_MISSING",
		"第 {round} 轮编排前须先报{team}队的出场名单。", "name team {team}'s lineup before round {round} is paired.")
	ReasonPlayoffStarted = ledger.NewReason(ledger.Precondition, "PLAYOFF_STARTED",
		"比赛 {event} 已开始加赛，不再编排正常轮次。", "tournament {event} is in its playoff; no regular round is paired.")
	ReasonPlayoffTies = ledger.NewReason(ledger.Precondition, "PLAYOFF_TIES",
		"比赛 {event} 的名次相同时不以加赛决定（应设为加赛 playoff）。", "tournament {event} does not break ties by a playoff.")
	ReasonPlayoffSystem = ledger.NewReason(ledger.Precondition, "PLAYOFF_SYSTEM",
		"比赛 {event}（{system}）不进行加赛：加赛用于个人循环赛和积分编排赛。",
		"tournament {event} ({system}) holds no playoff: playoffs are for individual round robins and Swiss events.")
	ReasonPlayoffEarly = ledger.NewReason(ledger.Precondition, "PLAYOFF_EARLY",
		"比赛 {event} 共 {rounds} 轮，已编排 {paired} 轮：加赛在最后一轮之后进行。",
		"tournament {event} has {rounds} rounds and {paired} are paired: a playoff comes after the last round.")
	ReasonNoTies = ledger.NewReason(ledger.Precondition, "NO_TIES",
		"比赛 {event} 没有需要加赛区分的名次相同的棋手。", "tournament {event} has no tied players left to play off.")
	ReasonTermsChanged = ledger.NewReason(ledger.Conflict, "EVENT_TERMS_CHANGED",
		"裁定棋谱期间比赛 {event} 的规则或贴目被修改，请重新提交结果。",
		"the rules or komi of tournament {event} changed while the records were replayed; send the results again.")
	ReasonNoResults = ledger.NewReason(ledger.Invalid, "NO_RESULTS",
		"没有要录入的第 {round} 轮结果。", "there are no results of round {round} to record.")
	ReasonResultsRound = ledger.NewReason(ledger.Invalid, "RESULTS_ROUND",
		"第 {board} 台的结果写的是第 {round} 轮，而本次录入的是第 {want} 轮。",
		"board {board} is given for round {round}, but these are the results of round {want}.")
	ReasonBoardTwice = ledger.NewReason(ledger.Invalid, "BOARD_TWICE",
		"第 {round} 轮第 {board} 台在本次录入中出现了两次。", "round {round} board {board} is given twice.")
	ReasonTooManyBoards = ledger.NewReason(ledger.Invalid, "TOO_MANY_BOARDS",
		"第 {round} 轮只有 {boards} 台，本次录入了 {count} 台的结果。",
		"round {round} has {boards} boards, but {count} results were sent.")
	ReasonGradingTooMany = ledger.NewReason(ledger.Invalid, "GRADING_TOO_MANY",
		"定级规则最多 {max} 条，现有 {count} 条。", "a grading table has at most {max} rules, not {count}.")
	ReasonGradingCondition = ledger.NewReason(ledger.Invalid, "GRADING_CONDITION",
		"每条定级规则须写明名次（前 N 名）或胜局数（至少 W 胜）之一，二者不能同时填写。",
		"a grading rule names either a placing (N or better) or a number of wins (at least W), not both.")
	ReasonGradingGroup = ledger.NewReason(ledger.Invalid, "GRADING_GROUP",
		"定级规则所指的组别“{group}”不是本次比赛的组别。", "the grading rule's group {group} is not one of the event's groups.")
	ReasonGradingLine = ledger.NewReason(ledger.Invalid, "GRADING_LINE",
		"定级规则第 {line} 行“{value}”无法识别：应写作“p3 2d”（前 3 名升 2 段）或“w5 1d A组”（A组胜 5 局以上升 1 段）。",
		"grading rule line {line} ({value}) is not like “p3 2d” (placing 3 or better earns 2d) or “w5 1d A” (5 wins in group A earn 1d).")
	ReasonGradingFixed = ledger.NewReason(ledger.Precondition, "GRADING_FIXED",
		"比赛 {event} 已于 {start} 开始（或已编排对阵、或为导入的比赛），定级规则不能再修改。",
		"tournament {event} started on {start} (or has a paired round, or was imported): its grading rules are fixed.")
	ReasonGradingNotImported = ledger.NewReason(ledger.Precondition, "GRADING_NOT_IMPORTED",
		"比赛 {event} 的定级规则在赛前公布，无须认可。", "tournament {event}'s grading rules were published before it started; there is nothing to accept.")

	// The supplementary rules, adjournments, lateness, the protest deadline
	// and the event's dates (conduct.go).
	ReasonConductMethod = ledger.NewReason(ledger.Invalid, "CONDUCT_TIME_METHOD",
		"“{value}”不是计时方法：应为读秒、包干用时制或定时限步制。", "{value}: want byoyomi, sudden_death or moves_per_period.")
	ReasonConductKeptMinutes = ledger.NewReason(ledger.Invalid, "CONDUCT_KEPT_MINUTES",
		"开始读秒前保留的时间应在 0 到基本时限 {basic} 分钟之间。", "the minutes kept before byo-yomi starts are from 0 to the basic {basic} minutes.")
	ReasonConductLateness = ledger.NewReason(ledger.Invalid, "CONDUCT_LATENESS",
		"“{value}”不是迟到时限：应为场地与住地不在一处（1 小时）或在一处（15 分钟）。",
		"{value}: want away (venue away from lodging, 1 h) or same_place (15 min).")
	ReasonConductSealing = ledger.NewReason(ledger.Invalid, "CONDUCT_SEALING",
		"“{value}”不是封棋规定：应为不封棋或封棋。", "{value}: want none or sealed_move.")
	ReasonConductCycle = ledger.NewReason(ledger.Invalid, "CONDUCT_CYCLE",
		"“{value}”不是循环局面的处理：应为无胜负、和棋或重赛。", "{value}: want no_result, draw or extra_game.")
	ReasonConductStarted = ledger.NewReason(ledger.Precondition, "CONDUCT_EVENT_STARTED",
		"比赛 {event} 已于 {start} 开始（或已编排对阵），竞赛补充规定不能再修改。",
		"tournament {event} started on {start} (or has a paired round): its supplementary rules are fixed.")
	ReasonAdjournSide = ledger.NewReason(ledger.Invalid, "ADJOURN_SIDE",
		"“{value}”不是执棋方：应为黑方或白方。", "{value}: want black or white.")
	ReasonAdjournPoint = ledger.NewReason(ledger.Invalid, "ADJOURN_POINT",
		"“{value}”不是棋盘上的点：请写作 D4 或 dd。", "{value} is not a point on the board: write it as D4 or dd.")
	ReasonAdjournRecord = ledger.NewReason(ledger.Invalid, "ADJOURN_RECORD",
		"封棋前的棋谱无法读取，请上传有效的 SGF 棋谱或留空。", "the record up to the adjournment cannot be read: send a valid SGF or none.")
	ReasonAdjournRecordSize = ledger.NewReason(ledger.Invalid, "ADJOURN_RECORD_SIZE",
		"封棋前的棋谱不能超过 {max} 字节。", "the record up to the adjournment is at most {max} bytes.")
	ReasonAdjournNotAllowed = ledger.NewReason(ledger.Precondition, "ADJOURN_NOT_ALLOWED",
		"比赛 {event} 的竞赛补充规定不允许封棋。", "tournament {event}'s supplementary rules do not provide for sealed moves.")
	ReasonNoSuchGame = ledger.NewReason(ledger.NotFound, "ADJOURN_NO_SUCH_GAME",
		"第 {round} 轮没有第 {board} 台的对局。", "round {round} has no board {board}.")
	ReasonGameHasResult = ledger.NewReason(ledger.Precondition, "ADJOURN_GAME_DECIDED",
		"第 {round} 轮第 {board} 台已有结果，不能再记录封棋或迟到。", "round {round} board {board} already has a result: no adjournment or lateness can be recorded.")
	ReasonLateBeyondLimit = ledger.NewReason(ledger.Invalid, "LATE_BEYOND_LIMIT",
		"迟到 {minutes} 分钟已超过本次比赛的 {limit} 分钟时限，应判负：请登记结果“迟到判负”。",
		"{minutes} minutes late is beyond the event's limit of {limit}: the game is lost — record the result late (black_late, white_late or both_late).")
	ReasonProtestAfterResult = ledger.NewReason(ledger.Precondition, "PROTEST_AFTER_RESULT",
		"申诉须在对局进行当时立即提出，逾期失效：第 {round} 轮第 {board} 台的结果已经登记。",
		"a protest must be made at once, during the game: round {round} board {board} already has its result recorded, so it is too late.")
	ReasonProtestAfterFinish = ledger.NewReason(ledger.Precondition, "PROTEST_AFTER_FINISH",
		"申诉须在对局进行当时立即提出，逾期失效：比赛 {event} 已经结束。",
		"a protest must be made at once, during the game: tournament {event} has finished, so it is too late.")
	ReasonEventNotStarted = ledger.NewReason(ledger.Precondition, "EVENT_NOT_STARTED",
		"比赛 {event} 定于 {start} 开始，今天（{today}）不能编排、登记成绩或结束比赛。",
		"tournament {event} starts on {start}: it cannot be paired, scored or finished today ({today}).")
)
