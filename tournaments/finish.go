package tournaments

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// ProposalInput is a certificate application a finished dan-grade event
// proposes for one of its players.
type ProposalInput struct {
	PlayerID   int64
	TargetRank registry.Rank
	EventID    int64 // the event: the application's checked evidence
	Evidence   string
}

// Proposer files a proposed application inside the finishing transaction
// and returns its id; certification implements it, wired at the entry point,
// so that tournaments and certificates stay peers.
type Proposer interface {
	ProposeTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, in ProposalInput) (int64, error)
	// WithdrawTx takes back a proposed application whose basis was voided
	// and says what was done (withdrawn, or its certificate flagged).
	WithdrawTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, applicationID int64, why Withdrawal) (string, error)
	// RecheckEventTx has certification check again every application and
	// certificate resting on a finished event whose results changed (for
	// reason), withdrawing or flagging those whose evidence fell away.
	RecheckEventTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, event int64, reason string) (int, error)
}

// Withdrawal says why a proposal is taken back: a result of the event was
// voided (Reason, as given for the void), which leaves its player Wins
// wins, below his group's Threshold. The proposer words it (and stores it
// as a code with these parameters).
type Withdrawal struct {
	Event     int64
	Reason    string
	Wins      int
	Threshold int
}

// Finish closes an event. For a dan-grade event, every participant of the
// organising agency's province who reached his group's threshold gets a
// certificate application proposed (basis: this tournament); the ones that
// cannot be filed (rank already held, an open application …) are listed
// with the reason. Proposals carry idempotency keys, so finishing again
// after a failure files each one once.
func (s *Service) Finish(ctx context.Context, actor ledger.Actor, key string, id int64) (Report, error) {
	_, err := ledger.Mutate(ctx, s.store, actor, key, "FinishTournament", id, func(tx *ledger.Tx, now time.Time) (bool, error) {
		e, err := s.lockEvent(ctx, tx, actor, id)
		if err != nil {
			return false, err
		}
		if err := refuseBeforeStart(e, now); err != nil {
			return false, err
		}
		games, err := s.games(ctx, tx, id)
		if err != nil {
			return false, err
		}
		ps, err := s.participants(ctx, tx, id)
		if err != nil {
			return false, err
		}
		if g, open := pending(ps, games); open {
			return false, ReasonResultMissing.New("round", strconv.Itoa(g.Round), "board", strconv.Itoa(g.Board))
		}
		if e.PairedRounds == 0 {
			return false, ReasonNoRoundPlayed.New("event", eventID(id))
		}
		payload := FinishedPayload{Rounds: e.PairedRounds}
		if e.System == ArenaSystem { // finishing declares the winning team
			st, err := ArenaState(ps, plainGames(games), e.Colours)
			if err != nil {
				return false, err
			}
			if !st.Decided {
				return false, ReasonArenaUndecided.New("event", eventID(id))
			}
			payload.Winner, payload.Level = &st.Winner, &st.Level
		}
		if _, err := tx.Exec(ctx, `UPDATE tournaments SET status = 'finished', finished_at = $2 WHERE id = $1`, id, now); err != nil {
			return false, ledger.PgErr(err, "finish tournament")
		}
		if err := ledger.Append(ctx, tx, now, actor, "tournament", eventID(id), payload); err != nil {
			return false, err
		}
		if s.rater != nil {
			if err := s.rater.RateEventTx(ctx, tx, now, actor, id); err != nil {
				return false, fmt.Errorf("rate event %d: %w", id, err)
			}
		}
		if !e.DanGrade {
			return true, nil
		}
		r, err := s.eventReport(ctx, tx, id)
		if err != nil {
			return false, err
		}
		return true, s.propose(ctx, tx, now, actor, r)
	})
	if err != nil {
		return Report{}, err
	}
	return s.EventReport(ctx, id)
}

// propose files the certificate applications of a finished dan-grade event
// and records each proposal (or why there is none) in tx. A proposal the
// certification refuses (rank already held, an open application …) is
// recorded with the refusal; the event finishes all the same.
func (s *Service) propose(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, r Report) error {
	e := r.Event
	if e.OrganiserPrefix == registry.AssociationPrefix {
		return nil // national events lead to 6–7 dan, which staff apply for themselves
	}
	groups := map[int64]Group{}
	for _, g := range e.Groups {
		groups[g.ID] = g
	}
	wins := map[int]int{}
	for _, st := range r.Standings {
		wins[st.Entrant] = st.Wins
	}
	regular := 0 // playoff rounds are no part of the wins' count
	for _, rd := range r.Rounds {
		if !rd.Playoff {
			regular++
		}
	}
	filed := 0
	for _, p := range r.Participants {
		g, ok := groups[p.GroupID]
		if !ok || wins[p.Number] < g.MinWins {
			continue
		}
		var note Message
		var noteEN, noteZH string // a refusal's wordings; this package's own notes are worded from the code
		appID := int64(0)
		if p.PlayerID == 0 {
			note = message(NoteGuest)
		} else if pl, err := registry.PlayerTx(ctx, tx.Tx, p.PlayerID, false); err != nil {
			return err
		} else if pv, _ := registry.ProvinceByCode(pl.ProvinceCode); pv.Prefix != e.OrganiserPrefix {
			note = message(NoteOtherProvince, "province", pl.ProvinceCode)
		} else {
			_, _, evidence := ProposalRefs(e, g, wins[p.Number], regular, p.Number)
			in := ProposalInput{PlayerID: p.PlayerID, TargetRank: g.TargetRank, EventID: e.ID, Evidence: evidence}
			err := tx.Savepoint(ctx, func(sp *ledger.Tx) error {
				id, err := s.proposer.ProposeTx(ctx, sp, now, actor, in)
				appID = id
				return err
			})
			switch {
			case err == nil:
				note = message(NoteProposed)
				filed++
			case ledger.KindOf(err) == ledger.Internal:
				return fmt.Errorf("propose participant %d: %w", p.Number, err)
			default:
				// the certification's refusal: its code and parameters, and
				// its wordings (this package cannot word another's codes)
				noteEN, noteZH = err.Error(), err.Error()
				if le, ok := ledger.AsError(err); ok {
					note = Message{Code: le.Reason.Code(), Params: map[string]string{}}
					for _, pa := range le.Params {
						note.Params[pa.Name] = pa.Value
					}
					noteEN, noteZH = le.Message(ledger.English), le.Message(ledger.Chinese)
				}
			}
		}
		if noteEN == "" {
			noteEN, noteZH = note.Text(ledger.English), note.Text(ledger.Chinese)
		}
		var app any
		if appID != 0 {
			app = appID
		}
		if _, err := tx.Exec(ctx, `INSERT INTO tournament_proposals (tournament_id, number, application_id, note, note_zh, note_code, note_params)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (tournament_id, number) DO UPDATE SET application_id = coalesce(EXCLUDED.application_id, tournament_proposals.application_id),
			note = EXCLUDED.note, note_zh = EXCLUDED.note_zh, note_code = EXCLUDED.note_code, note_params = EXCLUDED.note_params`,
			e.ID, p.Number, app, noteEN, noteZH, note.Code, jsonParams(note.Params)); err != nil {
			return ledger.PgErr(err, "record proposal")
		}
	}
	return ledger.Append(ctx, tx, now, actor, "tournament", eventID(e.ID),
		ProposalsRecordedPayload{Filed: filed})
}
