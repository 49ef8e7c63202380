package web

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/kit"
	"github.com/dankyu/dankyu/web/tournamentpages"
)

// playerEvents is what a player's page reads of the tournaments: the
// events he played, each one's report.
type playerEvents interface {
	PlayerEvents(ctx context.Context, playerID int64, limit int) ([]int64, error)
	EventReport(ctx context.Context, id int64) (tournaments.Report, error)
}

// playerEventsShown bounds the events a player's page lists (newest first).
const playerEventsShown = 20

// pgEvent is one of a player's events on his page: where he finished, his
// rating's change over it, and his games.
type pgEvent struct {
	Event         tournaments.Event
	Place, Points int
	RatingChange  string // "+12.3", "" when not rated
	Games         []pgGame
}

// pgGame is one round of his: the opponent (his page; 0 for a guest), the
// colour, handicap and result in the page's words, or a bye.
type pgGame struct {
	Round      int
	Opponent   string
	OpponentID int64
	Guest      bool
	Colour     string
	Handicap   int
	Result     string
	Bye        bool
}

// playerGames lays out a player's events for his page, the rating change
// of each from his rating history (nil: none).
func playerGames(ctx context.Context, pg kit.Page, src playerEvents, playerID int64, history []book.Point) ([]pgEvent, error) {
	ids, err := src.PlayerEvents(ctx, playerID, playerEventsShown)
	if err != nil {
		return nil, err
	}
	change := map[int64]string{}
	for i, pt := range history {
		if i > 0 {
			change[pt.Tournament] = fmt.Sprintf("%+.1f", pt.Rating-history[i-1].Rating)
		}
	}
	var out []pgEvent
	for _, id := range ids {
		rep, err := src.EventReport(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("player %d's event %d: %w", playerID, id, err)
		}
		number := 0
		who := map[int]tournaments.Participant{}
		for _, p := range rep.Participants {
			who[p.Number] = p
			if p.PlayerID == playerID {
				number = p.Number
			}
		}
		if number == 0 {
			continue
		}
		ev := pgEvent{Event: rep.Event, RatingChange: change[id]}
		for _, s := range rep.Standings {
			if s.Entrant == number {
				ev.Place, ev.Points = s.Place, s.Points
			}
		}
		for _, rd := range rep.Rounds {
			if rd.Bye == number {
				ev.Games = append(ev.Games, pgGame{Round: rd.Round, Bye: true, Result: pg.T["pg_bye"]})
			}
			for _, g := range rd.Games {
				side, ok := g.SideOf(number)
				if !ok {
					continue
				}
				opp := who[side.Opponent]
				game := pgGame{Round: rd.Round, Opponent: opp.Name, OpponentID: opp.PlayerID, Guest: opp.PlayerID == 0, Handicap: g.Handicap}
				game.Colour = pg.T["pg_black"]
				if side.Colour == 'w' {
					game.Colour = pg.T["pg_white"]
				}
				switch side.Outcome {
				case '+':
					game.Result = pg.T["pg_win"]
				case '-':
					game.Result = pg.T["pg_loss"]
				case '=':
					game.Result = pg.T["pg_draw"]
				default:
					game.Result = pg.T["pg_pending"]
				}
				if side.Forfeit {
					game.Result += pg.T["pg_forfeit"]
				}
				ev.Games = append(ev.Games, game)
			}
		}
		out = append(out, ev)
	}
	return out, nil
}

func pgPlayerURL(id int64) string { return "/players/" + strconv.FormatInt(id, 10) }

// eventsOf is the tournaments as a player's page reads them, nil when
// they cannot list a player's events.
func eventsOf(ts tournamentpages.Tournaments) playerEvents {
	if e, ok := ts.(playerEvents); ok {
		return e
	}
	return nil
}

// rankedAbove is what a player's page reads to place him in the public
// rating lists (the book's RatedAbove).
type rankedAbove interface {
	RatedAbove(ctx context.Context, province string, rating float64, limit int) ([]int64, bool, error)
}

// listPlace is a player's place in the public rating list of a province
// ("" national): one more than those above him the list shows (guests, and
// registered players the public search lists); 0 when he is not listed
// (a minor) or deeper than the book counts.
func listPlace(ctx context.Context, src rankedAbove, listed interface {
	PubliclyListed(ctx context.Context, ids []int64) (map[int64]registry.Player, error)
}, playerID int64, province string, rating float64) (int, error) {
	ids, more, err := src.RatedAbove(ctx, province, rating, 0)
	if err != nil || more {
		return 0, err
	}
	ask := append(ids[:len(ids):len(ids)], playerID)
	shown, err := listed.PubliclyListed(ctx, ask)
	if err != nil {
		return 0, err
	}
	if _, ok := shown[playerID]; !ok {
		return 0, nil
	}
	place := 1
	for _, id := range ids {
		if _, ok := shown[id]; id == 0 || ok {
			place++
		}
	}
	return place, nil
}

// pgPlaces is a player's places in the public rating lists, 0 when not listed.
type pgPlaces struct{ National, Provincial int }
