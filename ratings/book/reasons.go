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
)
