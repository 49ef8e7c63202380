package tournamentpages

import "github.com/dankyu/dankyu/web/kit"

// SwissFormTexts are the strings of the referee page's Swiss forms: rounds
// added or cut, and the pairing constraint.
func SwissFormTexts(l kit.Lang) map[string]string {
	if l == kit.English {
		return map[string]string{
			"ref_confirm_swiss_rounds": "Add or cut rounds", "ref_confirm_pairing_constraint": "Keep players apart in the first rounds",
			"sw_rounds":       "Rounds in all",
			"sw_rounds_intro": "A Swiss's rounds may be added or cut as the event requires; never below the rounds already paired.",
			"sw_avoid_rounds": "In the first rounds (0: none)", "sw_kinds": "Players of the same",
			"sw_kind_club": "club", "sw_kind_school": "school", "sw_kind_family": "family", "sw_list_sep": " or ",
			"sw_constraint_now": "Pairing constraint: ", "sw_constraint_head": "Pairing constraint", "sw_constraint_none": "none.",
			"sw_constraint_is":    "players of the same {kinds} are not paired in rounds 1–{rounds}, where the field allows.",
			"ok_swiss_rounds_set": "The number of rounds is changed.", "ok_pairing_constraint_set": "The pairing constraint is recorded.",
		}
	}
	return map[string]string{
		"ref_confirm_swiss_rounds": "增减轮次", "ref_confirm_pairing_constraint": "前几轮编排回避",
		"sw_rounds":       "总轮次",
		"sw_rounds_intro": "积分编排制的轮次可以根据情况适当增减，但不得少于已编排的轮次。",
		"sw_avoid_rounds": "回避的前几轮（0 为不回避）", "sw_kinds": "同一",
		"sw_kind_club": "俱乐部", "sw_kind_school": "学校", "sw_kind_family": "家庭", "sw_list_sep": "或",
		"sw_constraint_now": "编排回避：", "sw_constraint_head": "编排回避", "sw_constraint_none": "无。",
		"sw_constraint_is":    "第1至{rounds}轮在可能的情况下不编排同一{kinds}的棋手相遇。",
		"ok_swiss_rounds_set": "轮次已调整。", "ok_pairing_constraint_set": "编排回避已记录。",
	}
}
