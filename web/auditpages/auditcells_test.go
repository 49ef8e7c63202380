package auditpages

import (
	"strings"
	"testing"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/web/kit"
)

// TestCellCache: a snapshot's cells are drawn once per language and
// position, and a different language or a later snapshot is drawn anew.
func TestCellCache(t *testing.T) {
	defs := []audit.Definition{{Key: "dan_issued", Unit: "count"}}
	snap := func(position int64, value float64, mark audit.Mark) audit.Audit {
		return audit.Audit{AgencyPrefix: "310", Year: 2026, Position: position,
			Indicators: []audit.Indicator{{Key: "dan_issued", Value: value, Mark: mark}}}
	}
	zh, en := kit.Page{Lang: kit.Chinese, T: Texts(kit.Chinese)}, kit.Page{Lang: kit.English, T: Texts(kit.English)}
	var c cellCache
	tests := []struct {
		name  string
		page  kit.Page
		audit audit.Audit
		want  []string
	}{
		{"first drawing", zh, snap(10, 7, audit.Red), []string{`data-testid="cell-310-dan_issued"`, "mark-red", ">7 · " + zh.T["audit_mark_red"]}},
		{"the same snapshot, kept", zh, snap(10, 99, audit.Green), []string{"mark-red", ">7 · "}},
		{"another language", en, snap(10, 7, audit.Red), []string{">7 · " + en.T["audit_mark_red"]}},
		{"a later snapshot", zh, snap(11, 3, audit.Green), []string{"mark-green", ">3 · " + zh.T["audit_mark_green"]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.get(tt.page, defs, []audit.Audit{tt.audit})["310"]
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("cells %q lack %q", got, w)
				}
			}
		})
	}
}
