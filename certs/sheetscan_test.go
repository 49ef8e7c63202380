package certs

import (
	"archive/zip"
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/dankyu/dankyu/ledger"
)

// workbook packs a one-sheet XLSX by hand around sheetData (the rows'
// XML), with the given dimension and any further parts, so a test can
// write what excelize would never write.
func workbook(t testing.TB, dimension, sheetData string, extra map[string]string) []byte {
	t.Helper()
	parts := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
			`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
		"_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml": `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ` +
			`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="登记册" sheetId="1" r:id="rId7"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml": `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
			dimension + `<sheetData>` + sheetData + `</sheetData></worksheet>`,
	}
	for k, v := range extra {
		parts[k] = v
	}
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for name, body := range parts {
		w, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rowsXML is n rows of cells inline strings, numbered from 1.
func rowsXML(n int, cells ...string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<row r="%d">`, i)
		for j, c := range cells {
			fmt.Fprintf(&b, `<c r="%c%d" t="inlineStr"><is><t>%s</t></is></c>`, 'A'+j, i, c)
		}
		b.WriteString(`</row>`)
	}
	return b.String()
}

func reasonOf(err error) *ledger.Reason {
	if e, ok := ledger.AsError(err); ok {
		return e.Reason
	}
	return nil
}

// TestSheetBoundsBeforeParsing: a register over a bound is refused by its
// code before it is parsed. Each workbook here lacks what excelize needs
// to read it (its workbook part is not XML; the bounds then count every
// sheet), so a refusal other than PAPER_SPREADSHEET shows excelize never
// read it; what a sheet declares
// (a dimension, a row numbered a million, a cell in column XFD) counts as
// what a reader would lay out.
func TestSheetBoundsBeforeParsing(t *testing.T) {
	broken := map[string]string{"xl/workbook.xml": "not xml"}
	with := func(m map[string]string) map[string]string {
		out := map[string]string{"xl/workbook.xml": "not xml"}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	wide := strings.Repeat(`<row><c r="XFD1"><v>1</v></c></row>`, MaxPaperCells/16384+1)
	for _, tt := range []struct {
		name string
		data []byte
		want *ledger.Reason
	}{
		{"declared dimension", workbook(t, `<dimension ref="A1:G1000000"/>`, rowsXML(2, "a"), broken), ReasonPaperTooMany},
		{"a row numbered a million", workbook(t, "", rowsXML(2, "a")+`<row r="1000000"><c><v>1</v></c></row>`, broken), ReasonPaperTooMany},
		{"rows counted without numbers", workbook(t, "", strings.Repeat(`<row><c><v>1</v></c></row>`, MaxPaperRows+2), broken), ReasonPaperTooMany},
		{"prefixed elements", workbook(t, "", strings.Repeat(`<x:row><x:c><x:v>1</x:v></x:c></x:row>`, MaxPaperRows+2), broken), ReasonPaperTooMany},
		{"cells in column XFD", workbook(t, "", wide, broken), ReasonPaperCells},
		{"a large styles part", workbook(t, "", rowsXML(2, "a"), with(map[string]string{"xl/styles.xml": "<styleSheet>" + strings.Repeat(" ", maxPaperOtherPart) + "</styleSheet>"})), ReasonPaperPart},
		{"a large shared strings part", workbook(t, "", rowsXML(2, "a"), with(map[string]string{"xl/sharedStrings.xml": strings.Repeat("<si><t>x</t></si>", maxPaperStringsPart/17+1)})), ReasonPaperPart},
		{"an unopenable workbook within the bounds", workbook(t, "", rowsXML(3, "a", "b"), broken), ReasonPaperSpreadsheet},
		{"CSV rows", []byte(strings.Repeat("110260001,王五\n", MaxPaperRows+2)), ReasonPaperTooMany},
		{"CSV with \\r line ends", []byte(strings.Repeat("110260001,王五\r", MaxPaperRows+2)), ReasonPaperTooMany},
		{"CSV cells on one line", []byte("证书编号,姓名\n" + strings.Repeat(",", MaxPaperCells)), ReasonPaperCells},
	} {
		_, _, err := readSheet(tt.data)
		if reasonOf(err) != tt.want {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want.Code())
		}
		if e, ok := ledger.AsError(err); ok && e.Field != "file" {
			t.Errorf("%s: refused on field %q", tt.name, e.Field)
		}
	}

	// within the bounds, a quoted line end or comma is no row or cell
	quoted := "证书编号,姓名\n" + strings.Repeat("\"110260001\n,\",王五\n", MaxPaperRows/2)
	if rows, _, err := readSheet([]byte(quoted)); err != nil || len(rows) != MaxPaperRows/2+1 {
		t.Errorf("quoted line ends: %d rows, %v", len(rows), err)
	}
	// and a hand-made workbook excelize opens reads as it should
	ok := workbook(t, `<dimension ref="A1:B3"/>`, rowsXML(3, "证书编号", "姓名"), nil)
	if rows, enc, err := readSheet(ok); err != nil || enc != "XLSX" || len(rows) != 3 || rows[2][1] != "姓名" {
		t.Errorf("a small workbook: %q %s %v", rows, enc, err)
	}
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestOversizedRegisterRefusedCheaply: a real workbook (excelize's own) of
// 300 rows more than an import takes, and the CSV of the same, are
// refused for their rows at a small part of what parsing them costs:
// under a fifth (about a twentieth without the race detector, whose
// sync.Pool drops a share of what is put back). The baseline is
// excelize's GetRows, and the CSV reader, over the same bytes in the same
// run (bytes allocated, never time).
func TestOversizedRegisterRefusedCheaply(t *testing.T) {
	var data bytes.Buffer
	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	var csvText strings.Builder
	header := []any{"证书编号", "姓名", "证件号码", "段位", "发证日期", "发证单位"}
	for i := 1; i <= MaxPaperRows+300; i++ {
		row := header
		if i > 1 {
			row = []any{fmt.Sprintf("110%02d%04d", 7+i%20, i%9999+1), fmt.Sprintf("纸证%05d", i), fmt.Sprintf("1101051960%08d", i), "1段", "2010年3月1日", "北京市围棋协会"}
		}
		cell, _ := excelize.CoordinatesToCellName(1, i)
		if err := sw.SetRow(cell, row); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&csvText, "%s,%s,%s,%s,%s,%s\n", row...)
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Write(&data); err != nil {
		t.Fatal(err)
	}
	f.Close()

	var refusal error
	refused := allocated(func() { _, _, refusal = readSheet(data.Bytes()) })
	if reasonOf(refusal) != ReasonPaperTooMany {
		t.Fatalf("%d rows: %v, want PAPER_TOO_MANY", MaxPaperRows+300, refusal)
	}
	parsed := allocated(func() {
		x, err := excelize.OpenReader(bytes.NewReader(data.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if rows, err := x.GetRows("Sheet1"); err != nil || len(rows) != MaxPaperRows+300 {
			t.Fatalf("baseline: %d rows, %v", len(rows), err)
		}
		x.Close()
	})
	if refused*5 > parsed {
		t.Errorf("refusing the workbook allocated %d KB, parsing it %d KB: want under a fifth", refused>>10, parsed>>10)
	}

	text := []byte(csvText.String())
	if _, _, refusal = readSheet(text); reasonOf(refusal) != ReasonPaperTooMany {
		t.Fatalf("CSV of %d rows: %v", MaxPaperRows+300, refusal)
	}
	if a := testing.AllocsPerRun(3, func() { _, _, _ = readSheet(text) }); a > 50 {
		t.Errorf("refusing a CSV of %d rows allocates %v times: counted after parsing, not before", MaxPaperRows+300, a)
	}
}

// FuzzScanSheet: any bytes as a worksheet's XML are counted or refused with
// a code, never a panic; a refusal names the file.
func FuzzScanSheet(f *testing.F) {
	f.Add([]byte(`<dimension ref="A1:B2"/><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData>`))
	f.Add([]byte(`<x:row r="1048576"><x:c r="XFD1048576"/></x:row>`))
	f.Add([]byte(`<row r='7' spans="1:3"><c r="$B$7" t="s"><v>0</v></c><c/><!-- <row r="9999999"> --></row>`))
	f.Add([]byte(`<row r="-1"><c r="1A"/><c r="AAAAA1"/></row><dimension ref=":"/>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		err := scanSheet(bytes.NewReader(data))
		if e, ok := ledger.AsError(err); err != nil && (!ok || e.Field != "file") {
			t.Fatalf("a refusal without a code: %v", err)
		}
	})
}

// FuzzCountCSV: any bytes as a CSV are counted or refused with a code;
// what countCSV lets through, the CSV reader reads within the bounds
// (the streaming count is the guard should the two ever differ).
func FuzzCountCSV(f *testing.F) {
	f.Add([]byte("a,b\r\n\"c\nd\",e\n\n"))
	f.Add([]byte("\"unterminated,\n,,,\n"))
	f.Add([]byte("a\"b\"c,\"\"\"\",x\ry"))
	f.Fuzz(func(t *testing.T, data []byte) {
		err := countCSV(data)
		if e, ok := ledger.AsError(err); err != nil && (!ok || e.Field != "file") {
			t.Fatalf("a refusal without a code: %v", err)
		}
	})
}
