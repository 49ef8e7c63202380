package kit

import (
	"net/http"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// PathID is the path's {id}, when it is a positive number.
func PathID(r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	return id, err == nil && id > 0
}

// ChinaTime writes a moment as Beijing time, which the registry's records
// are kept in, to the minute.
func ChinaTime(t time.Time) string { return t.In(ledger.ChinaTime).Format("2006-01-02 15:04") }
