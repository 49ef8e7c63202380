package web

import (
	"slices"
	"strings"
	"testing"
)

// TestTablesMergeCleanly merges the real tables: no key is in two
// features' tables.
func TestTablesMergeCleanly(t *testing.T) {
	for _, l := range []Lang{Chinese, English} {
		if _, err := mergeTables(l, tables()); err != nil {
			t.Error(err)
		}
	}
}

// TestDuplicateKeyFailsTheMerge plants a key in two tables: the merge
// fails, naming the key and both features.
func TestDuplicateKeyFailsTheMerge(t *testing.T) {
	planted := table{"planted", func(Lang) map[string]string { return map[string]string{"adj_end": "结束"} }}
	for _, l := range []Lang{Chinese, English} {
		_, err := mergeTables(l, append(tables(), planted))
		if err == nil {
			t.Fatalf("%s: a key in two tables merged", l)
		}
		for _, want := range []string{`"adj_end"`, "adjudication", "planted"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: the error %q does not name %s", l, err, want)
			}
		}
	}
	a := table{"a", func(Lang) map[string]string { return map[string]string{"x": "1", "y": "2"} }}
	b := table{"b", func(Lang) map[string]string { return map[string]string{"z": "3"} }}
	m, err := mergeTables(Chinese, []table{a, b})
	if err != nil || len(m) != 3 || !slices.Equal([]string{m["x"], m["y"], m["z"]}, []string{"1", "2", "3"}) {
		t.Errorf("distinct tables merged to %v, %v", m, err)
	}
}
