package ratings

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"unsafe"
)

// records reads the rows of a CSV file as encoding/csv does (RFC 4180,
// comma, no comments, empty lines skipped, \r\n as \n, a fixed number of
// fields), without allocating: a row without quotes or carriage returns
// (every row but two of the shared million-game file) is split in place,
// its fields pointing into the read buffer; any other row goes through
// encoding/csv. The fields are valid until the next call: callers clone
// what they keep (parser does).
type records struct {
	br     *bufio.Reader
	fields int
	rec    []string
	long   []byte // a line longer than the buffer, or a quoted record over several lines
	line   int    // physical lines read, for errors
}

func newRecords(r io.Reader, fields int) *records {
	return &records{br: bufio.NewReaderSize(r, 1<<16), fields: fields, rec: make([]string, fields)}
}

// readLine returns the next physical line with its newline, or io.EOF.
func (rs *records) readLine() ([]byte, error) {
	b, err := rs.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		rs.long = append(rs.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = rs.br.ReadSlice('\n')
			rs.long = append(rs.long, b...)
		}
		b = rs.long
	}
	if len(b) > 0 {
		rs.line++
		return b, nil // a last line without newline ends at EOF
	}
	if err == nil {
		err = io.EOF
	}
	return nil, err
}

func (rs *records) next() ([]string, error) {
	for {
		b, err := rs.readLine()
		if err != nil {
			return nil, err
		}
		if bytes.IndexByte(b, '"') >= 0 || bytes.IndexByte(b, '\r') >= 0 && !(bytes.IndexByte(b, '\r') == len(b)-2 && b[len(b)-1] == '\n') {
			return rs.slow(b)
		}
		b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte{'\n'}), []byte{'\r'})
		if len(b) == 0 {
			continue // encoding/csv skips empty lines
		}
		n := 0
		for {
			i := bytes.IndexByte(b, ',')
			if n == rs.fields {
				return nil, fmt.Errorf("record on line %d: %w", rs.line, csv.ErrFieldCount)
			}
			if i < 0 {
				rs.rec[n] = unsafe.String(unsafe.SliceData(b), len(b))
				n++
				break
			}
			rs.rec[n] = unsafe.String(unsafe.SliceData(b), i)
			n++
			b = b[i+1:]
		}
		if n != rs.fields {
			return nil, fmt.Errorf("record on line %d: %w", rs.line, csv.ErrFieldCount)
		}
		return rs.rec, nil
	}
}

// slow reads a row with quotes or stray carriage returns with
// encoding/csv: the lines up to the one that closes every quote.
func (rs *records) slow(first []byte) ([]string, error) {
	seg := append([]byte(nil), first...)
	for bytes.Count(seg, []byte{'"'})%2 == 1 {
		b, err := rs.readLine()
		if err != nil {
			break // encoding/csv reports the open quote
		}
		seg = append(seg, b...)
	}
	cr := csv.NewReader(bytes.NewReader(seg))
	cr.FieldsPerRecord = rs.fields
	rec, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return rs.next() // only an empty line
		}
		return nil, fmt.Errorf("record ending on line %d: %w", rs.line, err)
	}
	if _, err := cr.Read(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("record ending on line %d: more than one record in one", rs.line)
	}
	copy(rs.rec, rec)
	return rs.rec, nil
}
