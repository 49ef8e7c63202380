package certs

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// GrantGate decides whether staff may grant an agency's order for a year,
// of dan and kyu certificates (the counts the grant would give). The annual
// audit plugs in here: an agency collects its stock only after passing the
// year's audit, and no more than a conditional pass caps it at.
type GrantGate interface {
	MayGrant(ctx context.Context, tx *ledger.Tx, agencyPrefix string, year, dan, kyu int) error
}

// ApprovalGate decides whether an agency may approve an application of a
// rank itself: the annual audit's supervision may reserve 4–5 dan to the
// association for a period.
type ApprovalGate interface {
	MayApprove(ctx context.Context, tx *ledger.Tx, agencyPrefix string, rank int, at time.Time) error
}

// Config holds the settings of certification.
type Config struct {
	// NoticePeriod is how long a 4–7 dan stays on public notice (default 7 days).
	NoticePeriod time.Duration
	// PrintedKyu lists the kyu grades that get a printed, numbered certificate
	// (default the association's 1, 2, 5, 10, 15, 20 and 25 kyu); promotions
	// to other kyu grades are recorded without a number.
	PrintedKyu []int
	// ObjectionsPerAddress bounds the objections one address lodges against
	// one notice (default 3); ObjectionsPerNetwork those of one network (an
	// IPv4 /24, an IPv6 /64; default 20). There is no cap on a notice's
	// total: one would let a flood from many addresses refuse a real
	// objector; identical objections (the same text normalised, or the
	// same objector) are folded into one for ruling instead.
	ObjectionsPerAddress int
	ObjectionsPerNetwork int
	// OverdueAfter is how long past its end a notice may be held open by
	// objections before the sweeper warns about it (default 72 h).
	OverdueAfter time.Duration
	// RulingDeadline is how long past its end objections awaiting a ruling
	// may hold a notice open (default 14 days): then the sweeper lets the
	// notice proceed and the unruled objections lapse, recorded
	// (objections.lapsed), so a flood cannot hold a rank back for ever.
	RulingDeadline time.Duration
	// OnSweep, when set, hears of every sweeper run: how many certificates
	// it issued and its error (metrics).
	OnSweep func(issued int, err error)
	// OnLogMismatch, when set, hears of every certificate the public
	// verification found disagreeing with its logged events (its entity
	// in the log and the fields), besides the warning logged (metrics).
	OnLogMismatch func(entity string, fields []string)
}

// DefaultPrintedKyu returns the association's set of printed kyu grades.
func DefaultPrintedKyu() []int { return []int{1, 2, 5, 10, 15, 20, 25} }

func (c Config) withDefaults() Config {
	if c.NoticePeriod <= 0 {
		c.NoticePeriod = 7 * 24 * time.Hour
	}
	if c.PrintedKyu == nil {
		c.PrintedKyu = DefaultPrintedKyu()
	}
	if c.ObjectionsPerAddress <= 0 {
		c.ObjectionsPerAddress = 3
	}
	if c.ObjectionsPerNetwork <= 0 {
		c.ObjectionsPerNetwork = 20
	}
	if c.OverdueAfter <= 0 {
		c.OverdueAfter = 72 * time.Hour
	}
	if c.RulingDeadline <= 0 {
		c.RulingDeadline = 14 * 24 * time.Hour
	}
	return c
}

// Service is certification over the kernel's store.
type Service struct {
	store   *ledger.Store
	reg     *registry.Service
	policy  *access.Policy
	db      *pgxpool.Pool
	cfg     Config
	printed map[registry.Rank]bool
	// gate is consulted before an order is granted; nil lets every grant
	// through. approvals is consulted before an agency approves an
	// application; nil lets every agency approve what the policy allows.
	gate      GrantGate
	approvals ApprovalGate
	// evidence states the registry events' results (WithEventEvidence).
	evidence EventEvidence
}

// Option is a collaborator of the service given at construction.
type Option func(*Service)

// WithGrantGate has g decide every grant of an order, in the granting
// transaction.
func WithGrantGate(g GrantGate) Option { return func(s *Service) { s.gate = g } }

// WithApprovalGate has g decide every approval an agency makes itself, in
// the approving transaction.
func WithApprovalGate(g ApprovalGate) Option { return func(s *Service) { s.approvals = g } }

// New returns the certificate service over the store; reg supplies players
// and agencies.
func New(store *ledger.Store, reg *registry.Service, cfg Config, opts ...Option) (*Service, error) {
	cfg = cfg.withDefaults()
	printed := map[registry.Rank]bool{}
	for _, k := range cfg.PrintedKyu {
		if k < 1 || k > 30 {
			return nil, fmt.Errorf("printed kyu grade %d: kyu runs from 30 to 1", k)
		}
		printed[registry.Rank(-k)] = true
	}
	s := &Service{store: store, reg: reg, policy: reg.Policy(), db: store.DB(), cfg: cfg, printed: printed}
	for _, o := range opts {
		o(s)
	}
	reg.UseCertifications(s) // a registration-day correction of identity asks whether anything rests on the player
	return s, nil
}

// Printed reports whether a rank gets a numbered certificate: every dan, and
// the configured kyu grades.
func (s *Service) Printed(r registry.Rank) bool { return r > 0 || s.printed[r] }

// sweeper is who the event log names for certificates issued when a notice ends.
func sweeper() ledger.Actor {
	return ledger.Actor{Kind: ledger.SystemActor, Name: "notice-sweeper"}
}

// requireStaff checks a capability only the association has.
func (s *Service) requireStaff(ctx context.Context, actor ledger.Actor, c access.Capability) error {
	return s.policy.Require(ctx, s.db, actor, c, registry.AssociationPrefix)
}
