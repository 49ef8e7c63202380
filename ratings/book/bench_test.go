package book_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// BenchmarkEventRating times, in each iteration, recording every result of
// a 32-player, 5-round Swiss event (80 games, one request each, as the
// organiser enters them) and then rating the finished event (one
// RateEventTx), and reports their ratio: interleaved so that the load of
// a shared machine cancels. The goal is rate/record <= 10.
func BenchmarkEventRating(b *testing.B) {
	ctx := context.Background()
	e := newEnv(b)
	cs, err := certs.New(e.store, e.reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		b.Fatal(err)
	}
	plain := tournaments.New(e.store, e.reg, proposals.Certs{Certs: cs}) // finishes without rating
	org := fixture.Agency("110")
	var entrants []tournaments.ParticipantInput
	for i := range 32 {
		ranks := []string{"3d", "2d", "1d", "1k", "2k", "3k", "5k", "8k"}
		p := fixture.Player(b, e.reg, "110", fmt.Sprintf("选手%02d", i), ranks[i%len(ranks)], "1990-01-01", 100+i)
		entrants = append(entrants, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	var record, rate time.Duration
	games, n := 0, 0
	for b.Loop() {
		n++
		ev, err := plain.CreateEvent(ctx, org, "", tournaments.EventInput{Name: fmt.Sprintf("基准赛%d", n), Start: "2026-11-28",
			Level: "city", System: "swiss", Rounds: 5})
		if err != nil {
			b.Fatal(err)
		}
		for _, in := range entrants {
			if _, err := plain.AddParticipant(ctx, org, "", ev.ID, in); err != nil {
				b.Fatal(err)
			}
		}
		for r := 1; r <= 5; r++ {
			ri, err := plain.PairNextRound(ctx, org, "", ev.ID)
			if err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			for _, g := range ri.Games {
				in := tournaments.ResultInput{Round: r, Board: g.Board, Result: fixture.LowerWins(r, g.Black, g.White)}
				if _, err := plain.RecordResult(ctx, org, fmt.Sprintf("%d-%d-%d", ev.ID, r, g.Board), ev.ID, in); err != nil {
					b.Fatal(err)
				}
				games++
			}
			record += time.Since(t0)
		}
		if _, err := plain.Finish(ctx, org, "", ev.ID); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		err = ledger.Transact(ctx, e.store, func(tx *ledger.Tx) error {
			_, err := e.book.RateEventTx(ctx, tx, e.store.Now(), fixture.Staff, ev.ID)
			return err
		})
		rate += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rate)/float64(record), "rate/record")
	b.ReportMetric(float64(record.Microseconds())/float64(games), "µs-record/game")
	b.ReportMetric(float64(rate.Microseconds())/float64(games), "µs-rate/game")
}
