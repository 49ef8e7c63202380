package ledger

import (
	"encoding/binary"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// RawRow reads a row's values as pgx's default type map decodes them
// (binary integers, dates and timestamps; text as sent), from the raw
// values of rows.RawValues: no scan plan made per column and call, which
// pgx's Scan does and a hot read of many columns pays for on every
// request. A column of another type or format than the reader asks for,
// or a value pgx would refuse or read as infinity, sets Ok false: the
// caller then scans the row with pgx instead, so nothing is read
// differently.
type RawRow struct {
	fields []pgconn.FieldDescription
	vals   [][]byte
	Ok     bool
}

// NewRawRow reads vals, the raw values of a row of fields.
func NewRawRow(fields []pgconn.FieldDescription, vals [][]byte) RawRow {
	return RawRow{fields: fields, vals: vals, Ok: len(fields) == len(vals)}
}

func (r *RawRow) binary(i int, oid uint32, size int) []byte {
	if !r.Ok || i >= len(r.vals) || r.fields[i].DataTypeOID != oid || r.fields[i].Format != pgtype.BinaryFormatCode ||
		r.vals[i] != nil && len(r.vals[i]) != size {
		r.Ok = false
		return nil
	}
	return r.vals[i]
}

// Int8 is column i, a bigint; nil when NULL.
func (r *RawRow) Int8(i int) *int64 {
	b := r.binary(i, pgtype.Int8OID, 8)
	if b == nil {
		return nil
	}
	v := int64(binary.BigEndian.Uint64(b))
	return &v
}

// Int2 is column i, a smallint (0 when NULL or not read).
func (r *RawRow) Int2(i int) int16 {
	b := r.binary(i, pgtype.Int2OID, 2)
	if b == nil {
		r.Ok = false
		return 0
	}
	return int16(binary.BigEndian.Uint16(b))
}

// Bool is column i, a boolean (false when NULL or not read).
func (r *RawRow) Bool(i int) bool {
	b := r.binary(i, pgtype.BoolOID, 1)
	if b == nil {
		r.Ok = false
		return false
	}
	return b[0] == 1
}

// Text is column i, text; nil when NULL.
func (r *RawRow) Text(i int) *string {
	if !r.Ok || i >= len(r.vals) || r.fields[i].DataTypeOID != pgtype.TextOID {
		r.Ok = false
		return nil
	}
	if r.vals[i] == nil {
		return nil
	}
	s := string(r.vals[i])
	return &s
}

// Bytes is column i, bytea (a copy); nil when NULL.
func (r *RawRow) Bytes(i int) []byte {
	if !r.Ok || i >= len(r.vals) || r.fields[i].DataTypeOID != pgtype.ByteaOID || r.fields[i].Format != pgtype.BinaryFormatCode {
		r.Ok = false
		return nil
	}
	if r.vals[i] == nil {
		return nil
	}
	return append(make([]byte, 0, len(r.vals[i])), r.vals[i]...)
}

// y2k is where PostgreSQL's binary dates and timestamps count from.
var y2k = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Date is column i, a date (UTC midnight, as pgx reads it); nil when NULL.
func (r *RawRow) Date(i int) *time.Time {
	b := r.binary(i, pgtype.DateOID, 4)
	if b == nil {
		return nil
	}
	days := int32(binary.BigEndian.Uint32(b))
	// beyond ±6000 years (infinity among them): left to pgx
	if days > 6000*366 || days < -6000*366 {
		r.Ok = false
		return nil
	}
	t := time.Date(2000, 1, int(1+days), 0, 0, 0, 0, time.UTC)
	return &t
}

// Timestamptz is column i, a timestamptz (in the local zone, as pgx reads
// it); nil when NULL.
func (r *RawRow) Timestamptz(i int) *time.Time {
	b := r.binary(i, pgtype.TimestamptzOID, 8)
	if b == nil {
		return nil
	}
	us := int64(binary.BigEndian.Uint64(b))
	// beyond ±6000 years (infinity among them): left to pgx
	const bound = 6000 * 366 * 24 * 3600 * 1_000_000
	if us > bound || us < -bound {
		r.Ok = false
		return nil
	}
	t := time.Unix(y2k.Unix()+us/1_000_000, us%1_000_000*1_000)
	return &t
}
