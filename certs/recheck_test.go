package certs_test

import (
	"context"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// TestEvidenceRecheckedWhenResultsChange: an event's published rule is one
// win for 1 dan; two winners apply on it (not as the event's own
// proposals), one is issued, the other waits. Voiding both of their games
// after the event finished leaves neither a win: the issued certificate is
// flagged for staff (REVIEW_EVIDENCE_FAILED, logged), the waiting
// application withdrawn; a winner whose game stands keeps his.
func TestEvidenceRecheckedWhenResultsChange(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	e.stock(t, "110", 20, 20)
	var ps []int64
	for i := range 6 {
		ps = append(ps, fixture.Player(t, e.reg, "110", "棋手"+string(rune('甲'+i)), "1k", "1990-01-01", 10+i).ID)
	}
	ev, err := e.ts.CreateEvent(ctx, fixture.Staff, "", tournaments.EventInput{Name: "区县赛", Start: e.ts.Today(), Level: "county",
		System: "swiss", Rounds: 1, Grading: []tournaments.GradingRuleInput{{MinWins: 1, Rank: "1d"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if _, err := e.ts.AddParticipant(ctx, fixture.Staff, "", ev.ID, tournaments.ParticipantInput{PlayerID: p}); err != nil {
			t.Fatal(err)
		}
	}
	ri, err := e.ts.PairNextRound(ctx, fixture.Staff, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	winner := map[int]int64{} // board → the winning player
	for _, g := range ri.Games {
		if _, err := e.ts.RecordResult(ctx, fixture.Staff, "", ev.ID, tournaments.ResultInput{Round: 1, Board: g.Board, Result: "black"}); err != nil {
			t.Fatal(err)
		}
		winner[g.Board] = ps[g.Black-1]
	}
	if _, err := e.ts.Finish(ctx, fixture.Staff, "", ev.ID); err != nil {
		t.Fatal(err)
	}
	apply := func(p int64) certs.Application {
		a, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: p, TargetRank: "1d", Basis: "tournament", EventID: ev.ID})
		if err != nil {
			t.Fatalf("apply for %d: %v", p, err)
		}
		return a
	}
	issued, err := e.cs.Approve(ctx, beijing, "", apply(winner[1]).ID)
	if err != nil {
		t.Fatal(err)
	}
	waiting := apply(winner[2])
	kept, err := e.cs.Approve(ctx, beijing, "", apply(winner[3]).ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, board := range []int{1, 2} {
		v, err := e.ts.VoidResult(ctx, fixture.Staff, "", ev.ID, tournaments.VoidInput{Round: 1, Board: board, Side: tournaments.VoidBoth, Reason: "下假棋"})
		if err != nil {
			t.Fatal(err)
		}
		if v.Rechecked != 1 {
			t.Fatalf("void of board %d rechecked %d, want 1", board, v.Rechecked)
		}
	}
	reviews, err := e.cs.CertificatesForReview(ctx, staff)
	if err != nil {
		t.Fatal(err)
	}
	if len(reviews) != 1 || reviews[0].Number != issued.CertificateNumber || reviews[0].Code != certs.ReviewEvidenceFailed.Code() {
		t.Fatalf("reviews = %+v, want %s flagged %s", reviews, issued.CertificateNumber, certs.ReviewEvidenceFailed.Code())
	}
	if msg := certs.ReviewMessage(reviews[0].Code, reviews[0].Params, ledger.Chinese); msg == "" {
		t.Fatalf("the flag has no Chinese wording")
	}
	w, err := e.cs.GetApplication(ctx, beijing, waiting.ID)
	if err != nil || w.Status != certs.AppRejected {
		t.Fatalf("waiting application = %s, %v; want rejected", w.Status, err)
	}
	v, err := e.cs.Verify(ctx, kept.CertificateNumber)
	if err != nil || v.Certificate.Status != certs.CertValid {
		t.Fatalf("the standing certificate = %+v, %v", v.Certificate, err)
	}
}
