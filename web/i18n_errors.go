package web

import (
	"fmt"

	"github.com/dankyu/dankyu/ledger"
)

// errorMessages are the words around a refusal: what a refusal of each kind
// says when it carries no reason code, and the labels of the fields a
// refusal names.
func errorMessages(l Lang) map[string]string {
	zh := l != English
	pick := func(c, e string) string {
		if zh {
			return c
		}
		return e
	}
	m := map[string]string{
		"field_sep": pick("：", ": "),
	}
	kinds := map[ledger.Kind][2]string{
		ledger.Invalid:          {"填写的内容有误，请检查后重新提交。", "Some of what you entered is not valid; please check it."},
		ledger.NotFound:         {"找不到所要的记录。", "The record was not found."},
		ledger.AlreadyExists:    {"该记录已经存在。", "That record already exists."},
		ledger.PermissionDenied: {"您无权执行此操作。", "You may not do this."},
		ledger.Unauthenticated:  {"请先登录。", "Please sign in first."},
		ledger.Conflict:         {"记录已被同时修改，请重试。", "The record was changed at the same time; please try again."},
		ledger.Precondition:     {"当前状态下不能执行此操作。", "This cannot be done in the record's present state."},
		ledger.Exhausted:        {"已达到上限，请稍后再试。", "A limit was reached; please try again later."},
		ledger.Unavailable:      {"数据库暂时无法访问，请稍后重试。", "The database cannot be reached for the moment; please try again shortly."},
	}
	for k, v := range kinds {
		m[fmt.Sprintf("error_kind_%d", k)] = pick(v[0], v[1])
	}
	for field, v := range fieldLabels() {
		m["field_"+field] = pick(v[0], v[1])
	}
	return m
}

// fieldLabels names, in Chinese and English, every input field a refusal
// may name.
func fieldLabels() map[string][2]string {
	return map[string][2]string{
		// the supplementary rules, adjournments and lateness (issue 26)
		"time_method":     {"计时方法", "Timing method"},
		"byoyomi_periods": {"读秒次数", "Byo-yomi periods"}, "byoyomi_seconds": {"每次读秒秒数", "Seconds per period"},
		"byoyomi_kept_minutes": {"保留几分钟开始读秒", "Minutes kept before counting"}, "period_moves": {"每节手数", "Moves per period"},
		"period_minutes": {"每节分钟", "Minutes per period"}, "lateness": {"迟到时限", "Lateness limit"}, "sealing": {"封棋", "Adjournment"},
		"cycle": {"罕见循环局面", "A rare cycle"}, "document": {"竞赛补充规定全文", "Supplementary rules' text"},
		"record": {"封棋前的棋谱", "Record up to the adjournment"}, "point": {"封棋点", "Sealed point"},
		"sealed_by": {"封棋方", "Sealed by"}, "minutes": {"迟到分钟", "Minutes late"},
		"agency": {"代理机构", "Agency"}, "appraiser_id": {"鉴定人", "Appraiser"}, "basis": {"申请依据", "Basis"},
		"board": {"台次", "Board"}, "boards": {"台数", "Boards"}, "bye_players": {"确认为轮空的占位棋手", "Placeholders confirmed as byes"},
		"birth_date": {"出生日期", "Birth date"}, "contact": {"联系方式", "Contact"}, "dan_count": {"段位证书数量", "Dan certificates"}, "dead": {"死子", "Dead stones"}, "date": {"发证日期", "Issue date"}, "identity": {"证件号码", "Identity number"}, "duplicate_id": {"重复记录", "Duplicate record"}, "change_reason": {"变更理由", "Reason for the change"},
		"end": {"结束日期", "End date"}, "event_id": {"登记赛事", "Registry event"}, "grading": {"定级规则", "Grading rules"}, "max_placing": {"授予6段的名次", "Placings earning 6 dan"}, "event_ref": {"比赛", "Event"}, "evidence": {"证明材料", "Evidence"},
		"file": {"文件", "File"}, "format": {"格式", "Format"}, "gender": {"性别", "Gender"}, "group": {"组别", "Group"},
		"groups": {"组别", "Groups"}, "guest_name": {"嘉宾姓名", "Guest name"}, "guest_rank": {"嘉宾段级位", "Guest rank"},
		"id": {"编号", "Number"}, "idempotency-key": {"幂等键", "Idempotency key"}, "identity_kind": {"证件类型", "Identity document"},
		"identity_number": {"证件号码", "Identity number"}, "latin_name": {"拉丁字母姓名", "Latin name"},
		"webhook_url": {"推送网址", "Webhook URL"}, "webhook_actions": {"订阅的事件", "Events subscribed"},
		"external_id_scheme": {"外部编号类别", "Scheme of the id"}, "external_id": {"外部编号", "External id"},
		"egd_class": {"EGD 比赛级别", "EGD class"}, "basic_minutes": {"基本用时（分钟）", "Basic time (minutes)"},
		"overtime": {"读秒方式", "Overtime"}, "overtime_stones": {"加拿大读秒步数", "Canadian overtime stones"}, "kind": {"类型", "Kind"}, "komi": {"贴目", "Komi"},
		"kyu_count": {"级位证书数量", "Kyu certificates"}, "level": {"级别", "Level"}, "name": {"姓名/名称", "Name"},
		"nationality": {"国籍", "Nationality"}, "notice_id": {"公示", "Notice"}, "number": {"证书编号", "Certificate number"}, "numbers": {"证书编号列表", "Certificate numbers"},
		"order": {"名次排列", "Standings order"}, "page_size": {"每页条数", "Page size"}, "page_token": {"翻页", "Page"},
		"player_id": {"登记号", "Registry no."}, "prefix": {"证书编号前缀", "Prefix"}, "province_code": {"省份", "Province"},
		"qualification": {"资历", "Qualification"}, "rank": {"段级位", "Rank"}, "reason": {"理由", "Reason"},
		"record_ref": {"达标成绩", "Qualifying result"}, "result": {"结果", "Result"}, "rounds": {"轮次", "Rounds"},
		"rules": {"规则", "Rules"}, "ruling": {"裁定", "Ruling"}, "objection_ids": {"异议", "Objections"}, "sgf": {"棋谱", "Record"}, "staff": {"工作人员", "Staff"},
		"start": {"开始日期", "Start date"}, "state": {"状态", "State"}, "status": {"状态", "Status"},
		"system": {"竞赛制度", "System"}, "target_rank": {"申请段级位", "Rank applied for"}, "warnings": {"警告", "Warnings"},
		"year": {"年度", "Year"}, "venue": {"比赛地点", "Venue"}, "note": {"备注", "Note"}, "participant": {"参赛者", "Participant"}, "from": {"起始日期", "From"}, "player_b": {"另一名棋手", "Other player"}, "avoid_rounds": {"编排回避轮数", "Rounds kept apart"}, "kinds": {"回避范围", "Kept apart by"}, "cause": {"警告原因", "Cause of the warning"}, "referee": {"裁判员", "Referee"}, "team": {"队伍", "Team"},
		"guest_country":        {"嘉宾国家或地区", "Guest country"},
		"appraisal_session_id": {"鉴定编号", "Appraisal session"}, "held_on": {"鉴定日期", "Appraisal date"},
		"verdict": {"鉴定结论", "Verdict"}, "games": {"对局", "Games"}, "opponent": {"对手", "Opponent"}, "colour": {"执黑/执白", "Colour"},
		"grade":         {"运动员等级", "Athlete grade"},
		"chief_referee": {"裁判长", "Chief referee"}, "colours": {"先后手", "Colours"}, "side": {"取消成绩的一方", "Side voided"},
		"to": {"截止日期", "Until"}, "ties": {"名次相同", "Ties"},
		"institution": {"机构名称", "Institution"}, "quota": {"核验额度", "Verification quota"}, "per": {"额度周期", "Quota per"},
		"lives": {"淘汰负局数", "Losses that eliminate"}, "cycles": {"循环次数", "Cycles"}, "best_of": {"决胜局数", "Games of the series"}, "guess": {"猜先", "Nigiri guess"}, "forfeit_reason": {"弃权原因", "Reason for the forfeit"},
	}
}
