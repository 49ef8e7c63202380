package tournaments_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// TestH9ExportForTheEGD exports a made Swiss event of registered players
// (Chinese names, one with a stated Latin name, two with EGD PINs) and a
// foreign guest: the file names everyone in Latin letters surname first,
// gives each registered player's province as his club and every PIN, and
// the class its time limits earn (or the one stated); the h-file importer
// reads it back with the same players, games and rounds.
func TestH9ExportForTheEGD(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "北京市围棋赛", Start: e.ts.Today(), Venue: "北京棋院",
		Level: "city", System: "swiss", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"张伟", "欧阳修", "王芳", "李娜", "刘洋"}
	var players []registry.Player
	for i, n := range names {
		p := fixture.Player(t, e.reg, "110", n, fmt.Sprintf("%dk", i+1), "1990-01-01", i)
		players = append(players, p)
		if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.reg.SetLatinName(ctx, beijing, "", players[2].ID, "Wong Fong"); err != nil {
		t.Fatal(err)
	}
	for i, pin := range map[int]string{0: "13513786", 1: "10949763"} {
		if _, err := e.reg.SetExternalID(ctx, beijing, "", players[i].ID, "egd", pin); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{GuestName: "Chauvin Robin", GuestRank: "2d",
		GuestCountry: "fr"}); err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 3; r++ {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		e.playRound(t, ev.ID, ri, nil)
	}
	var buf bytes.Buffer
	opts := tournaments.H9Options{Time: &tournaments.TimeControl{BasicMinutes: 60, Overtime: "byoyomi", Seconds: 30}}
	if _, _, err := e.ts.ExportEventWith(ctx, &buf, ev.ID, "h9", opts); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"; CL[A]\n", "; TM[82]\n", "; EV[Bei Jing Shi Wei Qi Sai]", "; PC[CN,Bei Jing Qi Yuan]"} {
		if !strings.Contains(out, want) {
			t.Errorf("header %q missing:\n%s", want, out)
		}
	}
	if regexp.MustCompile(`\p{Han}`).MatchString(out) {
		t.Errorf("Chinese characters in an EGD file:\n%s", out)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 3 && !strings.HasPrefix(l, ";") {
			lines[f[1]+" "+f[2]] = l
		}
	}
	for name, want := range map[string][]string{
		"Zhang Wei": {" CN BJ ", "|13513786"}, "Ouyang Xiu": {" CN BJ ", "|10949763"}, "Wong Fong": {" CN BJ "},
		"Li Na": {" CN BJ "}, "Liu Yang": {" CN BJ "}, "Chauvin Robin": {" 2D FR xxx "},
	} {
		l, ok := lines[name]
		if !ok {
			t.Errorf("no line for %s:\n%s", name, out)
			continue
		}
		for _, w := range want {
			if !strings.Contains(l, w) {
				t.Errorf("line of %s lacks %q: %q", name, w, l)
			}
		}
		if len(want) == 1 && strings.Contains(l, "|") {
			t.Errorf("line of %s has a PIN nobody gave: %q", name, l)
		}
	}

	// the importer reads it back, counts unchanged
	rep, err := e.ts.EventReport(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	for _, rd := range rep.Rounds {
		games += len(rd.Games)
	}
	back, err := tournaments.Import(buf.Bytes(), "h9")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := back.Summarize()
	if err != nil {
		t.Fatal(err)
	}
	if sum.Players != len(rep.Participants) || sum.Games != games || sum.Rounds != 3 || sum.EGDPins != 2 {
		t.Fatalf("read back %d players, %d games, %d rounds, %d PINs; want %d, %d, 3, 2", sum.Players, sum.Games, sum.Rounds, sum.EGDPins,
			len(rep.Participants), games)
	}
	for _, p := range back.Players {
		if p.Name() == "Zhang Wei" && (p.Surname != "Zhang" || p.Given != "Wei" || p.Club != "BJ" || p.EGDPin != "13513786") {
			t.Errorf("Zhang Wei read back as %+v", p)
		}
	}

	// a stated class wins; no statement, no class; a class the EGD has not is refused
	buf.Reset()
	if _, _, err := e.ts.ExportEventWith(ctx, &buf, ev.ID, "h9", tournaments.H9Options{Class: "B", Time: opts.Time}); err != nil ||
		!strings.Contains(buf.String(), "; CL[B]\n") {
		t.Fatalf("stated class: %v\n%s", err, buf.String())
	}
	buf.Reset()
	if _, _, err := e.ts.ExportEvent(ctx, &buf, ev.ID, "h9"); err != nil || strings.Contains(buf.String(), "CL[") {
		t.Fatalf("nothing stated: %v\n%s", err, buf.String())
	}
	if _, _, err := e.ts.ExportEventWith(ctx, &buf, ev.ID, "h9", tournaments.H9Options{Class: "Z"}); !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("class Z: %v", err)
	}
}

// TestEGDClassFromTimeLimits follows the EGF's classes: adjusted time is
// the basic time plus 45 moves of byo-yomi, 60 of Canadian, 120 of Fischer.
func TestEGDClassFromTimeLimits(t *testing.T) {
	for _, c := range []struct {
		tc    tournaments.TimeControl
		class string
		adj   int
	}{
		{tournaments.TimeControl{BasicMinutes: 60, Overtime: "byoyomi", Seconds: 30}, "A", 82},
		{tournaments.TimeControl{BasicMinutes: 60, Overtime: "none"}, "B", 60},
		{tournaments.TimeControl{BasicMinutes: 45, Overtime: "fischer", Seconds: 15}, "A", 75},
		{tournaments.TimeControl{BasicMinutes: 40, Overtime: "canadian", Seconds: 300, Stones: 25}, "B", 52},
		{tournaments.TimeControl{BasicMinutes: 25, Overtime: "byoyomi", Seconds: 10}, "C", 32},
		{tournaments.TimeControl{BasicMinutes: 20, Overtime: "byoyomi", Seconds: 30}, "", 42},
		{tournaments.TimeControl{BasicMinutes: 40, Overtime: "byoyomi", Seconds: 30, Online: true}, "D", 62},
	} {
		if got, adj := c.tc.Class(), c.tc.Adjusted(); got != c.class || adj != c.adj {
			t.Errorf("%+v: class %q adjusted %d, want %q %d", c.tc, got, adj, c.class, c.adj)
		}
	}
}
