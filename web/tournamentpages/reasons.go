package tournamentpages

import "github.com/dankyu/dankyu/ledger"

// The tournament forms' own refusals: input that never reaches the
// tournaments package.
var (
	reasonNotAPlayerNumber = ledger.NewReason(ledger.Invalid, "NOT_A_PLAYER_NUMBER",
		"“{value}”不是登记号：登记号是棋手页面上显示的数字。", "{value} is not a registry number (the number on the player's page).")
	reasonBoards = ledger.NewReason(ledger.Invalid, "BOARDS",
		"第 {round} 轮只有 {have} 台，表单却有 {boards} 台。", "round {round} has {have} boards; the form sends {boards}.")
	reasonUploadMissing = ledger.NewReason(ledger.Invalid, "UPLOAD_MISSING",
		"请选择比赛文件：h 文件（.h9）或 OpenGotha 文件（.xml）。", "choose an h-file (.h9) or an OpenGotha file (.xml).")
)
