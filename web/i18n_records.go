package web

// recordMessages are the strings of staff's page of a player's record.
func recordMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"registry_number": "Registry no.", "rec_title": "Player's record", "rec_link": "Record: transfer, honorary 8 dan, merge a duplicate",
			"rec_confirm_transfer": "Transfer to another province", "rec_confirm_honorary": "Record honorary 8 dan",
			"rec_confirm_merge": "Merge a duplicate record into this one", "rec_duplicate": "Duplicate record",
			"rec_merge_intro":       "Find the other record of the same person by name; everything it holds (certificates, applications, tournament entries) moves to this one, and it points here.",
			"ok_player_transferred": "The player is transferred.", "ok_honorary_recorded": "Honorary 8 dan recorded.",
			"ok_players_merged": "The records are merged.", "none_found": "No player of that name.",
			"field_duplicate": "Duplicate record",
		}
	}
	return map[string]string{
		"registry_number": "登记号", "rec_title": "棋手档案处理", "rec_link": "档案处理：转会、荣誉八段、合并重复档案",
		"rec_confirm_transfer": "转往其他省份", "rec_confirm_honorary": "授予荣誉八段",
		"rec_confirm_merge": "将重复档案并入本档案", "rec_duplicate": "重复档案",
		"rec_merge_intro":       "按姓名找到同一人的另一份档案；其证书、申请、参赛记录都移到本档案，原档案指向本档案。",
		"ok_player_transferred": "转会已记录。", "ok_honorary_recorded": "荣誉八段已记录。",
		"ok_players_merged": "档案已合并。", "none_found": "没有这个姓名的棋手。",
		"field_duplicate": "重复档案",
	}
}
