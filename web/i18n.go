package web

import (
	"github.com/dankyu/dankyu/web/auditpages"
	"github.com/dankyu/dankyu/web/kit"
	"github.com/dankyu/dankyu/web/ratingpages"
	"github.com/dankyu/dankyu/web/staffpages"
	"github.com/dankyu/dankyu/web/tournamentpages"
)

// Lang is a portal language: zh-CN first, English on request.
type Lang = kit.Lang

const (
	Chinese = kit.Chinese
	English = kit.English
)

// Messages returns every portal string of the language, keyed by a short
// name (for tests that check the tables against the code). The tables
// merge cleanly (New and a test check it); were two to clash, the later
// one's string would be missing here.
func Messages(l Lang) map[string]string {
	m, _ := kit.MergeTables(l, tables())
	return m
}

// tables are the features' tables. They share one namespace: no key may
// be in two of them (kit.MergeTables refuses it).
func tables() []kit.Table {
	return []kit.Table{
		{Feature: "registry", Texts: baseMessages},
		{Feature: "adjudication", Texts: adjudicationMessages},
		{Feature: "certificates", Texts: certMessages},
		{Feature: "appraisals", Texts: appraisalMessages},
		{Feature: "tournaments", Texts: tournamentpages.Texts},
		{Feature: "statistics", Texts: statisticsMessages},
		{Feature: "ratings", Texts: ratingpages.Texts},
		{Feature: "arena", Texts: tournamentpages.ArenaTexts},
		{Feature: "referee", Texts: tournamentpages.RefereeTexts},
		{Feature: "conduct", Texts: tournamentpages.ConductTexts},
		{Feature: "swiss forms", Texts: tournamentpages.SwissFormTexts},
		{Feature: "dan-grade groups", Texts: tournamentpages.GradeGroupTexts},
		{Feature: "player workspace", Texts: playerWorkspaceMessages},
		{Feature: "player games", Texts: playerGamesMessages},
		{Feature: "player records", Texts: recordMessages},
		{Feature: "paper certificates", Texts: paperMessages},
		{Feature: "workspace sections", Texts: workspaceSectionMessages},
		{Feature: "staff", Texts: staffpages.Texts},
		{Feature: "institution keys and webhooks", Texts: keyMessages},
		{Feature: "boards", Texts: boardMessages},
		{Feature: "printing", Texts: printingMessages},
		{Feature: "errors", Texts: errorMessages},
		{Feature: "field paths", Texts: fieldPathMessages},
		{Feature: "audit", Texts: auditpages.Texts},
	}
}

// baseMessages are the strings of the layout and the registry pages.
func baseMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"site":             "dankyu — amateur weiqi rank registry",
			"home":             "Home",
			"agencies":         "Agencies",
			"players":          "Players",
			"switch":           "中文",
			"intro":            "The registry of amateur dan and kyu ranks: players, agencies, certificates and public notices.",
			"search_players":   "Find a player",
			"name":             "Name",
			"title_name":       "Name",
			"province":         "Province",
			"rank":             "Rank",
			"any":              "Any",
			"search":           "Search",
			"agency":           "Agency",
			"contact":          "Contact",
			"status":           "Status",
			"active":           "Active",
			"suspended":        "Suspended",
			"suspended_banner": "Your agency is suspended: you can read its records, but applications, tournaments, orders and every other form are refused until the association reactivates it.",
			"none":             "—",
			"no_agency":        "No agency registered yet",
			"results":          "players found",
			"results_one":      "player found",
			"no_results":       "No player matches.",
			"next":             "Next page",
			"gender":           "Gender",
			"M":                "Male",
			"F":                "Female",
			"birth_year":       "Year of birth",
			"birth_date":       "Date of birth",
			"certified_rank":   "Certified rank",
			"declared_rank":    "Declared rank",
			"declared_note":    "(declared by the agency, not certified)",
			"no_certificate":   "no certificate",
			"honorary_basis":   "Basis of the honorary rank",
			"nationality":      "Nationality",
			"identity":         "Identity number",
			"registered":       "Registered",
			"not_found":        "Not found",
			"not_found_text":   "There is no such page or player.",
			"bad_request":      "Please check your search",
			"error":            "Something went wrong",
			"error_text":       "The registry could not answer. Please try again later.",
			"prefix":           "Certificate prefix",
			"agency_count":     "agencies registered",
			"province_count":   "province-level divisions",
			"privacy":          "Identity numbers are shown masked on public pages.",
		}
	}
	return map[string]string{
		"site":             "dankyu — 业余围棋段级位登记",
		"home":             "首页",
		"agencies":         "代理机构",
		"players":          "棋手",
		"switch":           "English",
		"intro":            "业余围棋段位、级位的登记系统：棋手、代理机构、证书与公示。",
		"search_players":   "查询棋手",
		"name":             "姓名",
		"title_name":       "名称",
		"province":         "省份",
		"rank":             "段级位",
		"any":              "全部",
		"search":           "查询",
		"agency":           "代理机构",
		"contact":          "联系方式",
		"status":           "状态",
		"active":           "正常",
		"suspended":        "暂停",
		"suspended_banner": "本机构已被暂停：可以查阅记录，但申请、比赛、订购等一切操作都将被拒绝，直至协会恢复本机构。",
		"none":             "—",
		"no_agency":        "尚未登记代理机构",
		"results":          "名棋手",
		"results_one":      "名棋手",
		"no_results":       "没有符合条件的棋手。",
		"next":             "下一页",
		"gender":           "性别",
		"M":                "男",
		"F":                "女",
		"birth_year":       "出生年份",
		"birth_date":       "出生日期",
		"certified_rank":   "证书段级位",
		"declared_rank":    "自报段级位",
		"declared_note":    "（代理机构自报，未经认证）",
		"no_certificate":   "无证书",
		"honorary_basis":   "荣誉段位授予依据",
		"nationality":      "国籍",
		"identity":         "证件号码",
		"registered":       "登记时间",
		"not_found":        "未找到",
		"not_found_text":   "没有这个页面或棋手。",
		"bad_request":      "请检查查询条件",
		"error":            "出错了",
		"error_text":       "系统暂时无法回答，请稍后再试。",
		"prefix":           "证书编号前缀",
		"agency_count":     "个代理机构已登记",
		"province_count":   "个省级行政区",
		"privacy":          "公开页面上的证件号码均已隐去部分数字。",
	}
}
