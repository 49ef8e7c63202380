package tournamentpages

import "github.com/dankyu/dankyu/web/kit"

// GradeGroupTexts are the strings of a dan-grade event's standings per
// group and of what became of its proposed applications.
func GradeGroupTexts(l kit.Lang) map[string]string {
	if l == kit.English {
		return map[string]string{
			"gg_title":          "Standings by dan-grade group",
			"gg_rule":           "Qualifies with",
			"gg_target":         "Target rank",
			"gg_rule_wins":      "at least %d wins",
			"gg_rule_wins_one":  "at least %d win",
			"gg_rule_place":     "placing %d or better",
			"gg_rule_sep":       "; ",
			"gg_qualified":      "Qualified",
			"gg_qualified_mark": "qualified for",
			"gg_application":    "Certificate application",
			"gg_app_filed":      "Filed, awaiting approval",
			"gg_app_on_notice":  "Approved, on public notice",
			"gg_app_issued":     "Certificate issued",
			"gg_app_revoked":    "Certificate issued, since revoked",
			"gg_app_refused":    "Refused",
			"gg_app_failed":     "Refused: an objection was upheld",
			"gg_app_withdrawn":  "Withdrawn",
			"gg_app_withheld":   "Not shown (a minor)",
			"gg_notice_link":    "public notice",
		}
	}
	return map[string]string{
		"gg_title":          "段位组成绩",
		"gg_rule":           "达标条件",
		"gg_target":         "目标段位",
		"gg_rule_wins":      "胜 %d 局以上",
		"gg_rule_wins_one":  "胜 %d 局以上",
		"gg_rule_place":     "名次前 %d 名",
		"gg_rule_sep":       "；",
		"gg_qualified":      "达标",
		"gg_qualified_mark": "达标",
		"gg_application":    "证书申请",
		"gg_app_filed":      "已提交，待审批",
		"gg_app_on_notice":  "已批准，公示中",
		"gg_app_issued":     "已发证",
		"gg_app_revoked":    "已发证，后被撤销",
		"gg_app_refused":    "未获批准",
		"gg_app_failed":     "未获批准：异议成立",
		"gg_app_withdrawn":  "已撤回",
		"gg_app_withheld":   "未成年：不公开",
		"gg_notice_link":    "公示",
	}
}
