package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dankyu/dankyu/ledger"
)

// TestUnreachable: a lost or refused connection, a standby's refusal of a
// write and a shutting-down server are DATABASE_UNAVAILABLE (retryable);
// a refusal of the registry, a constraint and the request's own deadline
// are not; and KindOf leaves the driver's errors Internal, so domain code
// that carries on past a refusal stops on an outage.
func TestUnreachable(t *testing.T) {
	for _, err := range []error{
		&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED},
		fmt.Errorf("issue: %w", io.ErrUnexpectedEOF),
		fmt.Errorf("commit: %w", syscall.ECONNRESET),
		&pgconn.PgError{Code: "25006", Message: "cannot execute INSERT in a read-only transaction"},
		&pgconn.PgError{Code: "57P01"},
		&pgconn.PgError{Code: "08006"},
		fmt.Errorf("acquire: %w", pgconn.ErrConnClosed),
	} {
		u := ledger.Unreachable(err)
		if u == nil || u.Reason != ledger.ReasonDatabaseUnavailable || u.Reason.Kind() != ledger.Unavailable {
			t.Errorf("%v: %v, want DATABASE_UNAVAILABLE", err, u)
		}
		if ledger.KindOf(err) != ledger.Internal {
			t.Errorf("%v: KindOf %v, want Internal", err, ledger.KindOf(err))
		}
	}
	for _, err := range []error{
		nil,
		errors.New("something else"),
		&pgconn.PgError{Code: "23505"},
		context.DeadlineExceeded,
		fmt.Errorf("query: %w", context.Canceled),
		ledger.ReasonLogIntegrity.New(),
	} {
		if u := ledger.Unreachable(err); u != nil {
			t.Errorf("%v: %v, want not unavailable", err, u)
		}
	}
}
