package tournaments

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// EventFacts are the columns of a tournament that never change once it is
// created (its organiser, dates, whether it is a dan-grade or a team
// event): the audit joins them to the event log's record of what happened
// in it.
type EventFacts struct {
	ID        int64
	Organiser string
	Name      string
	Start     time.Time
	End       time.Time
	DanGrade  bool
	Team      bool
}

// AllEventFacts returns the fixed facts of every tournament, in one query.
func AllEventFacts(ctx context.Context, q ledger.Querier) (map[int64]EventFacts, error) {
	rows, err := q.Query(ctx, `SELECT id, organiser_prefix, name, start_date, end_date, dan_grade, team FROM tournaments`)
	if err != nil {
		return nil, fmt.Errorf("tournament facts: %w", err)
	}
	out := map[int64]EventFacts{}
	var f EventFacts
	_, err = pgx.ForEachRow(rows, []any{&f.ID, &f.Organiser, &f.Name, &f.Start, &f.End, &f.DanGrade, &f.Team}, func() error {
		out[f.ID] = f
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("tournament facts: %w", err)
	}
	return out, nil
}
