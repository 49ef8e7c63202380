package kit

import "strings"

// StoredActor names who did something, from the actor the event log and
// the tables keep ("agency:110", "staff:李伟", "system:…"), as people say
// it: the agency's name, the staff member's name, the system, the public
// — never the stored id.
func (p Page) StoredActor(by string) string {
	kind, name, _ := strings.Cut(by, ":")
	switch kind {
	case "agency":
		return p.AgencyName(name)
	case "staff":
		return p.T["staff_member"] + " " + name
	case "system":
		return p.T["actor_system"]
	case "public":
		return p.T["actor_public"]
	}
	return by
}
