package registry

import "github.com/dankyu/dankyu/ledger"

// Service is the registry's business logic over the kernel's store.
type Service struct {
	store *ledger.Store
}

// New returns a registry over the store.
func New(store *ledger.Store) *Service { return &Service{store: store} }
