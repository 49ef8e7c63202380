package tournaments_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// danGradeRoundRobin plays a finished dan-grade round robin of four 1 kyu
// players (the lower number wins every game) with a 1 dan threshold of
// three wins: participant 1, who won all three, is proposed.
func danGradeRoundRobin(t *testing.T, e *env) (tournaments.Event, []registry.Player) {
	t.Helper()
	ctx := context.Background()
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "定段循环赛", Start: e.ts.Today(), Level: "province",
		System: "round_robin", DanGrade: true, ChiefReferee: "王裁判",
		Groups: []tournaments.GroupInput{{Name: "升段组", TargetRank: "1d", MinWins: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	var ps []registry.Player
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("段%d", i+1), "1k", "1995-01-01", 40+i)
		ps = append(ps, p)
		if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Group: "升段组"}); err != nil {
			t.Fatal(err)
		}
	}
	for r := 1; r <= 3; r++ {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		e.playRound(t, ev.ID, ri, nil)
	}
	if _, err := e.ts.Finish(ctx, beijing, "", ev.ID); err != nil {
		t.Fatal(err)
	}
	return ev, ps
}

func wins(r tournaments.Report) map[int]int {
	out := map[int]int{}
	for _, s := range r.Standings {
		out[s.Entrant] = s.Wins
	}
	return out
}

// TestVoidedArrangedGame: the round-2 game of participants 1 and 2, found
// arranged after the dan-grade event finished, is voided for both: the
// standings change, the proposal that rested on it is withdrawn, and the
// game leaves the rated games.
func TestVoidedArrangedGame(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, _ := danGradeRoundRobin(t, e)
	before, err := e.ts.EventReport(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if w := wins(before); w[1] != 3 || w[2] != 2 {
		t.Fatalf("wins before: %v", w)
	}
	var app int64
	for _, p := range before.Proposals {
		if p.Number == 1 {
			app = p.ApplicationID
		}
	}
	if app == 0 {
		t.Fatalf("participant 1 was not proposed: %+v", before.Proposals)
	}
	// Berger round 2 of four pairs 1 and 2
	var board int
	for _, g := range before.Rounds[1].Games {
		if (g.Black == 1 && g.White == 2) || (g.Black == 2 && g.White == 1) {
			board = g.Board
		}
	}
	if board == 0 {
		t.Fatalf("round 2: %+v", before.Rounds[1].Games)
	}
	if _, err := e.ts.VoidResult(ctx, fixture.Agency("310"), "", ev.ID, tournaments.VoidInput{Round: 2, Board: board, Side: "black", Reason: "x"}); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("another agency voiding: %v", err)
	}
	side := tournaments.VoidBoth
	v, err := e.ts.VoidResult(ctx, fixture.Staff, "void-1", ev.ID, tournaments.VoidInput{Round: 2, Board: board, Side: side, Reason: "下假棋：赛后查实"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Game.Voided != string(side) || v.Game.Result != tournaments.BothLose || v.Game.VoidedResult == "" || len(v.Withdrawn) != 1 || v.Withdrawn[0].Number != 1 {
		t.Fatalf("void: %+v", v)
	}
	// what became of the proposal is a code, worded in either language
	if w := v.Withdrawn[0]; w.NoteCode != "PROPOSAL_WITHDRAWN" || w.NoteParams["done"] != certs.BasisWithdrawn ||
		w.NoteText(ledger.Chinese) != "已撤回：申请已撤回" || w.NoteText(ledger.English) != "withdrawn: withdrawn" || w.Note != w.NoteText(ledger.English) {
		t.Fatalf("the withdrawn proposal's note: %+v", w)
	}
	again, err := e.ts.VoidResult(ctx, fixture.Staff, "void-1", ev.ID, tournaments.VoidInput{Round: 2, Board: board, Side: side, Reason: "下假棋：赛后查实"})
	if err != nil || fmt.Sprint(again) != fmt.Sprint(v) {
		t.Fatalf("retried void: %+v %v", again, err)
	}
	after, err := e.ts.EventReport(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if w := wins(after); w[1] != 2 || w[2] != 2 {
		t.Fatalf("wins after the void: %v", w)
	}
	for _, s := range after.Standings {
		if s.Entrant == 1 && (s.Points != 4 || s.Losses != 1) {
			t.Fatalf("participant 1 after the void: %+v", s)
		}
	}
	a, err := e.cs.GetApplication(ctx, fixture.Staff, app)
	if err != nil || a.Status != certs.AppRejected {
		t.Fatalf("the proposal's application: %+v %v", a, err)
	}
	rated, err := tournaments.RatedGames(ctx, e.pool, ev.Start, ev.Start.AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range rated {
		if g.Round == 2 && g.Board == board {
			t.Fatalf("a voided game is still rated: %+v", g)
		}
	}
	if len(rated) != 5 {
		t.Fatalf("%d rated games, want the 5 not voided", len(rated))
	}
}

// TestSuspendedPlayerCannotEnter: a suspension covering an event's days
// refuses the entry; one that ended before does not.
func TestSuspendedPlayerCannotEnter(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	p := fixture.Player(t, e.reg, "110", "停赛者", "1k", "1995-01-01", 60)
	if _, err := e.ts.Suspend(ctx, beijing, "", tournaments.SuspensionInput{PlayerID: p.ID, From: "2026-12-01", To: "2027-05-31", Reason: "下假棋"}); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("an agency suspending: %v", err)
	}
	if _, err := e.ts.Suspend(ctx, fixture.Staff, "", tournaments.SuspensionInput{PlayerID: p.ID, From: "2027-01-01", To: "2026-12-01", Reason: "x"}); !isCode(err, "SUSPENSION_DATES") {
		t.Fatalf("dates backwards: %v", err)
	}
	sp, err := e.ts.Suspend(ctx, fixture.Staff, "", tournaments.SuspensionInput{PlayerID: p.ID, From: "2026-12-01", To: "2027-05-31", Reason: "下假棋"})
	if err != nil {
		t.Fatal(err)
	}
	during, _ := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "春季赛", Start: "2027-05-31", End: "2027-06-01", Level: "city", System: "round_robin"})
	if _, err := e.ts.AddParticipant(ctx, beijing, "", during.ID, tournaments.ParticipantInput{PlayerID: p.ID}); !isCode(err, "SUSPENDED") {
		t.Fatalf("entering while suspended: %v", err)
	}
	later, _ := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "夏季赛", Start: "2027-06-01", Level: "city", System: "round_robin"})
	if _, err := e.ts.AddParticipant(ctx, beijing, "", later.ID, tournaments.ParticipantInput{PlayerID: p.ID}); err != nil {
		t.Fatalf("entering after the suspension: %v", err)
	}
	list, err := e.ts.Suspensions(ctx, p.ID)
	if err != nil || len(list) != 1 || list[0].ID != sp.ID || list[0].Reason != "下假棋" {
		t.Fatalf("suspensions: %+v %v", list, err)
	}
}

// TestRefereeingAtTheBoard: a confirmed result is final for the
// organiser; a protest is lodged and ruled; a forfeit keeps its reason;
// a nigiri records who held the stones and seats the players; wrong
// colours noticed late keep the result for the players who played.
func TestRefereeingAtTheBoard(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "猜先赛", Start: e.ts.Today(), Level: "city",
		System: "round_robin", Colours: "nigiri", ChiefReferee: "李裁判"})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Colours != tournaments.ColoursNigiri || ev.ChiefReferee != "李裁判" {
		t.Fatalf("event: %+v", ev)
	}
	// 1 and 2 are both 2 dan, 1 the younger; 3 is 1 dan, 4 is 1 kyu
	for i, pl := range []struct{ rank, birth string }{{"2d", "2001-01-01"}, {"2d", "1990-01-01"}, {"1d", "1995-01-01"}, {"1k", "1995-01-01"}} {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("猜%d", i+1), pl.rank, pl.birth, 70+i)
		if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Berger round 1 for four: 1–4 and 2–3.
	g, err := e.ts.RecordNigiri(ctx, beijing, "", ev.ID, tournaments.NigiriInput{Round: 1, Board: 1, Guess: "odd", Stones: 7})
	if err != nil {
		t.Fatal(err)
	}
	// 1 (2d) holds against 4 (1k); 4 guessed right and takes black
	if !g.Nigiri || g.NigiriHolder != 1 || g.NigiriGuess != "odd" || g.Black != 4 || g.White != 1 {
		t.Fatalf("nigiri on board 1: %+v", g)
	}
	if _, err := e.ts.RecordNigiri(ctx, beijing, "", ev.ID, tournaments.NigiriInput{Round: 1, Board: 1, Guess: "three", Stones: 7}); !isCode(err, "NIGIRI") {
		t.Fatalf("a bad guess: %v", err)
	}
	_ = ri

	// a protest on board 1 by participant 4, ruled by the organiser's referee
	if _, err := e.ts.LodgeProtest(ctx, beijing, "", ev.ID, tournaments.ProtestInput{Round: 1, Board: 1, Number: 2, Reason: "x"}); !isCode(err, "NO_SUCH_PARTICIPANT") {
		t.Fatalf("a protest by a player not in the game: %v", err)
	}
	pr, err := e.ts.LodgeProtest(ctx, beijing, "", ev.ID, tournaments.ProtestInput{Round: 1, Board: 1, Number: 4, Reason: "对方超时未判"})
	if err != nil || pr.Status != "open" {
		t.Fatalf("protest: %+v %v", pr, err)
	}
	pr, err = e.ts.RuleProtest(ctx, beijing, "", ev.ID, pr.ID, false, "经查计时器读数无误，驳回申诉。")
	if err != nil || pr.Status != "dismissed" || pr.RuledAt == nil {
		t.Fatalf("ruling: %+v %v", pr, err)
	}
	if _, err := e.ts.RuleProtest(ctx, beijing, "", ev.ID, pr.ID, true, "again"); !isCode(err, "NO_SUCH_PROTEST") {
		t.Fatalf("ruling twice: %v", err)
	}

	// board 2: a forfeit for lateness, with its reason
	g, err = e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 2, Result: "white_forfeit", ForfeitReason: "late"})
	if err != nil || g.ForfeitReason != "late" {
		t.Fatalf("forfeit: %+v %v", g, err)
	}
	if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 2, Result: "black", ForfeitReason: "late"}); !isCode(err, "FORFEIT_REASON") {
		t.Fatalf("a reason on a played game: %v", err)
	}
	// board 1: wrong colours noticed at move 40: the seat with black (4)
	// played white and won as white — the winner is 4 all the same.
	g, err = e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "white", ColoursSwapped: true, NoticedAtMove: 40})
	if err != nil || g.Result != tournaments.BlackWins || !g.WrongColours {
		t.Fatalf("wrong colours kept: %+v %v", g, err)
	}
	// noticed at move 8 it was corrected: the result is as reported
	g, err = e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "white", ColoursSwapped: true, NoticedAtMove: 8})
	if err != nil || g.Result != tournaments.WhiteWins || g.WrongColours {
		t.Fatalf("wrong colours corrected: %+v %v", g, err)
	}

	// the protest came while the game was on: once its result is recorded it is too late
	if _, err := e.ts.LodgeProtest(ctx, beijing, "", ev.ID, tournaments.ProtestInput{Round: 1, Board: 1, Number: 4, Reason: "对方超时未判"}); !isCode(err, "PROTEST_AFTER_RESULT") {
		t.Fatalf("a protest after the result: %v", err)
	}

	// the chief referee confirms round 1: the organiser can no longer change it, staff can
	if _, err := e.ts.ConfirmRound(ctx, beijing, "", ev.ID, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "black"}); !isCode(err, "RESULT_CONFIRMED") {
		t.Fatalf("organiser changing a confirmed result: %v", err)
	}
	if g, err := e.ts.RecordResult(ctx, fixture.Staff, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "black"}); err != nil || g.Result != tournaments.BlackWins {
		t.Fatalf("staff correcting a confirmed result: %+v %v", g, err)
	}
	rounds, _ := e.ts.Rounds(ctx, ev.ID)
	for _, g := range rounds[0].Games {
		if !g.Confirmed || g.ConfirmedBy != beijing.String() {
			t.Fatalf("round 1 not confirmed: %+v", g)
		}
	}
}

// TestTeamMemberWithdraws: a member who leaves a team round robin after
// round 1 keeps his result, his board is forfeited from then on, and the
// next round pairs (it could not before: "team B has 1 boards").
func TestTeamMemberWithdraws(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "团体退赛", Start: e.ts.Today(), Level: "city", System: "round_robin", Team: true})
	if err != nil {
		t.Fatal(err)
	}
	seq := 0
	for _, team := range []string{"甲", "乙", "丙", "丁"} {
		for board := 1; board <= 2; board++ {
			p := fixture.Player(t, e.reg, "110", fmt.Sprintf("%s队%d", team, board), "", "1990-01-01", 90+seq)
			seq++
			if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID, Team: team, Board: board}); err != nil {
				t.Fatal(err)
			}
		}
	}
	ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	e.playRound(t, ev.ID, ri, nil)
	// participant 2 (甲, board 2) leaves after round 1
	if _, err := e.ts.Withdraw(ctx, beijing, "", ev.ID, 2); err != nil {
		t.Fatal(err)
	}
	r2, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatalf("round 2 after a member left: %v", err)
	}
	forfeits := 0
	for _, g := range r2.Games {
		if g.Black == 2 || g.White == 2 {
			want := tournaments.WhiteForfeit
			if g.White == 2 {
				want = tournaments.BlackForfeit
			}
			if g.Result != want || g.ForfeitReason != "withdrawn" {
				t.Fatalf("the withdrawn member's game: %+v", g)
			}
			forfeits++
		}
	}
	if forfeits != 1 || len(r2.Games) != 4 {
		t.Fatalf("round 2: %d games, %d forfeits", len(r2.Games), forfeits)
	}
	rep, err := e.ts.EventReport(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	played := 0
	for _, g := range rep.Rounds[0].Games {
		if (g.Black == 2 || g.White == 2) && g.Result != "" {
			played++
		}
	}
	if played != 1 {
		t.Fatalf("his round-1 result should stand: %+v", rep.Rounds[0].Games)
	}
}

// TestVoidFlagsIssuedCertificate: a certificate already issued on a result
// later voided is not revoked by the void but flagged; staff list it, a
// reissue keeps the flag, and staff either keep it (with a note, logged)
// or revoke it, after which it leaves the list.
func TestVoidFlagsIssuedCertificate(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	now := e.clock.Now()
	fixture.StockThrough(t, e.cs, "110", now, now.AddDate(0, 1, 0), 10, 0)
	number := fixture.FlaggedCertificate(t, e.reg, e.cs, e.ts, now.In(ledger.ChinaTime).Format("2006-01-02"), "段", 40)
	v, err := e.cs.Verify(ctx, number)
	if err != nil || v.Certificate.Status != certs.CertValid {
		t.Fatalf("the void revoked the certificate itself: %+v %v", v, err)
	}
	if _, err := e.cs.CertificatesForReview(ctx, beijing); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("an agency listing the flagged: %v", err)
	}
	flagged := func() []certs.Review {
		t.Helper()
		rs, err := e.cs.CertificatesForReview(ctx, fixture.Staff)
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	rs := flagged()
	if len(rs) != 1 || rs[0].Number != number || rs[0].PlayerName != "段1" || rs[0].Rank.String() != "1d" || !strings.Contains(rs[0].Reason, "下假棋") {
		t.Fatalf("flagged: %+v", rs)
	}
	if r := rs[0]; r.Code != certs.ReviewBasisVoided.Code() || r.Params["reason"] != "下假棋" || !strings.HasPrefix(r.ReasonText(ledger.Chinese), "比赛 ") {
		t.Fatalf("the flag's code: %+v (%s)", r, r.ReasonText(ledger.Chinese))
	}
	// a reissue is no way out of the review
	re, err := e.cs.Reissue(ctx, beijing, "", number, "遗失")
	if err != nil {
		t.Fatal(err)
	}
	if rs := flagged(); len(rs) != 1 || rs[0].Number != re.Number {
		t.Fatalf("flagged after the reissue: %+v", rs)
	}
	if _, err := e.cs.KeepCertificate(ctx, fixture.Staff, "", re.Number, " "); ledger.KindOf(err) != ledger.Invalid {
		t.Fatalf("keeping without a note: %v", err)
	}
	if _, err := e.cs.KeepCertificate(ctx, beijing, "", re.Number, "另有成绩"); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("an agency keeping: %v", err)
	}
	if _, err := e.cs.KeepCertificate(ctx, fixture.Staff, "keep-1", re.Number, "另有三胜成绩，升段成立"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.KeepCertificate(ctx, fixture.Staff, "keep-1", re.Number, "另有三胜成绩，升段成立"); err != nil {
		t.Fatalf("the keep retried: %v", err)
	}
	if rs := flagged(); len(rs) != 0 {
		t.Fatalf("flagged after the keep: %+v", rs)
	}
	if _, err := e.cs.KeepCertificate(ctx, fixture.Staff, "", re.Number, "再次"); ledger.KindOf(err) != ledger.Precondition {
		t.Fatalf("keeping what is not flagged: %v", err)
	}
	evs, err := ledger.EventsFor(ctx, e.pool, "certificate", re.Number)
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, ev := range evs {
		if ev.Action == "certificate.review_kept" {
			kept++
			if ev.Actor != fixture.Staff.String() || !strings.Contains(string(ev.Payload), "升段成立") {
				t.Fatalf("the keep's event: %+v", ev)
			}
		}
	}
	if kept != 1 {
		t.Fatalf("%d keep events, want 1", kept)
	}
}

// TestVoidAndConfirmRefusals: the organiser cannot undo staff's void by
// reporting the game again; confirming a round never paired is not found.
func TestVoidAndConfirmRefusals(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, _ := danGradeRoundRobin(t, e)
	if _, err := e.ts.VoidResult(ctx, fixture.Staff, "", ev.ID, tournaments.VoidInput{Round: 1, Board: 1, Side: tournaments.VoidBoth, Reason: "下假棋"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "black"}); ledger.KindOf(err) != ledger.Precondition {
		t.Fatalf("the organiser reporting a voided game again: %v", err)
	}
	open, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "城市赛", Start: e.ts.Today(), Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.ConfirmRound(ctx, beijing, "", open.ID, 99); ledger.KindOf(err) != ledger.NotFound {
		t.Fatalf("confirming round 99: %v", err)
	}
}

// TestConfirmedResultVoidIsStaffs (issue 31, finding 7): the organiser
// voids a result the referee has not confirmed, but not a confirmed one
// (PermissionDenied, STAFF_ONLY, nothing changed); staff may, and the log
// says the result was confirmed, by whom, who voided it and why.
func TestConfirmedResultVoidIsStaffs(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "确认赛", Start: e.ts.Today(), Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("确%d", i+1), "1k", "1990-01-01", 90+i)
		if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range ri.Games {
		if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: g.Board, Result: "black"}); err != nil {
			t.Fatal(err)
		}
	}
	if v, err := e.ts.VoidResult(ctx, beijing, "", ev.ID, tournaments.VoidInput{Round: 1, Board: 2, Side: tournaments.VoidBlack, Reason: "代打"}); err != nil ||
		v.Game.Result != tournaments.WhiteWins {
		t.Fatalf("the organiser voiding a result not yet confirmed: %+v %v", v, err)
	}
	if _, err := e.ts.ConfirmRound(ctx, beijing, "", ev.ID, 1); err != nil {
		t.Fatal(err)
	}
	_, err = e.ts.VoidResult(ctx, beijing, "", ev.ID, tournaments.VoidInput{Round: 1, Board: 1, Side: tournaments.VoidBlack, Reason: "改判"})
	if !errors.Is(err, ledger.ErrPermissionDenied) || !isCode(err, "STAFF_ONLY") {
		t.Fatalf("the organiser voiding a confirmed result: %v, want STAFF_ONLY", err)
	}
	rounds, err := e.ts.Rounds(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g := rounds[0].Games[0]; g.Result != tournaments.BlackWins || g.Voided != "" {
		t.Fatalf("board 1 after the refused void: %+v", g)
	}
	v, err := e.ts.VoidResult(ctx, fixture.Staff, "", ev.ID, tournaments.VoidInput{Round: 1, Board: 1, Side: tournaments.VoidBlack, Reason: "下假棋"})
	if err != nil || v.Game.Result != tournaments.WhiteWins || v.Game.Voided != "black" {
		t.Fatalf("staff voiding a confirmed result: %+v %v", v, err)
	}
	var raw []byte
	rows, err := e.pool.Query(ctx, `SELECT payload FROM events WHERE action = 'tournament.result_voided' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var got []tournaments.ResultVoidedPayload
	for rows.Next() {
		var p tournaments.ResultVoidedPayload
		if err := rows.Scan(&raw); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		got = append(got, p)
	}
	if len(got) != 2 || got[0].Confirmed || got[0].VoidedBy != beijing.String() ||
		!got[1].Confirmed || got[1].ConfirmedBy != beijing.String() || got[1].VoidedBy != fixture.Staff.String() || got[1].Reason != "下假棋" {
		t.Fatalf("the voids logged: %+v", got)
	}
}
