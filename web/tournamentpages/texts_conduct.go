package tournamentpages

import "github.com/dankyu/dankyu/web/kit"

// ConductTexts are the strings of an event's supplementary rules, its
// adjournments and latenesses, and the results of issue 26, on the event's
// and the referee's pages.
func ConductTexts(l kit.Lang) map[string]string {
	if l == kit.English {
		return map[string]string{
			"cond_title": "Supplementary rules", "cond_none": "The event has stated no supplementary rules.",
			"cond_time": "Time control", "cond_basic": "Basic time per side", "cond_minutes": "min",
			"cond_method_byoyomi": "byo-yomi", "cond_method_sudden_death": "sudden death", "cond_method_moves_per_period": "moves per period",
			"cond_byoyomi_detail": "{periods} × {seconds} s, counting starts with {kept} min of the basic time left",
			"cond_period_detail":  "{moves} moves in {minutes} min after the basic time",
			"cond_lateness":       "Lateness limit", "cond_lateness_away": "1 hour (venue away from lodging)",
			"cond_lateness_same_place": "15 minutes (venue and lodging at one place)",
			"cond_lateness_note":       "Later loses the game; within the limit the minutes late are deducted double from the late player's time.",
			"cond_sealing":             "Adjournment", "cond_sealing_none": "no adjournment", "cond_sealing_sealed_move": "sealed move",
			"cond_cycle": "A rare cycle", "cond_cycle_no_result": "no result", "cond_cycle_draw": "draw", "cond_cycle_extra_game": "extra game",
			"cond_document": "The chief referee's document", "cond_adjournments": "Adjournments", "cond_sealed_by": "Sealed by",
			"cond_point": "Point", "cond_move": "Move", "cond_pass": "occupied point: counts as a pass", "cond_sealed_at": "Sealed at",
			"cond_latenesses": "Lateness within the limit", "cond_late_minutes": "Minutes late", "cond_deducted": "Deducted (double)",
			"cond_side_black": "Black", "cond_side_white": "White", "cond_record": "Record up to the adjournment (SGF, optional)",
			"cond_set_intro":      "Set before the event starts (from its first day or first pairing they are fixed).",
			"ref_confirm_conduct": "Set the supplementary rules", "ref_confirm_adjourn": "Record an adjournment",
			"ref_confirm_lateness": "Record a lateness", "ok_conduct_set": "The supplementary rules are set.",
			"ok_adjournment_recorded": "The adjournment is recorded.", "ok_lateness_recorded": "The lateness is recorded.",
			"cond_f_basic_minutes": "Basic time (min)", "cond_f_time_method": "Timing method", "cond_f_byoyomi_periods": "Byo-yomi periods",
			"cond_f_byoyomi_seconds": "Seconds per period", "cond_f_byoyomi_kept_minutes": "Minutes kept before counting",
			"cond_f_period_moves": "Moves per period", "cond_f_period_minutes": "Minutes per period", "cond_f_document": "Text",
			"cond_f_minutes": "Minutes late", "cond_f_point": "Sealed point (D4 or dd)", "cond_f_lateness": "Lateness limit",
			"cond_f_sealing": "Adjournment", "cond_f_cycle": "A rare cycle", "cond_f_sealed_by": "Sealed by", "cond_f_side": "Late player",
			"cond_f_record": "Record", "cond_conduct_link": "Supplementary rules, adjournments and lateness: on the referee's page.",
			"result_black_time_loss": "White wins (Black lost on time)", "result_white_time_loss": "Black wins (White lost on time)",
			"result_black_late": "White wins (Black late — lost)", "result_white_late": "Black wins (White late — lost)",
			"result_both_late": "Both late — both lose", "result_replayed": "Replayed (to be played again)", "result_no_result_final": "No result (final)",
			"result_rule_draw": "Draw by the supplementary rules",
		}
	}
	return map[string]string{
		"cond_title": "竞赛补充规定", "cond_none": "本次比赛未公布竞赛补充规定。",
		"cond_time": "对局时限", "cond_basic": "每方基本时限", "cond_minutes": "分钟",
		"cond_method_byoyomi": "读秒", "cond_method_sudden_death": "包干用时制", "cond_method_moves_per_period": "定时限步制",
		"cond_byoyomi_detail": "{periods} 次 × {seconds} 秒，保留 {kept} 分钟开始读秒",
		"cond_period_detail":  "用完基本时限后，每 {minutes} 分钟限着 {moves} 手",
		"cond_lateness":       "迟到时限", "cond_lateness_away": "1 小时（赛场与住地分离）",
		"cond_lateness_same_place": "15 分钟（赛场与住地同在一处）",
		"cond_lateness_note":       "超过时限判负；未超过的，在迟到方时限内加倍扣除。",
		"cond_sealing":             "封棋", "cond_sealing_none": "不封棋", "cond_sealing_sealed_move": "采用封棋制度",
		"cond_cycle": "罕见循环局面", "cond_cycle_no_result": "无胜负", "cond_cycle_draw": "和棋", "cond_cycle_extra_game": "加赛",
		"cond_document": "裁判长的竞赛补充规定", "cond_adjournments": "封棋记录", "cond_sealed_by": "封棋方",
		"cond_point": "封棋点", "cond_move": "手数", "cond_pass": "该点已有棋子：判弃权一次", "cond_sealed_at": "封棋时间",
		"cond_latenesses": "未超时限的迟到", "cond_late_minutes": "迟到分钟", "cond_deducted": "加倍扣除",
		"cond_side_black": "黑方", "cond_side_white": "白方", "cond_record": "封棋前的棋谱（SGF，可不填）",
		"cond_set_intro":      "须在比赛开始前公布（比赛开始日或编排第一轮后不能再修改）。",
		"ref_confirm_conduct": "公布竞赛补充规定", "ref_confirm_adjourn": "记录封棋",
		"ref_confirm_lateness": "记录迟到", "ok_conduct_set": "竞赛补充规定已公布。",
		"ok_adjournment_recorded": "封棋已记录。", "ok_lateness_recorded": "迟到已记录。",
		"cond_f_basic_minutes": "基本时限（分钟）", "cond_f_time_method": "计时方法", "cond_f_byoyomi_periods": "读秒次数",
		"cond_f_byoyomi_seconds": "每次读秒秒数", "cond_f_byoyomi_kept_minutes": "保留几分钟开始读秒",
		"cond_f_period_moves": "每节手数", "cond_f_period_minutes": "每节分钟", "cond_f_document": "规定全文",
		"cond_f_minutes": "迟到分钟", "cond_f_point": "封棋点（如 D4 或 dd）", "cond_f_lateness": "迟到时限",
		"cond_f_sealing": "封棋", "cond_f_cycle": "罕见循环局面", "cond_f_sealed_by": "封棋方", "cond_f_side": "迟到方",
		"cond_f_record": "棋谱", "cond_conduct_link": "竞赛补充规定、封棋和迟到：在裁判页面登记。",
		"result_black_time_loss": "白胜（黑方超时判负）", "result_white_time_loss": "黑胜（白方超时判负）",
		"result_black_late": "白胜（黑方迟到判负）", "result_white_late": "黑胜（白方迟到判负）",
		"result_both_late": "双方迟到，双方负", "result_replayed": "重赛", "result_no_result_final": "无胜负（终局）",
		"result_rule_draw": "按补充规定判和",
	}
}
