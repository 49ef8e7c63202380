package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/mod/sumdb/tlog"
	"google.golang.org/grpc"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/api"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/internal/replicas"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// PublicReads is the one way the public's reads reach the database, for
// the portal and the gRPC API alike: verification (with the issuance's
// receipt in the event tree), batch verification, notices, players and
// agencies, tournaments, statistics and the event tree's checkpoints and
// proofs. One router picks the database per read: a replica in rotation,
// else the primary. A request marked for the primary (signed in: the
// portal's SignedInOnPrimary, the API's ReadsInterceptor) reads from it,
// and a public request keeps to one database (replicas.Pin), so the parts
// of one answer agree.
type PublicReads struct {
	set  *replicas.Set[*readDB]
	vkey string // the log's verifier key; "" serves no receipts
	log  *slog.Logger
}

// readDB is the services over one database the public reads from.
type readDB struct {
	reg   *registry.Service
	certs *certs.Service
	tours *tournaments.Service
	tree  *ledger.TreeSigner // nil without a log key
}

// PublicServices are what the public reads are built from: the primary's
// services (which also do the writes) and what builds a replica's own.
type PublicServices struct {
	Store       *ledger.Store
	Registry    *registry.Service
	Certs       *certs.Service
	Tournaments *tournaments.Service
	CertsConfig certs.Config
	// LogKey and LogVerifierKey sign the event tree's checkpoints
	// (LoadLogKey); empty serves no receipts and no /log endpoints.
	LogKey, LogVerifierKey string
	// Notary signs for every database's tree (the witness's), keeping what
	// it publishes; nil: each tree signs on its own, keeping nothing.
	Notary *ledger.Notary
}

// NewPublicReads builds the read services over every database of r. The
// primary's are the ones given; a replica's are built over a store of its
// own on the same clock, its tree signed with the same key.
func NewPublicReads(r *replicas.Router, s PublicServices) (*PublicReads, error) {
	tree := func(p *pgxpool.Pool) (*ledger.TreeSigner, error) {
		var t *ledger.TreeSigner
		switch {
		case s.Notary != nil:
			t = s.Notary.Signer(p, p == s.Store.DB())
		case s.LogKey == "":
			return nil, nil
		default:
			var err error
			if t, err = ledger.NewTreeSigner(p, s.LogKey, s.LogVerifierKey); err != nil {
				return nil, err
			}
		}
		// what the verification pages show anyway, and of that not a
		// minor holder's name
		return t.WithPublicActions(certs.PublicLogActions()...).WithWithhold(certs.WithholdMinors(s.Store.Now)), nil
	}
	set, err := replicas.NewSet(r, func(p *pgxpool.Pool) (*readDB, error) {
		t, err := tree(p)
		if err != nil {
			return nil, err
		}
		if p == s.Store.DB() {
			return &readDB{reg: s.Registry, certs: s.Certs, tours: s.Tournaments, tree: t}, nil
		}
		st := ledger.New(p, s.Store.Now, s.Store.Log())
		reg := registry.New(st)
		cs, err := certs.New(st, reg, s.CertsConfig, certs.WithEventEvidence(proposals.Evidence{}))
		if err != nil {
			return nil, err
		}
		return &readDB{reg: reg, certs: cs, tours: tournaments.New(st, reg, nil), tree: t}, nil
	})
	if err != nil {
		return nil, err
	}
	return &PublicReads{set: set, vkey: s.LogVerifierKey, log: s.Store.Log()}, nil
}

// primaryReads are the public reads of a server without replicas.
func primaryReads(store *ledger.Store, reg *registry.Service, cs *certs.Service, ts *tournaments.Service) *PublicReads {
	return &PublicReads{set: replicas.Single(&readDB{reg: reg, certs: cs, tours: ts}), log: store.Log()}
}

// read runs one public read on the database the router picks and returns
// its answer.
func read[R any](ctx context.Context, pr *PublicReads, f func(*readDB) (R, error)) (R, error) {
	var out R
	err := pr.set.Read(ctx, func(db *readDB) error {
		var err error
		out, err = f(db)
		return err
	})
	return out, err
}

// receiptError is a receipt that could not be made for a certificate found.
type receiptError struct{ error }

func (e receiptError) Unwrap() error { return e.error }

// VerifyWithReceipts verifies a certificate number (checking its row
// against its logged events) and proves each of those events in the event
// tree, all on one database: the receipts' tree is what that database
// holds, their checkpoint signed for that size. No receipts without a log
// key; receipts that fail are logged and left out, the verdict still
// answered (as the page does).
func (pr *PublicReads) VerifyWithReceipts(ctx context.Context, number string) (certs.Verification, []*ledger.Receipt, error) {
	var v certs.Verification
	var rcs []*ledger.Receipt
	err := pr.set.Read(ctx, func(db *readDB) error {
		var err error
		rcs = nil
		if db.tree == nil {
			v, err = db.certs.Verify(ctx, number)
			return err
		}
		// the row and its events in one statement, proved from the tree
		// head the signer keeps
		var tr *ledger.TreeRead
		if v, tr, err = db.certs.VerifyWithTree(ctx, number); err != nil || !v.Found || tr == nil {
			return err
		}
		if rcs, err = db.tree.ReceiptsOf(ctx, v.Events, tr); err != nil {
			return receiptError{err}
		}
		return nil
	})
	if re := (receiptError{}); errors.As(err, &re) {
		if !halted(re.error) {
			pr.log.ErrorContext(ctx, "inclusion proofs of a certificate", "number", v.Number, "err", re.error)
		}
		return v, nil, nil
	}
	return v, rcs, err
}

func (pr *PublicReads) Verify(ctx context.Context, number string) (certs.Verification, error) {
	return read(ctx, pr, func(db *readDB) (certs.Verification, error) { return db.certs.Verify(ctx, number) })
}

func (pr *PublicReads) VerifyBatch(ctx context.Context, rows []certs.BatchRow) ([]certs.BatchResult, error) {
	return read(ctx, pr, func(db *readDB) ([]certs.BatchResult, error) { return db.certs.VerifyBatch(ctx, rows) })
}

func (pr *PublicReads) ListNotices(ctx context.Context, q certs.NoticeQuery) (certs.NoticePage, error) {
	return read(ctx, pr, func(db *readDB) (certs.NoticePage, error) { return db.certs.ListNotices(ctx, q) })
}

func (pr *PublicReads) GetNotice(ctx context.Context, id int64) (certs.Notice, error) {
	return read(ctx, pr, func(db *readDB) (certs.Notice, error) { return db.certs.GetNotice(ctx, id) })
}

func (pr *PublicReads) PlayerCertificates(ctx context.Context, playerID int64) ([]certs.Certificate, error) {
	return read(ctx, pr, func(db *readDB) ([]certs.Certificate, error) { return db.certs.PlayerCertificates(ctx, playerID) })
}

// signedIn sends a signed-in actor's read to the primary whatever the
// request was marked: what staff and agencies see depends on what they just wrote.
func signedIn(ctx context.Context, actor ledger.Actor) context.Context {
	if actor.Kind != ledger.Public {
		return replicas.OnPrimary(ctx)
	}
	return ctx
}

func (pr *PublicReads) Statistics(ctx context.Context, actor ledger.Actor, year int, details bool) (certs.Stats, error) {
	ctx = signedIn(ctx, actor)
	return read(ctx, pr, func(db *readDB) (certs.Stats, error) { return db.certs.Statistics(ctx, actor, year, details) })
}

func (pr *PublicReads) GetPlayer(ctx context.Context, id int64) (registry.Player, error) {
	return read(ctx, pr, func(db *readDB) (registry.Player, error) { return db.reg.GetPlayer(ctx, id) })
}

func (pr *PublicReads) SearchPlayers(ctx context.Context, actor ledger.Actor, q registry.PlayerQuery) (registry.PlayerPage, error) {
	ctx = signedIn(ctx, actor)
	return read(ctx, pr, func(db *readDB) (registry.PlayerPage, error) { return db.reg.SearchPlayers(ctx, actor, q) })
}

func (pr *PublicReads) ListAgencies(ctx context.Context) ([]registry.Agency, error) {
	return read(ctx, pr, func(db *readDB) ([]registry.Agency, error) { return db.reg.ListAgencies(ctx) })
}

func (pr *PublicReads) GetAgency(ctx context.Context, prefix string) (registry.Agency, error) {
	return read(ctx, pr, func(db *readDB) (registry.Agency, error) { return db.reg.GetAgency(ctx, prefix) })
}

func (pr *PublicReads) ListEvents(ctx context.Context, organiser string, limit int) ([]tournaments.Event, error) {
	return read(ctx, pr, func(db *readDB) ([]tournaments.Event, error) { return db.tours.ListEvents(ctx, organiser, limit) })
}

func (pr *PublicReads) EventReport(ctx context.Context, id int64) (tournaments.Report, error) {
	return read(ctx, pr, func(db *readDB) (tournaments.Report, error) { return db.tours.EventReport(ctx, id) })
}

// The event tree's public endpoints (web.TransparencyLog), from the same
// databases: a replica's tree is a prefix of the primary's, so what it
// proves and the heads it signs hold for the primary's too.

// Log is the signed event tree the portal's /log endpoints and its
// verification page serve; nil without a log key.
func (pr *PublicReads) Log() web.TransparencyLog {
	if pr.vkey == "" {
		return nil
	}
	return pr
}

// VerifierKey is the key that checks the checkpoints.
func (pr *PublicReads) VerifierKey() string { return pr.vkey }

func (pr *PublicReads) Checkpoint(ctx context.Context) ([]byte, error) {
	return read(ctx, pr, func(db *readDB) ([]byte, error) { return db.tree.Checkpoint(ctx) })
}

// CheckpointHistory lists the checkpoints published after id (the public
// /log/checkpoints), from the database the router picks.
func (pr *PublicReads) CheckpointHistory(ctx context.Context, after int64, limit int) ([]ledger.KeptCheckpoint, error) {
	return read(ctx, pr, func(db *readDB) ([]ledger.KeptCheckpoint, error) { return db.tree.History(ctx, after, limit) })
}

// Consistency proves the tree of old events a prefix of the tree of size.
// A replica that has not replayed size events yet (the client saw that
// tree on another copy) hands the proof to the primary.
func (pr *PublicReads) Consistency(ctx context.Context, old, size int64) (tlog.TreeProof, error) {
	return read(ctx, pr, func(db *readDB) (tlog.TreeProof, error) {
		p, err := db.tree.Consistency(ctx, old, size)
		if errors.Is(err, ledger.ErrTreeRange) && 1 <= old && old <= size {
			return nil, replicas.Behind(err)
		}
		return p, err
	})
}

// Inclusion proves leaf index in the tree of size, from the primary when
// the replica's tree is smaller than size.
func (pr *PublicReads) Inclusion(ctx context.Context, index, size int64) (tlog.RecordProof, error) {
	return read(ctx, pr, func(db *readDB) (tlog.RecordProof, error) {
		p, err := db.tree.Inclusion(ctx, index, size)
		if errors.Is(err, ledger.ErrTreeRange) && 0 <= index && index < size {
			return nil, replicas.Behind(err)
		}
		return p, err
	})
}

// Receipts proves events in the tree the database holds (the portal's
// verification page, after its verification on the same database).
func (pr *PublicReads) Receipts(ctx context.Context, events []ledger.Event) ([]*ledger.Receipt, error) {
	rcs, err := read(ctx, pr, func(db *readDB) ([]*ledger.Receipt, error) { return db.tree.Receipts(ctx, events) })
	if halted(err) {
		return nil, nil // no receipt from a log in doubt; the witness has said why, once
	}
	return rcs, err
}

// Entries reads the log's entries (public content, or hashes alone) as
// far as the database's tree reaches.
func (pr *PublicReads) Entries(ctx context.Context, start, end int64) ([]ledger.Entry, error) {
	return read(ctx, pr, func(db *readDB) ([]ledger.Entry, error) {
		if db.tree == nil {
			return nil, ledger.ReasonNoLog.New()
		}
		return db.tree.Entries(ctx, start, end)
	})
}

// halted reports whether err is the refusal of a tripped witness's notary.
func halted(err error) bool {
	e, ok := ledger.AsError(err)
	return ok && e.Reason == ledger.ReasonLogIntegrity
}

// publicCerts is the certificates service the portal uses: the public's
// reads go through PublicReads, everything else to the primary's service.
type publicCerts struct {
	*certs.Service
	pr *PublicReads
}

func (c publicCerts) Verify(ctx context.Context, number string) (certs.Verification, error) {
	return c.pr.Verify(ctx, number)
}

// VerifyWithReceipts is the verification page's one read: the answer and
// its receipts in one round trip (PublicReads.VerifyWithReceipts).
func (c publicCerts) VerifyWithReceipts(ctx context.Context, number string) (certs.Verification, []*ledger.Receipt, error) {
	return c.pr.VerifyWithReceipts(ctx, number)
}

func (c publicCerts) VerifyBatch(ctx context.Context, rows []certs.BatchRow) ([]certs.BatchResult, error) {
	return c.pr.VerifyBatch(ctx, rows)
}

func (c publicCerts) ListNotices(ctx context.Context, q certs.NoticeQuery) (certs.NoticePage, error) {
	return c.pr.ListNotices(ctx, q)
}

func (c publicCerts) GetNotice(ctx context.Context, id int64) (certs.Notice, error) {
	return c.pr.GetNotice(ctx, id)
}

func (c publicCerts) PlayerCertificates(ctx context.Context, playerID int64) ([]certs.Certificate, error) {
	return c.pr.PlayerCertificates(ctx, playerID)
}

func (c publicCerts) Statistics(ctx context.Context, actor ledger.Actor, year int, details bool) (certs.Stats, error) {
	return c.pr.Statistics(ctx, actor, year, details)
}

// publicRegistry routes the public's player and agency pages.
type publicRegistry struct {
	*registry.Service
	pr *PublicReads
}

func (r publicRegistry) GetPlayer(ctx context.Context, id int64) (registry.Player, error) {
	return r.pr.GetPlayer(ctx, id)
}

func (r publicRegistry) SearchPlayers(ctx context.Context, actor ledger.Actor, q registry.PlayerQuery) (registry.PlayerPage, error) {
	return r.pr.SearchPlayers(ctx, actor, q)
}

func (r publicRegistry) ListAgencies(ctx context.Context) ([]registry.Agency, error) {
	return r.pr.ListAgencies(ctx)
}

func (r publicRegistry) GetAgency(ctx context.Context, prefix string) (registry.Agency, error) {
	return r.pr.GetAgency(ctx, prefix)
}

// publicTournaments routes the public's tournament pages.
type publicTournaments struct {
	*tournaments.Service
	pr *PublicReads
}

func (t publicTournaments) ListEvents(ctx context.Context, organiser string, limit int) ([]tournaments.Event, error) {
	return t.pr.ListEvents(ctx, organiser, limit)
}

func (t publicTournaments) EventReport(ctx context.Context, id int64) (tournaments.Report, error) {
	return t.pr.EventReport(ctx, id)
}

// sessionCookie is the portal's sign-in cookie (web/session.go): a request
// that carries one reads from the primary, so a signed-in user reads what
// they just wrote.
const sessionCookie = web.SessionCookie

// PortalServices are the services web.New takes, with the public's reads
// going through pr (wrap the portal's handler in SignedInOnPrimary, and
// give it pr.Log() for the event tree).
func (pr *PublicReads) PortalServices() (publicRegistry, publicCerts, publicTournaments) {
	p := pr.set.Primary()
	return publicRegistry{p.reg, pr}, publicCerts{p.certs, pr}, publicTournaments{p.tours, pr}
}

// SignedInOnPrimary marks signed-in requests and every form post but the
// batch verification (a read, and the page it answers with) to read from
// the primary, and pins the rest to one database.
func SignedInOnPrimary(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(sessionCookie)
		read := r.Method == http.MethodGet || r.Method == http.MethodHead || (r.Method == http.MethodPost && r.URL.Path == "/verify/batch")
		if (err == nil && c.Value != "") || !read {
			r = r.WithContext(replicas.OnPrimary(r.Context()))
		} else {
			r = r.WithContext(replicas.Pin(r.Context()))
		}
		h.ServeHTTP(w, r)
	})
}

// ReadsInterceptor is the API's counterpart of SignedInOnPrimary: a call
// with a token reads from the primary, a public one keeps to one database.
// Chain it after api.UnaryInterceptor, which finds the caller.
func ReadsInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if api.ActorFrom(ctx).Kind != ledger.Public {
			return handler(replicas.OnPrimary(ctx), req)
		}
		return handler(replicas.Pin(ctx), req)
	}
}
