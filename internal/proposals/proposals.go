// Package proposals connects the two peers at the entry point: a finished
// dan-grade tournament proposes certificate applications, and certification
// files them, in the finishing transaction. Neither domain package imports
// the other.
package proposals

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// Certs files tournament proposals as certificate applications.
type Certs struct{ Certs *certs.Service }

// ProposeTx files the proposal as an application on a tournament basis.
func (c Certs) ProposeTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, in tournaments.ProposalInput) (int64, error) {
	a, err := c.Certs.ApplyTx(ctx, tx, now, actor, certs.ApplicationInput{PlayerID: in.PlayerID, TargetRank: in.TargetRank.String(),
		Basis: string(certs.Tournament), EventID: in.EventID, Evidence: in.Evidence})
	return a.ID, err
}

// WithdrawTx takes back an application whose tournament result was voided.
func (c Certs) WithdrawTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, applicationID int64, why tournaments.Withdrawal) (string, error) {
	return c.Certs.WithdrawBasisTx(ctx, tx, now, actor, applicationID,
		certs.VoidedBasis{Event: why.Event, Reason: why.Reason, Wins: why.Wins, Threshold: why.Threshold})
}

// RecheckEventTx checks again what rests on an event whose results changed.
func (c Certs) RecheckEventTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, event int64, reason string) (int, error) {
	return c.Certs.RecheckEventTx(ctx, tx, now, actor, event, reason)
}

// Evidence states the registry's events' results for certification: the
// adapter behind certs.EventEvidence (wire it with certs.WithEventEvidence).
type Evidence struct {
	// Standings, when set, keeps events' standings between approvals
	// (nil: computed for each).
	Standings *tournaments.StandingsCache
}

// PlayerRecord reads what event eventID says of player playerID.
func (e Evidence) PlayerRecord(ctx context.Context, q ledger.Querier, eventID, playerID int64) (certs.EventRecord, error) {
	r, err := e.Standings.PlayerRecord(ctx, q, eventID, playerID)
	return eventRecord(r, err)
}

// QueuePlayerRecord is PlayerRecord with its first statement queued on b
// (certs.QueuedEvidence); without a cache it reads all when finished.
func (e Evidence) QueuePlayerRecord(b *pgx.Batch, eventID, playerID int64) func(context.Context, ledger.Querier) (certs.EventRecord, error) {
	if e.Standings == nil {
		return func(ctx context.Context, q ledger.Querier) (certs.EventRecord, error) {
			return e.PlayerRecord(ctx, q, eventID, playerID)
		}
	}
	finish := e.Standings.QueuePlayerRecord(b, eventID, playerID)
	return func(ctx context.Context, q ledger.Querier) (certs.EventRecord, error) {
		return eventRecord(finish(ctx, q))
	}
}

func eventRecord(r tournaments.PlayerRecord, err error) (certs.EventRecord, error) {
	if err != nil {
		return certs.EventRecord{}, err
	}
	out := certs.EventRecord{Exists: r.Exists, EventName: r.Name, Start: r.Start, Finished: r.Finished, Imported: r.Imported,
		Participant: r.Participant, Placing: r.Placing, Wins: r.Wins, Games: r.Played, Group: r.Group, GroupRank: r.GroupRank,
		GroupMin: r.GroupMinWins, RulesHold: r.RulesHold, Earned: r.Earned}
	for _, g := range r.Rules {
		out.Rules = append(out.Rules, certs.EarningRule{MaxPlacing: g.MaxPlacing, MinWins: g.MinWins, Group: g.Group, Rank: g.Rank,
			ZH: g.Text(ledger.Chinese), EN: g.Text(ledger.English)})
	}
	return out, nil
}
