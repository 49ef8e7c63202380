package web

import "testing"

// TestStoredTexts: the texts the registry stored in English are read
// back into their parameters; any other text is left as data.
func TestStoredTexts(t *testing.T) {
	for _, tc := range []struct {
		detail string
		ok     bool
		want   storedBasis
	}{
		{"升4d赛 (tournament 5) — placing 1, 1 wins of 1", true, storedBasis{Event: "升4d赛", EventID: 5, Placing: 1, Wins: 1, Games: 1}},
		{"北京赛 (tournament 3) — placing 2, 3 wins of 5, group A", true, storedBasis{Event: "北京赛", EventID: 3, Placing: 2, Wins: 3, Games: 5, Group: "A"}},
		{"北京市段位赛 (tournament 1) — 4段组: 4 wins of 5, threshold 4", true,
			storedBasis{Event: "北京市段位赛", EventID: 1, Group: "4段组", Wins: 4, Games: 5, Threshold: 4, GroupRecord: true}},
		{"升1d赛 (tournament 7)", true, storedBasis{Event: "升1d赛", EventID: 7}},
		{"王鉴定师", false, storedBasis{}},
		{"x (tournament 2) — something else", false, storedBasis{}},
	} {
		got, ok := parseStoredBasis(tc.detail)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("%q: %+v %v, want %+v %v", tc.detail, got, ok, tc.want, tc.ok)
		}
	}
	for _, tc := range []struct{ reason, key, data string }{
		{"objection 2 upheld: 查实代下", "stored_objection_upheld", "查实代下"},
		{"objection 12 was upheld", "stored_objection_upheld", ""},
		{"材料不全", "", "材料不全"},
	} {
		if k, d := storedReason(tc.reason); k != tc.key || d != tc.data {
			t.Errorf("%q: %q %q, want %q %q", tc.reason, k, d, tc.key, tc.data)
		}
	}
}
