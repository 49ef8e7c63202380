package tournaments

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Finish closes an event. For a dan-grade event, every participant of the
// organising agency's province who reached his group's threshold gets a
// certificate application proposed (basis: this tournament); the ones that
// cannot be filed (rank already held, an open application …) are listed
// with the reason. Proposals carry idempotency keys, so finishing again
// after a failure files each one once.
func (s *Service) Finish(ctx context.Context, actor ledger.Actor, key string, id int64) (Report, error) {
	_, err := ledger.Mutate(ctx, s.store, actor, key, "FinishTournament", id, func(tx *ledger.Tx, now time.Time) (bool, error) {
		e, err := lockEvent(ctx, tx, actor, id)
		if err != nil {
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
			return false, fmt.Errorf("round %d board %d has no result yet: %w", g.Round, g.Board, ledger.ErrPrecondition)
		}
		if e.PairedRounds == 0 {
			return false, fmt.Errorf("tournament %d has not played a round: %w", id, ledger.ErrPrecondition)
		}
		if _, err := tx.Exec(ctx, `UPDATE tournaments SET status = 'finished', finished_at = $2 WHERE id = $1`, id, now); err != nil {
			return false, ledger.PgErr(err, "finish tournament")
		}
		return true, ledger.AppendEvent(ctx, tx, now, actor, "tournament.finished", "tournament", strconv.FormatInt(id, 10),
			map[string]any{"rounds": e.PairedRounds})
	})
	if err != nil {
		return Report{}, err
	}
	r, err := s.EventReport(ctx, id)
	if err != nil {
		return Report{}, err
	}
	if !r.Event.DanGrade {
		return r, nil
	}
	if err := s.propose(ctx, actor, r); err != nil {
		return Report{}, err
	}
	return s.EventReport(ctx, id) // again, with the proposals
}

// propose files the certificate applications of a finished dan-grade event.
func (s *Service) propose(ctx context.Context, actor ledger.Actor, r Report) error {
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
	for _, p := range r.Participants {
		g, ok := groups[p.GroupID]
		if !ok || wins[p.Number] < g.MinWins {
			continue
		}
		note, appID := "", int64(0)
		prov := ""
		if p.PlayerID == 0 {
			note = "guest: not in the registry"
		} else if pl, err := s.reg.GetPlayer(ctx, p.PlayerID); err != nil {
			return err
		} else if pv, _ := registry.ProvinceByCode(pl.ProvinceCode); pv.Prefix != e.OrganiserPrefix {
			note = "registered in another province (" + pv.NameEN + ")"
		} else {
			prov = pv.Prefix
		}
		if prov != "" {
			a, err := s.certs.Apply(ctx, actor, fmt.Sprintf("tournament-%d-proposal-%d", e.ID, p.Number), certs.ApplicationInput{
				PlayerID: p.PlayerID, TargetRank: g.TargetRank.String(), Basis: string(certs.Tournament),
				EventRef:  fmt.Sprintf("%s (tournament %d)", e.Name, e.ID),
				RecordRef: fmt.Sprintf("%s: %d wins of %d, threshold %d", g.Name, wins[p.Number], e.PairedRounds, g.MinWins),
				Evidence:  fmt.Sprintf("dankyu tournament %d, participant %d", e.ID, p.Number)})
			if err != nil {
				note = err.Error()
			} else {
				appID = a.ID
				note = "proposed"
			}
		}
		var app any
		if appID != 0 {
			app = appID
		}
		if _, err := s.db.Exec(ctx, `INSERT INTO tournament_proposals (tournament_id, number, application_id, note) VALUES ($1, $2, $3, $4)
			ON CONFLICT (tournament_id, number) DO UPDATE SET application_id = coalesce(EXCLUDED.application_id, tournament_proposals.application_id), note = EXCLUDED.note`,
			e.ID, p.Number, app, note); err != nil {
			return fmt.Errorf("record proposal: %w", err)
		}
	}
	return nil
}
