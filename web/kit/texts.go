package kit

import (
	"fmt"
	"slices"
	"strings"
)

// Table is one feature's strings, keyed by a short name, in either
// language. The features' tables share one namespace.
type Table struct {
	Feature string
	Texts   func(Lang) map[string]string
}

// MergeTables is the tables' strings of the language in one map. A key
// that two tables define is an error naming the key and both features:
// merged silently, one page would show the other's word.
func MergeTables(l Lang, ts []Table) (map[string]string, error) {
	m := map[string]string{}
	owner := map[string]string{}
	var dups []string
	for _, t := range ts {
		for k, v := range t.Texts(l) {
			if o, ok := owner[k]; ok {
				dups = append(dups, fmt.Sprintf("%q is in both the %s and the %s table", k, o, t.Feature))
				continue
			}
			owner[k], m[k] = t.Feature, v
		}
	}
	if len(dups) > 0 {
		slices.Sort(dups)
		return nil, fmt.Errorf("portal strings (%s): %s", l, strings.Join(dups, "; "))
	}
	return m, nil
}
