package book

import "github.com/dankyu/dankyu/ledger"

// The refusals of the ratings book, in both languages.
var (
	ReasonNotRated = ledger.NewReason(ledger.NotFound, "NOT_RATED",
		"棋手 {player} 还没有等级分：尚无已结束比赛中的对局。",
		"player {player} has no rating yet: no game of a finished event.")
	ReasonListRank = ledger.NewReason(ledger.Invalid, "RATING_LIST_RANK",
		"“{value}”不是段级位，请填写如 5k 或 3d。", "{value} is not a rank like 5k or 3d.")
	ReasonListProvince = ledger.NewReason(ledger.Invalid, "RATING_LIST_PROVINCE",
		"“{value}”不是省级行政区代码。", "{value} is not a province code.")
	ReasonTuneRequest = ledger.NewReason(ledger.Invalid, "RATING_TUNE_REQUEST",
		"调校要求无效：评估比例 {frac} 须在 0 与 1 之间，重放次数 {budget} 须在 1 到 {max} 之间。",
		"tuning request invalid: the evaluation fraction {frac} must lie between 0 and 1 and the budget {budget} between 1 and {max} replays.")
	ReasonTuneFewGames = ledger.NewReason(ledger.Invalid, "RATING_TUNE_FEW_GAMES",
		"登记处只有 {games} 盘已评对局：调校前后两部分各须至少 {min} 盘。",
		"the registry has only {games} rated games: tuning needs at least {min} on each side of the cut.")
	ReasonFlagMargin = ledger.NewReason(ledger.Invalid, "RATING_FLAG_MARGIN",
		"差距 {margin} 级无效：须在 1 到 {max} 级之间。", "a margin of {margin} grades is not allowed: 1 to {max}.")
)
