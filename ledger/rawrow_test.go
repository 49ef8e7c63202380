package ledger_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// TestRawRowReadsAsPgx: the values RawRow reads are those pgx's Scan
// makes of the same row (NULLs, dates and times on both sides of 2000),
// and a value it does not read as pgx would (infinity, a column of
// another type) sets Ok false rather than reading otherwise.
func TestRawRowReadsAsPgx(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	const q = `SELECT $1::bigint, $2::smallint, $3::boolean, $4::text, $5::bytea, $6::date, $7::timestamptz`
	type row struct {
		I    *int64
		S    int16
		B    bool
		T    *string
		Y    []byte
		D, Z *time.Time
	}
	for _, args := range [][]any{
		{int64(-42), int16(-3), true, "守约", []byte{0, 1, 255}, "1969-12-31", "1969-12-31T23:59:59.999999+08:00"},
		{int64(1) << 40, int16(7), false, "", []byte{}, "2026-12-03", "2026-12-03T10:00:00.123456Z"},
		{nil, int16(0), false, nil, nil, nil, nil},
	} {
		var want row
		if err := pool.QueryRow(ctx, q, args...).Scan(&want.I, &want.S, &want.B, &want.T, &want.Y, &want.D, &want.Z); err != nil {
			t.Fatal(err)
		}
		rows, err := pool.Query(ctx, q, args...)
		if err != nil || !rows.Next() {
			t.Fatal(err, rows.Err())
		}
		r := ledger.NewRawRow(rows.FieldDescriptions(), rows.RawValues())
		got := row{r.Int8(0), r.Int2(1), r.Bool(2), r.Text(3), r.Bytes(4), r.Date(5), r.Timestamptz(6)}
		rows.Close()
		if !r.Ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%v: raw %+v (ok %v), pgx %+v", args, got, r.Ok, want)
		}
	}
	for _, c := range []struct {
		sql  string
		read func(*ledger.RawRow)
	}{
		{`SELECT 'infinity'::date`, func(r *ledger.RawRow) { r.Date(0) }},
		{`SELECT '-infinity'::timestamptz`, func(r *ledger.RawRow) { r.Timestamptz(0) }},
		{`SELECT 1::integer`, func(r *ledger.RawRow) { r.Int8(0) }},
		{`SELECT 'x'::varchar`, func(r *ledger.RawRow) { r.Text(0) }},
		{`SELECT NULL::smallint`, func(r *ledger.RawRow) { r.Int2(0) }},
	} {
		rows, err := pool.Query(ctx, c.sql)
		if err != nil || !rows.Next() {
			t.Fatal(err, rows.Err())
		}
		r := ledger.NewRawRow(rows.FieldDescriptions(), rows.RawValues())
		c.read(&r)
		rows.Close()
		if r.Ok {
			t.Errorf("%s read raw as if pgx read it so", c.sql)
		}
	}
}
