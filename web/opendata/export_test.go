package opendata

import (
	"time"

	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
)

// EGDListOf is the EGD list of one player as the file writes it (head and
// line, encoded); ok is false when the list leaves him out.
func EGDListOf(p registry.Player, x book.Listed, day time.Time) (data []byte, ok bool) {
	e, ok := egdRowOf(x, p)
	if !ok {
		return nil, false
	}
	for _, l := range egdHeader("Rating list", "http://example.org/data/ratings.txt", day) {
		data = append(data, latin1(l+"\n")...)
	}
	return append(data, latin1(e.line()+"\n")...), true
}
