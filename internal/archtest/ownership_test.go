package archtest

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var (
	createTable = regexp.MustCompile(`(?i)CREATE TABLE\s+(?:IF NOT EXISTS\s+)?([a-z_]+)`)
	// a table named where SQL names one: after FROM, JOIN, INTO, UPDATE or TABLE
	sqlTable = regexp.MustCompile(`(?i)\b(?:from|join|into|update|table)\s+([a-z_]+)`)
)

// tablesOfMigrations lists the tables the migrations create.
func tablesOfMigrations(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(moduleRoot(t), "migrations", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations: %v", err)
	}
	tables := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range createTable.FindAllStringSubmatch(string(b), -1) {
			tables[strings.ToLower(m[1])] = true
		}
	}
	return tables
}

// TestEveryTableHasOneOwner finds, in the SQL of every package's code
// (string literals; tests and migrations aside), the tables it names, and
// fails when a table is named by more than one package: other packages
// read and change a table through its owner's exported functions.
func TestEveryTableHasOneOwner(t *testing.T) {
	tables := tablesOfMigrations(t)
	files, fset := goFiles(t)
	users := map[string]map[string]string{} // table → package → first place
	for file, f := range files {
		pkg := path.Dir(file)
		eachString(f, fset, func(s string, line int) {
			for _, m := range sqlTable.FindAllStringSubmatch(s, -1) {
				table := strings.ToLower(m[1])
				if !tables[table] {
					continue
				}
				if users[table] == nil {
					users[table] = map[string]string{}
				}
				if _, seen := users[table][pkg]; !seen {
					users[table][pkg] = file + ":" + strconv.Itoa(line)
				}
			}
		})
	}
	if len(users) < len(tables)/2 {
		t.Fatalf("found SQL for only %d of %d tables", len(users), len(tables))
	}
	for table, pkgs := range users {
		if len(pkgs) < 2 {
			continue
		}
		var where []string
		for _, at := range pkgs {
			where = append(where, at)
		}
		sort.Strings(where)
		t.Errorf("table %s is named in the SQL of %d packages: %s", table, len(pkgs), strings.Join(where, ", "))
	}
}
