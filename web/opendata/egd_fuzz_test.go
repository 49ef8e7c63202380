package opendata_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/opendata"
)

// FuzzEGDLine: whatever Latin name an agency states (any text the registry
// may hold), registry number, rating and count of events, the list's line
// is read by OpenGotha's and pairgoth's rules as one player with his PIN
// column and rating, or the player is left out of the text list (the CSV
// carries him); no line breaks the readers.
func FuzzEGDLine(f *testing.F) {
	f.Add("Zhang Wei", int64(1), 2100.4, 3, "12345678", int8(2))
	f.Add("Lǐ Nà-Ōu", int64(9999999), -950.0, 0, "", int8(-30))
	f.Add("  O'Neil   de la Cruz  Mary-Ann ", int64(42), 9999.6, 123456, "1234", int8(0))
	f.Add("Ñ×÷ 123 (undefined)", int64(10000000), math.Inf(1), -1, "123456789", int8(9))
	f.Add("买买提 艾力", int64(7), 1500.0, 1, "", int8(3))
	f.Fuzz(func(t *testing.T, latin string, id int64, mean float64, events int, pin string, rank int8) {
		if math.IsNaN(mean) || events < 0 {
			return // the book holds neither
		}
		p := registry.Player{ID: id, Name: "某", LatinName: latin, ProvinceCode: "11", DeclaredRank: registry.Rank(rank)}
		if pin != "" {
			p.ExternalIDs = map[string]string{"egd": pin}
		}
		x := book.Listed{Events: events, LastEvent: 5}
		x.Rating.Rating, x.SD, x.PlayerID = mean, 100, id
		x.Estimate = ratings.EstimateRank(mean, 100)
		data, ok := opendata.EGDListOf(p, x, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
		if !ok {
			return
		}
		_, og, err := readOpenGotha(data)
		if err != nil {
			t.Fatalf("OpenGotha: %v\n%s", err, data)
		}
		_, pg, err := readPairgoth(data, "text/plain; charset=ISO-8859-15")
		if err != nil {
			t.Fatalf("pairgoth: %v\n%s", err, data)
		}
		if len(og) != 1 || len(pg) != 1 {
			t.Fatalf("OpenGotha read %d players, pairgoth %d; want 1\n%s", len(og), len(pg), data)
		}
		wantPin := pin
		if len(pin) != 8 || !allDigits(pin) {
			wantPin = fmt.Sprintf("9%07d", id)
		}
		if og[0].PIN != wantPin || pg[0].PIN != wantPin || og[0].Name != pg[0].Name || og[0].Rating != pg[0].Rating {
			t.Fatalf("read back %+v and %+v, want PIN %s\n%s", og[0], pg[0], wantPin, data)
		}
		if want := min(max(int(math.Round(mean)), -999), 9999); og[0].Rating != want {
			t.Fatalf("rating %d, want %d", og[0].Rating, want)
		}
	})
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
