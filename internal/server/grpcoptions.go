package server

import (
	"google.golang.org/grpc"

	"github.com/dankyu/dankyu/webhooks"
)

// GRPCOption adds to the gRPC server NewGRPCServer builds.
type GRPCOption func(*grpcOptions)

type grpcOptions struct {
	reads *PublicReads                  // nil: the primary's, built by NewGRPCServer
	first []grpc.UnaryServerInterceptor // run before the API's own
	hooks []webhooks.Option             // of the subscriptions' service
}

// WithPublicReads sends the public's reads through pr, the component the
// portal reads through (without it they all go to the primary).
func WithPublicReads(pr *PublicReads) GRPCOption {
	return func(o *grpcOptions) { o.reads = pr }
}

// WithInterceptor runs i around every call, outside the API's own interceptors.
func WithInterceptor(i grpc.UnaryServerInterceptor) GRPCOption {
	return func(o *grpcOptions) { o.first = append(o.first, i) }
}

// WithWebhooks builds the subscriptions' service with opts (e.g.
// webhooks.PrivateNetworks, as Config.WebhookPrivateNetworks sets).
func WithWebhooks(opts ...webhooks.Option) GRPCOption {
	return func(o *grpcOptions) { o.hooks = append(o.hooks, opts...) }
}
