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

	"github.com/dankyu/dankyu/internal/ratelimit"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
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
// into Internal and maps returned errors to status codes. A call refused by
// a rate limit or the in-flight gate is not logged one by one: the limiter
// logs its refusals as one line per client and minute.
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
		summarised := ratelimit.IsSummarised(err) // its limiter logs a line per client and minute
		err = toStatus(ctx, log, info.FullMethod, err)
		if summarised {
			return resp, err
		}
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
		return ledger.Actor{}, registry.ReasonBadAuthorization.New()
	}
	return auth.Authenticate(ctx, strings.TrimSpace(tok))
}

// errorDomain names this service in google.rpc.ErrorInfo.
const errorDomain = "dankyu.org"

// statusCodes maps each kind of domain error to its gRPC code.
var statusCodes = map[ledger.Kind]codes.Code{
	ledger.Invalid:          codes.InvalidArgument,
	ledger.NotFound:         codes.NotFound,
	ledger.AlreadyExists:    codes.AlreadyExists,
	ledger.PermissionDenied: codes.PermissionDenied,
	ledger.Unauthenticated:  codes.Unauthenticated,
	ledger.Conflict:         codes.Aborted,
	ledger.Precondition:     codes.FailedPrecondition,
	ledger.Exhausted:        codes.ResourceExhausted,
	ledger.Unavailable:      codes.Unavailable,
}

// toStatus is the one place where domain errors become gRPC status codes.
// A coded refusal carries google.rpc.ErrorInfo (its reason code and
// parameters, so a client can word it in its own language) and, when it
// concerns a field, google.rpc.BadRequest. Unknown errors are logged and
// answered with a generic Internal.
func toStatus(ctx context.Context, log *slog.Logger, method string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	switch {
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, "request cancelled")
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, "deadline exceeded")
	}
	if u := ledger.Unreachable(err); u != nil {
		// the driver's text names hosts and roles: logged, not answered
		log.WarnContext(ctx, "database unavailable", "method", method, "err", err.Error())
		err = u
	}
	code, ok := statusCodes[ledger.KindOf(err)]
	if !ok {
		log.ErrorContext(ctx, "internal error", "method", method, "err", err.Error())
		return status.Error(codes.Internal, "internal error")
	}
	e, coded := ledger.AsError(err)
	if !coded {
		return status.Error(code, err.Error())
	}
	st := status.New(code, e.Error())
	info := &errdetails.ErrorInfo{Reason: e.Reason.Code(), Domain: errorDomain, Metadata: map[string]string{}}
	for _, p := range e.Params {
		info.Metadata[p.Name] = ledger.Echo(p.Value)
	}
	details := []protoadapt.MessageV1{info}
	if e.Field != "" {
		info.Metadata["field"] = e.Field
		details = append(details, &errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: e.Field, Description: e.Message(ledger.English), Reason: e.Reason.Code()}}})
	}
	if withDetails, err := st.WithDetails(details...); err == nil {
		st = withDetails
	}
	return st.Err()
}
