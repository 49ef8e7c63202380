package certs

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/ledger"
)

// The bounds of one paper register beyond its rows (MaxPaperRows), checked
// before any of it is parsed: a workbook of a few hundred KB once cost
// 10–17 s of CPU in excelize before its rows were counted and refused.
const (
	// MaxPaperCells bounds the cells of a register, each row counted up to
	// its last cell as a reader lays it out (a cell in column XFD is 16 384
	// cells); 15 a row on average, where a register has about 9 columns.
	MaxPaperCells = 300_000
	// an XLSX's parts, unpacked: the sheet, its shared strings, and any
	// other XML part (styles, workbook, relationships)
	maxPaperSheetPart   = 16 << 20
	maxPaperStringsPart = 8 << 20
	maxPaperOtherPart   = 2 << 20
)

// The refusals of a register too large to read.
var (
	ReasonPaperCells = ledger.NewReason(ledger.Invalid, "PAPER_TOO_MANY_CELLS",
		"文件的单元格超过 {max} 个（每行计到最后一个单元格），无法读取。",
		"the file has more than {max} cells (each row counted to its last cell) and is not read.")
	ReasonPaperPart = ledger.NewReason(ledger.Invalid, "PAPER_PART_TOO_LARGE",
		"电子表格的组成部分 {part} 解压后超过 {max} 兆字节，无法读取。",
		"the spreadsheet's part {part} unpacks to more than {max} MB and is not read.")
)

// sheetCounter counts a register's rows and cells as they come, refusing
// at the first bound met: rows include the header, and each row's cells
// run to its last one.
type sheetCounter struct {
	rows, cells int
}

func (c *sheetCounter) row(cells int) error {
	c.rows++
	c.cells += cells
	return c.check(c.rows, c.cells)
}

func (c *sheetCounter) check(rows, cells int) error {
	switch {
	case rows > MaxPaperRows+1:
		return ReasonPaperTooMany.OnField("file", "max", strconv.Itoa(MaxPaperRows), "rows", strconv.Itoa(rows-1))
	case cells > MaxPaperCells:
		return ReasonPaperCells.OnField("file", "max", strconv.Itoa(MaxPaperCells))
	}
	return nil
}

// checkXLSX looks at an XLSX upload before excelize parses any of it:
// every part's unpacked size against the bounds (as the archive's headers
// declare them, which the zip reader holds each part to), then the first
// sheet's rows and cells, counted by a scan of its XML that stops at the
// first bound met. An archive it cannot read is not refused here: excelize
// refuses it, with ReasonPaperSpreadsheet.
func checkXLSX(data []byte) error {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil
	}
	parts := map[string]*zip.File{}
	var total uint64
	for _, f := range z.File {
		if total += f.UncompressedSize64; total > maxPaperUnzipped || total < f.UncompressedSize64 {
			return ReasonPaperUnzipped.OnField("file", "max", strconv.Itoa(maxPaperUnzipped>>20))
		}
		limit := uint64(0) // other parts (pictures) count only to the total
		switch name := f.Name; {
		case strings.HasPrefix(name, "xl/worksheets/") && strings.HasSuffix(name, ".xml"):
			limit = maxPaperSheetPart
		case name == "xl/sharedStrings.xml":
			limit = maxPaperStringsPart
		case strings.HasSuffix(name, ".xml") || strings.HasSuffix(name, ".rels") || strings.HasSuffix(name, ".vml"):
			limit = maxPaperOtherPart
		}
		if limit > 0 && f.UncompressedSize64 > limit {
			return ReasonPaperPart.OnField("file", "part", f.Name, "max", strconv.Itoa(int(limit>>20)))
		}
		parts[f.Name] = f
	}
	sheets := firstSheet(parts)
	if len(sheets) == 0 { // the workbook does not say: every sheet is counted
		for name := range parts {
			if strings.HasPrefix(name, "xl/worksheets/") && strings.HasSuffix(name, ".xml") {
				sheets = append(sheets, name)
			}
		}
	}
	for _, name := range sheets {
		f, ok := parts[name]
		if !ok {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return nil // excelize refuses it
		}
		err = scanSheet(r)
		r.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// firstSheet is the part of the workbook's first sheet (the one a register
// is read from), from xl/workbook.xml and its relationships; nil when they
// do not say.
func firstSheet(parts map[string]*zip.File) []string {
	var id string
	if err := eachElement(parts["xl/workbook.xml"], func(e xml.StartElement) bool {
		if e.Name.Local != "sheet" {
			return true
		}
		for _, a := range e.Attr {
			if a.Name.Local == "id" {
				id = a.Value
			}
		}
		return false
	}); err != nil || id == "" {
		return nil
	}
	var target string
	if err := eachElement(parts["xl/_rels/workbook.xml.rels"], func(e xml.StartElement) bool {
		if e.Name.Local != "Relationship" {
			return true
		}
		var rid, t string
		for _, a := range e.Attr {
			switch a.Name.Local {
			case "Id":
				rid = a.Value
			case "Target":
				t = a.Value
			}
		}
		if rid == id {
			target = t
			return false
		}
		return true
	}); err != nil || target == "" {
		return nil
	}
	if strings.HasPrefix(target, "/") {
		return []string{strings.TrimPrefix(target, "/")}
	}
	return []string{path.Join("xl", target)}
}

// eachElement calls fn with each start element of a small XML part (at
// most maxPaperOtherPart, checked before) until fn returns false.
func eachElement(f *zip.File, fn func(xml.StartElement) bool) error {
	if f == nil {
		return errors.New("no such part")
	}
	r, err := f.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	d := xml.NewDecoder(io.LimitReader(r, maxPaperOtherPart))
	for {
		tok, err := d.RawToken()
		if err != nil {
			return err
		}
		if e, ok := tok.(xml.StartElement); ok && !fn(e) {
			return nil
		}
	}
}

// scanSheet counts a worksheet's rows and cells as a reader lays them out
// (a row numbered r="1000000" is a million rows, a cell r="XFD1" 16 384
// cells of its row), refusing at the first bound met, its declared
// dimension first. It reads only element names and the r and ref
// attributes, not the XML as a whole, so it costs a pass over the bytes;
// a name inside a comment may be counted too, which can only refuse.
func scanSheet(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var c sheetCounter
	row, last := 0, 0 // the current row's number and its last cell's column
	flush := func() error {
		if row == 0 {
			return nil
		}
		c.cells += last
		return c.check(row, c.cells)
	}
	for {
		if _, err := skipTo(br, '<'); err != nil {
			break
		}
		name, tag, err := startTag(br)
		if err != nil {
			break
		}
		switch name {
		case "dimension":
			ref := attr(tag, "ref")
			if i := strings.LastIndexByte(ref, ':'); i >= 0 {
				ref = ref[i+1:]
			}
			if _, rows := cellRef(ref); rows > 0 {
				if err := c.check(rows, 0); err != nil {
					return err
				}
			}
		case "row":
			if err := flush(); err != nil {
				return err
			}
			next := row + 1
			if n, err := strconv.Atoi(attr(tag, "r")); err == nil && n > 0 {
				next = max(n, row+1)
			}
			row, last = next, 0
			if err := c.check(row, c.cells); err != nil {
				return err
			}
		case "c":
			col := last + 1
			if n, _ := cellRef(attr(tag, "r")); n > 0 {
				col = max(n, last+1)
			}
			last = col
			if err := c.check(row, c.cells+last); err != nil {
				return err
			}
		}
	}
	return flush()
}

// skipTo reads past the next b; a long stretch without one is read in
// buffer-sized pieces, so nothing is held.
func skipTo(br *bufio.Reader, b byte) (int, error) {
	n := 0
	for {
		s, err := br.ReadSlice(b)
		n += len(s)
		if err != bufio.ErrBufferFull {
			return n, err
		}
	}
}

// startTag reads an element's local name and the rest of its start tag up
// to '>' (at most 4 KB of it kept: the r attribute comes first in practice,
// and a tag cut short only loses attributes). End tags, comments and
// declarations have no name here.
func startTag(br *bufio.Reader) (name string, tag []byte, err error) {
	var nb []byte
	for len(nb) < 64 {
		ch, err := br.ReadByte()
		if err != nil {
			return "", nil, err
		}
		if ch == '>' {
			br.UnreadByte()
			break
		}
		if ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '/' {
			break
		}
		nb = append(nb, ch)
	}
	if i := bytes.IndexByte(nb, ':'); i >= 0 {
		nb = nb[i+1:]
	}
	for {
		s, err := br.ReadSlice('>')
		if len(tag) < 4096 {
			tag = append(tag, s[:min(len(s), 4096-len(tag))]...)
		}
		if err != bufio.ErrBufferFull {
			return string(nb), tag, err
		}
	}
}

// attr is the value of the attribute name in a start tag's rest, or "".
func attr(tag []byte, name string) string {
	for i := 0; i < len(tag); {
		j := bytes.Index(tag[i:], []byte(name))
		if j < 0 {
			return ""
		}
		j += i
		i = j + len(name)
		if j > 0 && !isSpace(tag[j-1]) {
			continue
		}
		k := i
		for k < len(tag) && isSpace(tag[k]) {
			k++
		}
		if k >= len(tag) || tag[k] != '=' {
			continue
		}
		k++
		for k < len(tag) && isSpace(tag[k]) {
			k++
		}
		if k >= len(tag) || (tag[k] != '"' && tag[k] != '\'') {
			continue
		}
		end := bytes.IndexByte(tag[k+1:], tag[k])
		if end < 0 {
			return ""
		}
		return string(tag[k+1 : k+1+end])
	}
	return ""
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// cellRef reads a cell reference such as "N20001" (a leading $ allowed)
// as its column and row numbers; 0 for a part that is absent or not one.
// A column of more than three letters reads as one past XFD.
func cellRef(ref string) (col, row int) {
	ref = strings.ReplaceAll(ref, "$", "")
	i := 0
	for i < len(ref) && ref[i] >= 'A' && ref[i] <= 'Z' {
		if i < 4 {
			col = col*26 + int(ref[i]-'A'+1)
		}
		i++
	}
	if i > 3 {
		col = 16385
	}
	if n, err := strconv.Atoi(ref[i:]); err == nil && n > 0 {
		row = n
	}
	return col, row
}

// countCSV counts a CSV's records and fields in one pass over its bytes,
// before the CSV reader allocates any (one line of eight million commas
// would be eight million fields), refusing at the first bound met. It
// follows the reader's quoting: a field opened by a quote runs to a quote
// not doubled, and separators and line ends inside it do not count; empty
// lines are no records.
func countCSV(text []byte) error {
	var c sheetCounter
	fields, start, quoted := 0, true, false // fields of the record so far; at a field's start; inside quotes
	for i := 0; i < len(text); i++ {
		b := text[i]
		switch {
		case quoted:
			if b == '"' {
				if i+1 < len(text) && text[i+1] == '"' {
					i++
				} else {
					quoted = false
				}
			}
		case b == '"' && start:
			quoted, start = true, false
		case b == ',':
			fields++
			start = true
			if err := c.check(c.rows+1, c.cells+fields+1); err != nil {
				return err
			}
		case b == '\n' || b == '\r':
			if fields > 0 || !start {
				if err := c.row(fields + 1); err != nil {
					return err
				}
			}
			fields, start = 0, true
		default:
			start = false
		}
	}
	if fields > 0 || !start {
		return c.row(fields + 1)
	}
	return nil
}
