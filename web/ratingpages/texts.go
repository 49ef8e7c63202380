package ratingpages

import "github.com/dankyu/dankyu/web/kit"

// Texts are the strings of the rating pages and of the rating section of
// a player's page.
func Texts(l kit.Lang) map[string]string {
	if l == kit.English {
		return map[string]string{
			"ratings":               "Ratings",
			"ratings_intro":         "Ratings from every game played on the board in finished events (games won by default and byes are not rated), on the GoR scale: 1 dan = 2100, 100 points a grade. ± is the 95 % interval; the rank estimate is the grade the rating stands for, with its interval. A rating is not a certified rank.",
			"ratings_all_provinces": "All (guests included)",
			"rating_params_default": "Parameters: the calibrated defaults, not yet tuned on the registry's games (%s).",
			"rating_params_tuned":   "Parameters: version %d of %s, tuned on %d of the registry's games; on the %d games after them, log-loss %.4f tuned against %.4f with the defaults and %.4f from the ranks alone (%s).",
			"ratings_rank":          "Estimated rank",
			"ratings_none":          "No rated player matches.",
			"rating":                "Rating",
			"rating_estimate":       "Rank estimate",
			"rating_estimate_fmt":   "%s (%s – %s, 95 %%)",
			"rating_games":          "Rated games",
			"rating_wins":           "Wins",
			"rating_event":          "Event",
			"rating_date":           "Date",
			"rating_guest":          "Guest",
			"rating_next":           "Next page",
			"rating_history":        "Rating history",
			"rating_none":           "No rated game yet.",
			"rating_chart_title":    "Rating history of %s: rating after each event with its 95 %% band",
			"rating_certified_line": "Certified rank",
			"rating_computed_by":    "Computed",
			"rating_by_incremental": "as the event finished",
			"rating_by_recompute":   "by the full recompute",
			"rating_note":           "The dashed line is the certified rank, a square each certificate at its issue (1 dan = 2100).",
		}
	}
	return map[string]string{
		"ratings":               "等级分",
		"rating_params_default": "参数：经校准的默认值，尚未按本登记处的对局调校（%s）。",
		"rating_params_tuned":   "参数：第 %d 版（%s），按本登记处 %d 盘对局调校；其后 %d 盘的对数损失：调校后 %.4f，默认值 %.4f，仅凭段级位 %.4f（%s）。",
		"ratings_intro":         "等级分由已结束比赛中的全部实战对局计算（不战胜和轮空不计），采用 GoR 标度：业余1段 = 2100，每级差 100 分。± 为 95% 区间；段位估计为等级分对应的段级位及其区间。等级分不是认证的段级位。",
		"ratings_all_provinces": "全部（含外来棋手）",
		"ratings_rank":          "估计段级位",
		"ratings_none":          "没有符合条件的棋手。",
		"rating":                "等级分",
		"rating_estimate":       "段位估计",
		"rating_estimate_fmt":   "%s（%s—%s，95%%）",
		"rating_games":          "计分对局",
		"rating_wins":           "胜局",
		"rating_event":          "比赛",
		"rating_date":           "日期",
		"rating_guest":          "外来棋手",
		"rating_next":           "下一页",
		"rating_history":        "等级分变化",
		"rating_none":           "尚无计分对局。",
		"rating_chart_title":    "%s的等级分变化：每次比赛后的等级分及其 95%% 区间",
		"rating_certified_line": "认证段级位",
		"rating_computed_by":    "计算方式",
		"rating_by_incremental": "比赛结束时计算",
		"rating_by_recompute":   "全量重算",
		"rating_note":           "虚线为认证段级位，方块为各证书的发证时间（业余1段 = 2100）。",
	}
}
