package tournaments

import "github.com/dankyu/dankyu/ledger"

// The refusals of pairing a round and of a lineup. Each is a code with its
// parameters, so a Chinese page never shows the English of a pairing
// function (they were once one PAIRING_IMPOSSIBLE with an English detail).
var (
	ReasonRoundRobinSize = ledger.NewReason(ledger.Precondition, "ROUND_ROBIN_SIZE",
		"循环赛须有 2 至 {max} 名参赛者，现有 {players} 名。",
		"a round robin has 2 to {max} participants, not {players}.")
	ReasonScheduleComplete = ledger.NewReason(ledger.Precondition, "SCHEDULE_COMPLETE",
		"全部 {rounds} 轮都已编排。", "the {rounds} rounds are all paired.")
	ReasonNoPairing = ledger.NewReason(ledger.Precondition, "NO_PAIRING",
		"{players} 名棋手无法编排：任何编排都会重复对局或使先后手失衡。",
		"{players} players cannot be paired: every pairing repeats a game or unbalances the colours.")
	ReasonKnockoutSize = ledger.NewReason(ledger.Precondition, "KNOCKOUT_SIZE",
		"淘汰赛须有 2 至 {max} 名参赛者，现有 {players} 名。",
		"a knockout has 2 to {max} participants, not {players}.")
	ReasonKnockoutWinners = ledger.NewReason(ledger.Precondition, "KNOCKOUT_WINNERS",
		"上一轮有 {winners} 名胜者：淘汰赛的下一轮须有偶数名胜者，至少 2 名。",
		"the last round has {winners} winners: a knockout's next round needs an even number, at least 2.")
	ReasonKnockoutDecided = ledger.NewReason(ledger.Precondition, "KNOCKOUT_DECIDED",
		"淘汰赛已决出：{winner} 号参赛者赢得决赛。", "the knockout is decided: participant {winner} won the final.")
	ReasonTeamKnockoutDecided = ledger.NewReason(ledger.Precondition, "TEAM_KNOCKOUT_DECIDED",
		"淘汰赛已决出：{team}队赢得决赛。", "the knockout is decided: team {team} won the final.")
	ReasonNeedsWinner = ledger.NewReason(ledger.Precondition, "NEEDS_WINNER",
		"第 {round} 轮第 {board} 台：淘汰制对局须分出胜负，请重赛。",
		"round {round} board {board}: an elimination game needs a winner; replay it.")
	ReasonNoGameBetween = ledger.NewReason(ledger.Precondition, "NO_GAME_BETWEEN",
		"第 {round} 轮没有 {a} 与 {b} 之间的对局。", "round {round} has no game between {a} and {b}.")
	ReasonEliminationEmpty = ledger.NewReason(ledger.Precondition, "ELIMINATION_EMPTY",
		"淘汰赛中已无人留下。", "nobody is left in the elimination.")
	ReasonEliminationWon = ledger.NewReason(ledger.Precondition, "ELIMINATION_WON",
		"淘汰赛已决出：{winner} 号参赛者是最后一名负局少于 {lives} 局的人。",
		"the elimination is decided: participant {winner} is the last with fewer than {lives} losses.")
	ReasonSwissEliminationOver = ledger.NewReason(ledger.Precondition, "SWISS_ELIMINATION_OVER",
		"积分编排加淘汰已决出：负局少于 {lives} 局的只剩 {players} 人。",
		"the Swiss with elimination is decided: {players} player(s) left with fewer than {lives} losses.")
	ReasonMatchPlayers = ledger.NewReason(ledger.Precondition, "MATCH_PLAYERS",
		"{best_of} 局决胜制是两名棋手之间的比赛，现有 {players} 名。",
		"a best-of-{best_of} match is between two players, not {players}.")
	ReasonMatchDecided = ledger.NewReason(ledger.Precondition, "MATCH_DECIDED",
		"{best_of} 局决胜制已决出：{winner} 号参赛者获胜。", "the best-of-{best_of} match is decided: participant {winner} won it.")
	ReasonMatchLevel = ledger.NewReason(ledger.Precondition, "MATCH_LEVEL",
		"{best_of} 局已全部下完，双方打平：请按比赛规程加赛决胜局。",
		"the {best_of} games of the match are played and it is level; play a decider as the event's rules say.")
	ReasonArenaPlace = ledger.NewReason(ledger.Precondition, "ARENA_PLACE",
		"{number} 号参赛者（{name}）没有所属队伍或出场顺序：擂台赛两者都要有。",
		"participant {number} ({name}) has no team and place in its order; an arena match needs both.")
	ReasonArenaTeamCount = ledger.NewReason(ledger.Precondition, "ARENA_TEAM_COUNT",
		"擂台赛是两队之间的比赛，现有 {teams} 队。", "an arena match is between two teams, not {teams}.")
	ReasonArenaTeamSizes = ledger.NewReason(ledger.Precondition, "ARENA_TEAM_SIZES",
		"{team}队有 {size} 人，{other}队有 {other_size} 人：两队出场人数须相同（第二十五条）。",
		"team {team} has {size} players, team {other} {other_size}: both teams field the same number (art. 25).")
	ReasonArenaPlaceEmpty = ledger.NewReason(ledger.Precondition, "ARENA_PLACE_EMPTY",
		"{team}队出场顺序的第 {place} 位没有人。", "team {team} has no player at place {place} of its order.")
	ReasonArenaGameAfterEnd = ledger.NewReason(ledger.Precondition, "ARENA_GAME_AFTER_END",
		"第 {round} 轮：这局在擂台赛决出胜负之后。", "round {round}: a game after the arena match was decided.")
	ReasonArenaWrongPlayers = ledger.NewReason(ledger.Precondition, "ARENA_WRONG_PLAYERS",
		"第 {round} 轮是 {black} 号与 {white} 号的对局，但在场的是 {a} 号和 {b} 号。",
		"round {round} is between {black} and {white}, but {a} and {b} are the players on.")
	ReasonArenaBothWon = ledger.NewReason(ledger.Precondition, "ARENA_BOTH_WON",
		"第 {round} 轮：擂台赛的对局不能双方胜。", "round {round}: an arena game cannot be won by both.")
	ReasonArenaLevel = ledger.NewReason(ledger.Precondition, "ARENA_LEVEL",
		"擂台赛已结束，双方战平：两队棋手都已全部出局。",
		"the arena match is over and level: both teams' players are all out.")
	ReasonArenaDecided = ledger.NewReason(ledger.Precondition, "ARENA_DECIDED",
		"擂台赛已决出胜负：{team}队获胜。", "the arena match is decided: team {team} won.")
	ReasonTeamBoardMissing = ledger.NewReason(ledger.Precondition, "TEAM_BOARD_MISSING",
		"{number} 号参赛者（{name}）没有所属队伍或台次：团体赛两者都要有。",
		"participant {number} ({name}) has no team and board; a team event needs both.")
	ReasonTeamBoardTwice = ledger.NewReason(ledger.Precondition, "TEAM_BOARD_TWICE",
		"{team}队的第 {board} 台有两名棋手（{first} 号和 {second} 号）。",
		"team {team} has two players on board {board} ({first} and {second}).")
	ReasonTeamCount = ledger.NewReason(ledger.Precondition, "TEAM_COUNT",
		"团体赛至少要有两队，现有 {teams} 队。", "a team event needs at least two teams, it has {teams}.")
	ReasonTeamBoards = ledger.NewReason(ledger.Precondition, "TEAM_BOARDS",
		"{team}队有 {boards} 台，{other}队有 {other_boards} 台：各队台数须相同。",
		"team {team} has {boards} boards, team {other} {other_boards}: every team plays the same number.")
	ReasonTeamBoardEmpty = ledger.NewReason(ledger.Precondition, "TEAM_BOARD_EMPTY",
		"{team}队的第 {board} 台没有人。", "team {team} has nobody on board {board}.")
	ReasonTeamSystem = ledger.NewReason(ledger.Precondition, "TEAM_SYSTEM",
		"团体赛按循环、积分编排、麦克马洪或淘汰编排，不按{system}。",
		"team events are paired as round robin, Swiss, McMahon or knockout, not {system}.")
	ReasonTeamMatchLevel = ledger.NewReason(ledger.Precondition, "TEAM_MATCH_LEVEL",
		"第 {round} 轮 {a} 与 {b} 的比赛各台都打平：请重赛一台。",
		"round {round}: the match between {a} and {b} is level on every board; replay a board.")
	ReasonGameWithoutTeam = ledger.NewReason(ledger.Precondition, "GAME_WITHOUT_TEAM",
		"第 {round} 轮 {black} 号与 {white} 号的对局中有一方不属于任何队伍。",
		"round {round}: a game between {black} and {white} has a player without a team.")
	ReasonGameSameTeam = ledger.NewReason(ledger.Precondition, "GAME_SAME_TEAM",
		"第 {round} 轮：{black} 号和 {white} 号同属{team}队。", "round {round}: {black} and {white} are both of team {team}.")

	ReasonLineupNoTeam = ledger.NewReason(ledger.Invalid, "LINEUP_NO_TEAM",
		"出场名单不成立：没有{team}队。", "the lineup does not stand: there is no team {team}.")
	ReasonLineupSize = ledger.NewReason(ledger.Invalid, "LINEUP_SIZE",
		"出场名单不成立：{team}队下 {boards} 台，名单上有 {named} 人。",
		"the lineup does not stand: team {team} plays {boards} boards, the lineup names {named}.")
	ReasonLineupNotMember = ledger.NewReason(ledger.Invalid, "LINEUP_NOT_MEMBER",
		"出场名单不成立：{number} 号参赛者不是{team}队的队员。",
		"the lineup does not stand: participant {number} is not of team {team}.")
	ReasonLineupTwice = ledger.NewReason(ledger.Invalid, "LINEUP_TWICE",
		"出场名单不成立：{number} 号参赛者出现了两次。", "the lineup does not stand: participant {number} is named twice.")
	ReasonLineupWithdrawn = ledger.NewReason(ledger.Invalid, "LINEUP_WITHDRAWN",
		"出场名单不成立：{number} 号参赛者已退赛，而本队还有其他队员可以出场。",
		"the lineup does not stand: participant {number} has withdrawn and another member can play.")
)

// systemWords names a system in a message: its Chinese name on a Chinese
// page, its identifier (what the API takes) in English.
func systemWords(s System) ledger.Param {
	zh := map[System]string{
		RoundRobinSystem: "单循环", DoubleRoundRobinSystem: "双循环", MultiRoundRobinSystem: "多循环",
		SwissSystem: "积分编排", McMahonSystem: "麦克马洪制", SwissEliminationSystem: "积分编排加淘汰",
		KnockoutSystem: "淘汰", DoubleKnockoutSystem: "双败淘汰", MultiEliminationSystem: "多败淘汰",
		MatchSystem: "多局决胜制", ArenaSystem: "擂台赛",
	}[s]
	if zh == "" {
		return ledger.Value("system", string(s))
	}
	return ledger.Words("system", zh, string(s))
}
