package tournaments

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// The referee's rulings put on record (2002 rules, ch. 3 and art. 23):
// each warning with its cause — "对局者被判的警告，应记录在案，在一局棋里满二次
// 者，判该局为负" — and the sanctions short of a suspension (art. 23.6).

// WarningCause is why a warning was given, as the rules name the offences.
type WarningCause string

const (
	CauseTakeBack        WarningCause = "take_back"         // 悔棋 (art. 17.3)
	CauseClockBeforeMove WarningCause = "clock_before_move" // 着子之前按计时器 (art. 17.4)
	CauseWrongCapture    WarningCause = "wrong_capture"     // 误提有气之子 (art. 18.1)
	CauseMissedCapture   WarningCause = "missed_capture"    // 未提、漏提无气之子 (art. 18.2)
	CausePhone           WarningCause = "phone"             // 手机发出响声 (art. 23.7)
	CauseSmoking         WarningCause = "smoking"           // 违反禁烟规定 (art. 23.8)
	CauseDisturbing      WarningCause = "disturbing"        // 妨碍他人思考
	CauseOther           WarningCause = "other"             // with the referee's words
)

// WarningCauses lists the causes in the order the forms offer them.
func WarningCauses() []WarningCause {
	return []WarningCause{CauseTakeBack, CauseClockBeforeMove, CauseWrongCapture, CauseMissedCapture,
		CausePhone, CauseSmoking, CauseDisturbing, CauseOther}
}

// WarningInput is one warning given at a board.
type WarningInput struct {
	Round, Board int
	Number       int // the participant warned: the game's Black or White
	Cause        string
	Note         string // required for CauseOther
	Referee      string // the referee at the board, when not the one entering it
}

// RefereeWarning is a recorded warning.
type RefereeWarning struct {
	ID           int64
	Round, Board int
	Number       int
	Cause        WarningCause
	Note         string
	Referee      string
	GivenAt      time.Time
	GivenBy      string
	// Decided is true when this warning was the side's second in the game
	// and lost it (the rule's consequence, as for reported warnings).
	Decided bool
}

// Warned is what recording a warning did: the warning and the game.
type Warned struct {
	Warning RefereeWarning
	Game    GameRow
}

const maxWarningNote = 500

// parseWarning checks a warning without reading the database.
func parseWarning(in WarningInput) (WarningCause, string, string, error) {
	cause := WarningCause(strings.TrimSpace(in.Cause))
	known := false
	for _, c := range WarningCauses() {
		known = known || c == cause
	}
	if !known {
		return "", "", "", ReasonWarningCause.OnField("cause", "value", in.Cause)
	}
	note, err := ledger.OptionalText("note", in.Note, maxWarningNote)
	if err != nil {
		return "", "", "", err
	}
	if cause == CauseOther && note == "" {
		return "", "", "", ReasonWarningNote.OnField("note")
	}
	ref, err := ledger.OptionalText("referee", in.Referee, 100)
	if err != nil {
		return "", "", "", err
	}
	return cause, note, ref, nil
}

// RecordWarning puts a warning on record. The side's count on the game is
// the number of its recorded warnings (at least what a report said); the
// second loses the game at once, as two reported warnings do
// (warnedResult). The organiser (its referees) or staff record it; a
// confirmed game only staff, a game already lost on two warnings by that
// side takes no third.
func (s *Service) RecordWarning(ctx context.Context, actor ledger.Actor, key string, id int64, in WarningInput) (Warned, error) {
	cause, note, ref, err := parseWarning(in)
	if err != nil {
		return Warned{}, err
	}
	req := []any{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "RecordWarning", req, func(tx *ledger.Tx, now time.Time) (Warned, error) {
		if _, err := s.lockAnyEvent(ctx, tx, actor, id); err != nil {
			return Warned{}, err
		}
		var black, white, bw, ww int
		var res Result
		var confirmed bool
		err := tx.QueryRow(ctx, `SELECT black, white, result, black_warnings, white_warnings, confirmed_at IS NOT NULL FROM tournament_games
			WHERE tournament_id = $1 AND round = $2 AND board = $3 FOR UPDATE`, id, in.Round, in.Board).
			Scan(&black, &white, &res, &bw, &ww, &confirmed)
		if err != nil {
			return Warned{}, ledger.RowErr(err, fmt.Sprintf("tournament %d round %d board %d", id, in.Round, in.Board),
				ReasonWarningNoSuchGame.New("event", eventID(id), "round", strconv.Itoa(in.Round), "board", strconv.Itoa(in.Board)))
		}
		if in.Number != black && in.Number != white {
			return Warned{}, ReasonNoSuchParticipant.OnField("participant", "event", eventID(id), "number", strconv.Itoa(in.Number))
		}
		if confirmed && !actor.IsStaff() {
			return Warned{}, ReasonResultConfirmed.New("round", strconv.Itoa(in.Round), "board", strconv.Itoa(in.Board))
		}
		count := &bw
		if in.Number == white {
			count = &ww
		}
		var recorded int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM tournament_warnings WHERE tournament_id = $1 AND round = $2 AND board = $3 AND number = $4`,
			id, in.Round, in.Board, in.Number).Scan(&recorded); err != nil {
			return Warned{}, ledger.PgErr(err, "warnings of the game")
		}
		if *count >= 2 {
			return Warned{}, ReasonWarningGameLost.New("number", strconv.Itoa(in.Number), "round", strconv.Itoa(in.Round), "board", strconv.Itoa(in.Board))
		}
		*count = max(*count, recorded+1)
		w := RefereeWarning{Round: in.Round, Board: in.Board, Number: in.Number, Cause: cause, Note: note, Referee: ref, GivenAt: now, GivenBy: actor.String()}
		was := res
		if *count >= 2 {
			res = warnedResult(res, bw, ww)
			w.Decided = true
		}
		if err := tx.QueryRow(ctx, `INSERT INTO tournament_warnings (tournament_id, round, board, number, cause, note, referee, decided, given_at, given_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`, id, in.Round, in.Board, in.Number, cause, note, ref, w.Decided, now, actor.String()).Scan(&w.ID); err != nil {
			return Warned{}, ledger.PgErr(err, "record warning")
		}
		if _, err := tx.Exec(ctx, `UPDATE tournament_games SET black_warnings = $4, white_warnings = $5, result = $6
			WHERE tournament_id = $1 AND round = $2 AND board = $3`, id, in.Round, in.Board, bw, ww, res); err != nil {
			return Warned{}, ledger.PgErr(err, "count warnings")
		}
		p := WarningGivenPayload{Board: in.Board, Cause: cause, Count: *count, Note: note, Number: in.Number, Referee: ref, Round: in.Round, Warning: w.ID}
		if res != was {
			p.Result, p.Was = &res, &was
		}
		if err := ledger.Append(ctx, tx, now, actor, "tournament", eventID(id), p); err != nil {
			return Warned{}, err
		}
		g, err := s.game(ctx, tx, id, in.Round, in.Board)
		return Warned{Warning: w, Game: g}, err
	})
}

// RefereeWarnings lists an event's recorded warnings by round, board and time.
func (s *Service) RefereeWarnings(ctx context.Context, id int64) ([]RefereeWarning, error) {
	rows, err := s.db.Query(ctx, `SELECT id, round, board, number, cause, note, referee, given_at, given_by, decided
		FROM tournament_warnings WHERE tournament_id = $1 ORDER BY round, board, id`, id)
	if err != nil {
		return nil, fmt.Errorf("warnings of tournament %d: %w", id, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (RefereeWarning, error) {
		var w RefereeWarning
		err := r.Scan(&w.ID, &w.Round, &w.Board, &w.Number, &w.Cause, &w.Note, &w.Referee, &w.GivenAt, &w.GivenBy, &w.Decided)
		return w, err
	})
}

// SanctionKind is a sanction short of a suspension (art. 23.6: "除通报批评之
// 外，根据情节和社会影响的严重程度，允许作出降一个名次发放奖金及停赛处罚").
type SanctionKind string

const (
	SanctionReprimand     SanctionKind = "reprimand"             // 通报批评
	SanctionPrizeDemotion SanctionKind = "prize_one_place_lower" // 降一个名次发放奖金
)

// SanctionKinds lists the kinds in the order the forms offer them.
func SanctionKinds() []SanctionKind { return []SanctionKind{SanctionReprimand, SanctionPrizeDemotion} }

// SanctionInput sanctions a participant of an event.
type SanctionInput struct {
	Number int // the participant
	Kind   string
	Reason string
}

// Sanction is a recorded sanction.
type Sanction struct {
	ID           int64
	TournamentID int64
	EventName    string
	PlayerID     int64
	Number       int
	Name         string
	Kind         SanctionKind
	Reason       string
	DecidedAt    time.Time
	DecidedBy    string
}

// Sanction records a public reprimand or prize money one place lower for a
// registered participant of the event, with its reason; the organiser
// (the event's chief referee and committee) or staff decide it. A
// suspension stays with Suspend (staff only).
func (s *Service) Sanction(ctx context.Context, actor ledger.Actor, key string, id int64, in SanctionInput) (Sanction, error) {
	kind := SanctionKind(strings.TrimSpace(in.Kind))
	if kind != SanctionReprimand && kind != SanctionPrizeDemotion {
		return Sanction{}, ReasonSanctionKind.OnField("kind", "value", in.Kind)
	}
	reason, err := ledger.Text("reason", in.Reason, maxDiscipline)
	if err != nil || reason == "" {
		return Sanction{}, ReasonDisciplineReason.OnField("reason")
	}
	req := []any{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "Sanction", req, func(tx *ledger.Tx, now time.Time) (Sanction, error) {
		e, err := s.lockAnyEvent(ctx, tx, actor, id)
		if err != nil {
			return Sanction{}, err
		}
		sn := Sanction{TournamentID: id, EventName: e.Name, Number: in.Number, Kind: kind, Reason: reason, DecidedAt: now, DecidedBy: actor.String()}
		var player *int64
		err = tx.QueryRow(ctx, `SELECT player_id, name FROM participants WHERE tournament_id = $1 AND number = $2`, id, in.Number).Scan(&player, &sn.Name)
		if err != nil {
			return Sanction{}, ledger.RowErr(err, "participant", ReasonNoSuchParticipant.OnField("participant", "event", eventID(id), "number", strconv.Itoa(in.Number)))
		}
		if player == nil { // a guest has no page to carry it
			return Sanction{}, ReasonSanctionGuest.OnField("number", "number", strconv.Itoa(in.Number))
		}
		sn.PlayerID = *player
		if err := tx.QueryRow(ctx, `INSERT INTO tournament_sanctions (tournament_id, player_id, number, kind, reason, decided_at, decided_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, id, sn.PlayerID, in.Number, kind, reason, now, actor.String()).Scan(&sn.ID); err != nil {
			return Sanction{}, ledger.PgErr(err, "record sanction")
		}
		if err := ledger.Append(ctx, tx, now, actor, "tournament", eventID(id),
			SanctionedPayload{Kind: kind, Number: in.Number, Player: sn.PlayerID, Reason: reason, Sanction: sn.ID}); err != nil {
			return Sanction{}, err
		}
		return sn, nil
	})
}

const sanctionColumns = `s.id, s.tournament_id, t.name, s.player_id, s.number, p.name, s.kind, s.reason, s.decided_at, s.decided_by
	FROM tournament_sanctions s JOIN tournaments t ON t.id = s.tournament_id
	JOIN participants p ON p.tournament_id = s.tournament_id AND p.number = s.number`

func (s *Service) sanctions(ctx context.Context, where string, arg int64) ([]Sanction, error) {
	rows, err := s.db.Query(ctx, `SELECT `+sanctionColumns+` WHERE `+where+` ORDER BY s.decided_at, s.id`, arg)
	if err != nil {
		return nil, fmt.Errorf("sanctions: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Sanction, error) {
		var x Sanction
		err := r.Scan(&x.ID, &x.TournamentID, &x.EventName, &x.PlayerID, &x.Number, &x.Name, &x.Kind, &x.Reason, &x.DecidedAt, &x.DecidedBy)
		return x, err
	})
}

// EventSanctions lists an event's sanctions in the order decided.
func (s *Service) EventSanctions(ctx context.Context, id int64) ([]Sanction, error) {
	return s.sanctions(ctx, "s.tournament_id = $1", id)
}

// PlayerSanctions lists a player's sanctions in every event.
func (s *Service) PlayerSanctions(ctx context.Context, playerID int64) ([]Sanction, error) {
	return s.sanctions(ctx, "s.player_id = $1", playerID)
}
