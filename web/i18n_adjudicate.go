package web

// adjudicationMessages are the strings of the adjudication page.
func adjudicationMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"adjudicate":  "Adjudicate a game",
			"adj_intro":   "Upload or paste an SGF record: it is replayed and counted under the chosen rules. Nothing is stored.",
			"sgf_file":    "SGF file",
			"sgf_text":    "or paste the record",
			"sgf_missing": "Upload or paste an SGF record.",
			"rules":       "Rules",
			"rules_auto":  "From the record (Chinese; AGA compensation for AGA records)",
			"komi":        "Komi (points)",
			"komi_hint":   "empty: the record's",
			"dead":        "Dead stones",
			"dead_hint":   "e.g. D4, Q16 or dd",
			"strict":      "Reject the record at its first illegal move",
			"submit":      "Adjudicate",
			"adj_end":     "Ended by",
			"moves":       "Moves",
			"black_area":  "Black",
			"white_area":  "White",
			"illegal":     "Illegal moves",
			"unsettled":   "stones are not unconditionally alive: the count needs the players' agreement on dead stones.",
			"notes":       "Notes",
			"move_n":      "move",
		}
	}
	return map[string]string{
		"adjudicate":  "对局裁定",
		"adj_intro":   "上传或粘贴SGF棋谱，按所选规则复盘并数子。不保存任何内容。",
		"sgf_file":    "SGF文件",
		"sgf_text":    "或粘贴棋谱",
		"sgf_missing": "请上传或粘贴SGF棋谱。",
		"rules":       "规则",
		"rules_auto":  "按棋谱（中国规则；AGA棋谱按AGA贴还）",
		"komi":        "贴目（目）",
		"komi_hint":   "留空则按棋谱",
		"dead":        "死子",
		"dead_hint":   "如 D4, Q16 或 dd",
		"strict":      "遇第一手违规着即判棋谱无效",
		"submit":      "裁定",
		"adj_end":     "终局方式",
		"moves":       "手数",
		"black_area":  "黑方",
		"white_area":  "白方",
		"illegal":     "违规着",
		"unsettled":   "子并非无条件活棋：数子前须双方确认死子。",
		"notes":       "说明",
		"move_n":      "第",
	}
}
