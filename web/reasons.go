package web

import "github.com/dankyu/dankyu/ledger"

// The portal's own refusals: form input that never reaches a domain package.
var (
	reasonNotAPlayerNumber = ledger.NewReason(ledger.Invalid, "NOT_A_PLAYER_NUMBER",
		"“{value}”不是棋手编号。", "{value} is not a player number.")
	reasonBoards = ledger.NewReason(ledger.Invalid, "BOARDS",
		"第 {round} 轮只有 {have} 台，表单却有 {boards} 台。", "round {round} has {have} boards; the form sends {boards}.")
	reasonPickPlayer = ledger.NewReason(ledger.Invalid, "PICK_PLAYER",
		"请先按姓名查找并选定棋手。", "find the player by name and pick one first.")
	reasonUploadMissing = ledger.NewReason(ledger.Invalid, "UPLOAD_MISSING",
		"请选择比赛文件：h 文件（.h9）或 OpenGotha 文件（.xml）。", "choose an h-file (.h9) or an OpenGotha file (.xml).")
)
