package web_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
)

// TestBatchVerificationAsCSVAndJSON: the batch answers as CSV (by the
// format parameter) and as JSON (by the Accept header), every row in the
// order given with its verdict.
func TestBatchVerificationAsCSVAndJSON(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	ctx := context.Background()
	var numbers []string
	for i, name := range []string{"甲", "乙"} {
		p := fixture.Player(t, e.reg, "110", name, "", "1990-03-03", 20+i)
		a, err := e.cs.Apply(ctx, fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
		if err != nil {
			t.Fatal(err)
		}
		if a, err = e.cs.Approve(ctx, fixture.Agency("110"), "", a.ID); err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, a.CertificateNumber)
	}
	notIssued := numbers[1][:5] + "9999"
	claims := "12345,某人\n" + numbers[1] + ",乙\n" + notIssued + ",丙\n" + numbers[0] + ",别人\n" + numbers[0] + ",甲\n"
	want := []struct{ number, verdict string }{{"12345", "malformed"}, {numbers[1], "valid"}, {notIssued, "not_found"},
		{numbers[0], "other_holder"}, {numbers[0], "valid"}}

	c := client(t)
	post := func(format, accept string) (int, string, http.Header) {
		_, form, _ := fetch(t, c, "GET", e.srv.URL+"/verify/batch", nil)
		v := url.Values{"csrf": {csrfOf(t, form)}, "claims": {claims}}
		if format != "" {
			v.Set("format", format)
		}
		req, _ := http.NewRequest("POST", e.srv.URL+"/verify/batch", strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}

	code, body, h := post("csv", "text/html")
	if code != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", code, h.Get("Content-Type"))
	}
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\ufeff"))).ReadAll()
	if err != nil || len(recs) != len(want)+1 || recs[0][0] != "row" || recs[0][3] != "verdict" {
		t.Fatalf("csv: %v %q", err, recs)
	}
	for i, w := range want {
		r := recs[i+1]
		if r[0] != strconv.Itoa(i+1) || r[1] != w.number || r[3] != w.verdict {
			t.Errorf("csv row %d: %q, want %s %s", i+1, r, w.number, w.verdict)
		}
	}
	if recs[2][6] != "乙" || recs[2][8] == "" || recs[1][9] != "DAN_NUMBER_LENGTH" {
		t.Errorf("csv rows: %q", recs)
	}

	code, body, h = post("", "application/json")
	if code != 200 || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
		t.Fatalf("json: %d %s", code, h.Get("Content-Type"))
	}
	var got struct {
		Results []struct {
			Row         int
			Number      string
			Verdict     string
			Certificate *struct{ Holder string }
			ReasonCode  string `json:"reason_code"`
		}
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil || len(got.Results) != len(want) {
		t.Fatalf("json: %v %s", err, body)
	}
	for i, w := range want {
		r := got.Results[i]
		if r.Row != i+1 || r.Number != w.number || r.Verdict != w.verdict {
			t.Errorf("json row %d: %+v, want %s %s", i+1, r, w.number, w.verdict)
		}
	}
	if got.Results[1].Certificate == nil || got.Results[1].Certificate.Holder != "乙" || got.Results[0].ReasonCode != "DAN_NUMBER_LENGTH" {
		t.Errorf("json rows: %s", body)
	}

	// the page stays the default, and an unknown format is refused with its code
	if code, body, _ = post("", ""); code != 200 || strings.Count(body, "<tr data-verdict=") != len(want) {
		t.Fatalf("page: %d", code)
	}
	if code, body, _ = post("xml", "application/json"); code != 400 || !strings.Contains(body, `"reason_code":"BATCH_FORMAT"`) {
		t.Fatalf("format xml: %d %s", code, body)
	}
}
