package kit

import (
	"context"
	"sync"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// AgencyLister lists the agencies, for showing their names instead of
// their prefixes.
type AgencyLister interface {
	ListAgencies(ctx context.Context) ([]registry.Agency, error)
}

// agencyNames are the agencies' names for one page, read the first time
// one is shown.
type agencyNames struct {
	ctx   context.Context
	list  AgencyLister
	once  sync.Once
	names map[string]string
	all   []registry.Agency
}

func (n *agencyNames) name(prefix string) (string, bool) {
	if n == nil || n.list == nil {
		return "", false
	}
	n.once.Do(func() {
		n.names = map[string]string{}
		as, err := n.list.ListAgencies(n.ctx)
		if err != nil {
			return // the prefix is shown instead
		}
		n.all = as
		for _, a := range as {
			n.names[a.Prefix] = a.Name
		}
	})
	name, ok := n.names[prefix]
	return name, ok
}

// Agencies are the agencies, for a form that picks one by name.
func (p Page) Agencies() []registry.Agency {
	if p.names == nil {
		return nil
	}
	p.names.name("") // reads the list once
	return p.names.all
}

// SignedInSuspended reports whether the agency signed in is suspended
// (its pages then say so at the top: every form of it is refused).
func (p Page) SignedInSuspended() bool {
	if p.Actor.Kind != ledger.AgencyActor || p.names == nil {
		return false
	}
	p.names.name("")
	for _, a := range p.names.all {
		if a.Prefix == p.Actor.Agency {
			return a.Status == registry.AgencySuspended
		}
	}
	return false
}

// AgencyName is the name of the agency with the prefix (the association's
// for 000), else the prefix itself.
func (p Page) AgencyName(prefix string) string {
	if prefix == registry.AssociationPrefix {
		return p.T["association"]
	}
	if name, ok := p.names.name(prefix); ok {
		return name
	}
	return prefix
}

// ActorName is who is signed in as people say it: the agency's name, or
// the staff member's.
func (p Page) ActorName() string {
	switch p.Actor.Kind {
	case ledger.AgencyActor:
		return p.AgencyName(p.Actor.Agency)
	case ledger.StaffActor:
		return p.T["staff_member"] + " " + p.Actor.Name
	}
	return p.Actor.String()
}

// Word is the page's word for a value under a key prefix ("end_" and
// "resignation"), else the value itself.
func (p Page) Word(prefix, value string) string {
	if t, ok := p.T[prefix+value]; ok {
		return t
	}
	return value
}
