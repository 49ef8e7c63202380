package tournaments

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"
)

// hostileReport is an event whose names try to become formulas in a
// spreadsheet and extra lines in an h-file.
func hostileReport() Report {
	day := time.Date(2026, 12, 12, 0, 0, 0, 0, time.UTC)
	names := []string{`=HYPERLINK("http://evil.example","x")`, "+1+2", "-3", "@SUM(A1)", "\tTab", "\rCR", "Doe\r\n; EV[injected]\n2 Evil 9D"}
	r := Report{Event: Event{ID: 1, Name: "杯\r\n; EV[injected]\n 1 Evil", Venue: "北京\n; PC[x]", Start: day, End: day}}
	for i, n := range names {
		r.Participants = append(r.Participants, Participant{Number: i + 1, Name: n, Country: "\r\n"})
		r.Standings = append(r.Standings, Standing{Place: i + 1, Entrant: i + 1, Name: n})
	}
	r.Rounds = []RoundInfo{{Round: 1, Games: []GameRow{{Game: Game{Round: 1, Board: 1, Black: 1, White: 7, Result: "black"}}}}}
	return r
}

func TestStandingsCSVWritesNoFormulas(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteStandingsCSV(&buf, hostileReport()); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(buf.Bytes(), []byte("\ufeff")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, rec := range recs[1:] {
		for _, cell := range rec {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q would be read as a formula", cell)
			}
		}
		if name := rec[2]; i < 6 && !strings.HasPrefix(name, "'") {
			t.Errorf("name %q is not quoted for spreadsheets", name)
		}
	}
}

func TestH9HasNoInjectedLines(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteH9(&buf, hostileReport()); err != nil {
		t.Fatal(err)
	}
	players := 0
	for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		switch {
		case strings.ContainsRune(line, '\r'):
			t.Errorf("line %q holds a carriage return", line)
		case strings.HasPrefix(line, ";"):
			if strings.HasPrefix(line, "; EV[injected]") || strings.HasPrefix(line, "; PC[x]") {
				t.Errorf("injected header line %q", line)
			}
		default:
			players++
		}
	}
	if players != len(hostileReport().Standings) {
		t.Errorf("%d player lines, want %d:\n%s", players, len(hostileReport().Standings), buf.String())
	}
	imp, err := Import(buf.Bytes(), "h9")
	if err != nil {
		t.Fatal(err)
	}
	// the players who played are read back, the hostile name as one name
	if len(imp.Players) != 2 || !strings.HasPrefix(imp.Players[1].Name(), "Doe") || !strings.HasPrefix(imp.Name, "Bei") {
		t.Errorf("read back %v, name %q:\n%s", imp.Players, imp.Name, buf.String())
	}
}
