package registry

import (
	"errors"
	"fmt"
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

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// FieldErr builds a *FieldError, for the other domain packages.
func FieldErr(field, format string, args ...any) error { return fieldErr(field, format, args...) }
