package web

// playerWorkspaceMessages are the strings of the workspace's player pages
// and the application's steps.
func playerWorkspaceMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"workspace_players":    "Our players",
			"player_new":           "Register a player",
			"player_edit":          "Change a player",
			"player_form_intro":    "Every field is checked when you save; a field that is wrong is marked, and what you typed is kept.",
			"player_form_fix":      "Please correct the marked field.",
			"player_save":          "Save",
			"player_not_yours":     "Only the agency of the player's province, or the association's staff, may change this player.",
			"birth_date_hint":      "as YYYY-MM-DD",
			"nationality_hint":     "two letters, CN for China",
			"identity_kind":        "Identity document",
			"identity_resident_id": "Resident identity card",
			"identity_passport":    "Passport (foreign players)",
			"identity_hint":        "A resident identity card number has 18 characters: the region (6 digits), the date of birth (8, which must match the date above), a serial number (3) and a check character (a digit or X) computed from the others, so a mistyped digit is caught.",
			"declared_rank_hint":   "the rank the agency declares (up to 3 dan); 4 dan and above only come with a certificate",
			"cancel":               "Cancel",
			"edit":                 "Change",
			"apply_for_player":     "Apply for a certificate",
			"apply_find_player":    "Player's name",
			"apply_pick_player":    "Pick the player",
			"apply_no_player":      "None of our players has that name.",
			"target_rank_hint":     "e.g. 1d, 4d or 5k",
			"appraiser":            "Appraiser",
			"ok_player_registered": "The player is registered.",
			"ok_player_updated":    "The player's details are saved.",
		}
	}
	return map[string]string{
		"workspace_players":    "本机构棋手",
		"player_new":           "登记棋手",
		"player_edit":          "修改棋手信息",
		"player_form_intro":    "保存时逐项检查；填错的项会标出，已填写的内容会保留。",
		"player_form_fix":      "请改正标出的项。",
		"player_save":          "保存",
		"player_not_yours":     "只有棋手所在省份的代理机构或协会工作人员可以修改该棋手。",
		"birth_date_hint":      "格式为 年-月-日，如 1990-05-01",
		"nationality_hint":     "两个字母，中国为 CN",
		"identity_kind":        "证件类型",
		"identity_resident_id": "居民身份证",
		"identity_passport":    "护照（外籍棋手）",
		"identity_hint":        "居民身份证号码共 18 位：地区码 6 位、出生日期 8 位（须与上面的出生日期一致）、顺序码 3 位、校验码 1 位（数字或 X，由前 17 位算出），输错一位即可发现。",
		"declared_rank_hint":   "代理机构自报的段级位（最高 3 段）；4 段及以上只能通过证书获得",
		"cancel":               "取消",
		"edit":                 "修改",
		"apply_for_player":     "申请证书",
		"apply_find_player":    "棋手姓名",
		"apply_pick_player":    "选定棋手",
		"apply_no_player":      "本机构没有这个姓名的棋手。",
		"target_rank_hint":     "如 1d（1段）、4d（4段）、5k（5级）",
		"appraiser":            "鉴定人",
		"ok_player_registered": "棋手已登记。",
		"ok_player_updated":    "棋手信息已保存。",
	}
}
