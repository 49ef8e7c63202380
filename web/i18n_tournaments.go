package web

// tournamentMessages are the strings of the tournament pages.
func tournamentMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"tournaments": "Tournaments", "dates": "Dates", "organiser": "Organiser", "system": "System", "rounds_played": "Rounds",
			"event_open": "Running", "event_finished": "Finished", "start": "Start", "end": "End", "venue": "Venue", "level": "Level",
			"level_county": "County", "level_city": "City", "level_province": "Province", "level_national": "National",
			"system_round_robin": "Round robin", "system_double_round_robin": "Double round robin", "system_swiss": "Swiss",
			"system_mcmahon": "McMahon", "system_knockout": "Knockout", "system_double_knockout": "Double elimination", "rounds": "Rounds", "dan_grade": "Dan-grade tournament",
			"group": "Group", "min_wins": "Wins to qualify", "create_tournament": "Create a tournament", "export": "Export",
			"standings": "Standings", "place": "Place", "points": "Points", "wins": "Wins",
			"winners_score": "Winners' score", "withdrawn": "withdrawn", "team_standings": "Team standings", "team": "Team",
			"match_points": "Match points", "board_points": "Board points", "proposals": "Proposed certificate applications",
			"application": "Application", "bye": "Bye", "save_results": "Save results", "run_event": "Run the event",
			"pair_next": "Pair the next round", "finish": "Finish the tournament", "add_participant": "Add a participant",
			"or_guest": "or a guest:", "country": "Country", "add": "Add", "participants": "Participants", "guest": "guest",
			"withdraw": "Withdraw", "board": "Board", "black": "Black", "white": "White", "result": "Result", "record": "Record",
			"result_": "—", "result_black": "Black wins", "result_white": "White wins", "result_draw": "Draw (jigo)",
			"result_black_forfeit": "Black wins by forfeit", "result_white_forfeit": "White wins by forfeit",
			"result_both_lose": "Both lose", "result_both_win": "Both win", "warnings_black": "warnings B",
			"warnings_white": "W", "flagged": "for review",
			"ok_created": "Tournament created.", "ok_participant_added": "Participant added.", "ok_withdrawn": "Withdrawal recorded.",
			"standings_order": "Standings", "order_default": "usual for the system",
			"order_round_robin": "points, winners' score, warnings", "order_swiss_total": "Swiss (A): total score",
			"order_swiss_sos": "Swiss (B): points, SOS, SOSOS, SODOS", "order_mcmahon": "McMahon: MMS, SOSM, SOSOSM",
			"ok_paired": "Round paired.", "ok_results": "Results saved.", "ok_finished": "Tournament finished.",
		}
	}
	return map[string]string{
		"tournaments": "比赛", "dates": "日期", "organiser": "主办", "system": "赛制", "rounds_played": "轮次",
		"event_open": "进行中", "event_finished": "已结束", "start": "开始", "end": "结束", "venue": "地点", "level": "级别",
		"level_county": "县级", "level_city": "市级", "level_province": "省级", "level_national": "全国",
		"system_round_robin": "单循环", "system_double_round_robin": "双循环", "system_swiss": "积分编排",
		"system_mcmahon": "麦克马洪", "system_knockout": "单败淘汰", "system_double_knockout": "双败淘汰", "rounds": "轮次", "dan_grade": "段位赛",
		"group": "组别", "min_wins": "达标胜局", "create_tournament": "创建比赛", "export": "导出",
		"standings": "成绩", "place": "名次", "points": "积分", "wins": "胜局",
		"winners_score": "胜者小分", "withdrawn": "退赛", "team_standings": "团体成绩", "team": "队",
		"match_points": "场分", "board_points": "局分", "proposals": "拟申请证书",
		"application": "申请", "bye": "轮空", "save_results": "保存成绩", "run_event": "比赛管理",
		"pair_next": "编排下一轮", "finish": "结束比赛", "add_participant": "添加选手",
		"or_guest": "或外来选手：", "country": "国家", "add": "添加", "participants": "参赛选手", "guest": "外来",
		"withdraw": "退赛", "board": "台次", "black": "黑方", "white": "白方", "result": "结果", "record": "棋谱",
		"result_": "—", "result_black": "黑胜", "result_white": "白胜", "result_draw": "和棋",
		"result_black_forfeit": "黑胜（对方弃权）", "result_white_forfeit": "白胜（对方弃权）",
		"result_both_lose": "双方负", "result_both_win": "双方胜", "warnings_black": "警告 黑",
		"warnings_white": "白", "flagged": "待复核",
		"ok_created": "比赛已创建。", "ok_participant_added": "选手已添加。", "ok_withdrawn": "退赛已记录。",
		"standings_order": "名次计算", "order_default": "按赛制",
		"order_round_robin": "积分、胜者小分、警告", "order_swiss_total": "积分编排（A）：总得分",
		"order_swiss_sos": "积分编排（B）：积分、对手分", "order_mcmahon": "麦克马洪分",
		"ok_paired": "本轮已编排。", "ok_results": "成绩已保存。", "ok_finished": "比赛已结束。",
	}
}
