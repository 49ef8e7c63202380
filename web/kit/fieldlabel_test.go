package kit

import "testing"

// TestFieldLabel: a field path into a list is labelled with the item
// counted from one; a field without a label is left unnamed, never shown
// as the program names it.
func TestFieldLabel(t *testing.T) {
	zh := map[string]string{"field_path_sep": "的", "field_groups_item": "第%d组", "field_groups.target_rank": "目标段位",
		"field_name": "名称", "field_grading_item": "第%d条定级规则", "field_rank": "段级位"}
	en := map[string]string{"field_path_sep": "'s ", "field_groups_item": "group %d", "field_groups.target_rank": "target rank", "field_name": "name"}
	for _, tc := range []struct {
		t           map[string]string
		field, want string
	}{
		{zh, "groups[0].target_rank", "第1组的目标段位"},
		{zh, "groups[11].name", "第12组的名称"},
		{zh, "grading[2].rank", "第3条定级规则的段级位"},
		{en, "groups[0].target_rank", "group 1's target rank"},
		{zh, "name", "名称"},
		{zh, "groups[0].unknown", ""},
		{zh, "rows[0].name", ""},
		{zh, "", ""},
	} {
		if got := FieldLabel(tc.t, tc.field); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.field, got, tc.want)
		}
	}
}

// TestStoredActor: a stored actor is named as people say it.
func TestStoredActor(t *testing.T) {
	p := Page{T: map[string]string{"staff_member": "工作人员", "actor_system": "登记系统", "actor_public": "公众", "association": "中国围棋协会"}}
	for by, want := range map[string]string{"staff:李伟": "工作人员 李伟", "system:finish": "登记系统", "public": "公众",
		"agency:000": "中国围棋协会", "agency:999": "999"} {
		if got := p.StoredActor(by); got != want {
			t.Errorf("%q: %q, want %q", by, got, want)
		}
	}
}
