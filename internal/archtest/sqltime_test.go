package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// sqlClock matches PostgreSQL's ways of reading its own clock.
var sqlClock = regexp.MustCompile(`(?i)\bnow\s*\(\s*\)|\b(current_date|current_timestamp|localtimestamp|clock_timestamp|statement_timestamp|transaction_timestamp)\b|'now'`)

// bookkeeping lists the places allowed to read the database's clock: column
// defaults for timestamps that record when a row was written and decide
// nothing. Each entry is a file (relative to the module root) and the text
// of the line that may hold it.
var bookkeeping = map[string][]string{}

// TestNoDatabaseClockInDecisions fails when SQL anywhere in the module (Go
// string literals, templ files, migrations; tests included, so that tests
// move time through the fixture clock and never by rewriting rows) reads
// PostgreSQL's clock: every rule that depends on time is decided by the one
// service clock, passed into queries as a parameter.
func TestNoDatabaseClockInDecisions(t *testing.T) {
	root := moduleRoot(t)
	self, _ := os.Getwd()
	var found []string
	report := func(path string, line int, text string) {
		rel, _ := filepath.Rel(root, path)
		for _, ok := range bookkeeping[filepath.ToSlash(rel)] {
			if strings.Contains(text, ok) {
				return
			}
		}
		found = append(found, rel+":"+strconv.Itoa(line)+": "+strings.TrimSpace(text))
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || path == self) {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go":
			scanGo(t, path, report)
		case ".sql", ".templ":
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(b), "\n") {
				if filepath.Ext(path) == ".sql" {
					line, _, _ = strings.Cut(line, "--")
				}
				if sqlClock.MatchString(line) {
					report(path, i+1, line)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("the database's clock decides here; pass the service clock as a parameter instead:\n%s", strings.Join(found, "\n"))
	}
}

// scanGo reports the string literals of a Go file that read the database's clock.
func scanGo(t *testing.T, path string, report func(string, int, string)) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	eachString(f, fset, func(s string, at int) {
		for i, line := range strings.Split(s, "\n") {
			if sqlClock.MatchString(line) {
				report(path, at+i, line)
			}
		}
	})
}

// eachString calls fn with every string literal of a Go file and its line.
func eachString(f *ast.File, fset *token.FileSet, fn func(s string, line int)) {
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if s, err := strconv.Unquote(lit.Value); err == nil {
			fn(s, fset.Position(lit.Pos()).Line)
		}
		return true
	})
}

// moduleRoot is the folder of go.mod above the working directory.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

func TestSQLClockPattern(t *testing.T) {
	for _, tt := range []struct {
		sql  string
		want bool
	}{
		{"WHERE ends_at <= now()", true},
		{"WHERE ends_at <= NOW ( )", true},
		{"SELECT CURRENT_DATE - birth_date", true},
		{"DEFAULT current_timestamp", true},
		{"clock_timestamp() - interval '1 day'", true},
		{"'now'::timestamptz", true},
		{"localtimestamp", true},
		{"WHERE ends_at <= $2", false},
		{"known_at, nowhere, snow(x)", false},
	} {
		if got := sqlClock.MatchString(tt.sql); got != tt.want {
			t.Errorf("%q: matched %v, want %v", tt.sql, got, tt.want)
		}
	}
}
