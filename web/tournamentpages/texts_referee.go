package tournamentpages

import (
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/kit"
)

// teamsOf are the event's teams, each once, in the order of their members.
func teamsOf(r tournaments.Report) []string {
	var out []string
	seen := map[string]bool{}
	for _, pt := range r.Participants {
		if pt.Team != "" && !seen[pt.Team] {
			seen[pt.Team] = true
			out = append(out, pt.Team)
		}
	}
	return out
}

// RefereeTexts are the strings of a tournament's referee page.
func RefereeTexts(l kit.Lang) map[string]string {
	if l == kit.English {
		return map[string]string{
			"ref_title": "Referee", "ref_link": "Referee's page (confirm rounds, protests, voids, nigiri, lineups)",
			"ref_back": "Back to the tournament", "ref_fix": "See the field marked below.",
			"ref_round": "Round", "ref_side": "Side", "ref_side_black": "Black's result", "ref_side_white": "White's result",
			"ref_side_both": "Both results", "ref_player": "Player", "ref_protest": "Protest", "ref_decision": "Decision",
			"ref_decision_uphold": "Uphold", "ref_decision_dismiss": "Dismiss", "ref_ruling": "Ruling", "ref_guess": "Guess",
			"ref_guess_odd": "Odd", "ref_guess_even": "Even", "ref_stones": "Stones in the hand", "ref_lineup": "Lineup",
			"ref_from": "From", "ref_to": "To", "ref_protests": "Protests",
			"ref_void_intro":    "Voiding a result (an arranged game found later) takes it off the standings; a finished dan-grade event's applications that no longer hold are withdrawn or flagged.",
			"ref_lineup_intro":  "Tick the players who play for the team in the next round, in board order (before it is paired).",
			"ref_suspend_intro": "While suspended (both dates included) the player may not take part in any tournament.",
			"ref_status_open":   "Open", "ref_status_upheld": "Upheld", "ref_status_dismissed": "Dismissed",
			"ref_confirm_round": "Confirm a round's results", "ref_confirm_confirm_round": "confirm the round's results",
			"ref_confirm_void": "Void a result", "ref_confirm_protest": "Lodge a protest", "ref_confirm_ruling": "rule on the protest",
			"ref_confirm_nigiri": "Record a nigiri", "ref_confirm_board": "Set a player's board", "ref_confirm_lineup": "Set a team's lineup",
			"ref_confirm_suspend": "Suspend a player",
			"ok_round_confirmed":  "The round's results are confirmed.", "ok_result_voided": "The result is voided.",
			"ok_protest_lodged": "The protest is lodged.", "ok_protest_ruled": "The ruling is recorded.",
			"ok_nigiri_recorded": "The nigiri is recorded.", "ok_board_set": "The board is set.", "ok_lineup_set": "The lineup is recorded.",
			"ok_player_suspended": "The suspension is recorded.",
			"rr_warnings":         "Warnings on record", "rr_sanctions": "Sanctions", "rr_cause": "Cause", "rr_note": "Note",
			"rr_referee": "Referee at the board", "rr_given": "Given", "rr_decided": "second: game lost", "rr_kind": "Sanction",
			"rr_none": "None.", "rr_when": "Decided",
			"rr_cause_take_back": "Taking back a move", "rr_cause_clock_before_move": "Clock pressed before the move",
			"rr_cause_wrong_capture": "Wrong capture", "rr_cause_missed_capture": "Missed capture", "rr_cause_phone": "Phone",
			"rr_cause_smoking": "Smoking", "rr_cause_disturbing": "Disturbing the opponent", "rr_cause_other": "Other",
			"rr_kind_reprimand": "Public reprimand", "rr_kind_prize_one_place_lower": "Prize money one place lower",
			"ref_confirm_warning": "Record a warning", "ref_confirm_sanction": "Sanction a participant",
			"ok_warning_recorded": "The warning is on record.", "ok_participant_sanctioned": "The sanction is recorded.",
			"rr_warning_intro": "Two warnings in one game lose it (the second is marked).",
			"rr_affiliations":  "Club and school", "rr_aff_club": "Club", "rr_aff_school": "School", "rr_until_now": "now",
		}
	}
	return map[string]string{
		"ref_title": "裁判工作", "ref_link": "裁判工作（确认轮次、申诉、取消成绩、猜先、出场名单）",
		"ref_back": "返回比赛", "ref_fix": "请看下面标出的栏目。",
		"ref_round": "轮次", "ref_side": "取消哪一方", "ref_side_black": "黑方成绩", "ref_side_white": "白方成绩",
		"ref_side_both": "双方成绩", "ref_player": "棋手", "ref_protest": "申诉", "ref_decision": "决定",
		"ref_decision_uphold": "支持申诉", "ref_decision_dismiss": "驳回申诉", "ref_ruling": "裁决", "ref_guess": "猜",
		"ref_guess_odd": "单", "ref_guess_even": "双", "ref_stones": "手中子数", "ref_lineup": "出场名单",
		"ref_from": "起始日期", "ref_to": "截止日期", "ref_protests": "申诉",
		"ref_void_intro":    "取消成绩（事后查实的假棋）将其从名次中除去；已结束的段位赛中因此不再成立的申请将撤回或标记。",
		"ref_lineup_intro":  "勾选下一轮为该队出场的棋手，按台次顺序（在编排之前）。",
		"ref_suspend_intro": "停赛期间（含首尾两日）该棋手不得参赛。",
		"ref_status_open":   "待裁决", "ref_status_upheld": "申诉成立", "ref_status_dismissed": "申诉驳回",
		"ref_confirm_round": "确认本轮成绩", "ref_confirm_confirm_round": "确认本轮成绩",
		"ref_confirm_void": "取消成绩", "ref_confirm_protest": "提出申诉", "ref_confirm_ruling": "裁决申诉",
		"ref_confirm_nigiri": "记录猜先", "ref_confirm_board": "调整台次", "ref_confirm_lineup": "提交出场名单",
		"ref_confirm_suspend": "停赛处罚",
		"ok_round_confirmed":  "本轮成绩已确认。", "ok_result_voided": "成绩已取消。",
		"ok_protest_lodged": "申诉已记录。", "ok_protest_ruled": "裁决已记录。",
		"ok_nigiri_recorded": "猜先已记录。", "ok_board_set": "台次已调整。", "ok_lineup_set": "出场名单已记录。",
		"ok_player_suspended": "停赛处罚已记录。",
		"rr_warnings":         "警告记录", "rr_sanctions": "处罚", "rr_cause": "原因", "rr_note": "说明",
		"rr_referee": "执场裁判", "rr_given": "时间", "rr_decided": "第二次：判负", "rr_kind": "处罚",
		"rr_none": "无。", "rr_when": "决定时间",
		"rr_cause_take_back": "悔棋", "rr_cause_clock_before_move": "着子前按钟",
		"rr_cause_wrong_capture": "误提", "rr_cause_missed_capture": "漏提", "rr_cause_phone": "手机",
		"rr_cause_smoking": "吸烟", "rr_cause_disturbing": "妨碍对方", "rr_cause_other": "其他",
		"rr_kind_reprimand": "通报批评", "rr_kind_prize_one_place_lower": "降一个名次发放奖金",
		"ref_confirm_warning": "记录警告", "ref_confirm_sanction": "处罚参赛者",
		"ok_warning_recorded": "警告已记录。", "ok_participant_sanctioned": "处罚已记录。",
		"rr_warning_intro": "一局棋中满两次警告者判负（第二次有标记）。",
		"rr_affiliations":  "所属俱乐部与学校", "rr_aff_club": "俱乐部", "rr_aff_school": "学校", "rr_until_now": "至今",
	}
}
