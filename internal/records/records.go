// Package records merges two records of one person across the packages
// that keep what a person did (the registry's player, certification's
// certificates and applications, the tournaments' entries), in one
// transaction with one set of events. Neither domain package imports the
// others; the merge is wired here, at the entry point.
package records

import (
	"context"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// Mover moves what one package keeps of a person from one record to another.
type Mover interface {
	MovePlayerTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, from, into int64) error
}

// Registry marks the merged record.
type Registry interface {
	MergeTx(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, keep, dup int64) error
}

// Merger merges records.
type Merger struct {
	store  *ledger.Store
	reg    Registry
	movers []Mover
}

// New returns a merger over the registry and the packages whose records move.
func New(store *ledger.Store, reg Registry, movers ...Mover) *Merger {
	return &Merger{store: store, reg: reg, movers: movers}
}

// Merge makes dup a second record of the person keep: everything dup holds
// moves to keep, dup points to keep. Staff only (the registry's MergeTx
// checks the policy first).
func (m *Merger) Merge(ctx context.Context, actor ledger.Actor, key string, keep, dup int64) error {
	_, err := ledger.Mutate(ctx, m.store, actor, key, "MergePlayers", []int64{keep, dup}, func(tx *ledger.Tx, now time.Time) (bool, error) {
		if err := m.reg.MergeTx(ctx, tx, now, actor, keep, dup); err != nil {
			return false, err
		}
		for _, mv := range m.movers {
			if err := mv.MovePlayerTx(ctx, tx, now, actor, dup, keep); err != nil {
				return false, err
			}
		}
		return true, nil
	})
	return err
}
