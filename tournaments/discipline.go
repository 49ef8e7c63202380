package tournaments

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// The referee's and the association's acts after the board: confirming
// results (then final for the organiser, who can neither change nor void
// them), voiding results of arranged games
// found later and suspending players (2002 rules, art. 23), protests on a
// game, and nigiri at the board (art. 15).

// ConfirmRound confirms every result of a round, as the chief referee
// does (art. 30: "监督比赛的编排及成绩公布"). From then on the organiser can
// neither change nor void them; staff still may (a void for cheating too).
func (s *Service) ConfirmRound(ctx context.Context, actor ledger.Actor, key string, id int64, round int) (RoundInfo, error) {
	req := []any{id, round}
	return ledger.Mutate(ctx, s.store, actor, key, "ConfirmRound", req, func(tx *ledger.Tx, now time.Time) (RoundInfo, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return RoundInfo{}, err
		}
		if round < 1 || round > e.PairedRounds {
			return RoundInfo{}, ReasonNoSuchRound.New("event", eventID(id), "round", strconv.Itoa(round), "rounds", strconv.Itoa(e.PairedRounds))
		}
		var missing, board int
		if err := tx.QueryRow(ctx, `SELECT count(*), coalesce(min(board), 0) FROM tournament_games
			WHERE tournament_id = $1 AND round = $2 AND result IN ('', 'replayed')`, id, round).Scan(&missing, &board); err != nil {
			return RoundInfo{}, ledger.PgErr(err, "results of the round")
		}
		if missing > 0 {
			return RoundInfo{}, ReasonResultMissing.New("round", strconv.Itoa(round), "board", strconv.Itoa(board))
		}
		tag, err := tx.Exec(ctx, `UPDATE tournament_games SET confirmed_at = $3, confirmed_by = $4
			WHERE tournament_id = $1 AND round = $2 AND confirmed_at IS NULL`, id, round, now, actor.String())
		if err != nil {
			return RoundInfo{}, ledger.PgErr(err, "confirm round")
		}
		if err := ledger.Append(ctx, tx, now, actor, "tournament", eventID(id),
			RoundConfirmedPayload{ChiefReferee: e.ChiefReferee, Games: tag.RowsAffected(), Round: round}); err != nil {
			return RoundInfo{}, err
		}
		rs, err := s.rounds(ctx, tx, id)
		if err != nil {
			return RoundInfo{}, err
		}
		for _, r := range rs {
			if r.Round == round {
				return r, nil
			}
		}
		return RoundInfo{}, ReasonNotPlayed.New("round", strconv.Itoa(round), "board", "1")
	})
}

// VoidSide says whose result a void cancels.
type VoidSide string

const (
	VoidBlack VoidSide = "black"
	VoidWhite VoidSide = "white"
	VoidBoth  VoidSide = "both"
)

// VoidInput voids results of one game for cheating found later.
type VoidInput struct {
	Round, Board int
	Side         VoidSide
	Reason       string
}

// Voided is what a void changed: the game, and the proposals of a finished
// dan-grade event that no longer hold (application withdrawn, or the
// certificate flagged for staff to revoke).
type Voided struct {
	Game      GameRow
	Withdrawn []Proposal
	// Rechecked is how many applications naming the finished event were
	// withdrawn, or their certificates flagged, on the changed results.
	Rechecked int
}

// VoidResult cancels one or both players' result of a game for an arranged
// game (下假棋) or a similar fraud, even rounds later or after the event
// finished (art. 23: "仍允许作出部分或全部取消单方或双方成绩的处罚"): the
// voided side loses, both voided both lose. Standings follow at once (they
// are computed from the games); in a finished dan-grade event every
// proposal whose player no longer reaches his group's threshold is taken
// back through the proposer. Staff or the organiser (its chief referee) may
// void a result not yet confirmed; a confirmed one (ConfirmRound) only
// staff (capability VoidConfirmedResult), and the audit counts those.
func (s *Service) VoidResult(ctx context.Context, actor ledger.Actor, key string, id int64, in VoidInput) (Voided, error) {
	side := VoidSide(strings.TrimSpace(string(in.Side)))
	if side != VoidBlack && side != VoidWhite && side != VoidBoth {
		return Voided{}, ReasonVoidSide.OnField("side", "value", string(in.Side))
	}
	reason, err := ledger.Text("reason", in.Reason, maxDiscipline)
	if err != nil {
		return Voided{}, ReasonDisciplineReason.OnField("reason")
	}
	req := []any{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "VoidResult", req, func(tx *ledger.Tx, now time.Time) (Voided, error) {
		e, err := s.lockAnyEvent(ctx, tx, actor, id)
		if err != nil {
			return Voided{}, err
		}
		var old Result
		var voided, confirmedBy string
		var confirmed bool
		err = tx.QueryRow(ctx, `SELECT result, voided, confirmed_at IS NOT NULL, coalesce(confirmed_by, '') FROM tournament_games
			WHERE tournament_id = $1 AND round = $2 AND board = $3 FOR UPDATE`,
			id, in.Round, in.Board).Scan(&old, &voided, &confirmed, &confirmedBy)
		if err != nil {
			return Voided{}, ledger.PgErr(err, fmt.Sprintf("tournament %d round %d board %d", id, in.Round, in.Board))
		}
		if old == NoResult {
			return Voided{}, ReasonNotPlayed.New("round", strconv.Itoa(in.Round), "board", strconv.Itoa(in.Board))
		}
		// a confirmed result is final for the organiser: only the
		// association overturns it (the organiser keeps voiding results
		// the referee has not confirmed yet)
		if confirmed {
			if err := s.policy.Require(ctx, tx, actor, access.VoidConfirmedResult, registry.AssociationPrefix); err != nil {
				return Voided{}, err
			}
		}
		res := voidedResult(old, side)
		if _, err := tx.Exec(ctx, `UPDATE tournament_games SET result = $4, voided = $5, void_reason = $6,
			voided_result = CASE WHEN voided = '' THEN $7 ELSE voided_result END
			WHERE tournament_id = $1 AND round = $2 AND board = $3`, id, in.Round, in.Board, res, side, reason, old); err != nil {
			return Voided{}, ledger.PgErr(err, "void result")
		}
		if err := ledger.Append(ctx, tx, now, actor, "tournament", eventID(id),
			ResultVoidedPayload{Board: in.Board, Confirmed: confirmed, ConfirmedBy: confirmedBy, Reason: reason, Result: res, Round: in.Round,
				Side: side, VoidedBy: actor.String(), Was: old}); err != nil {
			return Voided{}, err
		}
		var out Voided
		if e.Status == "finished" && e.DanGrade {
			if out.Withdrawn, err = s.withdrawUnqualified(ctx, tx, now, actor, id, reason); err != nil {
				return Voided{}, err
			}
		}
		if e.Status == "finished" && s.proposer != nil {
			// any application naming the event (not only its own proposals)
			// is checked against the changed results
			if out.Rechecked, err = s.proposer.RecheckEventTx(ctx, tx, now, actor, id, reason); err != nil {
				return Voided{}, fmt.Errorf("recheck the applications resting on event %d: %w", id, err)
			}
		}
		out.Game, err = s.game(ctx, tx, id, in.Round, in.Board)
		return out, err
	})
}

// voidedResult is a game's result once a side's result is voided.
func voidedResult(r Result, side VoidSide) Result {
	switch {
	case side == VoidBoth:
		return BothLose
	case side == VoidBlack && r.Winner() == 'w':
		return r
	case side == VoidBlack:
		return WhiteWins
	case r.Winner() == 'b':
		return r
	}
	return BlackWins
}

// withdrawUnqualified takes back the proposals of a finished dan-grade
// event whose players no longer reach their group's threshold.
func (s *Service) withdrawUnqualified(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, id int64, reason string) ([]Proposal, error) {
	r, err := s.eventReport(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	groups := map[int64]Group{}
	for _, g := range r.Event.Groups {
		groups[g.ID] = g
	}
	wins := map[int]int{}
	for _, st := range r.Standings {
		wins[st.Entrant] = st.Wins
	}
	group := map[int]int64{}
	for _, p := range r.Participants {
		group[p.Number] = p.GroupID
	}
	var out []Proposal
	for _, pr := range r.Proposals {
		g, ok := groups[group[pr.Number]]
		if pr.ApplicationID == 0 || !ok || wins[pr.Number] >= g.MinWins {
			continue
		}
		var done string
		if err := tx.Savepoint(ctx, func(sp *ledger.Tx) error {
			done, err = s.proposer.WithdrawTx(ctx, sp, now, actor, pr.ApplicationID,
				Withdrawal{Event: id, Reason: reason, Wins: wins[pr.Number], Threshold: g.MinWins})
			return err
		}); err != nil {
			return nil, fmt.Errorf("withdraw proposal of participant %d: %w", pr.Number, err)
		}
		note := message(NoteWithdrawn, "done", done)
		pr.NoteCode, pr.NoteParams = note.Code, note.Params
		pr.Note, pr.NoteZH = note.Text(ledger.English), note.Text(ledger.Chinese)
		if _, err := tx.Exec(ctx, `UPDATE tournament_proposals SET note = $3, note_zh = $4, note_code = $5, note_params = $6
			WHERE tournament_id = $1 AND number = $2`, id, pr.Number, pr.Note, pr.NoteZH, pr.NoteCode, pr.NoteParams); err != nil {
			return nil, ledger.PgErr(err, "record withdrawn proposal")
		}
		out = append(out, pr)
	}
	return out, nil
}

// lockAnyEvent locks an event, open or finished, for its organiser or staff.
func (s *Service) lockAnyEvent(ctx context.Context, tx *ledger.Tx, actor ledger.Actor, id int64) (Event, error) {
	if err := access.RequireSignedIn(actor, access.RunEvent); err != nil {
		return Event{}, err
	}
	e, err := scanEvent(tx.QueryRow(ctx, `SELECT `+eventColumns+` FROM tournaments WHERE id = $1 FOR UPDATE`, id))
	if err != nil {
		return Event{}, ledger.RowErr(err, fmt.Sprintf("tournament %d", id), ReasonNoSuchEvent.New("event", eventID(id)))
	}
	if err := s.mayRun(ctx, tx, actor, e.OrganiserPrefix, e.Level); err != nil {
		return Event{}, err
	}
	return e, nil
}

// SuspensionInput suspends a player from competition (停赛) for a period.
type SuspensionInput struct {
	PlayerID     int64
	From, To     string // YYYY-MM-DD, inclusive
	Reason       string
	TournamentID int64 // the event it arose from, if any
}

// Suspension is a recorded suspension.
type Suspension struct {
	ID           int64
	PlayerID     int64
	From, To     time.Time
	Reason       string
	TournamentID int64
	DecidedAt    time.Time
	DecidedBy    string
}

// Suspend records a suspension (art. 23: "情节严重的，允许作出今后的停赛处罚");
// a suspended player cannot be entered in an event held in the period.
// Staff decide it.
func (s *Service) Suspend(ctx context.Context, actor ledger.Actor, key string, in SuspensionInput) (Suspension, error) {
	if err := s.policy.Require(ctx, s.db, actor, access.SuspendPlayers, registry.AssociationPrefix); err != nil {
		return Suspension{}, err
	}
	from, err1 := time.Parse(time.DateOnly, strings.TrimSpace(in.From))
	to, err2 := time.Parse(time.DateOnly, strings.TrimSpace(in.To))
	if err1 != nil || err2 != nil || to.Before(from) {
		return Suspension{}, ReasonSuspensionDates.OnField("to")
	}
	reason, err := ledger.Text("reason", in.Reason, maxDiscipline)
	if err != nil {
		return Suspension{}, ReasonDisciplineReason.OnField("reason")
	}
	req := []any{in}
	return ledger.Mutate(ctx, s.store, actor, key, "Suspend", req, func(tx *ledger.Tx, now time.Time) (Suspension, error) {
		if _, err := registry.PlayerTx(ctx, tx, in.PlayerID, false); err != nil {
			return Suspension{}, err
		}
		var event any
		if in.TournamentID != 0 {
			event = in.TournamentID
		}
		sp := Suspension{PlayerID: in.PlayerID, From: from, To: to, Reason: reason, TournamentID: in.TournamentID, DecidedAt: now, DecidedBy: actor.String()}
		if err := tx.QueryRow(ctx, `INSERT INTO player_suspensions (player_id, from_date, to_date, reason, tournament_id, decided_at, decided_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, in.PlayerID, from, to, reason, event, now, actor.String()).Scan(&sp.ID); err != nil {
			return Suspension{}, ledger.PgErr(err, "record suspension")
		}
		return sp, ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(in.PlayerID, 10),
			PlayerSuspendedPayload{From: in.From, Reason: reason, Suspension: sp.ID, To: in.To, Tournament: in.TournamentID})
	})
}

// Suspensions lists a player's suspensions, newest first.
func (s *Service) Suspensions(ctx context.Context, playerID int64) ([]Suspension, error) {
	rows, err := s.db.Query(ctx, `SELECT id, player_id, from_date, to_date, reason, coalesce(tournament_id, 0), decided_at, decided_by
		FROM player_suspensions WHERE player_id = $1 ORDER BY from_date DESC, id DESC`, playerID)
	if err != nil {
		return nil, fmt.Errorf("suspensions of player %d: %w", playerID, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Suspension, error) {
		var sp Suspension
		err := r.Scan(&sp.ID, &sp.PlayerID, &sp.From, &sp.To, &sp.Reason, &sp.TournamentID, &sp.DecidedAt, &sp.DecidedBy)
		return sp, err
	})
}

// refuseSuspended refuses a player suspended on any day of the event.
func refuseSuspended(ctx context.Context, tx *ledger.Tx, e Event, playerID int64) error {
	var from, to time.Time
	err := tx.QueryRow(ctx, `SELECT from_date, to_date FROM player_suspensions
		WHERE player_id = $1 AND from_date <= $3 AND to_date >= $2 ORDER BY to_date DESC LIMIT 1`, playerID, e.Start, e.End).Scan(&from, &to)
	switch {
	case err == pgx.ErrNoRows:
		return nil
	case err != nil:
		return ledger.PgErr(err, "suspensions")
	}
	return ReasonSuspended.New("player", strconv.FormatInt(playerID, 10), "from", from.Format(time.DateOnly),
		"to", to.Format(time.DateOnly), "event", eventID(e.ID))
}

// ProtestInput is a player's protest (申诉) on a game, lodged through the
// organiser.
type ProtestInput struct {
	Round, Board int
	Number       int // the participant who protests
	Reason       string
}

// Protest is a lodged protest and its ruling.
type Protest struct {
	ID           int64
	Round, Board int
	Number       int
	Reason       string
	LodgedAt     time.Time
	Status       string // open, upheld or dismissed
	Ruling       string
	RuledAt      *time.Time
	RuledBy      string
}

// LodgeProtest records a protest on a game by one of its two players.
func (s *Service) LodgeProtest(ctx context.Context, actor ledger.Actor, key string, id int64, in ProtestInput) (Protest, error) {
	reason, err := ledger.Text("reason", in.Reason, maxDiscipline)
	if err != nil {
		return Protest{}, ReasonDisciplineReason.OnField("reason")
	}
	req := []any{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "LodgeProtest", req, func(tx *ledger.Tx, now time.Time) (Protest, error) {
		e, err := s.lockAnyEvent(ctx, tx, actor, id)
		if err != nil {
			return Protest{}, err
		}
		var black, white int
		var res Result
		var confirmed bool
		if err := tx.QueryRow(ctx, `SELECT black, white, result, confirmed_at IS NOT NULL FROM tournament_games WHERE tournament_id = $1 AND round = $2 AND board = $3`,
			id, in.Round, in.Board).Scan(&black, &white, &res, &confirmed); err != nil {
			return Protest{}, ledger.PgErr(err, fmt.Sprintf("tournament %d round %d board %d", id, in.Round, in.Board))
		}
		if in.Number != black && in.Number != white {
			return Protest{}, ReasonNoSuchParticipant.New("event", eventID(id), "number", strconv.Itoa(in.Number))
		}
		// "须在对局进行当时立即提出，逾期失效" (art. 32): a protest comes
		// while the game is on, so not after its result is recorded (or
		// confirmed), nor after the event finished. A game to be replayed
		// is on again.
		switch {
		case e.Status != "open":
			return Protest{}, ReasonProtestAfterFinish.New("event", eventID(id))
		case res.Decided() || confirmed:
			return Protest{}, ReasonProtestAfterResult.New("round", strconv.Itoa(in.Round), "board", strconv.Itoa(in.Board))
		}
		p := Protest{Round: in.Round, Board: in.Board, Number: in.Number, Reason: reason, LodgedAt: now, Status: "open"}
		if err := tx.QueryRow(ctx, `INSERT INTO tournament_protests (tournament_id, round, board, lodged_by, reason, lodged_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, id, in.Round, in.Board, in.Number, reason, now).Scan(&p.ID); err != nil {
			return Protest{}, ledger.PgErr(err, "lodge protest")
		}
		return p, ledger.Append(ctx, tx, now, actor, "tournament", eventID(id),
			ProtestLodgedPayload{Board: in.Board, Number: in.Number, Protest: p.ID, Reason: reason, Round: in.Round})
	})
}

// RuleProtest rules on an open protest: upheld or dismissed, with the
// ruling's words. Upholding changes no result by itself: the referee then
// records the corrected result or voids it, each logged in its own right.
func (s *Service) RuleProtest(ctx context.Context, actor ledger.Actor, key string, id, protest int64, upheld bool, ruling string) (Protest, error) {
	ruling, err := ledger.Text("ruling", ruling, maxDiscipline)
	if err != nil {
		return Protest{}, ReasonDisciplineReason.OnField("ruling")
	}
	req := []any{id, protest, upheld, ruling}
	return ledger.Mutate(ctx, s.store, actor, key, "RuleProtest", req, func(tx *ledger.Tx, now time.Time) (Protest, error) {
		if _, err := s.lockAnyEvent(ctx, tx, actor, id); err != nil {
			return Protest{}, err
		}
		status := "dismissed"
		if upheld {
			status = "upheld"
		}
		tag, err := tx.Exec(ctx, `UPDATE tournament_protests SET status = $3, ruling = $4, ruled_at = $5, ruled_by = $6
			WHERE tournament_id = $1 AND id = $2 AND status = 'open'`, id, protest, status, ruling, now, actor.String())
		if err != nil {
			return Protest{}, ledger.PgErr(err, "rule protest")
		}
		if tag.RowsAffected() == 0 {
			return Protest{}, ReasonNoSuchProtest.New("event", eventID(id), "protest", strconv.FormatInt(protest, 10))
		}
		if err := ledger.Append(ctx, tx, now, actor, "tournament", eventID(id),
			ProtestRuledPayload{Protest: protest, Ruling: ruling, Status: status}); err != nil {
			return Protest{}, err
		}
		ps, err := s.protests(ctx, tx, id)
		if err != nil {
			return Protest{}, err
		}
		for _, p := range ps {
			if p.ID == protest {
				return p, nil
			}
		}
		return Protest{}, ReasonNoSuchProtest.New("event", eventID(id), "protest", strconv.FormatInt(protest, 10))
	})
}

// Protests lists an event's protests in the order lodged.
func (s *Service) Protests(ctx context.Context, id int64) ([]Protest, error) {
	return s.protests(ctx, s.db, id)
}

func (s *Service) protests(ctx context.Context, q ledger.Querier, id int64) ([]Protest, error) {
	rows, err := q.Query(ctx, `SELECT id, round, board, lodged_by, reason, lodged_at, status, ruling, ruled_at, ruled_by
		FROM tournament_protests WHERE tournament_id = $1 ORDER BY id`, id)
	if err != nil {
		return nil, fmt.Errorf("protests of tournament %d: %w", id, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Protest, error) {
		var p Protest
		err := r.Scan(&p.ID, &p.Round, &p.Board, &p.Number, &p.Reason, &p.LodgedAt, &p.Status, &p.Ruling, &p.RuledAt, &p.RuledBy)
		return p, err
	})
}

// NigiriInput is a nigiri at the board: the guesser's call and the number
// of white stones the holder hid.
type NigiriInput struct {
	Round, Board int
	Guess        string // odd or even
	Stones       int
}

// maxNigiriStones bounds the stones in a hand (a bowl holds 180 white).
const maxNigiriStones = 180

// RecordNigiri records a nigiri (猜先) in an event that decides colours so
// and seats the players accordingly: the higher-ranked player holds the
// stones, at equal rank the elder (a guest's age is not known: then the
// lower-numbered); the other guesses, and takes black if right.
func (s *Service) RecordNigiri(ctx context.Context, actor ledger.Actor, key string, id int64, in NigiriInput) (GameRow, error) {
	if (in.Guess != "odd" && in.Guess != "even") || in.Stones < 1 || in.Stones > maxNigiriStones {
		return GameRow{}, ReasonNigiri.OnField("guess", "max", strconv.Itoa(maxNigiriStones))
	}
	req := []any{id, in}
	return ledger.Mutate(ctx, s.store, actor, key, "RecordNigiri", req, func(tx *ledger.Tx, now time.Time) (GameRow, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return GameRow{}, err
		}
		if e.Colours != ColoursNigiri {
			return GameRow{}, ReasonNigiriEvent.New("event", eventID(id))
		}
		var black, white int
		var res Result
		if err := tx.QueryRow(ctx, `SELECT black, white, result FROM tournament_games WHERE tournament_id = $1 AND round = $2 AND board = $3 FOR UPDATE`,
			id, in.Round, in.Board).Scan(&black, &white, &res); err != nil {
			return GameRow{}, ledger.PgErr(err, fmt.Sprintf("tournament %d round %d board %d", id, in.Round, in.Board))
		}
		if res != NoResult {
			return GameRow{}, ReasonGameDecided.New("round", strconv.Itoa(in.Round), "board", strconv.Itoa(in.Board))
		}
		ps, err := s.participants(ctx, tx, id)
		if err != nil {
			return GameRow{}, err
		}
		holder, guesser, err := nigiriHolder(ctx, tx, ps[black-1], ps[white-1])
		if err != nil {
			return GameRow{}, err
		}
		right := (in.Stones%2 == 1) == (in.Guess == "odd")
		newBlack, newWhite := holder, guesser
		if right {
			newBlack, newWhite = guesser, holder
		}
		if _, err := tx.Exec(ctx, `UPDATE tournament_games SET black = $4, white = $5, nigiri = true, nigiri_holder = $6,
			nigiri_guess = $7, nigiri_stones = $8 WHERE tournament_id = $1 AND round = $2 AND board = $3`,
			id, in.Round, in.Board, newBlack, newWhite, holder, in.Guess, in.Stones); err != nil {
			return GameRow{}, ledger.PgErr(err, "record nigiri")
		}
		if err := ledger.Append(ctx, tx, now, actor, "tournament", eventID(id),
			NigiriPayload{Black: newBlack, Board: in.Board, Guess: in.Guess, Holder: holder, Round: in.Round, Stones: in.Stones}); err != nil {
			return GameRow{}, err
		}
		return s.game(ctx, tx, id, in.Round, in.Board)
	})
}

// nigiriHolder picks who holds the stones: the higher rank, at equal rank
// the elder (art. 15), and returns the holder and the guesser.
func nigiriHolder(ctx context.Context, tx *ledger.Tx, a, b Participant) (holder, guesser int, err error) {
	switch {
	case a.Rank > b.Rank:
		return a.Number, b.Number, nil
	case b.Rank > a.Rank:
		return b.Number, a.Number, nil
	}
	if a.PlayerID != 0 && b.PlayerID != 0 {
		pa, err := registry.PlayerTx(ctx, tx, a.PlayerID, false)
		if err != nil {
			return 0, 0, err
		}
		pb, err := registry.PlayerTx(ctx, tx, b.PlayerID, false)
		if err != nil {
			return 0, 0, err
		}
		if pb.BirthDate.Before(pa.BirthDate) {
			return b.Number, a.Number, nil
		}
		if pa.BirthDate.Before(pb.BirthDate) {
			return a.Number, b.Number, nil
		}
	}
	if b.Number < a.Number {
		return b.Number, a.Number, nil
	}
	return a.Number, b.Number, nil
}

// withdrawnZH words in Chinese what withdrawing a proposal did (the
// proposer's outcome: withdrawn, flagged or closed), for the game page.
func withdrawnZH(done string) string {
	switch done {
	case "withdrawn":
		return "申请已撤回"
	case "flagged":
		return "证书已提交协会复核"
	case "closed":
		return "申请此前已结束"
	}
	return done
}
