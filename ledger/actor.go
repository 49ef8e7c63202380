package ledger

// ActorKind says what kind of caller acts.
type ActorKind int

const (
	Public ActorKind = iota
	AgencyActor
	StaffActor
	SystemActor // the command-line tools acting on the database directly
)

// Actor is who makes a request: the public, an agency, a staff member or the system.
type Actor struct {
	Kind    ActorKind
	Agency  string // agency prefix, for AgencyActor
	Name    string // staff name, or the system tool's name
	TokenID int64
}

// String is the actor as written to the event log, e.g. "agency:110", "staff:li".
func (a Actor) String() string {
	switch a.Kind {
	case AgencyActor:
		return "agency:" + a.Agency
	case StaffActor:
		return "staff:" + a.Name
	case SystemActor:
		return "system:" + a.Name
	}
	return "public"
}

// IsStaff reports whether the actor may do what only the association may do.
func (a Actor) IsStaff() bool { return a.Kind == StaffActor || a.Kind == SystemActor }
