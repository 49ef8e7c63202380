package certs

import (
	"archive/zip"
	"bytes"
	"regexp"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/dankyu/dankyu/ledger"
)

// FuzzReadSheet: any upload, CSV or zip, is read or refused, never a panic.
func FuzzReadSheet(f *testing.F) {
	f.Add([]byte("\ufeff证书编号,姓名,段位\r\n110260001,王五,1段\r\n"))
	f.Add([]byte("PK\x03\x04garbage"))
	var buf bytes.Buffer
	x := excelize.NewFile()
	_ = x.SetCellStr("Sheet1", "A1", "证书编号")
	_ = x.Write(&buf)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, enc, err := readSheet(data)
		if err == nil && enc == "" {
			t.Fatalf("read %d rows without naming an encoding", len(rows))
		}
		if e, ok := ledger.AsError(err); err != nil && (!ok || e.Field != "file") {
			t.Fatalf("a refusal without a code: %v", err)
		}
		if err == nil {
			_, _ = headerColumns(rows)
		}
	})
}

// TestXLSXBombRefused: a small upload that unzips past the bound is
// refused before it is unpacked (excelize alone would allow 16 GB).
func TestXLSXBombRefused(t *testing.T) {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, err := z.Create("xl/worksheets/sheet1.xml")
	if err != nil {
		t.Fatal(err)
	}
	blank := bytes.Repeat([]byte(" "), 1<<20)
	for range maxPaperUnzipped>>20 + 1 {
		if _, err := w.Write(blank); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 1<<20 {
		t.Fatalf("the bomb is %d bytes, more than an upload may be", buf.Len())
	}
	_, _, err = readSheet(buf.Bytes())
	if e, ok := ledger.AsError(err); !ok || e.Reason != ReasonPaperUnzipped || e.Param("max") != "64" {
		t.Fatalf("a %d-byte upload unzipping to %d MB: %v, want it refused", buf.Len(), maxPaperUnzipped>>20+1, err)
	}
}

// TestSheetRefusalsAreCoded: a file that cannot be read is refused by a
// code, never with the reader's English (excelize's, the CSV reader's),
// and the Chinese messages have no English words.
func TestSheetRefusalsAreCoded(t *testing.T) {
	for _, tt := range []struct {
		data []byte
		want *ledger.Reason
	}{
		{[]byte("PK\x03\x04garbage"), ReasonPaperSpreadsheet},
		{[]byte("PK not a zip at all"), ReasonPaperSpreadsheet},
		{[]byte("证书编号,姓名\n\"110260001,\"王\"五\n"), nil},          // stray quotes are read as they are
		{[]byte("\xd6\xa4\xca\xe9\xb1\xe0\xba\xc5\xff\n"), nil}, // GBK, with a byte GBK has not
	} {
		_, _, err := readSheet(tt.data)
		e, ok := ledger.AsError(err)
		switch {
		case tt.want == nil && err != nil:
			t.Errorf("%q: %v", tt.data, err)
		case tt.want != nil && (!ok || e.Reason != tt.want || e.Field != "file" || len(e.Params) != 0):
			t.Errorf("%q: %v, want %s", tt.data, err, tt.want.Code())
		}
	}
	latin, placeholder := regexp.MustCompile(`[A-Za-z]{2,}`), regexp.MustCompile(`\{[a-z_]+\}`)
	for _, r := range []*ledger.Reason{ReasonPaperUnreadable, ReasonPaperSpreadsheet, ReasonPaperUnzipped} {
		if w := latin.FindString(placeholder.ReplaceAllString(r.Template(ledger.Chinese), "")); w != "" {
			t.Errorf("%s: the Chinese message has %q", r.Code(), w)
		}
	}
}
