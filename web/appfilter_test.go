package web

import (
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/dankyu/dankyu/ledger"
)

// FuzzAppFilter: the workspace's filter of applications reads any query
// without panicking, and what it accepts is bounded: a page from 1 to
// 10 000, an offset of whole pages, a known status or none.
func FuzzAppFilter(f *testing.F) {
	for _, s := range [][4]string{{"applied", "1d", "2026-01-01", "2026-12-31"}, {"", "５段", "", ""}, {"bogus", "9d", "2026-13-45", "x"}, {"issued", "", "", "99999999999"}} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, status, rank, from, page string) {
		q := url.Values{"status_set": {"1"}, "status": {status}, "rank": {rank}, "from": {from}, "page": {page}}
		r := httptest.NewRequest("GET", "/workspace?"+q.Encode(), nil)
		for _, a := range []ledger.Actor{{Kind: ledger.StaffActor, Name: "x"}, {Kind: ledger.AgencyActor, Agency: "110"}} {
			aq, af, err := readAppFilter(r, a)
			if af.Page < 1 || af.Page > 10000 || aq.Offset != (af.Page-1)*appPageSize {
				t.Fatalf("page %q read as %d, offset %d", page, af.Page, aq.Offset)
			}
			if err == nil && aq.Status != "" {
				known := false
				for _, s := range appStatuses {
					known = known || s == aq.Status
				}
				if !known {
					t.Fatalf("status %q accepted", status)
				}
			}
		}
	})
}
