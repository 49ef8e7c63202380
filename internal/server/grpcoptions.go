package server

import (
	"google.golang.org/grpc"

	"github.com/dankyu/dankyu/internal/api"
)

// GRPCOption adds to the gRPC server NewGRPCServer builds.
type GRPCOption func(*grpcOptions)

type grpcOptions struct {
	reads api.CertReads
	first []grpc.UnaryServerInterceptor // run before the API's own
}

// WithPublicReads sends the public's certificate and notice reads through pr's router.
func WithPublicReads(pr *PublicReads) GRPCOption {
	return func(o *grpcOptions) {
		if pr != nil {
			o.reads = pr.Certs
		}
	}
}

// WithInterceptor runs i around every call, outside the API's own interceptors.
func WithInterceptor(i grpc.UnaryServerInterceptor) GRPCOption {
	return func(o *grpcOptions) { o.first = append(o.first, i) }
}
