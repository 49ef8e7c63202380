// Package proposals connects the two peers at the entry point: a finished
// dan-grade tournament proposes certificate applications, and certification
// files them, in the finishing transaction. Neither domain package imports
// the other.
package proposals

import (
	"context"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/tournaments"
)

// Certs files tournament proposals as certificate applications.
type Certs struct{ Certs *certs.Service }

// ProposeTx files the proposal as an application on a tournament basis.
func (c Certs) ProposeTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, in tournaments.ProposalInput) (int64, error) {
	a, err := c.Certs.ApplyTx(ctx, tx, now, actor, certs.ApplicationInput{PlayerID: in.PlayerID, TargetRank: in.TargetRank.String(),
		Basis: string(certs.Tournament), EventRef: in.EventRef, RecordRef: in.RecordRef, Evidence: in.Evidence})
	return a.ID, err
}

// WithdrawTx takes back an application whose tournament result was voided.
func (c Certs) WithdrawTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, applicationID int64, why tournaments.Withdrawal) (string, error) {
	return c.Certs.WithdrawBasisTx(ctx, tx, now, actor, applicationID,
		certs.VoidedBasis{Event: why.Event, Reason: why.Reason, Wins: why.Wins, Threshold: why.Threshold})
}
