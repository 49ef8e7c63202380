package registry

import (
	"context"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
)

// SeesIdentity reports whether the actor may see a player's full identity
// number and birth date: staff, and the active agency of the player's
// province (the policy's SeeIdentity); both transports ask it.
func (s *Service) SeesIdentity(ctx context.Context, actor ledger.Actor, p Player) bool {
	prov, ok := ProvinceByCode(p.ProvinceCode)
	return ok && s.policy.Allows(ctx, s.store.DB(), actor, access.SeeIdentity, prov.Prefix)
}
