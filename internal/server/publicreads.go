package server

import (
	"context"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/replicas"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// PublicReads are the domain services built over every database the public
// reads from (the primary and each replica), with the router that picks one
// per read.
type PublicReads struct {
	Router *replicas.Router
	Reg    *replicas.Set[*registry.Service]
	Certs  *replicas.Set[*certs.Service]
	Tours  *replicas.Set[*tournaments.Service]
}

// NewPublicReads builds the read services over every database of r. The
// primary's services are the ones given (they do the writes); a replica's
// are built over a store of its own on the same clock.
func NewPublicReads(r *replicas.Router, store *ledger.Store, reg *registry.Service, cs *certs.Service, ts *tournaments.Service, ccfg certs.Config) (*PublicReads, error) {
	type services struct {
		reg *registry.Service
		cs  *certs.Service
		ts  *tournaments.Service
	}
	built := map[*pgxpool.Pool]services{store.DB(): {reg, cs, ts}}
	svc := func(p *pgxpool.Pool) (services, error) {
		if s, ok := built[p]; ok {
			return s, nil
		}
		st := ledger.New(p, store.Now, store.Log())
		rreg := registry.New(st)
		rcs, err := certs.New(st, rreg, ccfg)
		if err != nil {
			return services{}, err
		}
		s := services{rreg, rcs, tournaments.New(st, rreg, nil)}
		built[p] = s
		return s, nil
	}
	out := &PublicReads{Router: r}
	var err error
	if out.Reg, err = replicas.NewSet(r, func(p *pgxpool.Pool) (*registry.Service, error) { s, err := svc(p); return s.reg, err }); err != nil {
		return nil, err
	}
	if out.Certs, err = replicas.NewSet(r, func(p *pgxpool.Pool) (*certs.Service, error) { s, err := svc(p); return s.cs, err }); err != nil {
		return nil, err
	}
	if out.Tours, err = replicas.NewSet(r, func(p *pgxpool.Pool) (*tournaments.Service, error) { s, err := svc(p); return s.ts, err }); err != nil {
		return nil, err
	}
	return out, nil
}

// get runs one public read on the set and returns its answer.
func get[T, R any](ctx context.Context, s *replicas.Set[T], read func(T) (R, error)) (R, error) {
	var out R
	err := s.Read(ctx, func(t T) error {
		var err error
		out, err = read(t)
		return err
	})
	return out, err
}

// publicCerts is the certificates service the portal uses: the public's
// reads (verification, notices, a player's certificates, statistics) go
// through the router, everything else to the primary's service.
type publicCerts struct {
	*certs.Service
	set *replicas.Set[*certs.Service]
}

func (c publicCerts) Verify(ctx context.Context, number string) (certs.Verification, error) {
	return get(ctx, c.set, func(s *certs.Service) (certs.Verification, error) { return s.Verify(ctx, number) })
}

func (c publicCerts) VerifyBatch(ctx context.Context, rows []certs.BatchRow) ([]certs.BatchResult, error) {
	return get(ctx, c.set, func(s *certs.Service) ([]certs.BatchResult, error) { return s.VerifyBatch(ctx, rows) })
}

func (c publicCerts) ListNotices(ctx context.Context, q certs.NoticeQuery) (certs.NoticePage, error) {
	return get(ctx, c.set, func(s *certs.Service) (certs.NoticePage, error) { return s.ListNotices(ctx, q) })
}

func (c publicCerts) GetNotice(ctx context.Context, id int64) (certs.Notice, error) {
	return get(ctx, c.set, func(s *certs.Service) (certs.Notice, error) { return s.GetNotice(ctx, id) })
}

func (c publicCerts) PlayerCertificates(ctx context.Context, playerID int64) ([]certs.Certificate, error) {
	return get(ctx, c.set, func(s *certs.Service) ([]certs.Certificate, error) { return s.PlayerCertificates(ctx, playerID) })
}

func (c publicCerts) Statistics(ctx context.Context, actor ledger.Actor, year int, details bool) (certs.Stats, error) {
	if actor.Kind != ledger.Public {
		return c.Service.Statistics(ctx, actor, year, details)
	}
	return get(ctx, c.set, func(s *certs.Service) (certs.Stats, error) { return s.Statistics(ctx, actor, year, details) })
}

// publicRegistry routes the public's player and agency pages.
type publicRegistry struct {
	*registry.Service
	set *replicas.Set[*registry.Service]
}

func (r publicRegistry) GetPlayer(ctx context.Context, id int64) (registry.Player, error) {
	return get(ctx, r.set, func(s *registry.Service) (registry.Player, error) { return s.GetPlayer(ctx, id) })
}

func (r publicRegistry) SearchPlayers(ctx context.Context, actor ledger.Actor, q registry.PlayerQuery) (registry.PlayerPage, error) {
	if actor.Kind != ledger.Public {
		return r.Service.SearchPlayers(ctx, actor, q)
	}
	return get(ctx, r.set, func(s *registry.Service) (registry.PlayerPage, error) { return s.SearchPlayers(ctx, actor, q) })
}

func (r publicRegistry) ListAgencies(ctx context.Context) ([]registry.Agency, error) {
	return get(ctx, r.set, func(s *registry.Service) ([]registry.Agency, error) { return s.ListAgencies(ctx) })
}

func (r publicRegistry) GetAgency(ctx context.Context, prefix string) (registry.Agency, error) {
	return get(ctx, r.set, func(s *registry.Service) (registry.Agency, error) { return s.GetAgency(ctx, prefix) })
}

// publicTournaments routes the public's tournament pages.
type publicTournaments struct {
	*tournaments.Service
	set *replicas.Set[*tournaments.Service]
}

func (t publicTournaments) ListEvents(ctx context.Context, organiser string, limit int) ([]tournaments.Event, error) {
	return get(ctx, t.set, func(s *tournaments.Service) ([]tournaments.Event, error) { return s.ListEvents(ctx, organiser, limit) })
}

func (t publicTournaments) EventReport(ctx context.Context, id int64) (tournaments.Report, error) {
	return get(ctx, t.set, func(s *tournaments.Service) (tournaments.Report, error) { return s.EventReport(ctx, id) })
}

// sessionCookie is the portal's sign-in cookie (web/session.go): a request
// that carries one reads from the primary, so a signed-in user reads what
// they just wrote.
const sessionCookie = web.SessionCookie

// PortalServices are the services web.New takes, with the public's reads
// routed (wrap the portal's handler in SignedInOnPrimary).
func (pr *PublicReads) PortalServices() (publicRegistry, publicCerts, publicTournaments) {
	return publicRegistry{pr.Reg.Primary(), pr.Reg}, publicCerts{pr.Certs.Primary(), pr.Certs}, publicTournaments{pr.Tours.Primary(), pr.Tours}
}

// SignedInOnPrimary marks signed-in requests and every form post but the
// batch verification (a write, and the page it answers with) to read from
// the primary.
func SignedInOnPrimary(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(sessionCookie)
		read := r.Method == http.MethodGet || r.Method == http.MethodHead || (r.Method == http.MethodPost && r.URL.Path == "/verify/batch")
		if (err == nil && c.Value != "") || !read {
			r = r.WithContext(replicas.OnPrimary(r.Context()))
		}
		h.ServeHTTP(w, r)
	})
}
