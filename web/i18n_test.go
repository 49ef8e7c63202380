package web

import (
	"strings"
	"testing"

	"github.com/dankyu/dankyu/web/kit"
)

// TestTablesMergeCleanly merges the real tables: no key is in two
// features' tables.
func TestTablesMergeCleanly(t *testing.T) {
	for _, l := range []Lang{Chinese, English} {
		if _, err := kit.MergeTables(l, tables()); err != nil {
			t.Error(err)
		}
	}
}

// TestDuplicateKeyFailsTheMerge plants a key of the adjudication page in
// another table: the merge fails, naming the key and both features.
func TestDuplicateKeyFailsTheMerge(t *testing.T) {
	planted := kit.Table{Feature: "planted", Texts: func(Lang) map[string]string { return map[string]string{"adj_end": "结束"} }}
	for _, l := range []Lang{Chinese, English} {
		_, err := kit.MergeTables(l, append(tables(), planted))
		if err == nil {
			t.Fatalf("%s: a key in two tables merged", l)
		}
		for _, want := range []string{`"adj_end"`, "adjudication", "planted"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: the error %q does not name %s", l, err, want)
			}
		}
	}
}
