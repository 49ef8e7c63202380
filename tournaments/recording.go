package tournaments

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/referee"
	"github.com/dankyu/dankyu/rules"
)

// Recording results. A record is replayed by the rules engine (up to
// rules.MaxRecordBytes of SGF) before the transaction that stores the
// result, not inside it: the event's and the game's rows are locked only
// for the writes. The replay depends on the record and on the event's
// terms (rules, komi); the transaction checks that the terms it locks are
// those the records were replayed under, and when they changed meanwhile
// the records are replayed again, up to maxReplays times.

// maxReplays bounds the replays of one call whose event's terms keep
// changing under it; then it is refused (EVENT_TERMS_CHANGED), and may be
// sent again with its key.
const maxReplays = 3

// WithReplayHook has hook called before each record is replayed, outside
// any transaction (tests use it to hold a replay while they look at the
// locks).
func WithReplayHook(hook func(ctx context.Context, id int64, round, board int)) Option {
	return func(s *Service) { s.replayHook = hook }
}

// preparedResult is a reported result, checked and in the shape it is
// stored in.
type preparedResult struct {
	in           ResultInput // by seat, its record in UTF-8: what is stored
	played       ResultInput // by the colours played, the record as sent: what is replayed
	res          Result      // the result stored (two warnings decide it)
	reported     Result      // the result reported, by seat
	wrongColours bool
}

// prepareResult checks a reported result without reading the database.
func prepareResult(in ResultInput) (preparedResult, error) {
	res, err := ParseResult(in.Result)
	if err != nil {
		return preparedResult{}, ReasonResult.OnField("result", "value", in.Result)
	}
	if in.BlackWarnings < 0 || in.BlackWarnings > 2 || in.WhiteWarnings < 0 || in.WhiteWarnings > 2 {
		return preparedResult{}, ReasonWarnings.OnField("warnings")
	}
	switch ForfeitReason(in.ForfeitReason) {
	case NoForfeitReason:
	case Late, Absent, Disqualified, WithdrawnForfeit:
		if !res.Unplayed() && res != BothLose {
			return preparedResult{}, ReasonForfeitReason.OnField("forfeit_reason", "value", in.ForfeitReason)
		}
	default:
		return preparedResult{}, ReasonForfeitReason.OnField("forfeit_reason", "value", in.ForfeitReason)
	}
	if (res == BlackLate || res == WhiteLate || res == BothLate) && in.ForfeitReason == "" {
		in.ForfeitReason = string(Late)
	}
	p := preparedResult{played: in} // the record, like the report, is by the colours played
	p.wrongColours = in.ColoursSwapped && (in.NoticedAtMove == 0 || in.NoticedAtMove > correctableMoves)
	if p.wrongColours {
		res = res.Swapped()
		in.BlackWarnings, in.WhiteWarnings = in.WhiteWarnings, in.BlackWarnings
	}
	p.reported = res
	p.res = warnedResult(res, in.BlackWarnings, in.WhiteWarnings)
	if len(in.SGF) > rules.MaxRecordBytes {
		return preparedResult{}, referee.ReasonRecordTooLarge.OnField("sgf", "max", strconv.Itoa(rules.MaxRecordBytes))
	}
	// The record is kept as text: no NUL (PostgreSQL refuses it), and a
	// record in another charset (GB18030 …) is kept rewritten as UTF-8.
	if strings.ContainsRune(in.SGF, 0) {
		return preparedResult{}, ledger.ReasonInvalidText.OnField("sgf")
	}
	if !utf8.ValidString(in.SGF) {
		if trees, err := rules.ParseSGF([]byte(in.SGF)); err == nil {
			in.SGF = string(rules.WriteSGF(trees))
		}
		in.SGF = strings.ToValidUTF8(in.SGF, "\uFFFD")
	}
	p.in = in
	return p, nil
}

// hasRecord reports whether the result comes with a record to replay.
func (p preparedResult) hasRecord() bool { return strings.TrimSpace(p.in.SGF) != "" }

// eventTerms are what a replay depends on besides the record.
type eventTerms struct {
	Rules string
	Komi  float64
}

func termsOf(e Event) eventTerms { return eventTerms{Rules: e.Rules, Komi: e.Komi} }

// verdict is the rules engine's view of one record under an event's terms.
type verdict struct {
	replayed    bool // there was a record
	terms       eventTerms
	adjudicated string
	flagged     bool
	flag        Message // why flagged
}

// eventState is what a call reads of an event before its replays.
type eventState struct {
	terms  eventTerms
	paired int // rounds paired
	boards int // games of the round asked about
}

// eventToRecord reads, without locks, what the replays need of an event,
// checking first what the transaction will check again (the actor may run
// it, it is open), so that nobody has records replayed for an event he
// cannot change; and how many games a round has.
func (s *Service) eventToRecord(ctx context.Context, actor ledger.Actor, id int64, round int) (eventState, error) {
	if err := access.RequireSignedIn(actor, access.RunEvent); err != nil {
		return eventState{}, err
	}
	var e Event
	var st eventState
	err := s.db.QueryRow(ctx, `SELECT organiser_prefix, level, status, rules, komi,
		(SELECT coalesce(max(round), 0) FROM tournament_rounds r WHERE r.tournament_id = t.id),
		(SELECT count(*) FROM tournament_games g WHERE g.tournament_id = t.id AND g.round = $2)
		FROM tournaments t WHERE id = $1`, id, round).Scan(&e.OrganiserPrefix, &e.Level, &e.Status, &e.Rules, &e.Komi, &st.paired, &st.boards)
	if err != nil {
		return eventState{}, ledger.RowErr(err, fmt.Sprintf("tournament %d", id), ReasonNoSuchEvent.New("event", eventID(id)))
	}
	if err := s.mayRun(ctx, s.db, actor, e.OrganiserPrefix, e.Level); err != nil {
		return eventState{}, err
	}
	if e.Status != "open" {
		return eventState{}, ReasonEventFinished.New("event", eventID(id))
	}
	st.terms = termsOf(e)
	return st, nil
}

// replay adjudicates the records of ps under the terms, outside any
// transaction.
func (s *Service) replay(ctx context.Context, id int64, terms eventTerms, ps []preparedResult) ([]verdict, error) {
	vs := make([]verdict, len(ps))
	for i, p := range ps {
		if !p.hasRecord() {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.replayHook != nil {
			s.replayHook(ctx, id, p.in.Round, p.in.Board)
		}
		v := verdict{replayed: true, terms: terms}
		v.adjudicated, v.flagged, v.flag = adjudicate(terms, p.played)
		vs[i] = v
	}
	return vs, nil
}

// current refuses a record without a verdict, or with one replayed under
// terms other than the locked event's.
func current(e Event, ps []preparedResult, vs []verdict) error {
	for i, p := range ps {
		if p.hasRecord() && (!vs[i].replayed || vs[i].terms != termsOf(e)) {
			return ReasonTermsChanged.New("event", eventID(e.ID))
		}
	}
	return nil
}

// withReplays replays the records of ps and runs record with the
// verdicts, again with fresh verdicts when the event's terms changed under
// them. check, when given, may refuse the call on what was read of the
// event before any record is replayed.
func withReplays[T any](ctx context.Context, s *Service, actor ledger.Actor, id int64, round int, ps []preparedResult,
	check func(eventState) error, record func(vs []verdict) (T, error)) (T, error) {
	var zero T
	if check == nil && !slices.ContainsFunc(ps, preparedResult.hasRecord) {
		return record(make([]verdict, len(ps))) // nothing to replay or read first
	}
	for attempt := 1; ; attempt++ {
		st, err := s.eventToRecord(ctx, actor, id, round)
		if err == nil && check != nil {
			err = check(st)
		}
		var vs []verdict
		switch {
		case err != nil && ledger.KindOf(err) == ledger.Internal:
			return zero, err
		case err != nil:
			// refused: nothing is replayed, and the transaction refuses
			// alike, unless the call was made before under its key (its
			// answer stands: a retry after the event finished, say)
			vs = make([]verdict, len(ps))
		default:
			if vs, err = s.replay(ctx, id, st.terms, ps); err != nil {
				return zero, err
			}
		}
		out, err := record(vs)
		if le, ok := ledger.AsError(err); ok && le.Reason == ReasonTermsChanged && attempt < maxReplays {
			continue
		}
		return out, err
	}
}

// RecordResult stores a game's result. A record is adjudicated by the rules
// engine under the event's rules; when its result disagrees with the
// reported one, the game is flagged for review and the reported result stays.
func (s *Service) RecordResult(ctx context.Context, actor ledger.Actor, key string, id int64, in ResultInput) (GameRow, error) {
	p, err := prepareResult(in)
	if err != nil {
		return GameRow{}, err
	}
	req := []any{id, p.in}
	return withReplays(ctx, s, actor, id, p.in.Round, []preparedResult{p}, nil, func(vs []verdict) (GameRow, error) {
		return ledger.Mutate(ctx, s.store, actor, key, "RecordResult", req, func(tx *ledger.Tx, now time.Time) (GameRow, error) {
			e, err := s.lockEvent(ctx, tx, actor, id)
			if err != nil {
				return GameRow{}, err
			}
			if err := current(e, []preparedResult{p}, vs); err != nil {
				return GameRow{}, err
			}
			return s.recordTx(ctx, tx, now, actor, e, p, vs[0])
		})
	})
}

// RecordRoundResults stores the results of several boards of one round
// (each input's Round is the round, or 0) in one transaction under one
// key: every one as RecordResult would, each with its tournament.result
// event, or none. At most the round's boards, each once. A refused board
// names its field as results[i].field, i its index in ins.
func (s *Service) RecordRoundResults(ctx context.Context, actor ledger.Actor, key string, id int64, round int, ins []ResultInput) ([]GameRow, error) {
	if len(ins) == 0 {
		return nil, ReasonNoResults.New("round", strconv.Itoa(round))
	}
	ps := make([]preparedResult, len(ins))
	seen := map[int]bool{}
	for i, in := range ins {
		if in.Round != 0 && in.Round != round {
			return nil, ReasonResultsRound.New("board", strconv.Itoa(in.Board), "round", strconv.Itoa(in.Round), "want", strconv.Itoa(round))
		}
		in.Round = round
		if seen[in.Board] {
			return nil, ReasonBoardTwice.New("round", strconv.Itoa(round), "board", strconv.Itoa(in.Board))
		}
		seen[in.Board] = true
		p, err := prepareResult(in)
		if err != nil {
			return nil, onBoard(err, i)
		}
		ps[i] = p
	}
	stored := make([]ResultInput, len(ps))
	for i, p := range ps {
		stored[i] = p.in
	}
	req := []any{id, round, stored}
	// refused before the replays too, so that the records of a call for no
	// round, or longer than its round, are not replayed for nothing
	check := func(st eventState) error { return checkRound(id, round, len(ps), st.paired, st.boards) }
	return withReplays(ctx, s, actor, id, round, ps, check, func(vs []verdict) ([]GameRow, error) {
		return ledger.Mutate(ctx, s.store, actor, key, "RecordRoundResults", req, func(tx *ledger.Tx, now time.Time) ([]GameRow, error) {
			e, err := s.lockEvent(ctx, tx, actor, id)
			if err != nil {
				return nil, err
			}
			var boards int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM tournament_games WHERE tournament_id = $1 AND round = $2`, id, round).Scan(&boards); err != nil {
				return nil, ledger.PgErr(err, "games of the round")
			}
			if err := checkRound(id, round, len(ps), e.PairedRounds, boards); err != nil {
				return nil, err
			}
			if err := current(e, ps, vs); err != nil {
				return nil, err
			}
			// in board order: the games' rows are locked in one order
			order := make([]int, len(ps))
			for i := range order {
				order[i] = i
			}
			slices.SortFunc(order, func(a, b int) int { return ps[a].in.Board - ps[b].in.Board })
			out := make([]GameRow, len(ps))
			for _, i := range order {
				g, err := s.recordTx(ctx, tx, now, actor, e, ps[i], vs[i])
				if err != nil {
					return nil, onBoard(err, i)
				}
				g.Record = "" // the answer (kept under the key) need not hold every record again
				out[i] = g
			}
			return out, nil
		})
	})
}

// checkRound refuses results for a round not paired, or for more boards
// than the round has.
func checkRound(id int64, round, count, paired, boards int) error {
	if round < 1 || round > paired {
		return ReasonNoSuchRound.New("event", eventID(id), "round", strconv.Itoa(round), "rounds", strconv.Itoa(paired))
	}
	if count > boards {
		return ReasonTooManyBoards.New("round", strconv.Itoa(round), "boards", strconv.Itoa(boards), "count", strconv.Itoa(count))
	}
	return nil
}

// onBoard names the board of a round's results a refused field belongs to:
// results[i].field. A refusal without a field names its board itself.
func onBoard(err error, i int) error {
	var le *ledger.Error
	if !errors.As(err, &le) || le.Field == "" {
		return err
	}
	c := *le
	c.Field = fmt.Sprintf("results[%d].%s", i, le.Field)
	return &c
}

// recordTx stores one result in tx, the event locked, with the verdict on
// its record.
func (s *Service) recordTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, e Event, p preparedResult, v verdict) (GameRow, error) {
	in, id := p.in, e.ID
	if err := refuseBeforeStart(e, now); err != nil {
		return GameRow{}, err
	}
	var g GameRow
	var voided bool
	err := tx.QueryRow(ctx, `SELECT round, board, black, white, nigiri, handicap, confirmed_at IS NOT NULL, voided <> '' FROM tournament_games
		WHERE tournament_id = $1 AND round = $2 AND board = $3 FOR UPDATE`, id, in.Round, in.Board).
		Scan(&g.Round, &g.Board, &g.Black, &g.White, &g.Nigiri, &g.Handicap, &g.Confirmed, &voided)
	if err != nil {
		return GameRow{}, ledger.PgErr(err, fmt.Sprintf("tournament %d round %d board %d", id, in.Round, in.Board))
	}
	// A confirmed result is final for the organiser; staff may still
	// correct one (logged like any change).
	if g.Confirmed && !actor.IsStaff() {
		return GameRow{}, ReasonResultConfirmed.New("round", strconv.Itoa(in.Round), "board", strconv.Itoa(in.Board))
	}
	// a void (staff's, art. 23) is not undone by reporting the game again
	if voided && !actor.IsStaff() {
		return GameRow{}, ReasonResultVoided.New("round", strconv.Itoa(in.Round), "board", strconv.Itoa(in.Board))
	}
	g.ForfeitReason, g.WrongColours = in.ForfeitReason, p.wrongColours
	g.Result, g.BlackWarnings, g.WhiteWarnings, g.Record, g.HasRecord = p.res, in.BlackWarnings, in.WhiteWarnings, in.SGF, in.SGF != ""
	// warnings on record (RecordWarning) count even when the report
	// forgets them: the count is at least theirs, and two still lose
	var recB, recW int
	if err := tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE number = $4), count(*) FILTER (WHERE number = $5) FROM tournament_warnings
		WHERE tournament_id = $1 AND round = $2 AND board = $3`, id, in.Round, in.Board, g.Black, g.White).Scan(&recB, &recW); err != nil {
		return GameRow{}, ledger.PgErr(err, "warnings on record")
	}
	if recB > g.BlackWarnings || recW > g.WhiteWarnings {
		g.BlackWarnings, g.WhiteWarnings = min(max(recB, g.BlackWarnings), 2), min(max(recW, g.WhiteWarnings), 2)
		g.Result = warnedResult(p.reported, g.BlackWarnings, g.WhiteWarnings)
	}
	g.FlagParams = map[string]string{}
	if v.replayed {
		g.Adjudicated, g.Flagged = v.adjudicated, v.flagged
		if v.flagged {
			g.FlagCode, g.FlagParams = v.flag.Code, v.flag.Params
			g.FlagReason = v.flag.Text(ledger.English) // the old column, for pages not yet reading the code
		}
	}
	_, err = tx.Exec(ctx, `UPDATE tournament_games SET result = $4, black_warnings = $5, white_warnings = $6, record = $7,
		adjudicated = $8, flagged = $9, flag_reason = $10, forfeit_reason = $11, wrong_colours = $12, flag_code = $13, flag_params = $14
		WHERE tournament_id = $1 AND round = $2 AND board = $3`,
		id, in.Round, in.Board, g.Result, g.BlackWarnings, g.WhiteWarnings, g.Record, g.Adjudicated, g.Flagged, g.FlagReason,
		g.ForfeitReason, g.WrongColours, g.FlagCode, jsonParams(g.FlagParams))
	if err != nil {
		return GameRow{}, ledger.PgErr(err, "record result")
	}
	payload := NewResultPayload(g)
	if p.reported != g.Result {
		reported := p.reported
		payload.Reported = &reported // two warnings decided it
	}
	payload.ForfeitReason = ForfeitReason(g.ForfeitReason)
	if in.ColoursSwapped {
		noticed, wrong := in.NoticedAtMove, p.wrongColours
		payload.ColoursSwappedNoticedAt, payload.WrongColours = &noticed, &wrong
	}
	return g, ledger.Append(ctx, tx, now, actor, "tournament", strconv.FormatInt(id, 10), payload)
}

// adjudicate replays a record and compares it with the reported result:
// the engine's result, and whether (and why) the game is flagged.
func adjudicate(terms eventTerms, in ResultInput) (adjudicated string, flagged bool, why Message) {
	// The event's komi is for even games: a handicap or 让先 game keeps its
	// own terms and its compensation.
	komi := terms.Komi
	opt := rules.Options{Rules: rules.RuleSet(terms.Rules), EvenKomi: &komi}
	rs, err := rules.AdjudicateSGF([]byte(in.SGF), "", opt)
	if err != nil {
		return "", true, unreadable(err)
	}
	if len(rs) != 1 {
		return "", true, message(FlagRecordGames, "games", strconv.Itoa(len(rs)))
	}
	// The reported warnings include those the referee gave for what the
	// record shows (a ko retaken at once, a second move in a row): count
	// the record's own only where the report has fewer.
	earned := rs[0]
	if in.BlackWarnings > earned.BlackWarnings || in.WhiteWarnings > earned.WhiteWarnings {
		opt.Warnings[rules.Black] = max(in.BlackWarnings-earned.BlackWarnings, 0)
		opt.Warnings[rules.White] = max(in.WhiteWarnings-earned.WhiteWarnings, 0)
		if rs, err = rules.AdjudicateSGF([]byte(in.SGF), "", opt); err != nil {
			return "", true, unreadable(err)
		}
	}
	r := rs[0]
	warned := warnedResult(Result(in.Result), in.BlackWarnings, in.WhiteWarnings)
	want := map[Result]string{BlackWins: "B", WhiteWins: "W", Draw: "0", BlackForfeit: "B", WhiteForfeit: "W",
		BlackTimeLoss: "W", WhiteTimeLoss: "B", RuleDraw: "0"}[warned]
	switch {
	case r.BothLose && warned == BothLose:
		return r.Result, false, Message{}
	case r.BlackWarnings > in.BlackWarnings || r.WhiteWarnings > in.WhiteWarnings:
		return r.Result, true, message(FlagRecordWarnings, "black", strconv.Itoa(r.BlackWarnings), "white", strconv.Itoa(r.WhiteWarnings),
			"reported_black", strconv.Itoa(in.BlackWarnings), "reported_white", strconv.Itoa(in.WhiteWarnings))
	case r.Winner == "" && r.Settlement != nil && r.Settlement.Kind == rules.Deferred:
		// The count needs dead stones the record does not mark and the
		// engine cannot decide: the reported result stands, unflagged
		// (a flag would count as the record disagreeing with it).
		return r.Result, false, Message{}
	case r.Winner == "":
		return r.Result, true, message(FlagRecordUndecided, "end", r.End)
	case r.Winner != want:
		return r.Result, true, message(FlagRecordDisagrees, "adjudicated", r.Result, "reported", in.Result)
	}
	return r.Result, false, Message{}
}

// unreadable is why a record the engine cannot read is flagged: a cap it
// exceeds as a code of its own, a syntax error by its offset, and anything
// else by its code alone (the engine's own words are English; the
// adjudication page explains a record's fault in the reader's language).
func unreadable(err error) Message {
	var le *rules.LimitError
	var se *rules.SyntaxError
	switch {
	case errors.As(err, &le):
		return message(FlagRecordTooBig, "what", string(le.What), "max", strconv.Itoa(le.Max))
	case errors.As(err, &se):
		return message(FlagRecordSyntax, "offset", strconv.Itoa(se.Offset))
	}
	return message(FlagRecordUnreadable)
}
