package book_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// TestGroupFlags: a 15 kyu whose rating says so, entering a group aiming at
// 1 dan, is flagged with the figures, in both languages; a 1 kyu whose
// interval covers 1 dan is not; a player with no rating is not.
func TestGroupFlags(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ps := e.players(t, 1, "1k", "2k", "12k", "15k")
	fixture.RoundRobin(t, e.ts, "一月赛", "2026-01-10", ps, fixture.LowerWins)
	fixture.RoundRobin(t, e.ts, "二月赛", "2026-02-14", ps, fixture.LowerWins)
	fresh := e.players(t, 10, "1k")
	org := fixture.Agency("110")
	ev, err := e.ts.CreateEvent(ctx, org, "", tournaments.EventInput{Name: "定段赛", Start: "2026-03-14", Level: "province",
		System: "round_robin", DanGrade: true, ChiefReferee: "王裁判",
		Groups: []tournaments.GroupInput{{Name: "升段组", TargetRank: "1d", MinWins: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []tournaments.ParticipantInput{ps[0], ps[3], fresh[0]} {
		p.Group = "升段组"
		if _, err := e.ts.AddParticipant(ctx, org, "", ev.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	ev, err = e.ts.GetEvent(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	entrants, err := e.ts.Participants(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.book.GroupFlags(ctx, ev, entrants, 0); ledger.KindOf(err) != ledger.Invalid {
		t.Fatalf("margin 0: %v", err)
	}
	flags, err := e.book.GroupFlags(ctx, ev, entrants, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(flags) != 1 || flags[0].PlayerID != ps[3].PlayerID || flags[0].Grades > -3 || flags[0].Estimate.High >= 0 {
		t.Fatalf("flags: %+v", flags)
	}
	f := flags[0]
	en, zh := f.Flag.Message(ledger.English), f.Flag.Message(ledger.Chinese)
	if f.Flag.Reason.Code() != "FLAG_RATING_GROUP_FAR" || !strings.Contains(en, "below") || !strings.Contains(en, "1 dan") ||
		!strings.Contains(zh, "低于目标") || !strings.Contains(zh, "1段") {
		t.Fatalf("flag: %s / %s", en, zh)
	}
	t.Logf("flag: %s", en)
}
