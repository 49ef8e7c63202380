package tournaments

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/rules"
)

// The event's supplementary rules (竞赛补充规定): the chief referee's
// document and the settings the 2002 rules leave to the event and the
// registry applies — the time control (art. 20: "不同的赛事均应事先规定一局
// 棋的每方基本时限"), the lateness limit (art. 21), adjournment with a
// sealed move (封棋), and what a rare cycle yields (art. 14).

// TimeMethod is how time is kept beyond the basic time.
type TimeMethod string

const (
	Byoyomi        TimeMethod = "byoyomi"          // 读秒: periods of seconds, counting from a number of minutes kept
	SuddenDeath    TimeMethod = "sudden_death"     // 包干用时制: the basic time is all
	MovesPerPeriod TimeMethod = "moves_per_period" // 定时限步制: so many moves in so many minutes
)

// LatenessVenue says which lateness limit holds (art. 21): an hour when the
// venue is away from the lodging, 15 minutes when both are at one place.
type LatenessVenue string

const (
	VenueAway      LatenessVenue = "away"       // 比赛场地与住地不在一处: 1 h
	VenueSamePlace LatenessVenue = "same_place" // 比赛场地与住地在一处: 15 min
)

// Minutes is the limit beyond which a late player loses.
func (v LatenessVenue) Minutes() int {
	if v == VenueSamePlace {
		return 15
	}
	return 60
}

// Sealing says whether games may be adjourned with a sealed move.
type Sealing string

const (
	NoSealing  Sealing = "none"        // games are played out in one sitting
	SealedMove Sealing = "sealed_move" // 封棋: the player to move seals his move
)

// CycleOutcome is what the event's rules give a rare cycle (循环劫等).
type CycleOutcome string

const (
	CycleNoResult  CycleOutcome = "no_result"  // 无胜负
	CycleDraw      CycleOutcome = "draw"       // 和棋
	CycleExtraGame CycleOutcome = "extra_game" // 重赛 (an extra game)
)

// Conduct is an event's supplementary rules.
type Conduct struct {
	BasicMinutes       int // per side
	Method             TimeMethod
	ByoyomiPeriods     int // byo-yomi: periods
	ByoyomiSeconds     int // byo-yomi: seconds each
	ByoyomiKeptMinutes int // byo-yomi: minutes of the basic time kept when counting starts
	PeriodMoves        int // moves per period: moves
	PeriodMinutes      int // moves per period: minutes
	Lateness           LatenessVenue
	Sealing            Sealing
	Cycle              CycleOutcome
	Document           string // the chief referee's text
	SetAt              time.Time
	SetBy              string
}

// ConductInput is the supplementary rules as submitted.
type ConductInput struct {
	BasicMinutes       int
	Method             string
	ByoyomiPeriods     int
	ByoyomiSeconds     int
	ByoyomiKeptMinutes int
	PeriodMoves        int
	PeriodMinutes      int
	Lateness           string // away (default) or same_place
	Sealing            string // none (default) or sealed_move
	Cycle              string // no_result (default), draw or extra_game
	Document           string
}

// maxConductDocument bounds the chief referee's text, in characters.
const maxConductDocument = 20000

func (in ConductInput) validate() (Conduct, error) {
	c := Conduct{BasicMinutes: in.BasicMinutes, ByoyomiPeriods: in.ByoyomiPeriods, ByoyomiSeconds: in.ByoyomiSeconds,
		ByoyomiKeptMinutes: in.ByoyomiKeptMinutes, PeriodMoves: in.PeriodMoves, PeriodMinutes: in.PeriodMinutes}
	if c.BasicMinutes < 0 || c.BasicMinutes > 1440 {
		return c, ledger.ReasonOutOfRange.OnField("basic_minutes", "min", "0", "max", "1440")
	}
	c.Method = TimeMethod(strings.TrimSpace(in.Method))
	switch c.Method {
	case Byoyomi:
		if c.ByoyomiPeriods < 1 || c.ByoyomiPeriods > 100 {
			return c, ledger.ReasonOutOfRange.OnField("byoyomi_periods", "min", "1", "max", "100")
		}
		if c.ByoyomiSeconds < 1 || c.ByoyomiSeconds > 3600 {
			return c, ledger.ReasonOutOfRange.OnField("byoyomi_seconds", "min", "1", "max", "3600")
		}
		if c.ByoyomiKeptMinutes < 0 || c.ByoyomiKeptMinutes > c.BasicMinutes {
			return c, ReasonConductKeptMinutes.OnField("byoyomi_kept_minutes", "basic", strconv.Itoa(c.BasicMinutes))
		}
		c.PeriodMoves, c.PeriodMinutes = 0, 0
	case SuddenDeath:
		if c.BasicMinutes < 1 {
			return c, ledger.ReasonOutOfRange.OnField("basic_minutes", "min", "1", "max", "1440")
		}
		c.ByoyomiPeriods, c.ByoyomiSeconds, c.ByoyomiKeptMinutes, c.PeriodMoves, c.PeriodMinutes = 0, 0, 0, 0, 0
	case MovesPerPeriod:
		if c.PeriodMoves < 1 || c.PeriodMoves > 1000 {
			return c, ledger.ReasonOutOfRange.OnField("period_moves", "min", "1", "max", "1000")
		}
		if c.PeriodMinutes < 1 || c.PeriodMinutes > 1440 {
			return c, ledger.ReasonOutOfRange.OnField("period_minutes", "min", "1", "max", "1440")
		}
		c.ByoyomiPeriods, c.ByoyomiSeconds, c.ByoyomiKeptMinutes = 0, 0, 0
	default:
		return c, ReasonConductMethod.OnField("time_method", "value", in.Method)
	}
	c.Lateness = LatenessVenue(strings.TrimSpace(in.Lateness))
	if c.Lateness == "" {
		c.Lateness = VenueAway
	}
	if c.Lateness != VenueAway && c.Lateness != VenueSamePlace {
		return c, ReasonConductLateness.OnField("lateness", "value", in.Lateness)
	}
	c.Sealing = Sealing(strings.TrimSpace(in.Sealing))
	if c.Sealing == "" {
		c.Sealing = NoSealing
	}
	if c.Sealing != NoSealing && c.Sealing != SealedMove {
		return c, ReasonConductSealing.OnField("sealing", "value", in.Sealing)
	}
	c.Cycle = CycleOutcome(strings.TrimSpace(in.Cycle))
	if c.Cycle == "" {
		c.Cycle = CycleNoResult
	}
	if c.Cycle != CycleNoResult && c.Cycle != CycleDraw && c.Cycle != CycleExtraGame {
		return c, ReasonConductCycle.OnField("cycle", "value", in.Cycle)
	}
	var err error
	if c.Document, err = ledger.OptionalText("document", in.Document, maxConductDocument); err != nil {
		return c, err
	}
	return c, nil
}

// refuseBeforeStart refuses pairing, scoring and finishing an event before
// its first day (Beijing).
func refuseBeforeStart(e Event, now time.Time) error {
	if today, start := now.In(ledger.ChinaTime).Format(time.DateOnly), e.Start.Format(time.DateOnly); today < start {
		return ReasonEventNotStarted.New("event", eventID(e.ID), "start", start, "today", today)
	}
	return nil
}

// SetConduct sets (or replaces) an event's supplementary rules, before the
// event starts.
func (s *Service) SetConduct(ctx context.Context, actor ledger.Actor, key string, id int64, in ConductInput) (Conduct, error) {
	c, err := in.validate()
	if err != nil {
		return Conduct{}, err
	}
	req := []any{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "SetConduct", req, func(tx *ledger.Tx, now time.Time) (Conduct, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return Conduct{}, err
		}
		if e.Started(now) {
			return Conduct{}, ReasonConductStarted.New("event", eventID(id), "start", e.Start.Format(time.DateOnly))
		}
		return c, s.setConductTx(ctx, tx, now, actor, id, &c)
	})
}

func (s *Service) setConductTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, id int64, c *Conduct) error {
	c.SetAt, c.SetBy = now, actor.String()
	_, err := tx.Exec(ctx, `INSERT INTO tournament_conduct (tournament_id, basic_minutes, time_method, byoyomi_periods, byoyomi_seconds,
		byoyomi_kept_minutes, period_moves, period_minutes, lateness, sealing, cycle_outcome, document, set_at, set_by)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
		ON CONFLICT (tournament_id) DO UPDATE SET basic_minutes = $2, time_method = $3, byoyomi_periods = $4, byoyomi_seconds = $5,
		byoyomi_kept_minutes = $6, period_moves = $7, period_minutes = $8, lateness = $9, sealing = $10, cycle_outcome = $11,
		document = $12, set_at = $13, set_by = $14`,
		id, c.BasicMinutes, c.Method, c.ByoyomiPeriods, c.ByoyomiSeconds, c.ByoyomiKeptMinutes, c.PeriodMoves, c.PeriodMinutes,
		c.Lateness, c.Sealing, c.Cycle, c.Document, now, c.SetBy)
	if err != nil {
		return ledger.PgErr(err, "set the supplementary rules")
	}
	return ledger.Append(ctx, tx, now, actor, "tournament", eventID(id), ConductSetPayload{
		BasicMinutes: c.BasicMinutes, ByoyomiKeptMinutes: c.ByoyomiKeptMinutes, ByoyomiPeriods: c.ByoyomiPeriods,
		ByoyomiSeconds: c.ByoyomiSeconds, Cycle: string(c.Cycle), Document: c.Document, Lateness: string(c.Lateness),
		Method: string(c.Method), PeriodMinutes: c.PeriodMinutes, PeriodMoves: c.PeriodMoves, Sealing: string(c.Sealing)})
}

// GetConduct returns an event's supplementary rules; ok is false when the
// event states none.
func (s *Service) GetConduct(ctx context.Context, id int64) (Conduct, bool, error) {
	return conductOf(ctx, s.db, id)
}

func conductOf(ctx context.Context, q ledger.Querier, id int64) (Conduct, bool, error) {
	var c Conduct
	err := q.QueryRow(ctx, `SELECT basic_minutes, time_method, byoyomi_periods, byoyomi_seconds, byoyomi_kept_minutes,
		period_moves, period_minutes, lateness, sealing, cycle_outcome, document, set_at, set_by
		FROM tournament_conduct WHERE tournament_id = $1`, id).Scan(&c.BasicMinutes, &c.Method, &c.ByoyomiPeriods, &c.ByoyomiSeconds,
		&c.ByoyomiKeptMinutes, &c.PeriodMoves, &c.PeriodMinutes, &c.Lateness, &c.Sealing, &c.Cycle, &c.Document, &c.SetAt, &c.SetBy)
	if errors.Is(err, pgx.ErrNoRows) {
		return Conduct{}, false, nil
	}
	if err != nil {
		return Conduct{}, false, fmt.Errorf("supplementary rules of tournament %d: %w", id, err)
	}
	return c, true, nil
}

// Side is black or white.
func sideName(s string) (string, bool) {
	s = strings.TrimSpace(s)
	return s, s == "black" || s == "white"
}

// AdjournmentInput records an adjournment: the sealed move, by whom; Record
// is the game's record up to the adjournment (SGF, optional), for the rules
// engine to rule on the sealed point.
type AdjournmentInput struct {
	Round, Board int
	SealedBy     string // black or white
	Point        string // GTP (D4) or SGF (dd)
	Record       string
}

// Adjournment is a recorded adjournment.
type Adjournment struct {
	Round, Board int
	Seq          int
	SealedBy     string
	Point        string // as SGF writes it
	MoveNumber   int    // the sealed move's number in the game
	CountsAsPass bool   // the point was occupied: the sealed move is a pass
	SealedAt     time.Time
	RecordedBy   string
}

// sealedMove rules on a sealed move with the rules engine: the move's
// number after the record, and whether it counts as a pass (a sealed move
// on an occupied point, or otherwise illegal, is void and a pass).
func sealedMove(record string, by rules.Color, point string, ruleSet string) (sgf string, number int, pass bool, err error) {
	size := 19
	var g *rules.Game
	if strings.TrimSpace(record) != "" {
		trees, perr := rules.ParseSGF([]byte(record))
		if perr != nil || len(trees) == 0 {
			return "", 0, false, ReasonAdjournRecord.OnField("record")
		}
		if g, perr = rules.GameFromTree(trees[0]); perr != nil {
			return "", 0, false, ReasonAdjournRecord.OnField("record")
		}
		size = g.Size
	} else {
		g = &rules.Game{Size: size}
	}
	at, perr := rules.ParsePoint(point, size)
	if perr != nil {
		if c, isPass, serr := rules.ParseSGFPoint(point, size); serr == nil && !isPass {
			at, perr = c, nil
		}
	}
	if perr != nil {
		return "", 0, false, ReasonAdjournPoint.OnField("point", "value", point)
	}
	g.Steps = append(g.Steps, rules.Step{Kind: rules.MoveStep, Color: by, At: at})
	opt := rules.Options{Rules: rules.RuleSet(ruleSet), BoardOnly: true}
	pos, rerr := rules.Replay(g, opt, -1)
	if rerr != nil {
		return "", 0, false, ReasonAdjournRecord.OnField("record")
	}
	number = g.Moves()
	for _, il := range pos.Illegal {
		if il.Move == number {
			pass = true
		}
	}
	return rules.SGFPoint(at), number, pass, nil
}

// RecordAdjournment records an adjournment with its sealed move, in an
// event whose rules allow sealing, on a game without a result.
func (s *Service) RecordAdjournment(ctx context.Context, actor ledger.Actor, key string, id int64, in AdjournmentInput) (Adjournment, error) {
	side, ok := sideName(in.SealedBy)
	if !ok {
		return Adjournment{}, ReasonAdjournSide.OnField("sealed_by", "value", in.SealedBy)
	}
	if len(in.Record) > rules.MaxRecordBytes {
		return Adjournment{}, ReasonAdjournRecordSize.OnField("record", "max", strconv.Itoa(rules.MaxRecordBytes))
	}
	colour := rules.Black
	if side == "white" {
		colour = rules.White
	}
	req := []any{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "RecordAdjournment", req, func(tx *ledger.Tx, now time.Time) (Adjournment, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return Adjournment{}, err
		}
		if err := refuseBeforeStart(e, now); err != nil {
			return Adjournment{}, err
		}
		c, ok, err := conductOf(ctx, tx, id)
		if err != nil {
			return Adjournment{}, err
		}
		if !ok || c.Sealing != SealedMove {
			return Adjournment{}, ReasonAdjournNotAllowed.New("event", eventID(id))
		}
		if err := openGame(ctx, tx, id, in.Round, in.Board); err != nil {
			return Adjournment{}, err
		}
		point, number, pass, err := sealedMove(in.Record, colour, in.Point, e.Rules)
		if err != nil {
			return Adjournment{}, err
		}
		a := Adjournment{Round: in.Round, Board: in.Board, SealedBy: side, Point: point, MoveNumber: number, CountsAsPass: pass,
			SealedAt: now, RecordedBy: actor.String()}
		if err := tx.QueryRow(ctx, `INSERT INTO tournament_adjournments (tournament_id, round, board, seq, sealed_by, point, move_number,
			counts_as_pass, sealed_at, recorded_by)
			VALUES ($1, $2, $3, (SELECT coalesce(max(seq), 0) + 1 FROM tournament_adjournments WHERE tournament_id = $1 AND round = $2 AND board = $3),
			$4, $5, $6, $7, $8, $9) RETURNING seq`, id, in.Round, in.Board, side, point, number, pass, now, a.RecordedBy).Scan(&a.Seq); err != nil {
			return Adjournment{}, ledger.PgErr(err, "record the adjournment")
		}
		return a, ledger.Append(ctx, tx, now, actor, "tournament", eventID(id), AdjournedPayload{
			Board: in.Board, CountsAsPass: pass, MoveNumber: number, Point: point, Round: in.Round, SealedBy: side, Seq: a.Seq})
	})
}

// openGame refuses a game that does not exist or already has a result.
func openGame(ctx context.Context, tx *ledger.Tx, id int64, round, board int) error {
	var res Result
	if err := tx.QueryRow(ctx, `SELECT result FROM tournament_games WHERE tournament_id = $1 AND round = $2 AND board = $3 FOR UPDATE`,
		id, round, board).Scan(&res); err != nil {
		return ledger.RowErr(err, fmt.Sprintf("tournament %d round %d board %d", id, round, board),
			ReasonNoSuchGame.New("round", strconv.Itoa(round), "board", strconv.Itoa(board)))
	}
	if res.Decided() {
		return ReasonGameHasResult.New("round", strconv.Itoa(round), "board", strconv.Itoa(board))
	}
	return nil
}

// Adjournments lists an event's adjournments by round, board and order.
func (s *Service) Adjournments(ctx context.Context, id int64) ([]Adjournment, error) {
	return adjournments(ctx, s.db, id)
}

func adjournments(ctx context.Context, q ledger.Querier, id int64) ([]Adjournment, error) {
	rows, err := q.Query(ctx, `SELECT round, board, seq, sealed_by, point, move_number, counts_as_pass, sealed_at, recorded_by
		FROM tournament_adjournments WHERE tournament_id = $1 ORDER BY round, board, seq`, id)
	if err != nil {
		return nil, fmt.Errorf("adjournments of tournament %d: %w", id, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Adjournment, error) {
		var a Adjournment
		err := r.Scan(&a.Round, &a.Board, &a.Seq, &a.SealedBy, &a.Point, &a.MoveNumber, &a.CountsAsPass, &a.SealedAt, &a.RecordedBy)
		return a, err
	})
}

// LatenessInput records a player who came late but within the limit.
type LatenessInput struct {
	Round, Board int
	Side         string // black or white
	Minutes      int
}

// Lateness is a recorded lateness under the limit: the late player's time
// is deducted double (art. 21).
type Lateness struct {
	Round, Board    int
	Side            string
	Minutes         int
	DeductedMinutes int
	RecordedAt      time.Time
	RecordedBy      string
}

// RecordLateness records a lateness under the event's limit with its
// double deduction; beyond the limit the game is lost (result black_late,
// white_late or both_late) and this is refused.
func (s *Service) RecordLateness(ctx context.Context, actor ledger.Actor, key string, id int64, in LatenessInput) (Lateness, error) {
	side, ok := sideName(in.Side)
	if !ok {
		return Lateness{}, ReasonAdjournSide.OnField("side", "value", in.Side)
	}
	if in.Minutes < 1 || in.Minutes > 24*60 {
		return Lateness{}, ledger.ReasonOutOfRange.OnField("minutes", "min", "1", "max", "1440")
	}
	req := []any{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "RecordLateness", req, func(tx *ledger.Tx, now time.Time) (Lateness, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return Lateness{}, err
		}
		if err := refuseBeforeStart(e, now); err != nil {
			return Lateness{}, err
		}
		c, ok, err := conductOf(ctx, tx, id)
		if err != nil {
			return Lateness{}, err
		}
		limit := VenueAway
		if ok {
			limit = c.Lateness
		}
		if in.Minutes > limit.Minutes() {
			return Lateness{}, ReasonLateBeyondLimit.OnField("minutes", "minutes", strconv.Itoa(in.Minutes), "limit", strconv.Itoa(limit.Minutes()))
		}
		if err := openGame(ctx, tx, id, in.Round, in.Board); err != nil {
			return Lateness{}, err
		}
		l := Lateness{Round: in.Round, Board: in.Board, Side: side, Minutes: in.Minutes, DeductedMinutes: 2 * in.Minutes,
			RecordedAt: now, RecordedBy: actor.String()}
		if _, err := tx.Exec(ctx, `INSERT INTO tournament_lateness (tournament_id, round, board, side, minutes, deducted_minutes, recorded_at, recorded_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (tournament_id, round, board, side) DO UPDATE SET minutes = $5, deducted_minutes = $6, recorded_at = $7, recorded_by = $8`,
			id, in.Round, in.Board, side, in.Minutes, l.DeductedMinutes, now, l.RecordedBy); err != nil {
			return Lateness{}, ledger.PgErr(err, "record the lateness")
		}
		return l, ledger.Append(ctx, tx, now, actor, "tournament", eventID(id), LatenessPayload{
			Board: in.Board, DeductedMinutes: l.DeductedMinutes, Limit: limit.Minutes(), Minutes: in.Minutes, Round: in.Round, Side: side})
	})
}

// Latenesses lists an event's recorded latenesses.
func (s *Service) Latenesses(ctx context.Context, id int64) ([]Lateness, error) {
	return latenesses(ctx, s.db, id)
}

func latenesses(ctx context.Context, q ledger.Querier, id int64) ([]Lateness, error) {
	rows, err := q.Query(ctx, `SELECT round, board, side, minutes, deducted_minutes, recorded_at, recorded_by
		FROM tournament_lateness WHERE tournament_id = $1 ORDER BY round, board, side`, id)
	if err != nil {
		return nil, fmt.Errorf("latenesses of tournament %d: %w", id, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Lateness, error) {
		var l Lateness
		err := r.Scan(&l.Round, &l.Board, &l.Side, &l.Minutes, &l.DeductedMinutes, &l.RecordedAt, &l.RecordedBy)
		return l, err
	})
}
