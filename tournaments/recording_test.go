package tournaments_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// counted is a 9×9 game played out to two passes: black walls off
// columns a–e (45 points), white f–i (36), so black wins by 9 − komi: B+1.5
// under the default 7.5, W+1.5 under 10.5.
var counted = func() string {
	var b strings.Builder
	b.WriteString("(;GM[1]SZ[9]RU[Chinese]KM[7.5]RE[B+1.5]")
	for y := range 9 {
		fmt.Fprintf(&b, ";B[e%c];W[f%c]", 'a'+y, 'a'+y)
	}
	b.WriteString(";B[];W[])")
	return b.String()
}()

// replayEnv is an env whose tournament service calls hook before each
// replay.
func replayEnv(t *testing.T, hook func(ctx context.Context, id int64, round, board int)) (*env, *tournaments.Service) {
	t.Helper()
	e := newEnv(t)
	store := ledger.New(e.pool, e.clock.Now, nil)
	return e, tournaments.New(store, e.reg, proposals.Certs{Certs: e.cs}, tournaments.WithReplayHook(hook))
}

// roundRobin creates a round robin of n players of Beijing and pairs its
// first round.
func roundRobin(t *testing.T, e *env, ts *tournaments.Service, n int) (tournaments.Event, tournaments.RoundInfo) {
	t.Helper()
	ctx := context.Background()
	ev, err := ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "循环赛", Start: ts.Today(), Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("R%d", i), "", "1990-01-01", 100+i)
		if _, err := ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	ri, err := ts.PairNextRound(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	return ev, ri
}

// lockNow tries to lock a row at once: nil when nobody holds it.
func lockNow(ctx context.Context, e *env, sql string, args ...any) error {
	tx, err := e.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	_, err = tx.Exec(ctx, sql+" FOR UPDATE NOWAIT", args...)
	return err
}

const (
	lockGame  = `SELECT 1 FROM tournament_games WHERE tournament_id = $1 AND round = 1 AND board = 1`
	lockEvent = `SELECT 1 FROM tournaments WHERE id = $1`
)

// TestRecordIsReplayedOutsideTheTransaction holds a replay and locks the
// game's and the event's rows meanwhile: nothing holds them while the rules
// engine works.
func TestRecordIsReplayedOutsideTheTransaction(t *testing.T) {
	ctx := context.Background()
	started, release := make(chan struct{}), make(chan struct{})
	e, ts := replayEnv(t, func(context.Context, int64, int, int) {
		started <- struct{}{}
		<-release
	})
	ev, _ := roundRobin(t, e, ts, 4)

	// the probe sees a lock when there is one
	hold, err := e.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hold.Exec(ctx, lockGame+" FOR UPDATE", ev.ID); err != nil {
		t.Fatal(err)
	}
	var pe *pgconn.PgError
	if err := lockNow(ctx, e, lockGame, ev.ID); !errors.As(err, &pe) || pe.Code != "55P03" {
		t.Fatalf("locking a locked game: %v, want lock_not_available", err)
	}
	if err := hold.Rollback(ctx); err != nil {
		t.Fatal(err)
	}

	done := make(chan error, 1)
	var g tournaments.GameRow
	go func() {
		var err error
		g, err = ts.RecordResult(ctx, beijing, "held", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "black", SGF: counted})
		done <- err
	}()
	<-started
	for what, sql := range map[string]string{"game": lockGame, "event": lockEvent} {
		if err := lockNow(ctx, e, sql, ev.ID); err != nil {
			t.Errorf("the %s's row is locked during the replay: %v", what, err)
		}
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if g.Adjudicated != "B+1.5" || g.Flagged || g.Result != tournaments.BlackWins {
		t.Fatalf("recorded %+v", g)
	}
}

// TestReplayFollowsTheEventsTerms changes the event's komi while its
// record is replayed: the transaction sees it, and the record is replayed
// again under the new komi; terms that keep changing refuse the call.
func TestReplayFollowsTheEventsTerms(t *testing.T) {
	ctx := context.Background()
	var replays atomic.Int32
	var flips atomic.Int32 // how many replays change the komi
	var e *env
	e, ts := replayEnv(t, func(ctx context.Context, id int64, _, _ int) {
		replays.Add(1)
		if flips.Add(-1) >= 0 {
			if _, err := e.pool.Exec(ctx, `UPDATE tournaments SET komi = 18 - komi WHERE id = $1`, id); err != nil {
				t.Error(err)
			}
		}
	})
	ev, _ := roundRobin(t, e, ts, 4)

	flips.Store(1) // 7.5 → 10.5 during the first replay
	g, err := ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "black", SGF: counted})
	if err != nil {
		t.Fatal(err)
	}
	if replays.Load() != 2 || g.Adjudicated != "W+1.5" || !g.Flagged || g.FlagCode != tournaments.FlagRecordDisagrees.Code() {
		t.Fatalf("after %d replays: %+v; want the record replayed again under komi 10.5", replays.Load(), g)
	}

	replays.Store(0)
	flips.Store(100)
	_, err = ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 2, Result: "white", SGF: counted})
	if le, ok := ledger.AsError(err); !ok || le.Reason != tournaments.ReasonTermsChanged || ledger.KindOf(err) != ledger.Conflict {
		t.Fatalf("terms changing under every replay: %v", err)
	}
	if replays.Load() != 3 {
		t.Fatalf("%d replays before the refusal, want 3", replays.Load())
	}
	rs, err := ts.Rounds(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g := rs[0].Games[1]; g.Result != tournaments.NoResult || g.HasRecord {
		t.Fatalf("a refused result was stored: %+v", g)
	}
}

// TestFlagsAreCodes: a flag is stored as a code with parameters, worded in
// either language and carried by the result's event; the English stays in
// the old column, and a game flagged before codes reads as stored.
func TestFlagsAreCodes(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, _ := roundRobin(t, e, e.ts, 4)
	tests := []struct {
		board       int
		result, sgf string
		code        string
		params      map[string]string
		english, zh string
	}{
		{board: 1, result: "black", sgf: "(;GM[1]SZ[19]RE[W+R];B[pd])", code: "FLAG_RECORD_DISAGREES",
			params:  map[string]string{"adjudicated": "W+R", "reported": "black"},
			english: "the record gives W+R, the reported result is black.", zh: "棋谱结果为 W+R，报告的结果为黑胜。"},
		{board: 2, result: "white", sgf: "(;GM[1]SZ[19", code: "FLAG_RECORD_SYNTAX", zh: "棋谱第"},
		{board: 1, result: "black", sgf: "(;GM[1]SZ[19]RE[B+R];B[pd])(;GM[1]SZ[19]RE[B+R];B[pd])", code: "FLAG_RECORD_GAMES",
			params:  map[string]string{"games": "2"},
			english: "the file holds 2 games, not one.", zh: "棋谱文件中有 2 局，而不是一局。"},
		{board: 2, result: "white", sgf: "(;GM[1]SZ[19];B[pd];W[dp])", code: "FLAG_RECORD_UNDECIDED",
			params:  map[string]string{"end": "unfinished"},
			english: "the record does not decide the game (unfinished).", zh: "棋谱未分胜负（未终局）。"},
	}
	for _, tt := range tests {
		g, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: tt.board, Result: tt.result, SGF: tt.sgf})
		if err != nil {
			t.Fatal(err)
		}
		if !g.Flagged || g.FlagCode != tt.code || (tt.params != nil && fmt.Sprint(g.FlagParams) != fmt.Sprint(tt.params)) {
			t.Errorf("%s: flagged %v %s %v", tt.code, g.Flagged, g.FlagCode, g.FlagParams)
		}
		if g.FlagReason != g.FlagText(ledger.English) || (tt.english != "" && g.FlagReason != tt.english) {
			t.Errorf("%s: English %q, text column %q", tt.code, g.FlagText(ledger.English), g.FlagReason)
		}
		if zh := g.FlagText(ledger.Chinese); !strings.HasPrefix(zh, tt.zh) || (tt.english != "" && zh != tt.zh) {
			t.Errorf("%s: Chinese %q, want %q", tt.code, zh, tt.zh)
		}
		// as read back, and as the log has it
		rs, err := e.ts.Rounds(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		if back := rs[0].Games[tt.board-1]; back.FlagCode != g.FlagCode || fmt.Sprint(back.FlagParams) != fmt.Sprint(g.FlagParams) || back.FlagReason != g.FlagReason {
			t.Errorf("%s: read back %+v", tt.code, back)
		}
		evs, err := ledger.EventsFor(ctx, e.pool, "tournament", fmt.Sprint(ev.ID))
		if err != nil {
			t.Fatal(err)
		}
		var pl tournaments.ResultPayload
		if err := json.Unmarshal(evs[len(evs)-1].Payload, &pl); err != nil {
			t.Fatal(err)
		}
		if pl.FlagCode != g.FlagCode || fmt.Sprint(pl.FlagParams) != fmt.Sprint(g.FlagParams) {
			t.Errorf("%s: the event has %s %v", tt.code, pl.FlagCode, pl.FlagParams)
		}
	}

	// a result reported again without a flag clears the code
	g, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "black"})
	if err != nil || g.Flagged || g.FlagCode != "" || g.FlagReason != "" || g.FlagText(ledger.Chinese) != "" {
		t.Fatalf("unflagged again: %+v %v", g, err)
	}
	// a game flagged before codes: its text as stored, in either language
	if _, err := e.pool.Exec(ctx, `UPDATE tournament_games SET flagged = true, flag_reason = 'old English', flag_code = ''
		WHERE tournament_id = $1 AND round = 1 AND board = 1`, ev.ID); err != nil {
		t.Fatal(err)
	}
	rs, err := e.ts.Rounds(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if old := rs[0].Games[0]; old.FlagText(ledger.Chinese) != "old English" || old.FlagText(ledger.English) != "old English" {
		t.Fatalf("an old flag reads %q", old.FlagText(ledger.Chinese))
	}
}

// resultEvents counts the event's tournament.result events.
func resultEvents(t *testing.T, e *env, id int64) int {
	t.Helper()
	evs, err := ledger.EventsFor(context.Background(), e.pool, "tournament", fmt.Sprint(id))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range evs {
		if ev.Action == "tournament.result" {
			n++
		}
	}
	return n
}

// TestRecordRoundResults records a round's boards in one call: each as
// RecordResult would, with its own event, under one key; all or none; at
// most the round's boards, each once; refused before any record is
// replayed when the call cannot succeed.
func TestRecordRoundResults(t *testing.T) {
	ctx := context.Background()
	var replays atomic.Int32
	e, ts := replayEnv(t, func(context.Context, int64, int, int) { replays.Add(1) })
	ev, ri := roundRobin(t, e, ts, 6) // three boards
	if len(ri.Games) != 3 {
		t.Fatalf("round 1 of six: %+v", ri.Games)
	}
	record := func(key string, ins ...tournaments.ResultInput) ([]tournaments.GameRow, error) {
		return ts.RecordRoundResults(ctx, beijing, key, ev.ID, 1, ins)
	}
	board := func(b int, res, sgf string) tournaments.ResultInput {
		return tournaments.ResultInput{Board: b, Result: res, SGF: sgf}
	}
	refusals := []struct {
		name string
		ins  []tournaments.ResultInput
		code string
	}{
		{"none", nil, "NO_RESULTS"},
		{"a board twice", []tournaments.ResultInput{board(1, "black", counted), board(1, "white", "")}, "BOARD_TWICE"},
		{"another round", []tournaments.ResultInput{board(1, "black", counted), {Round: 2, Board: 2, Result: "black"}}, "RESULTS_ROUND"},
		{"more boards than the round", []tournaments.ResultInput{board(1, "black", counted), board(2, "black", ""), board(3, "black", ""),
			board(4, "black", "")}, "TOO_MANY_BOARDS"},
	}
	for _, tt := range refusals {
		if _, err := record("", tt.ins...); !isCode(err, tt.code) {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.code)
		}
	}
	// a refused field names its board's place in the call
	_, err := record("", board(1, "black", counted), board(2, "B+R", ""))
	if le, ok := ledger.AsError(err); !ok || le.Field != "results[1].result" || le.Reason != tournaments.ReasonResult {
		t.Errorf("a bad result on the second board: %#v", err)
	}
	if _, err := ts.RecordRoundResults(ctx, beijing, "", ev.ID, 2, []tournaments.ResultInput{board(1, "black", counted)}); !isCode(err, "NO_SUCH_ROUND") {
		t.Errorf("a round not paired: %v", err)
	}
	if _, err := ts.RecordRoundResults(ctx, fixture.Agency("310"), "", ev.ID, 1, []tournaments.ResultInput{board(1, "black", counted)}); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Errorf("another agency: %v", err)
	}
	if n := replays.Load(); n != 0 {
		t.Fatalf("%d records replayed for calls refused before", n)
	}

	// all or none: the third board is refused in the transaction, after
	// the first two were written in it
	if _, err := e.pool.Exec(ctx, `UPDATE tournament_games SET voided = 'both' WHERE tournament_id = $1 AND round = 1 AND board = 3`, ev.ID); err != nil {
		t.Fatal(err)
	}
	_, err = record("round-1", board(1, "black", counted), board(2, "white", ""), board(3, "black", ""))
	if !isCode(err, "RESULT_VOIDED") {
		t.Fatalf("a voided board among them: %v", err)
	}
	rs, err := ts.Rounds(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range rs[0].Games {
		if g.Result != tournaments.NoResult {
			t.Fatalf("board %d kept %s from a refused call", g.Board, g.Result)
		}
	}
	if n := resultEvents(t, e, ev.ID); n != 0 {
		t.Fatalf("%d result events from a refused call", n)
	}
	if _, err := e.pool.Exec(ctx, `UPDATE tournament_games SET voided = '' WHERE tournament_id = $1`, ev.ID); err != nil {
		t.Fatal(err)
	}

	// the same key once the board is free: recorded, in the call's order
	ins := []tournaments.ResultInput{board(3, "black", ""), board(1, "white", counted), board(2, "white", "")}
	gs, err := record("round-1", ins...)
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 3 || gs[0].Board != 3 || gs[1].Board != 1 || gs[2].Board != 2 {
		t.Fatalf("games %+v", gs)
	}
	if g := gs[1]; !g.Flagged || g.FlagCode != "FLAG_RECORD_DISAGREES" || g.Adjudicated != "B+1.5" || !g.HasRecord || g.Record != "" {
		t.Fatalf("board 1 (a record that disagrees): %+v", g)
	}
	if n := resultEvents(t, e, ev.ID); n != 3 {
		t.Fatalf("%d result events, want one per board", n)
	}
	rs, err = ts.Rounds(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g := rs[0].Games; g[0].Result != tournaments.WhiteWins || g[1].Result != tournaments.WhiteWins || g[2].Result != tournaments.BlackWins {
		t.Fatalf("stored %+v", g)
	}

	// a retry with the key answers the same and records nothing again;
	// the key for another call is refused
	again, err := record("round-1", ins...)
	if err != nil || fmt.Sprint(again) != fmt.Sprint(gs) {
		t.Fatalf("retry: %+v %v", again, err)
	}
	if n := resultEvents(t, e, ev.ID); n != 3 {
		t.Fatalf("%d result events after the retry", n)
	}
	if _, err := record("round-1", board(1, "black", "")); !isCode(err, "IDEMPOTENCY_KEY_REUSED") {
		t.Fatalf("the key for another call: %v", err)
	}

	// once the event is finished: the retry still has its answer, a new
	// call is refused, and neither replays a record
	if _, err := e.pool.Exec(ctx, `UPDATE tournaments SET status = 'finished' WHERE id = $1`, ev.ID); err != nil {
		t.Fatal(err)
	}
	before := replays.Load()
	if again, err := record("round-1", ins...); err != nil || fmt.Sprint(again) != fmt.Sprint(gs) {
		t.Fatalf("retry after the finish: %+v %v", again, err)
	}
	if _, err := record("round-1-again", ins...); !isCode(err, "EVENT_FINISHED") {
		t.Fatalf("a new call after the finish: %v", err)
	}
	if n := replays.Load() - before; n != 0 {
		t.Fatalf("%d records replayed for a finished event", n)
	}
}

// TestProposalNotesAreCodes finishes a dan-grade event whose qualifiers
// cannot all be proposed: the notes are codes (the certification's refusal
// under its own code), worded in either language.
func TestProposalNotesAreCodes(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	ev, err := e.ts.CreateEvent(ctx, beijing, "", tournaments.EventInput{Name: "定段赛", Start: e.ts.Today(), Level: "province",
		System: "round_robin", DanGrade: true, Groups: []tournaments.GroupInput{{Name: "升段组", TargetRank: "1d", MinWins: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	open := fixture.Player(t, e.reg, "110", "甲", "1k", "1990-01-01", 1)     // wins both games, has an application open
	shanghai := fixture.Player(t, e.reg, "310", "乙", "1k", "1990-01-01", 2) // wins one, registered in Shanghai
	other := fixture.Player(t, e.reg, "110", "丙", "1k", "1990-01-01", 3)
	for _, p := range []int64{open.ID, shanghai.ID, other.ID} {
		if _, err := e.ts.AddParticipant(ctx, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p, Group: "升段组"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.cs.Apply(ctx, beijing, "", certs.ApplicationInput{PlayerID: open.ID, TargetRank: "1d", Basis: "tournament",
		EventID: fixture.Earned(t, e.ts, "1d", open.ID)}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		ri, err := e.ts.PairNextRound(ctx, beijing, "", ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range ri.Games { // the lower number wins
			res := "black"
			if g.White < g.Black {
				res = "white"
			}
			if _, err := e.ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: g.Round, Board: g.Board, Result: res}); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep, err := e.ts.Finish(ctx, beijing, "", ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	notes := map[string]tournaments.Proposal{}
	for _, p := range rep.Proposals {
		notes[p.Name] = p
	}
	if p := notes["甲"]; p.NoteCode != "OPEN_APPLICATION" || p.NoteText(ledger.Chinese) != p.NoteZH || p.NoteText(ledger.English) != p.Note ||
		p.NoteZH == p.Note || len(p.NoteParams) == 0 {
		t.Errorf("refused proposal: %+v", p)
	}
	if p := notes["乙"]; p.NoteCode != "PROPOSAL_OTHER_PROVINCE" || p.NoteParams["province"] != "31" ||
		p.NoteText(ledger.Chinese) != "在其他省份登记（上海市）" || p.NoteText(ledger.English) != "registered in another province (Shanghai)" {
		t.Errorf("proposal of another province's player: %+v (%q, %q)", p, p.NoteText(ledger.Chinese), p.NoteText(ledger.English))
	}
	if len(notes) != 2 {
		t.Errorf("proposals %+v", rep.Proposals)
	}
}

// TestUndecidedCountIsNotADisagreement: a record that ends in two passes
// with its groups unsettled and no dead stones marked. Counted as if every
// stone lived it gave W+7.5, and the reported black win was flagged as the
// record disagreeing (and counted by the audit's
// records_disagreeing_with_result); the engine cannot decide it, so the
// reported result stands unflagged.
func TestUndecidedCountIsNotADisagreement(t *testing.T) {
	ctx := context.Background()
	e, ts := replayEnv(t, nil)
	ev, _ := roundRobin(t, e, ts, 4)
	unsettled := "(;GM[1]SZ[9]RU[Chinese]KM[7.5];B[cc];W[gg];B[cg];W[gc];B[ee];W[ef];B[fe];W[df];B[];W[])"
	g, err := ts.RecordResult(ctx, beijing, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "black", SGF: unsettled})
	if err != nil {
		t.Fatal(err)
	}
	if g.Flagged || g.Adjudicated != "?" || g.Result != tournaments.BlackWins {
		t.Fatalf("recorded %+v; want the reported win standing, unflagged, the count deferred", g)
	}
}
