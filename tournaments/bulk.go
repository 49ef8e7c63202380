package tournaments

import (
	"context"
	"fmt"
	"iter"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// Bulk loading (the national data set): events with their groups,
// participants, rounds, games and proposals written with COPY in the
// caller's transaction, in their final state; the caller writes the events
// the service would have written (ledger.BulkAppend) with the payloads of
// payloads.go.

// BulkRound is one paired round of a bulk-loaded event.
type BulkRound struct {
	Round     int
	Seed      int64
	PairedAt  time.Time
	Bye       int // 0: none
	ByePoints int
}

// BulkProposal is what a finished dan-grade event proposed for a participant.
type BulkProposal struct {
	Number        int
	ApplicationID int64 // 0: none filed
	Note          string
}

// BulkEvent is one event with everything recorded under it. Groups carry
// their ids; participants name their group by id.
type BulkEvent struct {
	Event
	FinishedAt   *time.Time
	Participants []Participant
	Paired       []BulkRound
	Games        []GameRow
	Proposals    []BulkProposal
}

// CopyEvents writes the events and everything under them, and moves the
// id sequences past them.
func CopyEvents(ctx context.Context, tx pgx.Tx, es []BulkEvent) error {
	copyAll := func(table string, cols []string, rows func(yield func([]any))) error {
		next, stop := iter.Pull(func(y func([]any) bool) { rows(func(r []any) { y(r) }) })
		defer stop()
		n, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromFunc(func() ([]any, error) {
			r, ok := next()
			if !ok {
				return nil, nil
			}
			return r, nil
		}))
		if err != nil {
			return fmt.Errorf("copy %d rows of %s: %w", n, table, err)
		}
		return nil
	}
	err := copyAll("tournaments", []string{"id", "name", "organiser_prefix", "start_date", "end_date", "venue", "level", "system",
		"standings_order", "rounds", "rules", "komi", "team", "dan_grade", "seed", "status", "source", "created_at", "created_by", "finished_at"},
		func(yield func([]any)) {
			for _, e := range es {
				yield([]any{e.ID, e.Name, e.OrganiserPrefix, e.Start, e.End, e.Venue, string(e.Level), string(e.System), string(e.Order),
					e.Rounds, e.Rules, e.Komi, e.Team, e.DanGrade, e.Seed, e.Status, e.Source, e.CreatedAt, e.CreatedBy, e.FinishedAt})
			}
		})
	if err != nil {
		return err
	}
	err = copyAll("tournament_groups", []string{"id", "tournament_id", "name", "target_rank", "min_wins"}, func(yield func([]any)) {
		for _, e := range es {
			for _, g := range e.Groups {
				yield([]any{g.ID, e.ID, g.Name, int16(g.TargetRank), g.MinWins})
			}
		}
	})
	if err != nil {
		return err
	}
	err = copyAll("participants", []string{"tournament_id", "number", "player_id", "name", "rank", "country", "group_id", "team", "board",
		"withdrawn", "withdrew_after", "egd_pin"}, func(yield func([]any)) {
		for _, e := range es {
			for _, p := range e.Participants {
				var player, group any
				if p.PlayerID != 0 {
					player = p.PlayerID
				}
				if p.GroupID != 0 {
					group = p.GroupID
				}
				yield([]any{e.ID, p.Number, player, p.Name, int16(p.Rank), p.Country, group, p.Team, p.Board, p.Withdrawn, p.WithdrewAfter, p.EGDPin})
			}
		}
	})
	if err != nil {
		return err
	}
	err = copyAll("tournament_rounds", []string{"tournament_id", "round", "seed", "paired_at", "bye", "bye_points"}, func(yield func([]any)) {
		for _, e := range es {
			for _, r := range e.Paired {
				var bye any
				if r.Bye != 0 {
					bye = r.Bye
				}
				yield([]any{e.ID, r.Round, r.Seed, r.PairedAt, bye, r.ByePoints})
			}
		}
	})
	if err != nil {
		return err
	}
	err = copyAll("tournament_games", []string{"tournament_id", "round", "board", "black", "white", "nigiri", "handicap", "result",
		"black_warnings", "white_warnings", "record", "adjudicated", "flagged", "flag_reason", "flag_code", "flag_params"}, func(yield func([]any)) {
		for _, e := range es {
			for _, g := range e.Games {
				yield([]any{e.ID, g.Round, g.Board, g.Black, g.White, g.Nigiri, g.Handicap, string(g.Result), g.BlackWarnings, g.WhiteWarnings,
					g.Record, g.Adjudicated, g.Flagged, g.FlagReason, g.FlagCode, jsonParams(g.FlagParams)})
			}
		}
	})
	if err != nil {
		return err
	}
	err = copyAll("tournament_proposals", []string{"tournament_id", "number", "application_id", "note"}, func(yield func([]any)) {
		for _, e := range es {
			for _, p := range e.Proposals {
				var app any
				if p.ApplicationID != 0 {
					app = p.ApplicationID
				}
				yield([]any{e.ID, p.Number, app, p.Note})
			}
		}
	})
	if err != nil {
		return err
	}
	for _, t := range []string{"tournaments", "tournament_groups"} {
		if err := ledger.MoveSequence(ctx, tx, t); err != nil {
			return err
		}
	}
	return nil
}

// EventEntity names an event in the event log.
func EventEntity(id int64) string { return strconv.FormatInt(id, 10) }

// ProposalRefs are the event and record references a finished dan-grade
// event's proposal files its application with (as Finish writes them).
func ProposalRefs(e Event, g Group, wins, rounds, tournamentParticipant int) (eventRef, recordRef, evidence string) {
	return fmt.Sprintf("%s (tournament %d)", e.Name, e.ID),
		fmt.Sprintf("%s: %d wins of %d, threshold %d", g.Name, wins, rounds, g.MinWins),
		fmt.Sprintf("dankyu tournament %d, participant %d", e.ID, tournamentParticipant)
}
