package certs

import (
	"archive/zip"
	"bytes"
	"regexp"
	"slices"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// FuzzReadSheet: any upload, CSV or zip, is read or refused, never a panic.
func FuzzReadSheet(f *testing.F) {
	f.Add([]byte("\ufeff证书编号,姓名,段位\r\n110260001,王五,1段\r\n"))
	f.Add([]byte("PK\x03\x04garbage"))
	f.Add([]byte("证书编号,姓名,证件号码,段位,发证日期,授予依据,运动员等级\n110150001,王五,1,4段,2015-04-01,段位赛,二级运动员\n"))
	f.Add([]byte("number,name,identity,rank,date,basis,athlete grade\n110150001,W,1,4d,2015-04-01,appraisal,none\n"))
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
			cols, herr := headerColumns(rows)
			if herr != nil {
				return
			}
			for _, rec := range rows[1:] {
				cell := func(name string) string {
					if j, ok := cols[name]; ok && j < len(rec) {
						return rec[j]
					}
					return ""
				}
				checkBasisAndGrade(t, cell("basis"), cell("grade"), registry.Rank(4))
			}
		}
	})
}

// FuzzPaperBasisAndGrade: any cells of the register's basis and athlete
// grade columns, for any rank, read as a known basis and grade or name
// their column with a coded refusal, never a panic.
func FuzzPaperBasisAndGrade(f *testing.F) {
	for _, c := range [][2]string{{"段位赛", "二级运动员"}, {"鉴定", ""}, {"不详", "不详"}, {"National Champion", "first class"},
		{"全国比赛成绩", "一级"}, {"\ufeff考核", "无"}, {"赛\x00", "2nd"}, {"？", "？"}} {
		f.Add(c[0], c[1], int8(4))
	}
	f.Fuzz(func(t *testing.T, basis, grade string, rank int8) {
		checkBasisAndGrade(t, basis, grade, registry.Rank(rank))
	})
}

func checkBasisAndGrade(t *testing.T, basisCell, gradeCell string, rank registry.Rank) {
	t.Helper()
	b, ok := paperBasisOf(basisCell)
	if !ok {
		if b != "" {
			t.Fatalf("basis %q refused, yet read as %q", basisCell, b)
		}
		return
	}
	if b != "" && !slices.Contains(Bases(), b) {
		t.Fatalf("basis %q read as %q, no basis", basisCell, b)
	}
	g, err := paperGrade(gradeCell, rank, b)
	if err != nil {
		if err.Field != "grade" || err.Reason != ReasonPaperGrade || err.Message(ledger.Chinese) == err.Message(ledger.English) {
			t.Fatalf("grade %q of %d on %q: %v", gradeCell, rank, b, err)
		}
		return
	}
	if !slices.Contains([]AthleteGrade{NoGrade, SecondClass, FirstClass, GradeUnknown}, g) {
		t.Fatalf("grade %q read as %q", gradeCell, g)
	}
	if g == GradeUnknown && (b != "" || !NeedsNotice(rank)) {
		t.Fatalf("grade unknown for %d on basis %q: only a 4–7 dan of unknown basis is", rank, b)
	}
	if b != "" && g != AthleteGradeFor(rank, b) {
		t.Fatalf("grade %q of %d on %q read as %q, want %q", gradeCell, rank, b, g, AthleteGradeFor(rank, b))
	}
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
