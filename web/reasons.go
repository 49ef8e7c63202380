package web

import "github.com/dankyu/dankyu/ledger"

// reasonPickPlayer refuses an application before its player is chosen: a
// form's own refusal, which never reaches a domain package.
var reasonPickPlayer = ledger.NewReason(ledger.Invalid, "PICK_PLAYER",
	"请先按姓名查找并选定棋手。", "find the player by name and pick one first.")
