package web

// playerGamesMessages are the strings of a player's events and games on
// his public page.
func playerGamesMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"pg_events":         "Events and games",
			"pg_none":           "No event yet.",
			"pg_round":          "Round",
			"pg_opponent":       "Opponent",
			"pg_colour":         "Colour",
			"pg_handicap":       "Handicap",
			"pg_result":         "Result",
			"pg_rating_change":  "Rating change",
			"pg_place_points":   "Place %d, %d points",
			"pg_black":          "Black",
			"pg_white":          "White",
			"pg_win":            "Won",
			"pg_loss":           "Lost",
			"pg_draw":           "Drawn",
			"pg_pending":        "No result yet",
			"pg_forfeit":        "(by forfeit)",
			"pg_bye":            "Bye",
			"pg_guest":          "guest",
			"pg_list_place":     "Rating list place",
			"pg_place_in":       "%s: %d",
			"pg_place_national": "national: %d",
		}
	}
	return map[string]string{
		"pg_events":         "参赛记录与对局",
		"pg_none":           "尚无参赛记录。",
		"pg_round":          "轮次",
		"pg_opponent":       "对手",
		"pg_colour":         "执子",
		"pg_handicap":       "让子",
		"pg_result":         "结果",
		"pg_rating_change":  "等级分变化",
		"pg_place_points":   "第 %d 名，%d 分",
		"pg_black":          "执黑",
		"pg_white":          "执白",
		"pg_win":            "胜",
		"pg_loss":           "负",
		"pg_draw":           "和",
		"pg_pending":        "尚无结果",
		"pg_forfeit":        "（不战）",
		"pg_bye":            "轮空",
		"pg_guest":          "客座",
		"pg_list_place":     "等级分排名",
		"pg_place_in":       "%s第 %d 名",
		"pg_place_national": "全国第 %d 名",
	}
}
