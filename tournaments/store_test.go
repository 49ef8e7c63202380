package tournaments_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

var beijing = fixture.Agency("110")

type env struct {
	pool  *pgxpool.Pool
	reg   *registry.Service
	cs    *certs.Service
	ts    *tournaments.Service
	clock *fixture.Clock
}

func newEnv(t *testing.T) *env {
	t.Helper()
	pool, _ := harness.NewDB(t)
	clock := fixture.TodayClock(t)
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	fixture.Agencies(t, reg, "110", "310")
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	return &env{pool: pool, reg: reg, cs: cs, ts: tournaments.New(store, reg, proposals.Certs{Certs: cs}), clock: clock}
}

// playRound enters a result for every game of the latest round: the lower
// participant number wins (the field is seeded by strength).
func (e *env) playRound(t *testing.T, id int64, ri tournaments.RoundInfo, sgf func(g tournaments.GameRow) string) {
	t.Helper()
	for _, g := range ri.Games {
		res := "black"
		if g.White < g.Black {
			res = "white"
		}
		in := tournaments.ResultInput{Round: g.Round, Board: g.Board, Result: res}
		if sgf != nil {
			in.SGF = sgf(g)
		}
		if _, err := e.ts.RecordResult(context.Background(), beijing, fmt.Sprintf("r%d-b%d", g.Round, g.Board), id, in); err != nil {
			t.Fatalf("round %d board %d: %v", g.Round, g.Board, err)
		}
	}
}

// TestDanGradeSwissEvent runs a 7-round dan-grade Swiss event: pairing,
// results with records, standings, and the applications proposed for the
// players who reached the threshold.
func TestDanGradeSwissEvent(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, err := e.ts.CreateEvent(ctx, beijing, "create", tournaments.EventInput{Name: "2026年北京市业余段位赛", Start: e.ts.Today(), End: "",
		Venue: "北京棋院", Level: "province", System: "swiss", Rounds: 7, DanGrade: true,
		Groups: []tournaments.GroupInput{{Name: "升段组", TargetRank: "1d", MinWins: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	var players []registry.Player
	for i := range 10 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("选手%02d", i+1), "1k", "1995-01-01", i)
		players = append(players, p)
		if _, err := e.ts.AddParticipant(ctx, beijing, fmt.Sprintf("add-%d", i), ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Group: "升段组"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.ts.AddParticipant(ctx, beijing, "guest", ev.ID, tournaments.ParticipantInput{GuestName: "Guest Player", GuestRank: "1k", GuestCountry: "fr", Group: "升段组"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.AddParticipant(ctx, fixture.Agency("310"), "", ev.ID, tournaments.ParticipantInput{PlayerID: players[0].ID}); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("another agency adding: %v", err)
	}
	for r := 1; r <= 7; r++ {
		ri, err := e.ts.PairNextRound(ctx, beijing, fmt.Sprintf("pair-%d", r), ev.ID)
		if err != nil {
			t.Fatalf("pair round %d: %v", r, err)
		}
		again, err := e.ts.PairNextRound(ctx, beijing, fmt.Sprintf("pair-%d", r), ev.ID)
		if err != nil || fmt.Sprint(again) != fmt.Sprint(ri) {
			t.Fatalf("retried pairing of round %d: %v", r, err)
		}
		if len(ri.Games) != 5 || ri.Bye == 0 {
			t.Fatalf("round %d: %d games, bye %d; want 5 games and a bye for 11 players", r, len(ri.Games), ri.Bye)
		}
		if r == 1 {
			if _, err := e.ts.PairNextRound(ctx, beijing, "too-early", ev.ID); !errors.Is(err, ledger.ErrPrecondition) {
				t.Fatalf("pairing before results: %v", err)
			}
		}
		e.playRound(t, ev.ID, ri, nil)
	}
	if _, err := e.ts.PairNextRound(ctx, beijing, "eighth", ev.ID); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("an eighth round: %v", err)
	}
	rep, err := e.ts.Finish(ctx, beijing, "finish", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	qualified := map[string]bool{}
	for _, s := range rep.Standings {
		if s.Wins >= 5 {
			qualified[s.Name] = true
		}
	}
	if len(qualified) == 0 {
		t.Fatal("nobody reached 5 wins")
	}
	proposed := 0
	for _, p := range rep.Proposals {
		if !qualified[p.Name] {
			t.Fatalf("%s proposed without qualifying", p.Name)
		}
		switch {
		case p.Name == "Guest Player":
			if p.ApplicationID != 0 || !strings.Contains(p.Note, "guest") || p.NoteCode != "PROPOSAL_GUEST" || p.NoteText(ledger.Chinese) != "客座选手，未在系统中登记" {
				t.Fatalf("guest proposal: %+v", p)
			}
		case p.ApplicationID == 0:
			t.Fatalf("no application for %s: %s", p.Name, p.Note)
		default:
			proposed++
			if p.NoteCode != "PROPOSAL_FILED" || p.NoteText(ledger.Chinese) != "已提出申请" || p.NoteText(ledger.English) != "proposed" {
				t.Fatalf("proposal note %+v", p)
			}
			a, err := e.cs.GetApplication(ctx, beijing, p.ApplicationID)
			if err != nil || a.TargetRank != 1 || a.Basis != certs.Tournament || a.Status != certs.AppApplied || !strings.Contains(a.EventRef, "段位赛") || a.EventID != ev.ID || a.Wins < 5 || a.EarnedRank != 1 {
				t.Fatalf("application %d: %+v %v", p.ApplicationID, a, err)
			}
		}
	}
	if proposed == 0 || len(rep.Proposals) != len(qualified) {
		t.Fatalf("%d proposals (%d applications) for %d qualified", len(rep.Proposals), proposed, len(qualified))
	}
	if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "white"}); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("changing a finished event: %v", err)
	}
}

func TestRecordsAreAdjudicatedAndFlagged(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, _ := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "循环赛", Start: e.ts.Today(), Level: "city", System: "round_robin"})
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("P%d", i), "", "1990-01-01", i)
		e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Berger round 1 for four: 1–4, 2–3
	if ri.Games[0].Black != 1 || ri.Games[0].White != 4 || ri.Games[1].Black != 2 || ri.Games[1].White != 3 {
		t.Fatalf("round 1: %+v", ri.Games)
	}
	resign := "(;GM[1]SZ[19]KM[7.5]RE[B+R];B[pd];W[dp])"
	g, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "black", SGF: resign})
	if err != nil || g.Flagged || g.Adjudicated != "B+R" {
		t.Fatalf("agreeing record: %+v %v", g, err)
	}
	g, err = e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 2, Result: "black", SGF: "(;GM[1]SZ[19]RE[W+R];B[pd])"})
	if err != nil || !g.Flagged || g.Result != tournaments.BlackWins || !strings.Contains(g.FlagReason, "W+R") {
		t.Fatalf("disagreeing record: %+v %v", g, err)
	}
	g, err = e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 2, Result: "black", SGF: "(;GM[1]SZ[19"})
	if err != nil || !g.Flagged || !strings.Contains(g.FlagReason, "could not be read") {
		t.Fatalf("broken record: %+v %v", g, err)
	}
	// a record with NUL cannot be kept as text; one in GB18030 is kept as UTF-8
	if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 2, Result: "black",
		SGF: "(;GM[1]SZ[19]C[\x00]RE[B+R];B[pd])"}); !isCode(err, "INVALID_TEXT") {
		t.Fatalf("record with NUL: %v", err)
	}
	g, err = e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 2, Result: "black",
		SGF: "(;GM[1]SZ[19]CA[GB18030]PB[\xcd\xf5]RE[B+R];B[pd])"})
	if err != nil || g.Flagged || !strings.Contains(g.Record, "PB[王]") {
		t.Fatalf("GB18030 record: %+v %v", g, err)
	}
	var fe *ledger.Error
	if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 2, Result: "B+R"}); !errors.As(err, &fe) {
		t.Fatalf("unknown result: %v", err)
	}
	if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 9, Board: 1, Result: "black"}); !errors.Is(err, ledger.ErrNotFound) {
		t.Fatalf("unknown game: %v", err)
	}
}

func TestKnockoutEvent(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, _ := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "淘汰赛", Start: e.ts.Today(), Level: "city", System: "knockout"})
	for i, r := range []string{"2k", "3d", "1d", "1k", "2d"} {
		p := fixture.Player(t, e.reg, "110", "K"+r, r, "1990-01-01", i)
		e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	// seeds by rank: 3d (#2), 2d (#5), 1d (#3), 1k (#4), 2k (#1); 8 places, so seeds 1–3 have byes
	ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil || len(ri.Games) != 1 || ri.Games[0].Black != 4 || ri.Games[0].White != 1 {
		t.Fatalf("round 1: %+v %v", ri, err)
	}
	e.playRound(t, ev.ID, ri, nil) // 1 beats 4
	ri, err = e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil || len(ri.Games) != 2 {
		t.Fatalf("round 2: %+v %v", ri, err)
	}
	if ri.Games[0].Black != 2 || ri.Games[0].White != 1 || ri.Games[1].Black != 5 || ri.Games[1].White != 3 {
		t.Fatalf("semi-finals %+v, want 2–1 and 5–3", ri.Games)
	}
}

// TestImportMatchesPlayers imports the real h-file: nobody is in the registry,
// so every player is listed for matching; one registered namesake, of whom
// the file says nothing that agrees (a French club, a rank far from his),
// is proposed, not matched; the clerk confirms him, the rest come in as
// guests.
func TestImportMatchesPlayers(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	data, err := os.ReadFile("testdata/TestPartEtLic.h9")
	if err != nil {
		t.Fatal(err)
	}
	robin := fixture.Player(t, e.reg, "110", "Chauvin Robin", "20k", "1990-01-01", 1)
	dry, err := e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: data, Level: "city"})
	if err != nil {
		t.Fatal(err)
	}
	unmatched := 0
	for _, p := range dry.Players {
		switch {
		case p.Name == "Chauvin Robin" && (p.Status != "proposed" || p.PlayerID != 0 || len(p.Candidates) != 1 || p.Candidates[0] != robin.ID):
			t.Fatalf("a unique namesake with nothing agreeing is matched or not proposed: %+v", p)
		case p.Status == "unmatched":
			unmatched++
		}
	}
	if unmatched != 21 || dry.Event != nil {
		t.Fatalf("%d unmatched, event %v; want 21 listed and nothing created", unmatched, dry.Event)
	}
	_, err = e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: data, Level: "city", Commit: true})
	if !errors.Is(err, ledger.ErrPrecondition) || !strings.Contains(err.Error(), "22 players") {
		t.Fatalf("commit with unmatched players: %v", err)
	}
	var guests []int
	for _, p := range dry.Players {
		if p.Status == "unmatched" {
			guests = append(guests, p.Index)
		}
	}
	res, err := e.ts.ImportEvent(ctx, beijing, "import-1", tournaments.ImportInput{Data: data, Level: "city", Guests: guests, Commit: true,
		Matches: map[int]int64{1: robin.ID}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.ts.EventReport(ctx, res.Event.ID)
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	for _, r := range rep.Rounds {
		games += len(r.Games)
	}
	if len(rep.Participants) != 22 || len(rep.Rounds) != 4 || games != 31 || rep.Standings[0].Name != "Chauvin Robin" {
		t.Fatalf("imported: %d participants, %d rounds, %d games, first %s", len(rep.Participants), len(rep.Rounds), games, rep.Standings[0].Name)
	}
	if page, _ := e.reg.SearchPlayers(ctx, fixture.Staff, registry.PlayerQuery{}); page.Total != 1 {
		t.Fatalf("the import created %d registry players; it must create none", page.Total-1)
	}
}

// TestImportKeepsEGDPins imports a real OpenGotha 3.52 file whose egfPin
// values hold a newline; every player comes in as a guest, and each guest
// keeps the PIN the file gives (or none).
func TestImportKeepsEGDPins(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	data, err := os.ReadFile("testdata/real/bogazici2024.xml")
	if err != nil {
		t.Fatal(err)
	}
	dry, err := e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: data, Level: "city"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	var guests []int
	for _, p := range dry.Players {
		guests = append(guests, p.Index)
		want[p.Name] = p.EGDPin
	}
	if want["Kose Dogac"] != "14825052" {
		t.Fatalf("dry run: Kose Dogac has PIN %q, want 14825052", want["Kose Dogac"])
	}
	res, err := e.ts.ImportEvent(ctx, beijing, "import-pins", tournaments.ImportInput{Data: data, Level: "city", Guests: guests, Commit: true})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := e.ts.Participants(ctx, res.Event.ID)
	if err != nil {
		t.Fatal(err)
	}
	pins := 0
	for _, p := range ps {
		if p.PlayerID != 0 || p.EGDPin != want[p.Name] {
			t.Fatalf("participant %s (player %d): PIN %q, want %q as a guest", p.Name, p.PlayerID, p.EGDPin, want[p.Name])
		}
		if p.EGDPin != "" {
			pins++
		}
	}
	if len(ps) != 39 || pins != 34 {
		t.Fatalf("%d participants, %d with a PIN; want 39 and 34", len(ps), pins)
	}
}

// TestRoundRobinWithdrawalInTheRegistry: a player leaves a six-player round
// robin after two of five rounds; his remaining games need no result, and
// all his results are void in the standings.
func TestRoundRobinWithdrawalInTheRegistry(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, _ := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "退赛", Start: e.ts.Today(), Level: "city", System: "round_robin"})
	for i := range 6 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("W%d", i+1), "", "1990-01-01", i)
		e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	for r := 1; r <= 5; r++ {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		for _, g := range ri.Games {
			if r > 2 && (g.Black == 6 || g.White == 6) {
				continue // he is gone
			}
			res := "black"
			if g.White < g.Black {
				res = "white"
			}
			if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: r, Board: g.Board, Result: res}); err != nil {
				t.Fatal(err)
			}
		}
		if r == 2 {
			if _, err := e.ts.Withdraw(ctx, beijing, "", ev.ID, 6); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep, err := e.ts.Finish(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := rep.Standings[len(rep.Standings)-1]
	if last.Name != "W6" || last.Points != 0 || last.Played != 0 || !last.Withdrawn {
		t.Fatalf("withdrawn player: %+v", last)
	}
	for _, s := range rep.Standings[:5] {
		if s.Played != 4 {
			t.Fatalf("%s has %d games counted, want 4 (the game with W6 is void)", s.Name, s.Played)
		}
	}
}

// TestTeamRoundRobin pairs three teams of two boards: each round one match,
// board k against board k, colours alternating by board; team standings follow.
func TestTeamRoundRobin(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "团体赛", Start: e.ts.Today(), Level: "city", System: "round_robin", Team: true})
	if err != nil {
		t.Fatal(err)
	}
	seq := 0
	for _, team := range []string{"东城", "西城", "海淀"} {
		for board := 1; board <= 2; board++ {
			p := fixture.Player(t, e.reg, "110", fmt.Sprintf("%s%d", team, board), "", "1990-01-01", seq)
			seq++
			if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Team: team, Board: board}); err != nil {
				t.Fatal(err)
			}
		}
	}
	team := func(n int) int { return (n - 1) / 2 }  // participants 1–2 東城, 3–4 西城, 5–6 海淀
	board := func(n int) int { return (n-1)%2 + 1 } // odd numbers are board 1
	met := map[[2]int]bool{}
	for r := 1; r <= 3; r++ {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if len(ri.Games) != 2 || ri.Bye == 0 {
			t.Fatalf("round %d: %d games, bye %d; want one match of two boards and a team sitting out", r, len(ri.Games), ri.Bye)
		}
		for _, g := range ri.Games {
			if board(g.Black) != board(g.White) || team(g.Black) == team(g.White) {
				t.Fatalf("round %d: %d plays %d", r, g.Black, g.White)
			}
			ta, tb := min(team(g.Black), team(g.White)), max(team(g.Black), team(g.White))
			met[[2]int{ta, tb}] = true
			// 東城 wins everything; otherwise board 1 wins for the lower team
			res := "white"
			if team(g.Black) < team(g.White) {
				res = "black"
			}
			if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: r, Board: g.Board, Result: res}); err != nil {
				t.Fatal(err)
			}
		}
		if ri.Games[0].Black == ri.Games[1].Black || team(ri.Games[0].Black) == team(ri.Games[1].Black) {
			t.Fatalf("round %d: colours do not alternate by board: %+v", r, ri.Games)
		}
	}
	if len(met) != 3 {
		t.Fatalf("matches %v, want every pair of teams once", met)
	}
	rep, err := e.ts.EventReport(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	// each team sat out one round: a bye is a match won (2), so 东城 2+2+2, 海淀 0+0+2
	if len(rep.Teams) != 3 || rep.Teams[0].Team != "东城" || rep.Teams[0].MatchPoints != 6 || rep.Teams[2].MatchPoints != 2 ||
		rep.Teams[0].Matches != 3 {
		t.Fatalf("team standings %+v", rep.Teams)
	}
}

// TestDoubleKnockoutEvent plays a four-player double elimination to its end.
func TestDoubleKnockoutEvent(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, _ := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "双败", Start: e.ts.Today(), Level: "city", System: "double_knockout"})
	for i, r := range []string{"3d", "2d", "1d", "1k"} {
		p := fixture.Player(t, e.reg, "110", "D"+r, r, "1990-01-01", i)
		e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID})
	}
	losses := map[int]int{}
	for round := 1; ; round++ {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
		if errors.Is(err, ledger.ErrPrecondition) && strings.Contains(err.Error(), "decided") {
			break
		}
		if err != nil || round > 10 {
			t.Fatalf("round %d: %v", round, err)
		}
		for _, g := range ri.Games {
			if losses[g.Black] >= 2 || losses[g.White] >= 2 {
				t.Fatalf("round %d pairs an eliminated player", round)
			}
			res := "black" // the stronger seed (lower number) wins
			if g.White < g.Black {
				res = "white"
				losses[g.Black]++
			} else {
				losses[g.White]++
			}
			if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: round, Board: g.Board, Result: res}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if losses[1] != 0 || losses[2] != 2 || losses[3] != 2 || losses[4] != 2 {
		t.Fatalf("losses %v: the top seed should be the last one standing", losses)
	}
}

// TestTeamKnockout: four teams of two boards, seeded by strength; the
// stronger team wins each match; the final is between the top two seeds.
func TestTeamKnockout(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, _ := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "团体淘汰", Start: e.ts.Today(), Level: "city", System: "knockout", Team: true})
	teamOf := map[int]string{}
	seq := 0
	for _, tm := range []struct{ name, rank string }{{"甲队", "3d"}, {"乙队", "2d"}, {"丙队", "1d"}, {"丁队", "1k"}} {
		for board := 1; board <= 2; board++ {
			p := fixture.Player(t, e.reg, "110", fmt.Sprintf("%s%d", tm.name, board), tm.rank, "1990-01-01", seq)
			seq++
			pt, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Team: tm.name, Board: board})
			if err != nil {
				t.Fatal(err)
			}
			teamOf[pt.Number] = tm.name
		}
	}
	strong := map[string]int{"甲队": 4, "乙队": 3, "丙队": 2, "丁队": 1}
	var final []string
	for round := 1; round <= 2; round++ {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		final = nil
		for _, g := range ri.Games {
			res := "black"
			if strong[teamOf[g.White]] > strong[teamOf[g.Black]] {
				res = "white"
			}
			final = append(final, teamOf[g.Black], teamOf[g.White])
			if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: round, Board: g.Board, Result: res}); err != nil {
				t.Fatal(err)
			}
		}
		if round == 1 && len(ri.Games) != 4 {
			t.Fatalf("semi-finals: %d games, want two matches of two boards", len(ri.Games))
		}
	}
	if len(final) != 4 || !((final[0] == "甲队" && final[1] == "乙队") || (final[0] == "乙队" && final[1] == "甲队")) {
		t.Fatalf("final between %v, want 甲队 and 乙队", final)
	}
	if _, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID); !errors.Is(err, ledger.ErrPrecondition) || !strings.Contains(err.Error(), "甲队") {
		t.Fatalf("after the final: %v", err)
	}
}

// isCode reports whether err is a refusal with the reason code.
func isCode(err error, code string) bool {
	e, ok := ledger.AsError(err)
	return ok && e.Reason.Code() == code
}

// TestImportKeepsEveryByeAndPlaceholders: a round's two byes are both
// stored and scored; a placeholder confirmed as a bye is neither a
// participant nor in a game; the event exports to OpenGotha and reads back
// with the same counts.
func TestImportKeepsEveryByeAndPlaceholders(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	guestsOf := func(ps []tournaments.ImportPlayer) []int {
		var g []int
		for _, p := range ps {
			if p.Status == "unmatched" {
				g = append(g, p.Index)
			}
		}
		return g
	}
	data, err := os.ReadFile("testdata/made/twobyes2024.xml")
	if err != nil {
		t.Fatal(err)
	}
	dry, err := e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: data, Level: "city"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.ts.ImportEvent(ctx, beijing, "two-byes", tournaments.ImportInput{Data: data, Level: "city", Guests: guestsOf(dry.Players), Commit: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.ts.EventReport(ctx, res.Event.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rd := rep.Rounds[0]; rd.Bye == 0 || len(rd.MoreByes) != 1 || rd.ByePointsOf(5) != tournaments.WinPoints || rd.ByePointsOf(6) != tournaments.WinPoints {
		t.Fatalf("round 1 byes: %d and %+v", rd.Bye, rd.MoreByes)
	}
	var buf bytes.Buffer
	if _, _, err := e.ts.ExportEvent(ctx, &buf, res.Event.ID, "opengotha"); err != nil {
		t.Fatal(err)
	}
	back, err := tournaments.Import(buf.Bytes(), "")
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := tournaments.Import(data, "")
	if len(back.Players) != len(orig.Players) || len(back.Games) != len(orig.Games) || len(back.Byes) != 2 || back.Rounds != orig.Rounds {
		t.Fatalf("exported and read back: %d players, %d games, %d byes", len(back.Players), len(back.Games), len(back.Byes))
	}

	club, err := os.ReadFile("testdata/made/clubweekly2025.h9")
	if err != nil {
		t.Fatal(err)
	}
	dry, err = e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: club, Level: "city"})
	if err != nil {
		t.Fatal(err)
	}
	placeholder := 0
	for _, w := range dry.Summary.Warnings {
		if w.Code == "IMPORT_PLACEHOLDER_NAME" {
			placeholder = w.Player
		}
	}
	if placeholder != 4 {
		t.Fatalf("dry run warnings %+v", dry.Summary.Warnings)
	}
	in := tournaments.ImportInput{Data: club, Level: "city", ByePlayers: []int{placeholder}, Commit: true}
	dry, err = e.ts.ImportEvent(ctx, beijing, "", tournaments.ImportInput{Data: club, Level: "city", ByePlayers: []int{placeholder}})
	if err != nil {
		t.Fatal(err)
	}
	in.Guests = guestsOf(dry.Players)
	res, err = e.ts.ImportEvent(ctx, beijing, "club", in)
	if err != nil {
		t.Fatal(err)
	}
	rep, err = e.ts.EventReport(ctx, res.Event.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Participants) != 3 || len(rep.Standings) != 3 {
		t.Fatalf("%d participants, %d ranked; want 3 without the placeholder", len(rep.Participants), len(rep.Standings))
	}
	games, byes := 0, 0
	for _, rd := range rep.Rounds {
		games += len(rd.Games)
		if rd.Bye != 0 {
			byes++
		}
		byes += len(rd.MoreByes)
	}
	if games != 3 || byes != 3 || rep.Standings[0].Name != "张 三" || rep.Standings[0].Points != 6 {
		t.Fatalf("%d games, %d byes, leader %+v", games, byes, rep.Standings[0])
	}
}
