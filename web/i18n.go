package web

import (
	"net/http"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// Lang is a portal language: zh-CN first, English on request.
type Lang = ledger.Lang

const (
	Chinese = ledger.Chinese
	English = ledger.English
)

// Messages returns every portal string of the language, keyed by a short
// name (for tests that check the tables against the code).
func Messages(l Lang) map[string]string { return messages(l) }

// messages holds every portal string, keyed by a short name.
func messages(l Lang) map[string]string {
	m := baseMessages(l)
	for k, v := range certMessages(l) {
		m[k] = v
	}
	for k, v := range tournamentMessages(l) {
		m[k] = v
	}
	for k, v := range statisticsMessages(l) {
		m[k] = v
	}
	for k, v := range ratingMessages(l) {
		m[k] = v
	}
	for k, v := range arenaMessages(l) {
		m[k] = v
	}
	for k, v := range playerWorkspaceMessages(l) {
		m[k] = v
	}
	for k, v := range staffMessages(l) {
		m[k] = v
	}
	for k, v := range boardMessages(l) {
		m[k] = v
	}
	for k, v := range printingMessages(l) {
		m[k] = v
	}
	for k, v := range errorMessages(l) {
		m[k] = v
	}
	for k, v := range auditMessages(l) {
		m[k] = v
	}
	return m
}

// baseMessages are the strings of the registry and referee pages.
func baseMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"site":           "dankyu — amateur weiqi rank registry",
			"home":           "Home",
			"agencies":       "Agencies",
			"players":        "Players",
			"switch":         "中文",
			"intro":          "The registry of amateur dan and kyu ranks: players, agencies, certificates and public notices.",
			"search_players": "Find a player",
			"name":           "Name",
			"province":       "Province",
			"rank":           "Rank",
			"any":            "Any",
			"search":         "Search",
			"agency":         "Agency",
			"contact":        "Contact",
			"status":         "Status",
			"active":         "Active",
			"suspended":      "Suspended",
			"none":           "—",
			"no_agency":      "No agency registered yet",
			"results":        "players found",
			"no_results":     "No player matches.",
			"next":           "Next page",
			"gender":         "Gender",
			"M":              "Male",
			"F":              "Female",
			"birth_year":     "Year of birth",
			"birth_date":     "Date of birth",
			"certified_rank": "Certified rank",
			"declared_rank":  "Declared rank",
			"declared_note":  "(declared by the agency, not certified)",
			"no_certificate": "no certificate",
			"honorary_basis": "Basis of the honorary rank",
			"nationality":    "Nationality",
			"identity":       "Identity number",
			"registered":     "Registered",
			"not_found":      "Not found",
			"not_found_text": "There is no such page or player.",
			"bad_request":    "Please check your search",
			"error":          "Something went wrong",
			"error_text":     "The registry could not answer. Please try again later.",
			"prefix":         "Certificate prefix",
			"agency_count":   "agencies registered",
			"province_count": "province-level divisions",
			"privacy":        "Identity numbers are shown masked on public pages.",
			"adjudicate":     "Adjudicate a game",
			"adj_intro":      "Upload or paste an SGF record: it is replayed and counted under the chosen rules. Nothing is stored.",
			"sgf_file":       "SGF file",
			"sgf_text":       "or paste the record",
			"sgf_missing":    "Upload or paste an SGF record.",
			"rules":          "Rules",
			"rules_auto":     "From the record (Chinese; AGA compensation for AGA records)",
			"komi":           "Komi (points)",
			"komi_hint":      "empty: the record's",
			"dead":           "Dead stones",
			"dead_hint":      "e.g. D4, Q16 or dd",
			"strict":         "Reject the record at its first illegal move",
			"submit":         "Adjudicate",
			"end":            "End",
			"moves":          "Moves",
			"black_area":     "Black",
			"white_area":     "White",
			"illegal":        "Illegal moves",
			"unsettled":      "stones are not unconditionally alive: the count needs the players' agreement on dead stones.",
			"notes":          "Notes",
			"move_n":         "move",
		}
	}
	return map[string]string{
		"site":           "dankyu — 业余围棋段级位登记",
		"home":           "首页",
		"agencies":       "代理机构",
		"players":        "棋手",
		"switch":         "English",
		"intro":          "业余围棋段位、级位的登记系统：棋手、代理机构、证书与公示。",
		"search_players": "查询棋手",
		"name":           "姓名",
		"province":       "省份",
		"rank":           "段级位",
		"any":            "全部",
		"search":         "查询",
		"agency":         "代理机构",
		"contact":        "联系方式",
		"status":         "状态",
		"active":         "正常",
		"suspended":      "暂停",
		"none":           "—",
		"no_agency":      "尚未登记代理机构",
		"results":        "名棋手",
		"no_results":     "没有符合条件的棋手。",
		"next":           "下一页",
		"gender":         "性别",
		"M":              "男",
		"F":              "女",
		"birth_year":     "出生年份",
		"birth_date":     "出生日期",
		"certified_rank": "证书段级位",
		"declared_rank":  "自报段级位",
		"declared_note":  "（代理机构自报，未经认证）",
		"no_certificate": "无证书",
		"honorary_basis": "荣誉段位授予依据",
		"nationality":    "国籍",
		"identity":       "证件号码",
		"registered":     "登记时间",
		"not_found":      "未找到",
		"not_found_text": "没有这个页面或棋手。",
		"bad_request":    "请检查查询条件",
		"error":          "出错了",
		"error_text":     "系统暂时无法回答，请稍后再试。",
		"prefix":         "证书编号前缀",
		"agency_count":   "个代理机构已登记",
		"province_count": "个省级行政区",
		"privacy":        "公开页面上的证件号码均已隐去部分数字。",
		"adjudicate":     "对局裁定",
		"adj_intro":      "上传或粘贴SGF棋谱，按所选规则复盘并数子。不保存任何内容。",
		"sgf_file":       "SGF文件",
		"sgf_text":       "或粘贴棋谱",
		"sgf_missing":    "请上传或粘贴SGF棋谱。",
		"rules":          "规则",
		"rules_auto":     "按棋谱（中国规则；AGA棋谱按AGA贴还）",
		"komi":           "贴目（目）",
		"komi_hint":      "留空则按棋谱",
		"dead":           "死子",
		"dead_hint":      "如 D4, Q16 或 dd",
		"strict":         "遇第一手违规着即判棋谱无效",
		"submit":         "裁定",
		"end":            "终局方式",
		"moves":          "手数",
		"black_area":     "黑方",
		"white_area":     "白方",
		"illegal":        "违规着",
		"unsettled":      "子并非无条件活棋：数子前须双方确认死子。",
		"notes":          "说明",
		"move_n":         "第",
	}
}

// langFrom picks the language: ?lang= first (remembered in a cookie), then
// the cookie, then Chinese.
func langFrom(w http.ResponseWriter, r *http.Request) Lang {
	switch Lang(r.URL.Query().Get("lang")) {
	case English:
		http.SetCookie(w, &http.Cookie{Name: "lang", Value: string(English), Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds()), SameSite: http.SameSiteLaxMode})
		return English
	case Chinese:
		http.SetCookie(w, &http.Cookie{Name: "lang", Value: string(Chinese), Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds()), SameSite: http.SameSiteLaxMode})
		return Chinese
	}
	if c, err := r.Cookie("lang"); err == nil && Lang(c.Value) == English {
		return English
	}
	return Chinese
}
