package ledger

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Domain errors. The transport maps each to its status code in one place.
var (
	ErrNotFound         = errors.New("not found")
	ErrAlreadyExists    = errors.New("already exists")
	ErrPermissionDenied = errors.New("permission denied")
	ErrUnauthenticated  = errors.New("unauthenticated")
	ErrConflict         = errors.New("conflict")
	ErrPrecondition     = errors.New("failed precondition")
	ErrExhausted        = errors.New("resource exhausted")
)

// FieldError says which input field is wrong and how.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Reason) }

// FieldErr builds a *FieldError.
func FieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// PgErr translates a PostgreSQL error into a domain error, with context.
func PgErr(err error, what string) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505":
			return fmt.Errorf("%s: %w", what, ErrAlreadyExists)
		case "23503":
			return fmt.Errorf("%s: %w", what, ErrNotFound)
		case "40001", "40P01":
			return fmt.Errorf("%s: %w", what, ErrConflict)
		}
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}
