package ledger

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Kind classes a domain error; each transport maps a kind to its status
// once (gRPC code, HTTP status).
type Kind int

const (
	Internal Kind = iota
	Invalid
	NotFound
	AlreadyExists
	PermissionDenied
	Unauthenticated
	Conflict
	Precondition
	Exhausted
	// Unavailable is the database not reachable for the moment (a primary
	// failing over, a restart): the same request may be sent again.
	Unavailable
)

// kindError is the sentinel of a kind: errors.Is(err, ErrPrecondition)
// holds for every refusal of that kind, coded or not.
type kindError struct {
	kind Kind
	text string
}

func (k *kindError) Error() string { return k.text }

// The sentinels, one per kind.
var (
	ErrInvalid          error = &kindError{Invalid, "invalid argument"}
	ErrNotFound         error = &kindError{NotFound, "not found"}
	ErrAlreadyExists    error = &kindError{AlreadyExists, "already exists"}
	ErrPermissionDenied error = &kindError{PermissionDenied, "permission denied"}
	ErrUnauthenticated  error = &kindError{Unauthenticated, "unauthenticated"}
	ErrConflict         error = &kindError{Conflict, "conflict"}
	ErrPrecondition     error = &kindError{Precondition, "failed precondition"}
	ErrExhausted        error = &kindError{Exhausted, "resource exhausted"}
	ErrUnavailable      error = &kindError{Unavailable, "unavailable"}
)

// KindOf returns the kind of err: that of its *Error or sentinel, else Internal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason.kind
	}
	var k *kindError
	if errors.As(err, &k) {
		return k.kind
	}
	return Internal
}

// Lang is a language messages are written in.
type Lang string

const (
	Chinese Lang = "zh-CN"
	English Lang = "en"
)

// Reason is one kind of refusal: a stable code (what gRPC clients get in
// ErrorInfo.reason) and its message in Chinese and English, with {name}
// placeholders for the parameters. Reasons are declared once, as
// package-level values beside the code that refuses (like sentinel errors),
// and never changed after.
type Reason struct {
	kind   Kind
	code   string
	zh, en string
}

// NewReason declares a reason. Messages are sentences a clerk can act on.
func NewReason(kind Kind, code, zh, en string) *Reason {
	return &Reason{kind: kind, code: code, zh: zh, en: en}
}

// Code is the stable code, e.g. ORDER_WINDOW_CLOSED.
func (r *Reason) Code() string { return r.code }

// Kind is the class of the refusal.
func (r *Reason) Kind() Kind { return r.kind }

// Template is the message of the language, with its placeholders.
func (r *Reason) Template(l Lang) string {
	if l == English {
		return r.en
	}
	return r.zh
}

// New is a refusal for this reason; params are name, value pairs filling
// the message's placeholders.
func (r *Reason) New(params ...string) *Error {
	return &Error{Reason: r, Params: pairs(params)}
}

// OnField is a refusal of one input field's value.
func (r *Reason) OnField(field string, params ...string) *Error {
	return &Error{Reason: r, Field: field, Params: pairs(params)}
}

// With is a refusal whose parameters may have a wording of their own per
// language (see Words).
func (r *Reason) With(params ...Param) *Error { return &Error{Reason: r, Params: params} }

// Param is one named value of a message. Value is what every language
// shows (and what gRPC clients get) unless ZH gives the Chinese wording.
type Param struct{ Name, Value, ZH string }

// Words is a parameter worded in both languages, e.g. an action.
func Words(name, zh, en string) Param { return Param{Name: name, Value: en, ZH: zh} }

// Value is a parameter shown alike in every language, e.g. a number.
func Value(name, value string) Param { return Param{Name: name, Value: value} }

func pairs(kv []string) []Param {
	ps := make([]Param, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		ps = append(ps, Param{Name: kv[i], Value: kv[i+1]})
	}
	return ps
}

// Error is a domain refusal: its reason, the field it concerns (if any) and
// the parameters of its message. Its Error() is the English message; the
// transports translate it with Message.
type Error struct {
	Reason *Reason
	Field  string
	Params []Param
}

func (e *Error) Error() string {
	if e.Field != "" {
		return e.Field + ": " + e.Message(English)
	}
	return e.Message(English)
}

// Is makes errors.Is(err, ErrPrecondition) hold for a refusal of that kind.
func (e *Error) Is(target error) bool {
	k, ok := target.(*kindError)
	return ok && k.kind == e.Reason.kind
}

// Message renders the message in the language.
func (e *Error) Message(l Lang) string {
	msg := e.Reason.Template(l)
	for _, p := range e.Params {
		v := p.Value
		if l != English && p.ZH != "" {
			v = p.ZH
		}
		msg = strings.ReplaceAll(msg, "{"+p.Name+"}", Echo(v))
	}
	return msg
}

// Param returns the value of a named parameter, or "".
func (e *Error) Param(name string) string {
	for _, p := range e.Params {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

// AsError returns the *Error in err's chain.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Reasons shared by every package.
var (
	ReasonRequired = NewReason(Invalid, "REQUIRED",
		"此项必填。", "is required.")
	ReasonTooLong = NewReason(Invalid, "TOO_LONG",
		"不能超过 {max} 个字符。", "is longer than {max} characters.")
	ReasonOutOfRange = NewReason(Invalid, "OUT_OF_RANGE",
		"须在 {min} 到 {max} 之间。", "must be between {min} and {max}.")
	ReasonIdempotencyKeyTooLong = NewReason(Invalid, "IDEMPOTENCY_KEY_TOO_LONG",
		"幂等键不能超过 200 个字符。", "the idempotency key is longer than 200 characters.")
	ReasonIdempotencyKeyReused = NewReason(Conflict, "IDEMPOTENCY_KEY_REUSED",
		"幂等键 {key} 已用于另一个请求（{method}），请换一个键。", "idempotency key {key} was first used for a different request ({method}); use a new key.")
	ReasonNotFound = NewReason(NotFound, "NOT_FOUND",
		"找不到{what}。", "{what} was not found.")
	ReasonAlreadyExists = NewReason(AlreadyExists, "ALREADY_EXISTS",
		"{what}已存在。", "{what} already exists.")
	ReasonBusy = NewReason(Conflict, "CONCURRENT_CHANGE",
		"{what}正被同时修改，请重试。", "{what} was changed at the same moment by another request; try again.")
)

// PgErr translates a PostgreSQL error into a domain error, with context.
func PgErr(err error, what string) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505":
			return fmt.Errorf("%s: %w", what, ReasonAlreadyExists.New("what", what))
		case "23503":
			return fmt.Errorf("%s: %w", what, ReasonNotFound.New("what", what))
		case "40001", "40P01":
			return fmt.Errorf("%s: %w", what, ReasonBusy.New("what", what))
		}
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ReasonNotFound.New("what", what))
	}
	return fmt.Errorf("%s: %w", what, err)
}

// RowErr is PgErr for a read of one row: no row is the given refusal
// (e.g. "there is no notice 7"), anything else as PgErr words it.
func RowErr(err error, what string, missing *Error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return missing
	}
	return PgErr(err, what)
}

// FieldWith is OnField with parameters worded per language.
func (r *Reason) FieldWith(field string, params ...Param) *Error {
	return &Error{Reason: r, Field: field, Params: params}
}
