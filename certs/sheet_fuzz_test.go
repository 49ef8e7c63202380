package certs

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
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
	if _, _, err := readSheet(buf.Bytes()); err == nil || !strings.Contains(err.Error(), "unzip size exceeds") {
		t.Fatalf("a %d-byte upload unzipping to %d MB: %v, want it refused", buf.Len(), maxPaperUnzipped>>20+1, err)
	}
}
