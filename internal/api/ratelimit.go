package api

import (
	"context"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/ratelimit"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// Limits are the per-client rate limits of the public RPCs, by full method
// name (e.g. /dankyu.v1.CertificateService/VerifyCertificate), the
// proxies whose x-forwarded-for metadata names the client, and the gates
// bounding each client's calls under way at once: the public's by address,
// signed-in callers' by token (an agency's or staff's program may run
// more calls at once, and answers for them).
type Limits struct {
	Proxies          ratelimit.Proxies
	ByMethod         map[string]*ratelimit.Limiter
	InFlight         *ratelimit.Gate
	InFlightSignedIn *ratelimit.Gate
	// KeyMethods are the methods an institution's key (x-api-key) pays
	// for from its own quota, kept by Keys, instead of the address's.
	KeyMethods map[string]bool
	Keys       InstitutionKeys
}

// InstitutionKeys charges a call to an institution key's quota (the
// registry, which keeps the count in PostgreSQL for every server alike).
type InstitutionKeys interface {
	SpendInstitutionKey(ctx context.Context, key string, n int) (int64, error)
}

// institutionKeyHeader is the metadata (the HTTP header X-Api-Key) that
// carries an institution's key.
const institutionKeyHeader = "x-api-key"

type clientKey struct{}

// RateLimitInterceptor finds the client's address (the peer, or what a
// trusted proxy forwarded) for the handlers and refuses a call over its
// method's limit as RATE_LIMITED. A call spends what it counts for: a
// batch verification one token per number, else one. Chain it after
// UnaryInterceptor, which maps the refusal to RESOURCE_EXHAUSTED.
func RateLimitInterceptor(l Limits) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		remote := ""
		if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
			remote = p.Addr.String()
		}
		md, _ := metadata.FromIncomingContext(ctx)
		client := l.Proxies.Client(remote, md.Get("x-forwarded-for"))
		ctx = context.WithValue(ctx, clientKey{}, client)
		// an institution's key pays from its own quota, shared by every
		// server through PostgreSQL (a per-process bucket would let n
		// servers grant n quotas);
		// a key that is unknown, revoked or spent is refused, never
		// quietly sent to the address's budget
		if key := first(md.Get(institutionKeyHeader)); key != "" && l.Keys != nil && l.KeyMethods[info.FullMethod] {
			if _, err := l.Keys.SpendInstitutionKey(ctx, key, cost(req)); err != nil {
				return nil, err
			}
			return handler(ctx, req)
		}
		if err := l.ByMethod[info.FullMethod].AllowN(client, cost(req)); err != nil {
			return nil, err
		}
		return handler(ctx, req)
	}
}

func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return strings.TrimSpace(vs[0])
}

// cost is how many tokens of its method's budget a call spends: a batch
// of numbers to verify costs one per number, as the same numbers asked
// one by one would (a batch of 1 000 once cost one, issue 31); one over
// certs.MaxBatch costs one, to be refused for its size.
func cost(req any) int {
	if b, ok := req.(*pb.VerifyCertificatesRequest); ok && len(b.GetClaims()) <= certs.MaxBatch {
		return max(1, len(b.GetClaims()))
	}
	return 1
}

// InFlightInterceptor bounds the calls one client has under way at once:
// the public by its address (an IPv6 /64 as one, l.InFlight), a signed-in
// caller by its token's actor (l.InFlightSignedIn), so one client's
// parallel calls cannot hold every core. The health service is never held
// back. Chain it after RateLimitInterceptor, which finds the address.
func InFlightInterceptor(l Limits) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if strings.HasPrefix(info.FullMethod, "/grpc.health.") {
			return handler(ctx, req)
		}
		gate, client := l.InFlight, ratelimit.Key(peerHost(ctx))
		if a := ActorFrom(ctx); a.Kind != ledger.Public {
			gate, client = l.InFlightSignedIn, a.String()
		}
		leave, err := gate.Enter(client)
		if err != nil {
			return nil, err
		}
		defer leave()
		return handler(ctx, req)
	}
}
