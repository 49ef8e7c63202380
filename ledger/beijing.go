package ledger

import "time"

// ChinaTime is Beijing time, fixed UTC+8 (China has kept no daylight saving
// since 1991, so this equals Asia/Shanghai without needing tzdata). Years,
// dates and windows of the association's rules are read in it.
var ChinaTime = time.FixedZone("CST", 8*3600)
