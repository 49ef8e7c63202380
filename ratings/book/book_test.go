package book_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/eventratings"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

type env struct {
	store *ledger.Store
	reg   *registry.Service
	ts    *tournaments.Service
	book  *book.Book
}

func newEnv(t testing.TB) *env {
	t.Helper()
	pool, _ := harness.NewDB(t)
	store := ledger.New(pool, fixture.TodayClock(t).Now, nil)
	reg := registry.New(store)
	fixture.Agencies(t, reg, "110", "310")
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	b := book.New(store)
	return &env{store: store, reg: reg, book: b,
		ts: tournaments.New(store, reg, proposals.Certs{Certs: cs}, tournaments.WithRater(eventratings.Book{Book: b}))}
}

// players registers n players of Beijing at the given declared ranks.
func (e *env) players(t testing.TB, from int, ranks ...string) []tournaments.ParticipantInput {
	t.Helper()
	var out []tournaments.ParticipantInput
	for i, r := range ranks {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("棋手%03d", from+i), r, "1990-01-01", from+i)
		out = append(out, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	return out
}

// TestFinishingAnEventRatesItsPlayers: a five-player round robin (a bye
// every round) with one game won by default: finishing it rates every
// player from his rank, the winner up and the loser down, the default win
// and the byes not counted.
func TestFinishingAnEventRatesItsPlayers(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	entrants := e.players(t, 1, "1d", "1d", "1k", "2k")
	entrants = append(entrants, tournaments.ParticipantInput{GuestName: "Jean Dupont", GuestRank: "1d", GuestCountry: "fr", EGDPin: "12345678"})
	// players 1 and 2 meet once: 2 wins by default, not rated
	result := func(r, b, w int) string {
		if (b == 1 && w == 2) || (b == 2 && w == 1) {
			if b == 2 {
				return "black_forfeit"
			}
			return "white_forfeit"
		}
		return fixture.LowerWins(r, b, w)
	}
	id := fixture.RoundRobin(t, e.ts, "北京市业余围棋等级分赛", "2026-11-28", entrants, result)

	var got []book.Rating
	for _, in := range entrants[:4] {
		r, err := e.book.PlayerRating(ctx, in.PlayerID)
		if err != nil {
			t.Fatalf("player %d: %v", in.PlayerID, err)
		}
		if len(r.History) != 1 || r.History[0].Tournament != id || r.History[0].ComputedBy != "incremental" {
			t.Fatalf("player %d history: %+v", in.PlayerID, r.History)
		}
		got = append(got, r)
	}
	// entrant k is number k+1; lower number wins: 1 beats 3, 4, 5; 2 beats 3, 4, 5; 3 beats 4, 5 …
	for k, tt := range []struct {
		games int
		wins  float64
		start float64
		moves int // +1 up, -1 down
	}{
		{3, 3, 2100, +1}, // beat 3, 4 and 5; the default win over 2 is not rated
		{3, 3, 2100, +1}, // lost to 1 by default only: not rated
		{4, 2, 2000, 0},  // beat 4 and 5, lost to 1 and 2
		{4, 1, 1900, 0},  // beat 5
	} {
		r := got[k]
		if r.Games != tt.games || r.History[0].Games != tt.games || r.History[0].Wins != tt.wins {
			t.Errorf("entrant %d: %d games (%d in the event), %.1f wins; want %d, %.1f", k+1, r.Games, r.History[0].Games, r.History[0].Wins, tt.games, tt.wins)
		}
		if tt.moves > 0 && r.Rating <= tt.start || tt.moves < 0 && r.Rating >= tt.start {
			t.Errorf("entrant %d: rating %.1f from %.0f, want it to move %+d", k+1, r.Rating, tt.start, tt.moves)
		}
		if r.SD >= ratings.DefaultBayes().SD0 || r.SD <= 0 {
			t.Errorf("entrant %d: sd %.1f, want below the newcomer's %.0f", k+1, r.SD, ratings.DefaultBayes().SD0)
		}
		if r.Estimate.Low > r.Estimate.Rank || r.Estimate.Rank > r.Estimate.High {
			t.Errorf("entrant %d: estimate %+v", k+1, r.Estimate)
		}
	}
	// the guest (number 5) lost all four games
	list, err := e.book.ListRatings(ctx, book.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 5 {
		t.Fatalf("rating list has %d players, want 5 (the guest too)", len(list))
	}
	var guest book.Rating
	for _, r := range list {
		if r.PlayerID == 0 {
			guest = r
		}
	}
	if guest.EGDPin != "12345678" || guest.Games != 4 || guest.Rating >= 2100 {
		t.Errorf("guest: %+v", guest)
	}
	for i := 1; i < len(list); i++ {
		if list[i].Rating > list[i-1].Rating {
			t.Fatalf("list not strongest first: %v", list)
		}
	}
	bj, err := e.book.ListRatings(ctx, book.ListQuery{Province: "11"})
	if err != nil || len(bj) != 4 {
		t.Fatalf("Beijing's list: %d, %v", len(bj), err)
	}
	if _, err := e.book.ListRatings(ctx, book.ListQuery{Rank: "99d"}); ledger.KindOf(err) != ledger.Invalid {
		t.Fatalf("list of rank 99d: %v", err)
	}
	if _, err := e.book.PlayerRating(ctx, 99999); ledger.KindOf(err) != ledger.NotFound {
		t.Fatalf("unrated player: %v", err)
	}
	// rating the event again changes nothing
	err = ledger.Transact(ctx, e.store, func(tx *ledger.Tx) error {
		run, err := e.book.RateEventTx(ctx, tx, e.store.Now(), fixture.Staff, id)
		if run.ID != 0 {
			return errors.New("rated twice")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
