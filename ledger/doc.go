// Package ledger is the kernel every domain package stands on: the store
// (the pool, the one clock, the logger), transactions with idempotency keys,
// the append-only chained event log, who acts (Actor), the domain errors and
// Beijing time. It knows nothing of players, certificates or tournaments.
package ledger
