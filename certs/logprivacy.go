package certs

import (
	"context"
	"encoding/json"
	"fmt"
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
	return func(ctx context.Context, db ledger.Querier, events []ledger.Event) (map[int64]bool, error) {
		holders := map[int64][]int64{} // player → events naming him
		var ids []int64
		for _, e := range events {
			var player int64
			switch e.Action {
			case "certificate.issued":
				var p CertificateIssuedPayload
				if err := json.Unmarshal(e.Payload, &p); err != nil {
					return nil, fmt.Errorf("event %d: %w", e.ID, err)
				}
				player = p.PlayerID
			case "certificate.recorded_from_paper":
				var p CertificateRecordedFromPaperPayload
				if err := json.Unmarshal(e.Payload, &p); err != nil {
					return nil, fmt.Errorf("event %d: %w", e.ID, err)
				}
				player = p.PlayerID
			default:
				continue
			}
			if holders[player] == nil {
				ids = append(ids, player)
			}
			holders[player] = append(holders[player], e.ID)
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
