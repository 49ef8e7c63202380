package audit

import (
	"fmt"
	"slices"
	"time"
)

// An agency can manufacture the evidence of a dan certificate: an event of
// its own with a handful of entrants, or whose entrants play nowhere else,
// that its own players then "win". thin_qualifying_events counts the dan
// certificates of the period whose holder's latest event organised by the
// issuer, ending in the QualifyingWindow before the certificate, was thin:
// fewer than TinyEvent participants, or fewer than MinOpponents opponents
// played by the holder, or at least three quarters of those opponents
// closed to the outside (guests, or registered players whose every event of
// the period was a tiny one of the same organiser). A certificate without
// such an event is not counted here (its evidence lies elsewhere).
const (
	TinyEvent        = 8
	QualifyingWindow = 120 * 24 * time.Hour
)

// thinQualifying measures thin_qualifying_events.
func (f *facts) thinQualifying() {
	if !f.needs(KeyThinQualifying) {
		return
	}
	// the events of each registered player, and the tiny events
	eventsOf := map[int64][]int64{}
	ids := make([]int64, 0, len(f.events))
	for id := range f.events {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		f.events[id].players.each(func(_ int, p int64) {
			if p != 0 {
				eventsOf[p] = append(eventsOf[p], id)
			}
		})
	}
	startDay, endDay := dateOf(f.period.Start), dateOf(f.period.End)
	inYear := func(t *tournamentState) bool {
		return !t.facts.End.Before(startDay) && t.facts.Start.Before(endDay)
	}
	// closed says whether registered player p played, in the period, only
	// in tiny events of org
	closed := func(p int64, org string) bool {
		for _, id := range eventsOf[p] {
			t := f.events[id]
			if !inYear(t) {
				continue
			}
			if t.facts.Organiser != org || t.players.len() >= TinyEvent {
				return false
			}
		}
		return true
	}
	for _, issuer := range f.agencies {
		for _, c := range f.dan[issuer] {
			issued, err := time.Parse(time.DateOnly, c.issueDate)
			if err != nil {
				continue
			}
			// the holder's latest event of the issuer before the certificate
			var q *tournamentState
			var qid int64
			for _, id := range eventsOf[c.player] {
				t := f.events[id]
				if t.facts.Organiser != issuer || t.facts.End.After(issued) || issued.Sub(t.facts.End) > QualifyingWindow {
					continue
				}
				if q == nil || t.facts.End.After(q.facts.End) || (t.facts.End.Equal(q.facts.End) && id > qid) {
					q, qid = t, id
				}
			}
			if q == nil {
				continue
			}
			var numbers []int
			q.players.each(func(n int, p int64) {
				if p == c.player {
					numbers = append(numbers, n)
				}
			})
			opps := map[int]bool{}
			q.games.each(func(_ gameKey, g *gameState) {
				if f.results[g.result] == "" || f.results[g.result] == "black_forfeit" || f.results[g.result] == "white_forfeit" || f.results[g.result] == "both_lose" {
					return
				}
				for _, n := range numbers {
					switch n {
					case int(g.black):
						opps[int(g.white)] = true
					case int(g.white):
						opps[int(g.black)] = true
					}
				}
			})
			shut := 0
			for n := range opps {
				if p := q.players.get(n).player; p == 0 || closed(p, issuer) {
					shut++
				}
			}
			var why string
			switch {
			case q.players.len() < TinyEvent:
				why = fmt.Sprintf("%d participants", q.players.len())
			case len(opps) > 0 && 4*shut >= 3*len(opps):
				why = fmt.Sprintf("%d of %d opponents play nowhere else", shut, len(opps))
			default:
				continue
			}
			it := c.item
			it.Note = fmt.Sprintf("%s on event %d (%s): %s", c.rank, qid, q.facts.Name, why)
			f.count(issuer, KeyThinQualifying, it)
		}
		f.m(issuer, KeyThinQualifying).base = int64(len(f.dan[issuer]))
	}
}
