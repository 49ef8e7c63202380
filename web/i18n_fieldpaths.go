package web

// fieldPathMessages label the fields a refusal names by a path into a
// list (groups[0].target_rank): each list's item with its number as a
// reader counts ("第1组", "group 1"), the fields of an item, and the word
// joining them (kit.FieldLabel composes them); and the words of issue 24's
// one language per page: the actors a stored id names (kit.StoredActor),
// the fold of a verification's proof.
func fieldPathMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"verify_technical":         "Technical verification",
			"actor_system":             "the registry's system",
			"actor_public":             "the public",
			"field_path_sep":           "'s ",
			"field_groups_item":        "group %d",
			"field_groups.target_rank": "target rank",
			"field_groups.name":        "name",
			"field_groups.min_wins":    "wins needed",
			"field_grading_item":       "grading rule %d",
			"field_grading.rank":       "rank earned",
			"field_grading.group":      "group",
		}
	}
	return map[string]string{
		"verify_technical":         "技术核验",
		"actor_system":             "登记系统",
		"actor_public":             "公众",
		"field_path_sep":           "的",
		"field_groups_item":        "第%d组",
		"field_groups.target_rank": "目标段位",
		"field_groups.name":        "组名",
		"field_groups.min_wins":    "达标胜局数",
		"field_grading_item":       "第%d条定级规则",
		"field_grading.rank":       "授予段级位",
		"field_grading.group":      "组别",
	}
}
