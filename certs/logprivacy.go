package certs

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// WithholdMinors is the public log's rule for holders under 18: an
// issuance event (which names the holder) of a player who is a minor today
// is served as a private entry, its hashes alone, as the verification pages
// withhold his name from anyone who does not name him. From his 18th
// birthday the entry is served in full. now is the registry's clock.
func WithholdMinors(now func() time.Time) ledger.Withhold {
	issuance := IssuanceActions()
	return func(ctx context.Context, db ledger.Querier, events []ledger.Event) (map[int64]bool, error) {
		holders := map[int64][]int64{} // player → events naming him
		var ids []int64
		for _, e := range events {
			if !slices.Contains(issuance, e.Action) {
				continue
			}
			var p struct {
				PlayerID int64 `json:"player_id"`
			}
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				return nil, fmt.Errorf("event %d: %w", e.ID, err)
			}
			if holders[p.PlayerID] == nil {
				ids = append(ids, p.PlayerID)
			}
			holders[p.PlayerID] = append(holders[p.PlayerID], e.ID)
		}
		minors, err := registry.MinorsAmong(ctx, db, ids, now())
		if err != nil {
			return nil, err
		}
		out := map[int64]bool{}
		for player := range minors {
			for _, id := range holders[player] {
				out[id] = true
			}
		}
		return out, nil
	}
}
