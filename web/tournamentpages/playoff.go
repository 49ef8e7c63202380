package tournamentpages

import (
	"net/http"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/kit"
)

// pairPlayoff pairs a playoff round among the tied players (art. 27 C).
func (p *Pages) pairPlayoff(r *http.Request, a ledger.Actor, key string, id int64) (kit.Outcome, error) {
	_, err := p.tours.PairPlayoff(r.Context(), a, key, id)
	return kit.Done("playoff_paired"), err
}

// offersPlayoff reports whether the event page offers a playoff round: the
// event breaks ties by playoff and some players share a place.
func offersPlayoff(rep tournaments.Report) bool {
	if rep.Event.Ties != tournaments.TiesPlayoff || rep.Event.Team {
		return false
	}
	for _, s := range rep.Standings {
		if s.Tied {
			return true
		}
	}
	return false
}
