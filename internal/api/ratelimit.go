package api

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	"github.com/dankyu/dankyu/internal/ratelimit"
)

// Limits are the per-client rate limits of the public RPCs, by full method
// name (e.g. /dankyu.v1.CertificateService/VerifyCertificate), and the
// proxies whose x-forwarded-for metadata names the client.
type Limits struct {
	Proxies  ratelimit.Proxies
	ByMethod map[string]*ratelimit.Limiter
}

type clientKey struct{}

// RateLimitInterceptor finds the client's address (the peer, or what a
// trusted proxy forwarded) for the handlers and refuses a call over its
// method's limit as RATE_LIMITED. Chain it after UnaryInterceptor, which
// maps the refusal to RESOURCE_EXHAUSTED.
func RateLimitInterceptor(l Limits) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		remote := ""
		if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
			remote = p.Addr.String()
		}
		md, _ := metadata.FromIncomingContext(ctx)
		client := l.Proxies.Client(remote, md.Get("x-forwarded-for"))
		if err := l.ByMethod[info.FullMethod].Allow(client); err != nil {
			return nil, err
		}
		return handler(context.WithValue(ctx, clientKey{}, client), req)
	}
}
