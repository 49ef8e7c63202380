package kit

import "github.com/dankyu/dankyu/ledger"

// The refusals of any form: input that never reaches a domain package.
var (
	ReasonNotANumber = ledger.NewReason(ledger.Invalid, "NOT_A_NUMBER",
		"“{value}”不是整数。", "“{value}” is not a whole number.")
	ReasonUploadUnreadable = ledger.NewReason(ledger.Invalid, "UPLOAD_UNREADABLE",
		"无法读取上传的文件，请重新上传。", "the uploaded file could not be read; upload it again.")
)
