package ledger

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// ReasonDatabaseUnavailable answers a request the database could not
// serve because it was not reachable, or reachable only as a read-only
// standby: during a failover, until the promoted node takes writes. The
// request may be sent again (with its idempotency key, a write that did
// commit is answered, not done twice).
var ReasonDatabaseUnavailable = NewReason(Unavailable, "DATABASE_UNAVAILABLE",
	"数据库暂时无法访问（例如主库正在切换），请稍后重试。",
	"the database cannot be reached for the moment (a primary failing over, say); please try again shortly.")

// Unreachable is the coded refusal for err when err is the database being
// unreachable (see Unavailable), and nil otherwise: what a transport
// answers instead of the driver's text, which names hosts and roles.
// KindOf leaves such an error Internal on purpose: domain code that goes on
// past a refusal (a note recorded, evidence marked as not holding) must
// stop on an outage, as on any failure; only the transports word it.
func Unreachable(err error) *Error {
	if err == nil || !unreachable(err) {
		return nil
	}
	if e, ok := AsError(err); ok {
		return e
	}
	return ReasonDatabaseUnavailable.New()
}

// unreachable reports whether err is a lost or refused connection, or a
// write refused by a node that is (still, or again) a standby or shutting
// down; not a deadline or cancellation of the request itself.
func unreachable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case strings.HasPrefix(pgErr.Code, "08"): // connection exception
			return true
		case pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03": // admin or crash shutdown, cannot connect now
			return true
		case pgErr.Code == "25006": // read-only transaction: the node was demoted under an open connection
			return true
		}
		return false
	}
	var connect *pgconn.ConnectError
	if errors.As(err, &connect) {
		return true
	}
	var netErr net.Error
	return errors.As(err, &netErr) || errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE)
}
