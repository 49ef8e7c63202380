package kit

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/dankyu/dankyu/ledger"
)

// SpreadsheetCSV is rows as a CSV file a spreadsheet opens as written:
// UTF-8 with a byte-order mark (so that Excel reads the Chinese), each
// cell made safe (a leading = + - @ is not taken for a formula).
func SpreadsheetCSV(rows [][]string) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("\ufeff")
	cw := csv.NewWriter(&buf)
	cells := []string{}
	for _, row := range rows {
		cells = cells[:0]
		for _, c := range row {
			cells = append(cells, ledger.SpreadsheetCell(c))
		}
		if err := cw.Write(cells); err != nil {
			return nil, err
		}
	}
	cw.Flush()
	return buf.Bytes(), cw.Error()
}

// SendCSV sends a CSV file to download under name.
func SendCSV(w http.ResponseWriter, name string, data []byte) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(data)
}

// FontFile is a font read from disk the first time a PDF needs it.
type FontFile struct {
	path string
	once sync.Once
	data []byte
	err  error
}

// NewFontFile is the font at path, not yet read.
func NewFontFile(path string) *FontFile { return &FontFile{path: path} }

func (f *FontFile) load() ([]byte, error) {
	f.once.Do(func() {
		f.data, f.err = os.ReadFile(f.path)
	})
	return f.data, f.err
}

// SendPDF answers with the PDF that write makes with the font, as a
// download named name; without the font, a page that says which file is
// missing.
func (s *Site) SendPDF(w http.ResponseWriter, r *http.Request, pg Page, font *FontFile, name string, write func(w io.Writer, font []byte) error) {
	data, err := font.load()
	if err != nil {
		s.log.ErrorContext(r.Context(), "certificate font", "path", font.path, "err", err)
		s.Render(w, r, http.StatusServiceUnavailable, MessagePage(pg, pg.T["error"],
			strings.ReplaceAll(pg.T["print_font_missing"], "{path}", font.path)))
		return
	}
	var buf bytes.Buffer
	if err := write(&buf, data); err != nil {
		s.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes())
}
