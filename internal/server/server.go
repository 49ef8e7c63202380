package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	grpchealth "google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/api"
	"github.com/dankyu/dankyu/internal/cachepurge"
	"github.com/dankyu/dankyu/internal/eventratings"
	"github.com/dankyu/dankyu/internal/health"
	"github.com/dankyu/dankyu/internal/httpapi"
	"github.com/dankyu/dankyu/internal/metrics"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/internal/records"
	"github.com/dankyu/dankyu/internal/replicas"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
	"github.com/dankyu/dankyu/web/opendata"
	"github.com/dankyu/dankyu/webhooks"
)

// NewGRPCServer builds the gRPC server with every service, health and
// reflection; rb is the ratings book the rest of the process uses too.
func NewGRPCServer(store *ledger.Store, reg *registry.Service, cs *certs.Service, ts *tournaments.Service, au *audit.Service, rb *book.Book, log *slog.Logger, limits api.Limits, opts ...GRPCOption) (*grpc.Server, *grpchealth.Server) {
	var o grpcOptions
	for _, f := range opts {
		f(&o)
	}
	pr := o.reads
	if pr == nil {
		pr = primaryReads(store, reg, cs, ts)
	}
	if limits.Keys == nil {
		limits.Keys = reg // institutions' keys and their quotas are the registry's
	}
	s := grpc.NewServer(grpc.ChainUnaryInterceptor(append(o.first, api.UnaryInterceptor(reg, log), ReadsInterceptor(), api.RateLimitInterceptor(limits), api.InFlightInterceptor(limits))...),
		grpc.NumStreamWorkers(uint32(runtime.GOMAXPROCS(0))))
	pb.RegisterRegistryServiceServer(s, api.NewRegistryServer(reg, records.New(store, reg, cs, ts), pr))
	pb.RegisterCertificateServiceServer(s, api.NewCertificateServer(cs, pr))
	pb.RegisterNoticeServiceServer(s, api.NewNoticeServer(cs, pr))
	pb.RegisterTournamentServiceServer(s, api.NewTournamentServer(ts, pr))
	pb.RegisterAdjudicationServiceServer(s, api.NewAdjudicationServer())
	pb.RegisterStatisticsServiceServer(s, api.NewStatisticsServer(pr))
	pb.RegisterRatingServiceServer(s, api.NewRatingServer(rb))
	pb.RegisterAuditServiceServer(s, api.NewAuditServer(au))
	// subscriptions only: the dispatcher that delivers runs in Run
	pb.RegisterWebhookServiceServer(s, api.NewWebhookServer(webhooks.New(store, nil, log, o.hooks...)))
	hs := grpchealth.NewServer()
	healthpb.RegisterHealthServer(s, hs)
	reflection.Register(s)
	return s, hs
}

// Run serves until ctx is cancelled, then drains requests and stops.
func Run(ctx context.Context, cfg Config, log *slog.Logger) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	start := time.Now()
	db, err := OpenDatabase(ctx, DatabaseSource{URL: cfg.DatabaseURL, MigrationURL: cfg.MigrationURL, DataDir: cfg.DataDir}, true, log)
	if err != nil {
		return err
	}
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := db.Close(stopCtx); err != nil {
			log.Error("close database", "err", err)
		}
	}()
	// the one clock of every rule, handed to every service through the store
	store := ledger.New(db.Pool, time.Now, log)
	store.SetIdempotencyTTL(cfg.IdempotencyTTL)
	reg := registry.New(store)
	ccfg, err := cfg.CertsConfig()
	if err != nil {
		return err
	}
	// one ratings book for the whole process: the RatingService reads it,
	// the audit takes its rating indicator from it and finished events
	// rate through it
	rb := book.New(store)
	// the annual audit gates every grant of stock and the approvals of
	// agencies under supervision
	au, err := audit.New(store, reg, audit.Config{Ratings: rb})
	if err != nil {
		return err
	}
	met := metrics.New(prometheus.NewRegistry()) // this process's series, no global registry
	store.ObserveEvents(met.Event)
	if cfg.CachePurgeURL != "" {
		purger, err := cachepurge.New(cfg.CachePurgeURL, log)
		if err != nil {
			return err
		}
		store.ObserveCommits(purger.Observe)
		purgeCtx, stopPurge := context.WithCancel(context.Background())
		defer stopPurge()
		go purger.Run(purgeCtx)
	}
	ccfg.OnSweep = func(_ int, err error) { met.SweeperRun(err) }
	ccfg.OnLogMismatch = met.LogMismatch
	reps, err := db.OpenReplicas(ctx, cfg.Scale, cfg.DataDir, log)
	if err != nil {
		return err
	}
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		reps.Close(stopCtx)
	}()
	router := replicas.New(db.Pool, reps.DBs, replicas.Options{MaxLag: cfg.Scale.ReplicaMaxLag, Log: log})
	cs, err := certs.New(store, reg, ccfg, certs.WithGrantGate(au), certs.WithApprovalGate(au), certs.WithEventEvidence(proposals.Evidence{Standings: tournaments.NewStandingsCache()}))
	if err != nil {
		return err
	}

	grpcLis, err := net.Listen("tcp", cfg.GRPCAddr)
	if err != nil {
		return fmt.Errorf("listen for gRPC on %s: %w", cfg.GRPCAddr, err)
	}
	httpLis, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		grpcLis.Close()
		return fmt.Errorf("listen for HTTP on %s: %w", cfg.HTTPAddr, err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs}, tournaments.WithRater(eventratings.Book{Book: rb}),
		tournaments.WithBoardRatings(eventratings.Book{Book: rb}))
	lim, err := cfg.Limiters(store.Now, log)
	if err != nil {
		grpcLis.Close()
		httpLis.Close()
		return err
	}
	lim.Share(store)
	// the server as its own log's witness: the key checked against the
	// head kept beside it, the log against that head, before serving
	wit, err := OpenWitness(ctx, store, cfg.LogSettings(), log)
	if err != nil {
		grpcLis.Close()
		httpLis.Close()
		return err
	}
	// every public read, the portal's and the API's, through one router
	pr, err := NewPublicReads(router, PublicServices{Store: store, Registry: reg, Certs: cs, Tournaments: ts, CertsConfig: ccfg,
		LogKey: wit.SignerKey(), LogVerifierKey: wit.VerifierKey(), Notary: wit.Notary()})
	if err != nil {
		grpcLis.Close()
		httpLis.Close()
		return err
	}
	met.Pools(reps.pools(db.Pool))
	met.Router(router)
	met.Limits(lim.verify, lim.objection, lim.login, lim.adjudicate, lim.inFlight, lim.inFlightSignedIn)
	gs, hs := NewGRPCServer(store, reg, cs, ts, au, rb, log, lim.API(), WithPublicReads(pr), WithInterceptor(met.UnaryInterceptor()),
		WithWebhooks(cfg.WebhookOptions()...))
	// the HTTP/JSON API: the same gRPC server behind a transcoder, on the
	// portal's listener; outside the portal's witness guard, so that a
	// tripped witness refuses over HTTP exactly what it refuses over gRPC
	// (the store's refusal of writes), a batch verification's POST included
	apiHTTP, err := httpapi.New(gs)
	if err != nil {
		grpcLis.Close()
		httpLis.Close()
		return err
	}
	wopt := cfg.WebOptions(lim)
	wopt.Ratings = rb
	wopt.Audit = au
	wopt.Merger = records.New(store, reg, cs, ts)
	wopt.Webhooks = webhooks.New(store, nil, log, cfg.WebhookOptions()...) // the subscriptions' pages; the dispatcher runs below
	wopt.Observe = metrics.SetRoute
	wopt.Log = pr.Log()
	wopt.OpenData = &opendata.Sources{Log: opendata.StoreLog{Store: store}, Ratings: rb, Players: reg, Certs: cs, Tournaments: ts,
		PublicURL: cfg.PublicURL}
	if n := wit.Notary(); n != nil {
		// printed certificates' QR seals are signed with the log's key (/log/key)
		wopt.Sealer = n
	}
	preg, pcs, pts := pr.PortalServices()
	portal, err := web.New(ctx, store, preg, pcs, pts, log, wopt)
	if err != nil {
		grpcLis.Close()
		httpLis.Close()
		return err
	}
	// the certificates' rows against their logged events, each check: a
	// row changed behind the log trips the witness like a changed log
	wit.AddCheck(IntegrityCheckFunc(func(ctx context.Context) error {
		bad, err := cs.CheckCertificatesAgainstLog(ctx)
		if err != nil {
			return err
		}
		if len(bad) > 0 {
			return &ledger.Tampering{What: "certificates disagree with their logged events: " + strings.Join(bad, "; ")}
		}
		return nil
	}))
	// health as the checks find it, held NOT_SERVING by a tripped witness
	hsw := wit.Health(hs)
	// one set of named checks answers /healthz and the gRPC health service;
	// the witness's finding is one of them
	checker := health.New(health.Options{Timeout: cfg.DBCheckInterval, GRPC: hsw, Log: log}, cfg.HealthChecks(db.Pool, health.Statfs)...)
	checker.Add(health.Func("log_integrity", func(context.Context) error { return wit.Failed() }))
	hsrv := cfg.HTTPServer(met.HTTP(httpapi.Mount(apiHTTP, wit.Guard(WithHealthz(checker, SignedInOnPrimary(portal))))))
	stopMetrics, err := serveMetrics(cfg.Scale.MetricsListen, met, log)
	if err != nil {
		grpcLis.Close()
		httpLis.Close()
		return err
	}
	defer stopMetrics()
	sweepCtx, stopSweep := context.WithCancel(context.Background())
	sweepDone := make(chan struct{})
	go func() { defer close(sweepDone); cs.RunSweeper(sweepCtx, cfg.SweepInterval, log) }()
	flushDone := make(chan struct{})
	go func() { defer close(flushDone); lim.flushEveryMinute(sweepCtx) }()
	defer func() { stopSweep(); <-flushDone }()
	// the webhooks' dispatcher follows the log (webhooks, docs/open-data.md)
	hooksDone := make(chan struct{})
	go func() {
		defer close(hooksDone)
		webhooks.New(store, nil, log, cfg.WebhookOptions()...).Run(sweepCtx, webhookInterval)
	}()
	defer func() { stopSweep(); <-hooksDone }()
	defer func() { stopSweep(); <-sweepDone }()

	// health says what holds from the first probe on: probed before the
	// gRPC server answers (its health service starts at SERVING); the
	// bound listeners hold early connections in their backlog meanwhile
	checker.Run(ctx)
	errc := make(chan error, 2)
	go func() { errc <- gs.Serve(grpcLis) }()
	go func() {
		if err := hsrv.Serve(httpLis); !errors.Is(err, http.ErrServerClosed) {
			errc <- err
		}
	}()
	superviseCtx, stopSupervising := context.WithCancel(context.Background())
	checked := make(chan struct{})
	go func() { defer close(checked); checker.Watch(superviseCtx, cfg.DBCheckInterval) }()
	defer func() { stopSupervising(); <-checked }()
	witnessed := make(chan struct{})
	go func() { defer close(witnessed); wit.Run(superviseCtx) }()
	defer func() { stopSupervising(); <-witnessed }()
	supervised := make(chan struct{})
	go func() { defer close(supervised); db.Supervise(superviseCtx, cfg.DBCheckInterval, log) }()
	defer func() { stopSupervising(); <-supervised }()
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		reps.Supervise(superviseCtx, router, cfg.Scale.ReplicaCheckInterval, hsw, log)
	}()
	defer func() { stopSupervising(); <-watched }()
	log.Info("dankyu serving", "grpc", grpcLis.Addr().String(), "http", "http://"+httpLis.Addr().String()+"/",
		"startup", time.Since(start).Round(time.Millisecond))

	var serveErr error
	select {
	case <-ctx.Done():
		log.Info("shutting down")
	case serveErr = <-errc:
		log.Error("server failed", "err", serveErr)
	}
	hs.Shutdown() // health answers NOT_SERVING while we drain
	shutCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := hsrv.Shutdown(shutCtx); err != nil {
		log.Error("portal shutdown", "err", err)
	}
	stopped := make(chan struct{})
	go func() { gs.GracefulStop(); close(stopped) }()
	select {
	case <-stopped:
	case <-shutCtx.Done():
		gs.Stop()
	}
	return serveErr
}

// webhookInterval is how often the webhooks' dispatcher reads the log and
// tries the deliveries that are due.
const webhookInterval = 5 * time.Second
