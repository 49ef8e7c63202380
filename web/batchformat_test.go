package web

import (
	"strings"
	"testing"
)

func TestBatchFormatOf(t *testing.T) {
	for _, c := range []struct {
		param, accept string
		want          batchFormat
		ok            bool
	}{
		{"", "", batchHTML, true},
		{"", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", batchHTML, true},
		{"", "text/csv", batchCSV, true},
		{"", "application/json", batchJSON, true},
		{"", "text/html;q=0.5, text/csv;q=0.9", batchCSV, true},
		{"", "application/json;q=0.2, text/csv;q=0.1", batchJSON, true},
		{"", "text/csv, application/json", batchCSV, true}, // a tie: the earlier
		{"", "image/png", batchHTML, true},
		{"", "text/csv;q=0, text/html;q=0.1", batchHTML, true},
		{"csv", "application/json", batchCSV, true}, // the parameter wins
		{" JSON ", "", batchJSON, true},
		{"html", "text/csv", batchHTML, true},
		{"xml", "", batchHTML, false},
		{"xml", "application/json", batchJSON, false}, // refused as JSON
	} {
		got, ok := batchFormatOf(c.param, c.accept)
		if got != c.want || ok != c.ok {
			t.Errorf("format %q, Accept %q: %s %v, want %s %v", c.param, c.accept, got, ok, c.want, c.ok)
		}
	}
}

// FuzzBatchFormatOf: any parameter and Accept header give one of the
// three formats, and never an unknown parameter's as known.
func FuzzBatchFormatOf(f *testing.F) {
	f.Add("", "text/html;q=0.5, text/csv;q=0.9")
	f.Add("csv", "")
	f.Add("", "application/json;q=1e400;;q=,text/csv;q=NaN")
	f.Fuzz(func(t *testing.T, param, accept string) {
		got, ok := batchFormatOf(param, accept)
		if got != batchHTML && got != batchCSV && got != batchJSON {
			t.Fatalf("format %q", got)
		}
		if p := strings.ToLower(strings.TrimSpace(param)); ok && p != "" && p != string(got) || !ok && (p == "csv" || p == "json" || p == "html") {
			t.Fatalf("parameter %q answered as %s", param, got)
		}
	})
}
