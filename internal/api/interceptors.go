// Package api serves the gRPC services over the domain packages: it reads
// credentials and idempotency keys from metadata, converts messages, and
// maps domain errors to status codes in one place.
package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// Authenticator turns a bearer token into an actor.
type Authenticator interface {
	Authenticate(ctx context.Context, token string) (ledger.Actor, error)
}

type actorKey struct{}

// ActorFrom returns the caller, the public when no token was sent.
func ActorFrom(ctx context.Context) ledger.Actor {
	a, _ := ctx.Value(actorKey{}).(ledger.Actor)
	return a
}

// idempotencyKey returns the `idempotency-key` metadata value, or "".
func idempotencyKey(ctx context.Context) string {
	md, _ := metadata.FromIncomingContext(ctx)
	if v := md.Get("idempotency-key"); len(v) > 0 {
		return strings.TrimSpace(v[0])
	}
	return ""
}

// UnaryInterceptor authenticates the caller, logs the call, turns panics
// into Internal and maps returned errors to status codes.
func UnaryInterceptor(auth Authenticator, log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		start := time.Now()
		defer func() {
			if r := recover(); r != nil {
				log.ErrorContext(ctx, "panic in handler", "method", info.FullMethod, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = status.Error(codes.Internal, "internal error")
			}
		}()
		actor, err := authenticate(ctx, auth)
		if err == nil {
			resp, err = handler(context.WithValue(ctx, actorKey{}, actor), req)
		}
		err = toStatus(ctx, log, info.FullMethod, err)
		log.InfoContext(ctx, "rpc", "method", info.FullMethod, "actor", actor.String(), "code", status.Code(err).String(),
			"took", time.Since(start).Round(time.Microsecond))
		return resp, err
	}
}

func authenticate(ctx context.Context, auth Authenticator) (ledger.Actor, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	vals := md.Get("authorization")
	if len(vals) == 0 || strings.TrimSpace(vals[0]) == "" {
		return ledger.Actor{Kind: ledger.Public}, nil
	}
	scheme, tok, ok := strings.Cut(strings.TrimSpace(vals[0]), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return ledger.Actor{}, fmt.Errorf("authorization must be \"Bearer <token>\": %w", ledger.ErrUnauthenticated)
	}
	return auth.Authenticate(ctx, strings.TrimSpace(tok))
}

// toStatus is the one place where domain errors become gRPC status codes.
// Unknown errors are logged and answered with a generic Internal.
func toStatus(ctx context.Context, log *slog.Logger, method string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	var fe *ledger.FieldError
	switch {
	case errors.As(err, &fe):
		return status.Error(codes.InvalidArgument, err.Error())
	case errors.Is(err, ledger.ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, ledger.ErrAlreadyExists):
		return status.Error(codes.AlreadyExists, err.Error())
	case errors.Is(err, ledger.ErrPermissionDenied):
		return status.Error(codes.PermissionDenied, err.Error())
	case errors.Is(err, ledger.ErrUnauthenticated):
		return status.Error(codes.Unauthenticated, err.Error())
	case errors.Is(err, ledger.ErrConflict):
		return status.Error(codes.Aborted, err.Error())
	case errors.Is(err, ledger.ErrPrecondition):
		return status.Error(codes.FailedPrecondition, err.Error())
	case errors.Is(err, ledger.ErrExhausted):
		return status.Error(codes.ResourceExhausted, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, "request cancelled")
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, "deadline exceeded")
	}
	log.ErrorContext(ctx, "internal error", "method", method, "err", err.Error())
	return status.Error(codes.Internal, "internal error")
}
