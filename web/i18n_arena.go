package web

// arenaMessages are the strings of the arena match (擂台赛) and of the team
// boards setting.
func arenaMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"system_arena":      "Arena team match",
			"arena":             "Arena match",
			"arena_winner":      "Won by team",
			"arena_level":       "Level: both teams' players are all out.",
			"arena_on":          "In play: the winner of each game stays on.",
			"arena_order":       "Order",
			"arena_wins":        "Wins in a row",
			"arena_out":         "Out",
			"arena_standing":    "On",
			"arena_left":        "Players left:",
			"team_boards":       "Team boards",
			"team_boards_given": "Given at entry",
			"team_boards_rank":  "By rank, then recent rating (set at the first pairing)",
			"boards_by_rank":    "Boards are set by rank and rating when the first round is paired.",
		}
	}
	return map[string]string{
		"system_arena":      "擂台赛",
		"arena":             "擂台赛",
		"arena_winner":      "获胜队：",
		"arena_level":       "平局：两队棋手均已被淘汰。",
		"arena_on":          "进行中：每局胜者守擂。",
		"arena_order":       "出场顺序",
		"arena_wins":        "连胜",
		"arena_out":         "已被击败",
		"arena_standing":    "守擂",
		"arena_left":        "剩余棋手：",
		"team_boards":       "团体台次",
		"team_boards_given": "报名时指定",
		"team_boards_rank":  "按段位结合近期等级分排定（首轮编排时）",
		"boards_by_rank":    "台次在首轮编排时按段位和近期等级分排定。",
	}
}
