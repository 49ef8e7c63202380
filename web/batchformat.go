package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/web/kit"
)

// A batch verification answers as the page, as a CSV file or as JSON, its
// rows in the order given: an admissions office's spreadsheet or program
// reads the answer without scraping the page.
type batchFormat string

const (
	batchHTML batchFormat = "html"
	batchCSV  batchFormat = "csv"
	batchJSON batchFormat = "json"
)

// maxAcceptRanges bounds the media ranges of an Accept header read: a
// browser sends a handful; a longer list is not a client's preference.
const maxAcceptRanges = 32

// batchFormatOf is the format a request asks for: its format parameter
// (csv, json or html) when given, else the best of its Accept header by
// quality (the earlier on a tie), else the page. A format parameter not
// one of the three is ok=false, with the Accept header's format to refuse
// it in.
func batchFormatOf(param, accept string) (f batchFormat, ok bool) {
	switch p := strings.ToLower(strings.TrimSpace(param)); p {
	case "csv", "json", "html":
		return batchFormat(p), true
	case "":
		return acceptedFormat(accept), true
	}
	return acceptedFormat(accept), false
}

// acceptedFormat is the best format of an Accept header.
func acceptedFormat(accept string) batchFormat {
	best, bestQ := batchHTML, 0.0
	for i, r := range strings.SplitN(accept, ",", maxAcceptRanges+1) {
		if i == maxAcceptRanges {
			break
		}
		media, params, _ := strings.Cut(r, ";")
		var f batchFormat
		switch strings.ToLower(strings.TrimSpace(media)) {
		case "text/csv":
			f = batchCSV
		case "application/json":
			f = batchJSON
		case "text/html", "application/xhtml+xml", "*/*", "text/*":
			f = batchHTML
		default:
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, _ := strings.Cut(p, "=")
			if strings.TrimSpace(strings.ToLower(k)) == "q" {
				if x, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && x >= 0 && x <= 1 {
					q = x
				}
			}
		}
		if q > bestQ {
			best, bestQ = f, q
		}
	}
	return best
}

// batchRowJSON is one row of a batch's JSON answer.
type batchRowJSON struct {
	Row         int                      `json:"row"` // from 1, in the order given
	Number      string                   `json:"number"`
	Name        string                   `json:"name,omitempty"`
	Verdict     certs.BatchVerdict       `json:"verdict"`
	Normalised  string                   `json:"normalised,omitempty"`
	Certificate *certs.PublicCertificate `json:"certificate,omitempty"`
	ReasonCode  string                   `json:"reason_code,omitempty"`
	Message     string                   `json:"message,omitempty"`
}

// sendBatch answers a batch's results as f (CSV or JSON), in lang.
func (p *certPages) sendBatch(w http.ResponseWriter, pg kit.Page, f batchFormat, results []certs.BatchResult) {
	if f == batchJSON {
		rows := make([]batchRowJSON, len(results))
		for i, res := range results {
			rows[i] = batchRowJSON{Row: i + 1, Number: res.Row.Number, Name: res.Row.Name, Verdict: res.Verdict, Normalised: res.Number}
			if res.Certificate != nil {
				c := certs.PublicCertificateOf(*res.Certificate)
				rows[i].Certificate = &c
			}
			if res.Problem != nil {
				rows[i].ReasonCode, rows[i].Message = res.Problem.Reason.Code(), res.Problem.Message(pg.Lang)
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"results": rows})
		return
	}
	out := [][]string{{"row", "number", "name", "verdict", "verdict_text", "normalised", "holder", "rank", "issue_date", "reason_code", "message"}}
	for i, res := range results {
		row := []string{strconv.Itoa(i + 1), res.Row.Number, res.Row.Name, string(res.Verdict), pg.T["verdict_"+string(res.Verdict)], res.Number, "", "", "", "", ""}
		if c := res.Certificate; c != nil {
			row[6], row[7], row[8] = c.PlayerName, kit.RankName(pg.Lang, c.Rank), c.IssueDate.Format("2006-01-02")
		}
		if res.Problem != nil {
			row[9], row[10] = res.Problem.Reason.Code(), res.Problem.Message(pg.Lang)
		}
		out = append(out, row)
	}
	data, err := kit.SpreadsheetCSV(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	kit.SendCSV(w, "verify-batch.csv", data)
}

// sendBatchRefusal answers a refused batch as f: JSON with the message and
// the reason code (when the refusal has one), or the message as plain text
// for CSV.
func sendBatchRefusal(w http.ResponseWriter, f batchFormat, status int, msg string, err error) {
	if f == batchJSON {
		body := map[string]string{"error": msg}
		if e, ok := ledger.AsError(err); ok {
			body["reason_code"] = e.Reason.Code()
		}
		writeJSON(w, status, body)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg + "\n"))
}
