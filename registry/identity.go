package registry

import "github.com/dankyu/dankyu/ledger"

// SeesIdentityOf reports whether the actor may see a player's full identity
// number and birth date: staff, and the agency of the player's province.
func SeesIdentityOf(a ledger.Actor, p Player) bool {
	if a.IsStaff() {
		return true
	}
	if a.Kind != ledger.AgencyActor {
		return false
	}
	prov, ok := ProvinceByCode(p.ProvinceCode)
	return ok && prov.Prefix == a.Agency
}
