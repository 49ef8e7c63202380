package certs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/referee"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/rules"
)

// Appraisal sessions (鉴定): the agency records who appraised whom, when,
// the games played (at least one with its record, replayed by the rules
// engine) and the verdict. An application by appraisal refers to one, and
// is checked against it when filed and again when approved.

// AppraisalStatus is where a session stands.
type AppraisalStatus string

const (
	AppraisalRecorded  AppraisalStatus = "recorded"
	AppraisalWithdrawn AppraisalStatus = "withdrawn"
)

// Bounds on a session.
const (
	MaxAppraisalGames = 10 // games of one session
	// MinAppraisalMoves is the fewest moves a record must have to show how
	// the candidate plays.
	MinAppraisalMoves = 30
	// NotPassed is the verdict of a session the candidate did not pass.
	NotPassed = "not_passed"
	// HighestAppraisalRank is the highest rank an appraisal recommends (6
	// and 7 dan rest on national results).
	HighestAppraisalRank registry.Rank = 5
)

// maxOpponentLen bounds an appraisal game's opponent name, in characters.
const maxOpponentLen = 50

// The outcomes of a game, for the candidate.
const (
	GameWin  = "win"
	GameLoss = "loss"
	GameDraw = "draw"
)

// AppraisalGame is one game of a session, from the candidate's side.
type AppraisalGame struct {
	Seq      int
	Opponent string // "" is the appraiser
	Colour   string // the candidate's: black or white
	Result   string // the candidate's: win, loss or draw
	SGF      string // the record, "" when none was kept
	Moves    int
}

// AppraisalSession is an appraisal as recorded.
type AppraisalSession struct {
	ID             int64
	AgencyPrefix   string
	AppraiserID    int64
	AppraiserName  string
	PlayerID       int64
	PlayerName     string
	HeldOn         time.Time     // the date (midnight, China Standard Time)
	Verdict        registry.Rank // the rank recommended; NoRank: not passed
	Note           string
	Status         AppraisalStatus
	RecordedAt     time.Time
	RecordedBy     string
	WithdrawnAt    *time.Time
	WithdrawnBy    string
	WithdrawReason string
	Games          []AppraisalGame
}

// Passed reports whether the appraiser recommended a rank.
func (s AppraisalSession) Passed() bool { return s.Verdict != registry.NoRank }

// AppraisalGameInput is one game as sent.
type AppraisalGameInput struct {
	Opponent string // "" or the appraiser's name: the appraiser
	Colour   string
	Result   string
	SGF      string
}

// AppraisalInput is a session as the agency records it.
type AppraisalInput struct {
	AgencyPrefix string // staff only; an agency records its own
	AppraiserID  int64
	PlayerID     int64
	HeldOn       string // YYYY-MM-DD
	Verdict      string // a rank such as "4d", or "not_passed"
	Note         string
	Games        []AppraisalGameInput
}

// The refusals of appraisal sessions and of applications that refer to them.
var (
	ReasonAppraisalDate = ledger.NewReason(ledger.Invalid, "APPRAISAL_DATE",
		"鉴定日期“{value}”无效：请写成 2026-03-01 这样的日期，且不晚于今天（{today}）。",
		"appraisal date {value} is not a date like 2026-03-01 on or before today ({today}).")
	ReasonAppraisalVerdict = ledger.NewReason(ledger.Invalid, "APPRAISAL_VERDICT",
		"鉴定结论“{value}”无效：应为鉴定人建议的段级位（业余5段及以下，如 3d、2k），或“未通过”。",
		"verdict {value} is not a rank the appraiser recommends (5 dan or below, e.g. 3d, 2k) nor not_passed.")
	ReasonAppraisalNoGames = ledger.NewReason(ledger.Invalid, "APPRAISAL_NO_GAMES",
		"鉴定须记录 1 至 {max} 局对局，本次为 {count} 局。", "a session records 1 to {max} games; this one has {count}.")
	ReasonAppraisalNoRecord = ledger.NewReason(ledger.Invalid, "APPRAISAL_NO_RECORD",
		"鉴定的对局中至少一局须附棋谱（SGF）。", "at least one game of the session needs its record (SGF).")
	ReasonAppraisalColour = ledger.NewReason(ledger.Invalid, "APPRAISAL_COLOUR",
		"第 {game} 局：受鉴定棋手执黑或执白，“{value}”无效。", "game {game}: the candidate played black or white, not {value}.")
	ReasonAppraisalResult = ledger.NewReason(ledger.Invalid, "APPRAISAL_RESULT",
		"第 {game} 局：结果应为胜、负或和，“{value}”无效。", "game {game}: the result is win, loss or draw, not {value}.")
	ReasonAppraisalRecord = ledger.NewReason(ledger.Invalid, "APPRAISAL_RECORD",
		"第 {game} 局的棋谱无法采用：{problem}", "game {game}: the record cannot be used: {problem}")
	ReasonAppraisalRecordGames = ledger.NewReason(ledger.Invalid, "APPRAISAL_RECORD_GAMES",
		"第 {game} 局的棋谱应只含一局棋，实含 {count} 局。", "game {game}: the record holds {count} games, not one.")
	ReasonAppraisalRecordShort = ledger.NewReason(ledger.Invalid, "APPRAISAL_RECORD_SHORT",
		"第 {game} 局的棋谱只有 {moves} 手，不足 {min} 手，不能据以鉴定。",
		"game {game}: the record has {moves} moves, fewer than the {min} an appraisal judges by.")
	ReasonAppraisalRecordIllegal = ledger.NewReason(ledger.Invalid, "APPRAISAL_RECORD_ILLEGAL",
		"第 {game} 局的棋谱第 {move} 手违反规则。", "game {game}: move {move} of the record breaks the rules.")
	ReasonAppraisalRecordResult = ledger.NewReason(ledger.Invalid, "APPRAISAL_RECORD_RESULT",
		"第 {game} 局：棋谱记录的结果 {recorded} 与所填（受鉴定棋手执{colour}{result}）不符。",
		"game {game}: the record's result {recorded} is not the one given (the candidate played {colour} and the result was a {result}).")
	ReasonAppraisalSelf = ledger.NewReason(ledger.Invalid, "APPRAISAL_SELF",
		"鉴定人不能鉴定自己。", "an appraiser does not appraise himself.")
	ReasonAppraisalPlayerElsewhere = ledger.NewReason(ledger.PermissionDenied, "APPRAISAL_PLAYER_ELSEWHERE",
		"登记号 {player} 的棋手不在代理机构 {agency} 所在省登记，不能由其鉴定。",
		"the player with registry no. {player} is not registered in the province of agency {agency}, which cannot appraise him.")
	ReasonAppraisalSessionRequired = ledger.NewReason(ledger.Invalid, "APPRAISAL_SESSION_REQUIRED",
		"鉴定申请须注明代理机构记录的鉴定（鉴定编号）。", "an application by appraisal names the appraisal session the agency recorded.")
	ReasonNoSuchAppraisal = ledger.NewReason(ledger.NotFound, "NO_SUCH_APPRAISAL",
		"没有编号为 {session} 的鉴定。", "there is no appraisal session {session}.")
	ReasonAppraisalOtherAgency = ledger.NewReason(ledger.PermissionDenied, "APPRAISAL_OTHER_AGENCY",
		"鉴定 {session} 由代理机构 {agency} 记录，不能用于本申请。",
		"appraisal session {session} was recorded by agency {agency} and cannot back this application.")
	ReasonAppraisalOtherPlayer = ledger.NewReason(ledger.Precondition, "APPRAISAL_OTHER_PLAYER",
		"鉴定 {session} 鉴定的是另一名棋手（{player}），不是本申请的棋手。",
		"appraisal session {session} appraised another player ({player}), not the applicant.")
	ReasonAppraisalOtherAppraiser = ledger.NewReason(ledger.Invalid, "APPRAISAL_OTHER_APPRAISER",
		"鉴定 {session} 的鉴定人是 {appraiser}，不是所填的 {given}。",
		"appraisal session {session} was held by appraiser {appraiser}, not {given}.")
	ReasonAppraisalWithdrawn = ledger.NewReason(ledger.Precondition, "APPRAISAL_WITHDRAWN",
		"鉴定 {session} 已于 {date} 撤回（{reason}）。", "appraisal session {session} was withdrawn on {date} ({reason}).")
	ReasonAppraisalUsed = ledger.NewReason(ledger.AlreadyExists, "APPRAISAL_USED",
		"鉴定 {session} 已用于申请 {application}，并已据以发证。",
		"appraisal session {session} already backs application {application}, whose certificate was issued.")
	ReasonAppraisalNotPassed = ledger.NewReason(ledger.Precondition, "APPRAISAL_NOT_PASSED",
		"鉴定 {session} 的结论为未通过。", "appraisal session {session}: the candidate did not pass.")
	ReasonAppraisalBelowTarget = ledger.NewReason(ledger.Precondition, "APPRAISAL_BELOW_TARGET",
		"鉴定 {session} 建议的是{verdict}，低于申请的{target}。",
		"appraisal session {session} recommends {verdict}, below the {target} applied for.")
	ReasonAppraisalUnderAge = ledger.NewReason(ledger.Precondition, "APPRAISAL_UNDER_AGE",
		"通过鉴定申请段位的棋手须年满 {min} 周岁；该棋手在鉴定日 {date} 为 {age} 岁。",
		"a player put forward through appraisal must be at least {min}; this player was {age} on the appraisal date {date}.")
	ReasonAppraisalNotRecorded = ledger.NewReason(ledger.Precondition, "APPRAISAL_NOT_RECORDED",
		"鉴定 {session} 已经撤回。", "appraisal session {session} is already withdrawn.")
	ReasonAppraisalNotPublic = ledger.NewReason(ledger.NotFound, "APPRAISAL_NOT_PUBLIC",
		"鉴定 {session} 未用于任何公示的段位申请，不公开。", "appraisal session {session} backs no rank on public notice and is not public.")

	// ReviewAppraisalWithdrawn is why a certificate is flagged when the
	// session it rested on is withdrawn (a review code, like ReviewBasisVoided).
	ReviewAppraisalWithdrawn = ledger.NewReason(ledger.Precondition, "REVIEW_APPRAISAL_WITHDRAWN",
		"所依据的鉴定 {session} 已撤回（{reason}）。", "appraisal session {session} it rested on was withdrawn ({reason})")
)

// heldOnDate reads a session date: a day, not after today in Beijing.
func heldOnDate(s string, now time.Time) (time.Time, error) {
	today := now.In(ledger.ChinaTime)
	d, err := time.ParseInLocation(time.DateOnly, strings.TrimSpace(s), ledger.ChinaTime)
	if err != nil || d.Year() < 1980 || d.After(today) {
		return time.Time{}, ReasonAppraisalDate.OnField("held_on", "value", s, "today", today.Format(time.DateOnly))
	}
	return d, nil
}

// parseVerdict reads a verdict: a rank up to 5 dan, or not passed.
func parseVerdict(s string) (registry.Rank, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	if v == NotPassed || v == "未通过" {
		return registry.NoRank, nil
	}
	r, err := registry.ParseRank(v)
	if err != nil || r == registry.NoRank || r > HighestAppraisalRank {
		return 0, ReasonAppraisalVerdict.OnField("verdict", "value", s)
	}
	return r, nil
}

// gameNo is a game's number as the refusals name it.
func gameNo(i int) string { return strconv.Itoa(i + 1) }

// colourWords is a colour in both languages.
func colourWords(c string) ledger.Param {
	if c == "black" {
		return ledger.Words("colour", "黑", "black")
	}
	return ledger.Words("colour", "白", "white")
}

func resultWords(r string) ledger.Param {
	switch r {
	case GameWin:
		return ledger.Words("result", "胜", "win")
	case GameLoss:
		return ledger.Words("result", "负", "loss")
	}
	return ledger.Words("result", "和", "draw")
}

// recordedOutcome reads a record's RE for the candidate who played colour:
// win, loss, draw, or "" when the record says nothing we can read.
func recordedOutcome(re, colour string) string {
	re = strings.ToUpper(strings.TrimSpace(re))
	switch {
	case re == "0" || re == "DRAW" || re == "JIGO":
		return GameDraw
	case strings.HasPrefix(re, "B+"):
		if colour == "black" {
			return GameWin
		}
		return GameLoss
	case strings.HasPrefix(re, "W+"):
		if colour == "white" {
			return GameWin
		}
		return GameLoss
	}
	return ""
}

// prepareAppraisal checks a session as sent, replaying its records with
// the rules engine; it reads no database (the replays run outside any
// transaction).
func prepareAppraisal(ctx context.Context, in AppraisalInput, now time.Time) (AppraisalInput, time.Time, registry.Rank, []AppraisalGame, error) {
	var err error
	if in.AppraiserID <= 0 {
		return in, time.Time{}, 0, nil, ReasonAppraiserRequired.OnField("appraiser_id")
	}
	if in.PlayerID <= 0 {
		return in, time.Time{}, 0, nil, registry.ReasonPlayerID.OnField("player_id", "value", strconv.FormatInt(in.PlayerID, 10))
	}
	heldOn, err := heldOnDate(in.HeldOn, now)
	if err != nil {
		return in, time.Time{}, 0, nil, err
	}
	verdict, err := parseVerdict(in.Verdict)
	if err != nil {
		return in, time.Time{}, 0, nil, err
	}
	if in.Note, err = ledger.OptionalText("note", in.Note, maxEvidenceLen); err != nil {
		return in, time.Time{}, 0, nil, err
	}
	if len(in.Games) == 0 || len(in.Games) > MaxAppraisalGames {
		return in, time.Time{}, 0, nil, ReasonAppraisalNoGames.OnField("games", "max", strconv.Itoa(MaxAppraisalGames), "count", strconv.Itoa(len(in.Games)))
	}
	games := make([]AppraisalGame, len(in.Games))
	records := 0
	for i, g := range in.Games {
		game := AppraisalGame{Seq: i + 1, Colour: strings.ToLower(strings.TrimSpace(g.Colour)), Result: strings.ToLower(strings.TrimSpace(g.Result))}
		if game.Opponent, err = ledger.OptionalText("opponent", g.Opponent, maxOpponentLen); err != nil {
			return in, time.Time{}, 0, nil, err
		}
		if game.Colour != "black" && game.Colour != "white" {
			return in, time.Time{}, 0, nil, ReasonAppraisalColour.OnField("colour", "game", gameNo(i), "value", g.Colour)
		}
		if game.Result != GameWin && game.Result != GameLoss && game.Result != GameDraw {
			return in, time.Time{}, 0, nil, ReasonAppraisalResult.OnField("result", "game", gameNo(i), "value", g.Result)
		}
		if strings.TrimSpace(g.SGF) != "" {
			if game.SGF, game.Moves, err = checkAppraisalRecord(ctx, i, game, g.SGF); err != nil {
				return in, time.Time{}, 0, nil, err
			}
			records++
		}
		games[i] = game
	}
	if records == 0 {
		return in, time.Time{}, 0, nil, ReasonAppraisalNoRecord.OnField("sgf")
	}
	return in, heldOn, verdict, games, nil
}

// checkAppraisalRecord replays game i's record: one game, legal moves
// only, long enough, and its recorded result, if any, the one given. It
// returns the record as kept (UTF-8) and its moves.
func checkAppraisalRecord(ctx context.Context, i int, game AppraisalGame, sgf string) (string, int, error) {
	if len(sgf) > rules.MaxRecordBytes {
		return "", 0, ReasonAppraisalRecord.FieldWith("sgf", ledger.Value("game", gameNo(i)),
			wordsOf("problem", referee.ReasonRecordTooLarge.New("max", strconv.Itoa(rules.MaxRecordBytes))))
	}
	if strings.ContainsRune(sgf, 0) {
		return "", 0, ledger.ReasonInvalidText.OnField("sgf")
	}
	results, err := referee.Adjudicate(ctx, referee.Request{SGF: []byte(sgf), File: "game " + gameNo(i)})
	if err != nil {
		if e, ok := ledger.AsError(err); ok {
			return "", 0, ReasonAppraisalRecord.FieldWith("sgf", ledger.Value("game", gameNo(i)), wordsOf("problem", e))
		}
		return "", 0, err
	}
	if len(results) != 1 {
		return "", 0, ReasonAppraisalRecordGames.OnField("sgf", "game", gameNo(i), "count", strconv.Itoa(len(results)))
	}
	r := results[0]
	if len(r.IllegalMoves) > 0 {
		return "", 0, ReasonAppraisalRecordIllegal.OnField("sgf", "game", gameNo(i), "move", strconv.Itoa(r.IllegalMoves[0].Move))
	}
	if r.Moves < MinAppraisalMoves {
		return "", 0, ReasonAppraisalRecordShort.OnField("sgf", "game", gameNo(i), "moves", strconv.Itoa(r.Moves), "min", strconv.Itoa(MinAppraisalMoves))
	}
	if o := recordedOutcome(r.RecordedResult, game.Colour); o != "" && o != game.Result {
		return "", 0, ReasonAppraisalRecordResult.FieldWith("result", ledger.Value("game", gameNo(i)), ledger.Value("recorded", r.RecordedResult),
			colourWords(game.Colour), resultWords(game.Result))
	}
	if !utf8.ValidString(sgf) {
		if trees, err := rules.ParseSGF([]byte(sgf)); err == nil {
			sgf = string(rules.WriteSGF(trees))
		}
		sgf = strings.ToValidUTF8(sgf, "\uFFFD")
	}
	return sgf, r.Moves, nil
}

// wordsOf is a refusal's message as a parameter in both languages.
func wordsOf(name string, e *ledger.Error) ledger.Param {
	return ledger.Words(name, e.Message(ledger.Chinese), e.Message(ledger.English))
}

// RecordAppraisal records an appraisal session for one of the agency's
// players (staff: for any agency).
func (s *Service) RecordAppraisal(ctx context.Context, actor ledger.Actor, key string, in AppraisalInput) (AppraisalSession, error) {
	if err := access.RequireSignedIn(actor, access.Apply); err != nil {
		return AppraisalSession{}, err
	}
	if actor.Kind == ledger.AgencyActor {
		in.AgencyPrefix = actor.Agency
	}
	in, heldOn, verdict, games, err := prepareAppraisal(ctx, in, s.store.Now())
	if err != nil {
		return AppraisalSession{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "RecordAppraisal", in, func(tx *ledger.Tx, now time.Time) (AppraisalSession, error) {
		if err := s.policy.Require(ctx, tx, actor, access.Apply, in.AgencyPrefix); err != nil {
			return AppraisalSession{}, err
		}
		if _, err := heldOnDate(in.HeldOn, now); err != nil { // the clock the transaction reads
			return AppraisalSession{}, err
		}
		var appraiserPlayer int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(player_id, 0) FROM appraisers WHERE id = $1`, in.AppraiserID).Scan(&appraiserPlayer); err != nil {
			return AppraisalSession{}, ledger.RowErr(err, fmt.Sprintf("appraiser %d", in.AppraiserID),
				ReasonNoSuchAppraiser.OnField("appraiser_id", "appraiser", strconv.FormatInt(in.AppraiserID, 10)))
		}
		if err := requireApproved(ctx, tx, in.AppraiserID, in.AgencyPrefix); err != nil {
			return AppraisalSession{}, onField(err, "appraiser_id")
		}
		p, err := registry.PlayerTx(ctx, tx, in.PlayerID, false)
		if err != nil {
			return AppraisalSession{}, onField(err, "player_id")
		}
		if prov, _ := registry.ProvinceByCode(p.ProvinceCode); prov.Prefix != in.AgencyPrefix {
			return AppraisalSession{}, ReasonAppraisalPlayerElsewhere.OnField("player_id", "player", strconv.FormatInt(p.ID, 10), "agency", in.AgencyPrefix)
		}
		if appraiserPlayer == p.ID {
			return AppraisalSession{}, ReasonAppraisalSelf.OnField("player_id")
		}
		var v any
		if verdict != registry.NoRank {
			v = verdict
		}
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO appraisal_sessions (agency_prefix, appraiser_id, player_id, player_name, held_on, verdict_rank, note,
			status, recorded_at, recorded_by) VALUES ($1, $2, $3, $4, $5, $6, $7, 'recorded', $8, $9) RETURNING id`,
			in.AgencyPrefix, in.AppraiserID, p.ID, p.Name, heldOn.Format(time.DateOnly), v, in.Note, now, actor.String()).Scan(&id); err != nil {
			return AppraisalSession{}, ledger.PgErr(err, "record appraisal")
		}
		records := 0
		for _, g := range games {
			if _, err := tx.Exec(ctx, `INSERT INTO appraisal_games (session_id, seq, opponent, colour, result, sgf, moves)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, id, g.Seq, g.Opponent, g.Colour, g.Result, g.SGF, g.Moves); err != nil {
				return AppraisalSession{}, ledger.PgErr(err, "record appraisal game")
			}
			if g.SGF != "" {
				records++
			}
		}
		sess, err := appraisalTx(ctx, tx, id)
		if err != nil {
			return AppraisalSession{}, err
		}
		return sess, ledger.Append(ctx, tx, now, actor, "appraisal", appraisalID(id), NewAppraisalRecordedPayload(sess, records))
	})
}

// onField names the field of a refusal that names none.
func onField(err error, field string) error {
	if e, ok := ledger.AsError(err); ok && e.Field == "" {
		e.Field = field
	}
	return err
}

func appraisalID(id int64) string { return strconv.FormatInt(id, 10) }

const appraisalSelect = `SELECT s.id, s.agency_prefix, s.appraiser_id, a.name, s.player_id, s.player_name, s.held_on, coalesce(s.verdict_rank, 0),
	s.note, s.status, s.recorded_at, s.recorded_by, s.withdrawn_at, coalesce(s.withdrawn_by, ''), s.withdraw_reason
	FROM appraisal_sessions s JOIN appraisers a ON a.id = s.appraiser_id`

func scanAppraisal(r pgx.Row) (AppraisalSession, error) {
	var s AppraisalSession
	var held time.Time
	err := r.Scan(&s.ID, &s.AgencyPrefix, &s.AppraiserID, &s.AppraiserName, &s.PlayerID, &s.PlayerName, &held, &s.Verdict,
		&s.Note, &s.Status, &s.RecordedAt, &s.RecordedBy, &s.WithdrawnAt, &s.WithdrawnBy, &s.WithdrawReason)
	s.HeldOn = time.Date(held.Year(), held.Month(), held.Day(), 0, 0, 0, 0, ledger.ChinaTime)
	return s, err
}

// appraisalTx reads a session with its games.
func appraisalTx(ctx context.Context, q ledger.Querier, id int64) (AppraisalSession, error) {
	s, err := scanAppraisal(q.QueryRow(ctx, appraisalSelect+` WHERE s.id = $1`, id))
	if err != nil {
		return AppraisalSession{}, ledger.RowErr(err, fmt.Sprintf("appraisal %d", id),
			ReasonNoSuchAppraisal.OnField("appraisal_session_id", "session", appraisalID(id)))
	}
	rows, err := q.Query(ctx, `SELECT seq, opponent, colour, result, sgf, moves FROM appraisal_games WHERE session_id = $1 ORDER BY seq`, id)
	if err != nil {
		return AppraisalSession{}, ledger.PgErr(err, "appraisal games")
	}
	s.Games, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (AppraisalGame, error) {
		var g AppraisalGame
		err := r.Scan(&g.Seq, &g.Opponent, &g.Colour, &g.Result, &g.SGF, &g.Moves)
		return g, err
	})
	if err != nil {
		return AppraisalSession{}, ledger.PgErr(err, "appraisal games")
	}
	return s, nil
}

// requireSession checks that session id backs an application of agency
// for player p to target, filed on applied (application is the
// application's own id, 0 while it is filed): the session is the agency's,
// of the player, not withdrawn, not already behind another issued
// certificate, passed at target or above, by an appraiser still approved,
// and the player 18 on the session's date and on the application's.
func requireSession(ctx context.Context, tx *ledger.Tx, id int64, agency string, p registry.Player, target registry.Rank, applied time.Time, application int64) (AppraisalSession, error) {
	if id <= 0 {
		return AppraisalSession{}, ReasonAppraisalSessionRequired.OnField("appraisal_session_id")
	}
	s, err := appraisalTx(ctx, tx, id)
	if err != nil {
		return AppraisalSession{}, err
	}
	sid := appraisalID(id)
	const f = "appraisal_session_id"
	switch {
	case s.AgencyPrefix != agency:
		return s, ReasonAppraisalOtherAgency.OnField(f, "session", sid, "agency", s.AgencyPrefix)
	case s.PlayerID != p.ID:
		return s, ReasonAppraisalOtherPlayer.OnField(f, "session", sid, "player", strconv.FormatInt(s.PlayerID, 10))
	case s.Status == AppraisalWithdrawn:
		date := ""
		if s.WithdrawnAt != nil {
			date = s.WithdrawnAt.In(ledger.ChinaTime).Format(time.DateOnly)
		}
		return s, ReasonAppraisalWithdrawn.OnField(f, "session", sid, "date", date, "reason", s.WithdrawReason)
	case !s.Passed():
		return s, ReasonAppraisalNotPassed.OnField(f, "session", sid)
	case target > s.Verdict:
		return s, ReasonAppraisalBelowTarget.FieldWith(f, ledger.Value("session", sid),
			ledger.Words("verdict", s.Verdict.Chinese(), s.Verdict.String()), ledger.Words("target", target.Chinese(), target.String()))
	}
	var used int64
	err = tx.QueryRow(ctx, `SELECT id FROM applications WHERE appraisal_session_id = $1 AND id <> $2 AND status = 'issued'
		ORDER BY id LIMIT 1`, id, application).Scan(&used)
	switch {
	case err == nil:
		return s, ReasonAppraisalUsed.OnField(f, "session", sid, "application", appID(used))
	case !errors.Is(err, pgx.ErrNoRows):
		return s, ledger.PgErr(err, "applications of appraisal")
	}
	if err := requireApproved(ctx, tx, s.AppraiserID, agency); err != nil {
		return s, onField(err, f)
	}
	held := time.Date(s.HeldOn.Year(), s.HeldOn.Month(), s.HeldOn.Day(), 12, 0, 0, 0, ledger.ChinaTime)
	if age := registry.AgeOn(p.BirthDate, held); age < MinAppraisalAge {
		return s, ReasonAppraisalUnderAge.OnField(f, "min", strconv.Itoa(MinAppraisalAge), "age", strconv.Itoa(age),
			"date", s.HeldOn.Format(time.DateOnly))
	}
	if age := registry.AgeOn(p.BirthDate, applied); age < MinAppraisalAge {
		return s, ReasonUnderAppraisalAge.OnField("basis", "min", strconv.Itoa(MinAppraisalAge), "age", strconv.Itoa(age),
			"date", applied.In(ledger.ChinaTime).Format(time.DateOnly))
	}
	return s, nil
}

// WithdrawAppraisal withdraws a session (its agency or staff), with the
// reason: an application still open that rests on it is withdrawn, and a
// certificate issued on it is flagged for staff to revoke or keep.
func (s *Service) WithdrawAppraisal(ctx context.Context, actor ledger.Actor, key string, id int64, reason string) (AppraisalSession, error) {
	if err := access.RequireSignedIn(actor, access.Apply); err != nil {
		return AppraisalSession{}, err
	}
	reason, err := ledger.OptionalText("reason", reason, maxReason)
	if err != nil {
		return AppraisalSession{}, err
	}
	if reason == "" {
		return AppraisalSession{}, ReasonReasonRequired.FieldWith("reason", ledger.Words("why", "撤回鉴定须写明理由。", "say why the appraisal is withdrawn."))
	}
	return ledger.Mutate(ctx, s.store, actor, key, "WithdrawAppraisal", []any{id, reason}, func(tx *ledger.Tx, now time.Time) (AppraisalSession, error) {
		// the applications first, then the session: the order of Approve
		rows, err := tx.Query(ctx, `SELECT id FROM applications WHERE appraisal_session_id = $1 ORDER BY id FOR UPDATE`, id)
		if err != nil {
			return AppraisalSession{}, ledger.PgErr(err, "lock the appraisal's applications")
		}
		apps, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return AppraisalSession{}, ledger.PgErr(err, "lock the appraisal's applications")
		}
		if _, err := tx.Exec(ctx, `SELECT 1 FROM appraisal_sessions WHERE id = $1 FOR UPDATE`, id); err != nil {
			return AppraisalSession{}, ledger.PgErr(err, "lock appraisal")
		}
		sess, err := appraisalTx(ctx, tx, id)
		if err != nil {
			return AppraisalSession{}, err
		}
		if actor.Kind == ledger.AgencyActor && sess.AgencyPrefix != actor.Agency {
			return AppraisalSession{}, ReasonNoSuchAppraisal.New("session", appraisalID(id))
		}
		if err := s.policy.Require(ctx, tx, actor, access.Apply, sess.AgencyPrefix); err != nil {
			return AppraisalSession{}, err
		}
		if sess.Status != AppraisalRecorded {
			return AppraisalSession{}, ReasonAppraisalNotRecorded.New("session", appraisalID(id))
		}
		if _, err := tx.Exec(ctx, `UPDATE appraisal_sessions SET status = 'withdrawn', withdrawn_at = $2, withdrawn_by = $3, withdraw_reason = $4
			WHERE id = $1`, id, now, actor.String(), reason); err != nil {
			return AppraisalSession{}, ledger.PgErr(err, "withdraw appraisal")
		}
		sess.Status, sess.WithdrawnAt, sess.WithdrawnBy, sess.WithdrawReason = AppraisalWithdrawn, &now, actor.String(), reason
		payload := AppraisalWithdrawnPayload{Applications: []int64{}, Certificates: []string{}, Reason: reason}
		params := map[string]string{"session": appraisalID(id), "reason": reason}
		for _, app := range apps {
			done, numbers, err := s.withdrawBasis(ctx, tx, now, actor, app, ReviewAppraisalWithdrawn.Code(), params)
			if err != nil {
				return AppraisalSession{}, err
			}
			if done == BasisWithdrawn {
				payload.Applications = append(payload.Applications, app)
			}
			payload.Certificates = append(payload.Certificates, numbers...)
		}
		return sess, ledger.Append(ctx, tx, now, actor, "appraisal", appraisalID(id), payload)
	})
}

// GetAppraisal returns a session to its agency or to staff.
func (s *Service) GetAppraisal(ctx context.Context, actor ledger.Actor, id int64) (AppraisalSession, error) {
	if err := access.RequireSignedIn(actor, access.ReadApplications); err != nil {
		return AppraisalSession{}, err
	}
	sess, err := appraisalTx(ctx, s.db, id)
	if err != nil {
		return AppraisalSession{}, err
	}
	if actor.Kind == ledger.AgencyActor && sess.AgencyPrefix != actor.Agency {
		return AppraisalSession{}, ReasonNoSuchAppraisal.New("session", appraisalID(id))
	}
	return sess, nil
}

// ListAppraisals lists sessions newest first, without their games: an
// agency sees its own, staff one agency's or all; player 0 is any player.
func (s *Service) ListAppraisals(ctx context.Context, actor ledger.Actor, agency string, player int64) ([]AppraisalSession, error) {
	if err := access.RequireSignedIn(actor, access.ReadApplications); err != nil {
		return nil, err
	}
	if actor.Kind == ledger.AgencyActor {
		agency = actor.Agency
	}
	rows, err := s.db.Query(ctx, appraisalSelect+` WHERE ($1 = '' OR s.agency_prefix = $1) AND ($2 = 0 OR s.player_id = $2)
		ORDER BY s.id DESC LIMIT 500`, agency, player)
	if err != nil {
		return nil, fmt.Errorf("list appraisals: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (AppraisalSession, error) { return scanAppraisal(r) })
}

// PublicAppraisal is a session as the public sees it: only one that backs
// a rank on public notice (4–7 dan), and only what the notice may show
// (names, date, games, verdict; no identity number or birth date, which a
// session does not hold).
func (s *Service) PublicAppraisal(ctx context.Context, id int64) (AppraisalSession, error) {
	var public bool
	if err := s.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM applications a JOIN notices n ON n.application_id = a.id
		WHERE a.appraisal_session_id = $1)`, id).Scan(&public); err != nil {
		return AppraisalSession{}, fmt.Errorf("appraisal %d on notice: %w", id, err)
	}
	if !public {
		return AppraisalSession{}, ReasonAppraisalNotPublic.New("session", appraisalID(id))
	}
	return appraisalTx(ctx, s.db, id)
}
