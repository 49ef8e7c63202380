package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/web"
)

// goFiles parses every non-test, non-generated Go file of the module.
func goFiles(t *testing.T) (map[string]*ast.File, *token.FileSet) {
	t.Helper()
	root := moduleRoot(t)
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "tools") {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_templ.go") || strings.HasSuffix(name, ".pb.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, fset
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// isCall reports whether call is pkg.name(…), or name(…) inside package pkg.
func isCall(call *ast.CallExpr, file *ast.File, pkg, name string) bool {
	switch fn := call.Fun.(type) {
	case *ast.SelectorExpr:
		id, ok := fn.X.(*ast.Ident)
		return ok && id.Name == pkg && fn.Sel.Name == name
	case *ast.Ident:
		return file.Name.Name == pkg && fn.Name == name
	}
	return false
}

var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// TestEveryReasonHasBothLanguages checks every declared refusal: a unique
// code, a Chinese and an English message, and the same placeholders in
// both (a parameter that one language forgets is a message that lies).
func TestEveryReasonHasBothLanguages(t *testing.T) {
	files, fset := goFiles(t)
	codes := map[string]string{}
	for path, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isCall(call, f, "ledger", "NewReason") {
				return true
			}
			at := path + ":" + strconv.Itoa(fset.Position(call.Pos()).Line)
			if len(call.Args) != 4 {
				t.Errorf("%s: NewReason takes kind, code, Chinese, English", at)
				return true
			}
			code, ok1 := stringLit(call.Args[1])
			zh, ok2 := stringLit(call.Args[2])
			en, ok3 := stringLit(call.Args[3])
			switch {
			case !ok1 || !ok2 || !ok3:
				t.Errorf("%s: a reason's code and messages are string literals", at)
				return true
			case !regexp.MustCompile(`^[A-Z][A-Z0-9_]+$`).MatchString(code):
				t.Errorf("%s: code %q is not UPPER_SNAKE_CASE", at, code)
			case codes[code] != "":
				t.Errorf("%s: code %s is also declared at %s", at, code, codes[code])
			case strings.TrimSpace(zh) == "" || !strings.ContainsFunc(zh, func(r rune) bool { return unicode.Is(unicode.Han, r) }):
				t.Errorf("%s: %s has no Chinese message", at, code)
			case strings.TrimSpace(en) == "" || strings.ContainsFunc(en, func(r rune) bool { return unicode.Is(unicode.Han, r) }):
				t.Errorf("%s: %s has no English message", at, code)
			}
			codes[code] = at
			pz, pe := placeholder.FindAllString(zh, -1), placeholder.FindAllString(en, -1)
			slices.Sort(pz)
			slices.Sort(pe)
			if !slices.Equal(slices.Compact(pz), slices.Compact(pe)) {
				t.Errorf("%s: %s has placeholders %v in Chinese but %v in English", at, code, pz, pe)
			}
			return true
		})
	}
	if len(codes) < 50 {
		t.Fatalf("found only %d reasons; is the scan looking at the module?", len(codes))
	}
}

// TestEveryRefusedFieldHasALabel finds every field a refusal names (and
// every field ledger.Text checks) and
// checks that the portal labels it in both languages.
func TestEveryRefusedFieldHasALabel(t *testing.T) {
	files, fset := goFiles(t)
	zh, en := web.Messages(ledger.Chinese), web.Messages(ledger.English)
	n := 0
	for path, f := range files {
		ast.Inspect(f, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			// ledger.Text and OptionalText refuse the field they are given
			if !ok || (sel.Sel.Name != "OnField" && sel.Sel.Name != "FieldWith" &&
				sel.Sel.Name != "Text" && sel.Sel.Name != "OptionalText") {
				return true
			}
			field, ok := stringLit(call.Args[0])
			if !ok {
				return true
			}
			n++
			if zh["field_"+field] == "" || en["field_"+field] == "" {
				t.Errorf("%s:%d: field %q has no label on the portal", path, fset.Position(call.Pos()).Line, field)
			}
			return true
		})
	}
	if n < 50 {
		t.Fatalf("found only %d refused fields", n)
	}
}

// TestNoRefusalWithoutACode fails on a refusal made by wrapping a bare
// sentinel (fmt.Errorf("…: %w", ledger.ErrPrecondition)): such an error has
// no code for gRPC clients and no Chinese message for the portal.
func TestNoRefusalWithoutACode(t *testing.T) {
	files, fset := goFiles(t)
	for path, f := range files {
		if strings.HasPrefix(path, "ledger/") {
			continue
		}
		ast.Inspect(f, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok || !isCall(call, f, "fmt", "Errorf") {
				return true
			}
			for _, a := range call.Args {
				if s, ok := a.(*ast.SelectorExpr); ok && strings.HasPrefix(s.Sel.Name, "Err") {
					if id, ok := s.X.(*ast.Ident); ok && id.Name == "ledger" {
						t.Errorf("%s:%d: wraps ledger.%s; declare a ledger.Reason instead", path, fset.Position(call.Pos()).Line, s.Sel.Name)
					}
				}
			}
			return true
		})
	}
}

// TestNoErrorTextInRefusals fails on a refusal that passes a Go error's
// text as a parameter (ReasonX.OnField("file", "detail", err.Error())) or
// a reason with a {detail} placeholder: that text is the English of a
// parser or a library, and reads as English on a Chinese page. Give the
// failure a code and its facts as parameters instead.
func TestNoErrorTextInRefusals(t *testing.T) {
	files, fset := goFiles(t)
	// refusal makes a ledger.Error: Reason….New/OnField/FieldWith/With, ledger.Value/Words
	refusal := func(call *ast.CallExpr, f *ast.File) bool {
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		switch sel.Sel.Name {
		case "OnField", "FieldWith", "With":
			return true
		case "New":
			switch x := sel.X.(type) {
			case *ast.Ident:
				return strings.HasPrefix(x.Name, "Reason")
			case *ast.SelectorExpr:
				return strings.HasPrefix(x.Sel.Name, "Reason")
			}
		}
		return isCall(call, f, "ledger", "Value") || isCall(call, f, "ledger", "Words")
	}
	for path, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if isCall(call, f, "ledger", "NewReason") && len(call.Args) == 4 {
				zh, _ := stringLit(call.Args[2])
				en, _ := stringLit(call.Args[3])
				if strings.Contains(zh+en, "{detail}") {
					t.Errorf("%s:%d: a reason with {detail}: pass the facts as named parameters", path, fset.Position(call.Pos()).Line)
				}
			}
			if !refusal(call, f) {
				return true
			}
			for _, a := range call.Args {
				ast.Inspect(a, func(n ast.Node) bool {
					c, ok := n.(*ast.CallExpr)
					if !ok || len(c.Args) != 0 {
						return true
					}
					if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Error" {
						t.Errorf("%s:%d: a refusal quotes an error's text; give the error a code", path, fset.Position(c.Pos()).Line)
					}
					return true
				})
			}
			return true
		})
	}
}
