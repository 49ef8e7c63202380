package tournamentpages

import "github.com/dankyu/dankyu/web/kit"

// ArenaTexts are the strings of the arena match (擂台赛), the team boards
// setting and the team formats of article 25.
func ArenaTexts(l kit.Lang) map[string]string {
	if l == kit.English {
		return map[string]string{
			"system_arena":             "Arena team match",
			"arena":                    "Arena match",
			"arena_winner":             "Won by team",
			"arena_level":              "Level: both teams' players are all out.",
			"arena_on":                 "In play: the winner of each game stays on.",
			"arena_order":              "Order",
			"arena_wins":               "Wins in a row",
			"arena_out":                "Out",
			"arena_standing":           "On",
			"arena_left":               "Players left:",
			"team_boards":              "Team boards",
			"team_boards_given":        "Given at entry",
			"team_boards_rank":         "By rank, then recent rating (set at the first pairing)",
			"boards_by_rank":           "Boards are set by rank and rating when the first round is paired.",
			"team_format":              "Team format",
			"team_format_fixed_boards": "Fixed boards and players",
			"team_format_fixed_order":  "Fixed order, players named each round",
			"team_format_free_lineup":  "Lineup named each round",
			"team_format_all_play":     "Whole team plays whole team (round robins)",
			"team_format_total_score":  "Members' total points",
			"reserves":                 "Substitutes per team",
			"reserve":                  "Substitute",
			"field_team_format":        "Team format",
			"field_reserves":           "Substitutes per team",
			"field_reserve":            "Substitute",
			"field_team_boards":        "Team boards",
			"field_lineup":             "Lineup",
			"pair_playoff":             "Pair a playoff round",
			"ok_playoff_paired":        "The playoff round is paired.",
		}
	}
	return map[string]string{
		"system_arena":             "擂台赛",
		"arena":                    "擂台赛",
		"arena_winner":             "获胜队：",
		"arena_level":              "平局：两队棋手均已被淘汰。",
		"arena_on":                 "进行中：每局胜者守擂。",
		"arena_order":              "出场顺序",
		"arena_wins":               "连胜",
		"arena_out":                "已被击败",
		"arena_standing":           "守擂",
		"arena_left":               "剩余棋手：",
		"team_boards":              "团体台次",
		"team_boards_given":        "报名时指定",
		"team_boards_rank":         "按段位结合近期等级分排定（首轮编排时）",
		"boards_by_rank":           "台次在首轮编排时按段位和近期等级分排定。",
		"team_format":              "团体赛类型",
		"team_format_fixed_boards": "分台定人制",
		"team_format_fixed_order":  "定台换人制（每轮报出场名单）",
		"team_format_free_lineup":  "临场出人制（每轮报出场名单）",
		"team_format_all_play":     "全队轮赛制（限循环赛）",
		"team_format_total_score":  "队员总分制",
		"reserves":                 "每队替补人数",
		"reserve":                  "替补队员",
		"field_team_format":        "团体赛类型",
		"field_reserves":           "每队替补人数",
		"field_reserve":            "替补队员",
		"field_team_boards":        "团体台次",
		"field_lineup":             "出场名单",
		"pair_playoff":             "编排加赛",
		"ok_playoff_paired":        "加赛已编排。",
	}
}
