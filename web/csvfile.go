package web

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"

	"github.com/dankyu/dankyu/ledger"
)

// spreadsheetCSV is rows as a CSV file a spreadsheet opens as written:
// UTF-8 with a byte-order mark (so that Excel reads the Chinese), each
// cell made safe (a leading = + - @ is not taken for a formula).
func spreadsheetCSV(rows [][]string) ([]byte, error) {
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

// sendCSV sends a CSV file to download under name.
func sendCSV(w http.ResponseWriter, name string, data []byte) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(data)
}
