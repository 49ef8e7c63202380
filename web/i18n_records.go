package web

// recordMessages are the strings of staff's page of a player's record.
func recordMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"registry_number": "Registry no.", "rec_title": "Player's record", "rec_link": "Record: transfer, club or school, family, honorary 8 dan, merge a duplicate",
			"rec_confirm_transfer": "Transfer to another province", "rec_confirm_honorary": "Record honorary 8 dan",
			"rec_confirm_merge": "Merge a duplicate record into this one", "rec_duplicate": "Duplicate record",
			"rec_merge_intro":       "Find the other record of the same person by name; everything it holds (certificates, applications, tournament entries) moves to this one, and it points here.",
			"ok_player_transferred": "The player is transferred.", "ok_honorary_recorded": "Honorary 8 dan recorded.",
			"ok_players_merged": "The records are merged.", "none_found": "No player of that name.",
			"field_duplicate":         "Duplicate record",
			"rec_confirm_affiliation": "Set the club or school", "rec_aff_kind": "Club or school", "rec_aff_name": "Its name",
			"rec_aff_from": "From (date)", "rec_aff_intro": "The one held until then ends the day before and stays in the history; an empty name ends the current one that day.",
			"rec_confirm_family": "Link a player of the same family", "rec_family_other": "The other player's registry no.",
			"rec_family_intro":   "An event may keep players of one family apart in its first rounds.",
			"ok_affiliation_set": "The club or school is recorded.", "ok_family_linked": "The two players are linked as one family.",
		}
	}
	return map[string]string{
		"registry_number": "登记号", "rec_title": "棋手档案处理", "rec_link": "档案处理：转会、所属单位、家庭、荣誉八段、合并重复档案",
		"rec_confirm_transfer": "转往其他省份", "rec_confirm_honorary": "授予荣誉八段",
		"rec_confirm_merge": "将重复档案并入本档案", "rec_duplicate": "重复档案",
		"rec_merge_intro":       "按姓名找到同一人的另一份档案；其证书、申请、参赛记录都移到本档案，原档案指向本档案。",
		"ok_player_transferred": "转会已记录。", "ok_honorary_recorded": "荣誉八段已记录。",
		"ok_players_merged": "档案已合并。", "none_found": "没有这个姓名的棋手。",
		"field_duplicate":         "重复档案",
		"rec_confirm_affiliation": "登记所属俱乐部或学校", "rec_aff_kind": "俱乐部或学校", "rec_aff_name": "名称",
		"rec_aff_from": "起始日期", "rec_aff_intro": "原所属的同类单位于前一日终止并保留在历史中；名称留空即自该日起不再属于任何单位。",
		"rec_confirm_family": "登记同一家庭的棋手", "rec_family_other": "另一名棋手的登记号",
		"rec_family_intro":   "赛事可规定同一家庭的棋手在前几轮不相遇。",
		"ok_affiliation_set": "所属单位已记录。", "ok_family_linked": "两名棋手已登记为同一家庭。",
	}
}
