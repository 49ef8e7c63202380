package audit

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzReadPayload checks the field reader against encoding/json: on every
// object encoding/json accepts, the fields read agree with its decode.
func FuzzReadPayload(f *testing.F) {
	for _, s := range []string{
		`{"id":12,"birth_date":"1990-01-01","province_code":"11","rank":""}`,
		`{"number":"110260001","player_id":7,"rank":"1d","replaces":0,"issuer":"110"}`,
		`{"round":2,"board":3,"result":"black_forfeit","warnings":[0,1],"record":false}`,
		`{"before":{"birth_date":"2009-01-15"},"after":{"birth_date":"2007-01-15"}}`,
		`{ "name" : "王\"小\\明", "id" : -3 , "x": {"a":[1,"}"]}}`,
		`{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want map[string]any
		// the log's payloads are PostgreSQL text: valid UTF-8
		if !utf8.Valid(b) || json.Unmarshal(b, &want) != nil {
			return
		}
		keys := make([]string, 0, len(want))
		for k := range want {
			keys = append(keys, k)
		}
		got, err := scanPayload(b, keys...)
		if err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		for k, v := range want {
			switch v := v.(type) {
			case string:
				if got.str(k) != v {
					t.Fatalf("%q: %s = %q, want %q", b, k, got.str(k), v)
				}
			case float64:
				if v == float64(int64(v)) && v < 1e15 && v > -1e15 && got.int(k) != int64(v) {
					t.Fatalf("%q: %s = %d, want %v", b, k, got.int(k), v)
				}
			}
		}
	})
}
