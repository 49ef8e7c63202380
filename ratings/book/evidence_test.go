package book_test

import (
	"context"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// TestCertificateEvidence: a 3-kyu player loses every game of two events
// to 3- and 2-dan players; a 3-dan certificate issued between them lies
// far above his estimate and is flagged, a 1-kyu one is not (his 95 %
// interval, half a year after the first event, still reaches it), and a
// certificate of an unrated player carries no evidence.
func TestCertificateEvidence(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ps := e.players(t, 1, "3d", "3d", "2d", "2d", "3k")
	weak := ps[4]
	// 3k is number 5 in the first event and loses everything; in the second he is number 1 and loses everything too
	fixture.RoundRobin(t, e.ts, "春季赛", "2026-03-07", ps, fixture.LowerWins)
	fixture.RoundRobin(t, e.ts, "秋季赛", "2026-09-05", []tournaments.ParticipantInput{weak, ps[0], ps[1], ps[2]},
		func(r, b, w int) string { return map[bool]string{true: "white", false: "black"}[b == 1] })
	issue := time.Date(2026, 4, 1, 2, 0, 0, 0, time.UTC)
	unrated := fixture.Player(t, e.reg, "110", "未参赛", "1k", "1990-01-01", 50)
	evs, err := e.book.CertificateEvidence(ctx, []book.Certificate{
		{Number: "A", PlayerID: weak.PlayerID, Rank: 3, IssueDate: issue},
		{Number: "B", PlayerID: weak.PlayerID, Rank: -1, IssueDate: issue},
		{Number: "C", PlayerID: unrated.ID, Rank: 1, IssueDate: issue},
		{Number: "D", PlayerID: weak.PlayerID, Rank: registry.Rank(3), IssueDate: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
	}, 1)
	if err != nil {
		t.Fatal(err)
	}
	a, b, c, d := evs[0], evs[1], evs[2], evs[3]
	if a.AtIssue == nil || a.AtIssue.EventName != "春季赛" || a.YearLater == nil || a.YearLater.EventName != "秋季赛" || len(a.Behind) != 2 {
		t.Fatalf("A's points: %+v", a)
	}
	if !a.Flag || a.Off <= 1 {
		t.Errorf("a 3-dan certificate for a player rated %.0f ± %.0f: off %.2f grades, flag %v", a.YearLater.Rating, 1.96*a.YearLater.SD, a.Off, a.Flag)
	}
	if b.Flag {
		t.Errorf("a 1-kyu certificate flagged: off %.2f grades", b.Off)
	}
	if c.AtIssue != nil || c.YearLater != nil || c.Flag {
		t.Errorf("an unrated holder has evidence: %+v", c)
	}
	if d.AtIssue != nil || d.YearLater != nil || d.Flag {
		t.Errorf("a certificate more than a year before any event has evidence: %+v", d)
	}
	games, err := e.book.PlayerGames(ctx, weak.PlayerID, []int64{a.Behind[0].Tournament, a.Behind[1].Tournament})
	if err != nil || len(games) != 7 {
		t.Fatalf("games behind: %d, %v; want 4 + 3", len(games), err)
	}
}
