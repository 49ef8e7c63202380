package archtest

import (
	"encoding"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/webhooks"
)

// The event log's schema: every action has one payload type, owned by the
// package that appends it (ledger.Payload), and whoever reads a payload
// reads it through that type: decoded into it, or, where the audit's fast
// field reader stays (readPayload[T]), asking only for keys that are JSON
// tags of T, with getters that fit the fields' types. A producer renaming
// a key, or a reader asking for one no type declares, fails here instead of
// reading as zero.

// loggedPayloads are the payload types of every package that appends to
// the log. A new one is found by TestEveryActionHasOnePayloadType.
func loggedPayloads() []ledger.Payload {
	return slices.Concat(ledger.Payloads(), registry.Payloads(), certs.Payloads(), tournaments.Payloads(), audit.Payloads(), book.Payloads(), webhooks.Payloads())
}

// payloadType is one action's payload type as the log's readers see it.
type payloadType struct {
	name   string // module-relative package path and type name, e.g. "certs.CertificateIssuedPayload"
	action string
	keys   map[string]reflect.Type // JSON key → the field's type
}

type payloadSchema struct {
	byAction, byName map[string]*payloadType
}

// namedPayload is a payload type under its name, with its action.
type namedPayload struct {
	name, action string
	t            reflect.Type
}

// typeName is t's name as the checks write it.
func typeName(t reflect.Type) string {
	return strings.TrimPrefix(t.PkgPath(), module+"/") + "." + t.Name()
}

// newPayloadSchema reads the payload types, each under its name, by
// reflection, and lists what breaks the rules of a payload type: a struct
// whose every encoded field has a JSON tag of its own (so that renaming a Go
// field does not rename a key), none embedded, no custom encoding, one type
// per action.
func newPayloadSchema(list []namedPayload) (payloadSchema, []string) {
	s := payloadSchema{byAction: map[string]*payloadType{}, byName: map[string]*payloadType{}}
	var bad []string
	for _, np := range list {
		name, t := np.name, np.t
		if s.byName[name] != nil {
			bad = append(bad, name+" is listed twice")
			continue
		}
		pt := &payloadType{name: name, action: np.action, keys: map[string]reflect.Type{}}
		switch {
		case t.Kind() != reflect.Struct:
			bad = append(bad, name+": a payload type is a struct")
			continue
		case t.Implements(reflect.TypeFor[json.Marshaler]()) || reflect.PointerTo(t).Implements(reflect.TypeFor[json.Marshaler]()) ||
			t.Implements(reflect.TypeFor[encoding.TextMarshaler]()) || reflect.PointerTo(t).Implements(reflect.TypeFor[encoding.TextMarshaler]()):
			bad = append(bad, name+": encodes itself, so its tags are not its keys")
		}
		for f := range t.Fields() {
			if !f.IsExported() {
				continue
			}
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case f.Anonymous:
				bad = append(bad, name+"."+f.Name+": an embedded field (write the fields out)")
			case tag == "-":
			case tag == "":
				bad = append(bad, name+"."+f.Name+": no JSON tag (the key would follow the Go name)")
			case pt.keys[tag] != nil:
				bad = append(bad, name+"."+f.Name+": key "+tag+" twice")
			default:
				pt.keys[tag] = f.Type
			}
		}
		switch {
		case pt.action == "":
			bad = append(bad, name+": no action")
		case s.byAction[pt.action] != nil:
			bad = append(bad, fmt.Sprintf("action %s has two payload types, %s and %s", pt.action, s.byAction[pt.action].name, name))
		default:
			s.byAction[pt.action] = pt
		}
		s.byName[name] = pt
	}
	return s, bad
}

// loggedSchema is the schema of the module's payload types.
func loggedSchema(t *testing.T) payloadSchema {
	t.Helper()
	var types []namedPayload
	for _, p := range loggedPayloads() {
		types = append(types, namedPayload{typeName(reflect.TypeOf(p)), p.Action(), reflect.TypeOf(p)})
	}
	s, bad := newPayloadSchema(types)
	for _, b := range bad {
		t.Error(b)
	}
	return s
}

// fileImports maps the local names of a file's imports of the module's
// packages to their module-relative paths.
func fileImports(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		rel, ok := strings.CutPrefix(p, module+"/")
		if !ok {
			continue
		}
		name := path.Base(rel)
		if im.Name != nil {
			name = im.Name.Name
		}
		out[name] = rel
	}
	return out
}

// declaredPayloads lists the types of the files that declare an Action()
// string method (module-relative name → the action the method returns, ""
// when it returns anything but one string constant), for
// TestEveryActionHasOnePayloadType.
func declaredPayloads(files map[string]*ast.File) map[string]string {
	out := map[string]string{}
	for file, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "Action" || fn.Type.Params.NumFields() != 0 || fn.Type.Results.NumFields() != 1 {
				continue
			}
			if id, ok := fn.Type.Results.List[0].Type.(*ast.Ident); !ok || id.Name != "string" {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			id, ok := recv.(*ast.Ident)
			if !ok {
				continue
			}
			action := ""
			if fn.Body != nil && len(fn.Body.List) == 1 {
				if ret, ok := fn.Body.List[0].(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
					action, _ = stringLit(ret.Results[0])
				}
			}
			out[path.Dir(file)+"."+id.Name] = action
		}
	}
	return out
}

// getters are the audit's field getters and the kinds of field each reads.
var getters = map[string]func(reflect.Type) bool{
	"str": func(t reflect.Type) bool { return t.Kind() == reflect.String },
	// quoted: a string field's raw JSON value, looked up without a copy
	"quoted": func(t reflect.Type) bool { return t.Kind() == reflect.String },
	"int": func(t reflect.Type) bool {
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return true
		}
		return false
	},
	"bool": func(t reflect.Type) bool { return t.Kind() == reflect.Bool },
	"pair": func(t reflect.Type) bool {
		return (t.Kind() == reflect.Array && t.Len() == 2 || t.Kind() == reflect.Slice) && t.Elem().Kind() == reflect.Int
	},
}

// readerCheck walks one file with the path of nodes to each.
type readerCheck struct {
	schema  payloadSchema
	file    string
	pkg     string // module-relative
	imports map[string]string
	fset    *token.FileSet
	bad     []string
}

func (c *readerCheck) errorf(n ast.Node, format string, args ...any) {
	c.bad = append(c.bad, fmt.Sprintf("%s:%d: ", c.file, c.fset.Position(n.Pos()).Line)+fmt.Sprintf(format, args...))
}

// typeOf is the module-relative name of the type expression e.
func (c *readerCheck) typeOf(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && c.imports[id.Name] != "" {
			return c.imports[id.Name] + "." + x.Sel.Name
		}
	case *ast.Ident:
		return c.pkg + "." + x.Name
	}
	return ""
}

// isActionField reports whether e is x.Action.
func isActionField(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Action"
}

// calledName is the name of the function or method call calls.
func calledName(call *ast.CallExpr) string {
	switch fn := call.Fun.(type) {
	case *ast.SelectorExpr:
		return fn.Sel.Name
	case *ast.Ident:
		return fn.Name
	}
	return ""
}

// actionsAround are the actions the code at the end of stack handles: the
// labels of the nearest case of a switch on x.Action, or the action list of
// the scan whose callback it is (none: not known here).
func actionsAround(stack []ast.Node) []ast.Expr {
	for i := len(stack) - 1; i > 0; i-- {
		switch n := stack[i].(type) {
		case *ast.CaseClause:
			// a case of a switch on x.Action: its parent is the body, then the switch
			if i >= 2 {
				if sw, ok := stack[i-2].(*ast.SwitchStmt); ok && sw.Tag != nil && isActionField(sw.Tag) {
					return n.List
				}
			}
		case *ast.CallExpr:
			if calledName(n) == "ScanEntityEvents" && len(n.Args) > 3 {
				if lit, ok := n.Args[3].(*ast.CompositeLit); ok {
					return lit.Elts
				}
			}
		}
	}
	return nil
}

// scope is the innermost case clause or function around the end of stack.
func scope(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.CaseClause, *ast.FuncLit, *ast.FuncDecl:
			return stack[i]
		}
	}
	return nil
}

// checkActions checks that the actions the code handles have the payload type typ.
func (c *readerCheck) checkActions(n ast.Node, stack []ast.Node, typ *payloadType) {
	for _, e := range actionsAround(stack) {
		a, ok := stringLit(e)
		if !ok {
			c.errorf(n, "the actions around a read of %s are not string constants", typ.name)
			continue
		}
		if pt := c.schema.byAction[a]; pt != nil && pt != typ {
			c.errorf(n, "%s is read as %s, but its payload type is %s", a, typ.name, pt.name)
		}
	}
}

// readPayload checks p, err := readPayload[T](raw, keys…): T is a payload
// type, each key a JSON key of it, and the payload read is used only
// through getters of those keys that fit the fields.
func (c *readerCheck) readPayload(call *ast.CallExpr, idx *ast.IndexExpr, stack []ast.Node) {
	typ := c.schema.byName[c.typeOf(idx.Index)]
	if typ == nil {
		c.errorf(call, "readPayload[%s]: not a payload type", types.ExprString(idx.Index))
		return
	}
	c.checkActions(call, stack, typ)
	wanted := map[string]bool{}
	for _, a := range call.Args[1:] {
		k, ok := stringLit(a)
		if !ok {
			c.errorf(call, "readPayload[%s]: a key that is not a string constant", typ.name)
			continue
		}
		if typ.keys[k] == nil {
			c.errorf(call, "readPayload[%s] reads %q, which is not a key of %s (%s)", typ.name, k, typ.action, strings.Join(slices.Sorted(maps.Keys(typ.keys)), ", "))
		}
		wanted[k] = true
	}
	as, ok := stack[len(stack)-1].(*ast.AssignStmt)
	if !ok || len(as.Lhs) == 0 {
		c.errorf(call, "readPayload[%s]: assign the payload read to a variable", typ.name)
		return
	}
	v, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		c.errorf(call, "readPayload[%s]: assign the payload read to a variable", typ.name)
		return
	}
	var uses []ast.Node
	ast.Inspect(scope(stack), func(n ast.Node) bool {
		if n == nil {
			uses = uses[:len(uses)-1]
			return false
		}
		uses = append(uses, n)
		id, ok := n.(*ast.Ident)
		if !ok || id.Name != v.Name || id == v {
			return true
		}
		var sel *ast.SelectorExpr
		var get *ast.CallExpr
		if len(uses) >= 3 {
			sel, _ = uses[len(uses)-2].(*ast.SelectorExpr)
			get, _ = uses[len(uses)-3].(*ast.CallExpr)
		}
		if sel == nil || get == nil || get.Fun != sel || getters[sel.Sel.Name] == nil || len(get.Args) != 1 {
			c.errorf(id, "the payload %s read (%s) is used other than through its getters", v.Name, typ.name)
			return true
		}
		k, ok := stringLit(get.Args[0])
		switch {
		case !ok:
			c.errorf(id, "%s.%s: a key that is not a string constant", v.Name, sel.Sel.Name)
		case !wanted[k]:
			c.errorf(id, "%s.%s(%q): a key readPayload did not ask for", v.Name, sel.Sel.Name, k)
		case typ.keys[k] != nil && !getters[sel.Sel.Name](typ.keys[k]):
			c.errorf(id, "%s.%s(%q): %s's %s is a %s", v.Name, sel.Sel.Name, k, typ.name, k, typ.keys[k])
		}
		return true
	})
}

// unmarshal checks json.Unmarshal(x.Payload, &v): v is declared of a payload type.
func (c *readerCheck) unmarshal(call *ast.CallExpr, stack []ast.Node) {
	var v *ast.Ident
	if un, ok := call.Args[1].(*ast.UnaryExpr); ok && un.Op == token.AND {
		v, _ = un.X.(*ast.Ident)
	}
	if v == nil {
		c.errorf(call, "decode a payload into a variable (&v)")
		return
	}
	name := v.Name
	var typ *payloadType
	declared := false
	ast.Inspect(scope(stack), func(n ast.Node) bool {
		spec, ok := n.(*ast.ValueSpec)
		if ok && spec.Type != nil && slices.ContainsFunc(spec.Names, func(id *ast.Ident) bool { return id.Name == name }) {
			declared = true
			typ = c.schema.byName[c.typeOf(spec.Type)]
			if typ == nil {
				c.errorf(call, "%s is decoded into %s, not a payload type", name, types.ExprString(spec.Type))
			}
		}
		return true
	})
	if typ != nil {
		c.checkActions(call, stack, typ)
	} else if !declared {
		c.errorf(call, "decode a payload into a variable declared (var %s T) of its payload type", name)
	}
}

// action checks that an action name the code matches is an action.
func (c *readerCheck) action(e ast.Expr, prefix bool) {
	a, ok := stringLit(e)
	if !ok {
		return
	}
	if prefix {
		for known := range c.schema.byAction {
			if strings.HasPrefix(known, a) {
				return
			}
		}
		c.errorf(e, "no action starts with %q", a)
		return
	}
	if c.schema.byAction[a] == nil {
		c.errorf(e, "%q is no action of the log (no payload type has it)", a)
	}
}

// checkPayloadReaders lists every read of a payload, and every action name
// matched, that the schema does not bear out, in files (module-relative
// path → file) other than the kernel's.
func checkPayloadReaders(files map[string]*ast.File, fset *token.FileSet, schema payloadSchema) []string {
	var bad []string
	readers := map[string]bool{} // packages that read the log
	for file, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				switch calledName(call) {
				case "ScanEvents", "ScanEntityEvents", "EventsFor", "EventsBy":
					readers[path.Dir(file)] = true
				}
			}
			return true
		})
	}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		f := files[file]
		pkg := path.Dir(file)
		if pkg == "ledger" {
			continue
		}
		c := &readerCheck{schema: schema, file: file, pkg: pkg, imports: fileImports(f), fset: fset}
		var stack []ast.Node
		var fn string // the function declared around
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			if d, ok := n.(*ast.FuncDecl); ok {
				fn = d.Name.Name
			}
			switch x := n.(type) {
			case *ast.CallExpr:
				switch {
				case isIndexCall(x, "readPayload") != nil:
					c.readPayload(x, isIndexCall(x, "readPayload"), stack)
				case calledName(x) == "readPayload":
					c.errorf(x, "readPayload without its payload type (readPayload[T])")
				case calledName(x) == "scanPayload" && fn != "readPayload":
					c.errorf(x, "scanPayload outside readPayload: name the payload type (readPayload[T])")
				case isCall(x, f, "json", "Unmarshal") && len(x.Args) == 2 && isPayloadField(x.Args[0]):
					c.unmarshal(x, stack)
				case calledName(x) == "ScanEntityEvents" && len(x.Args) > 3:
					if lit, ok := x.Args[3].(*ast.CompositeLit); ok {
						for _, e := range lit.Elts {
							c.action(e, false)
						}
					}
				case calledName(x) == "Receipt" && len(x.Args) > 3:
					for _, e := range x.Args[3:] {
						c.action(e, false)
					}
				case isCall(x, f, "strings", "HasPrefix") && len(x.Args) == 2 && isActionField(x.Args[0]):
					c.action(x.Args[1], true)
				}
			case *ast.SwitchStmt:
				if x.Tag != nil && isActionField(x.Tag) {
					for _, st := range x.Body.List {
						for _, e := range st.(*ast.CaseClause).List {
							c.action(e, false)
						}
					}
				}
			case *ast.BinaryExpr:
				if x.Op == token.EQL || x.Op == token.NEQ {
					if isActionField(x.X) {
						c.action(x.Y, false)
					} else if isActionField(x.Y) {
						c.action(x.X, false)
					}
				}
			case *ast.SelectorExpr:
				// in a package that reads the log, a payload is read through its type only
				if readers[pkg] && x.Sel.Name == "Payload" && !payloadArgument(x, stack, f) {
					c.errorf(x, "a payload read other than by readPayload[T] or json.Unmarshal into its type")
				}
			}
			stack = append(stack, n)
			return true
		})
		bad = append(bad, c.bad...)
	}
	return bad
}

// isIndexCall returns the instantiation of call if it is name[T](…).
func isIndexCall(call *ast.CallExpr, name string) *ast.IndexExpr {
	idx, ok := call.Fun.(*ast.IndexExpr)
	if !ok {
		return nil
	}
	if id, ok := idx.X.(*ast.Ident); ok && id.Name == name {
		return idx
	}
	return nil
}

func isPayloadField(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Payload"
}

// payloadArgument reports whether the selector x.Payload, a child of the
// end of stack, is the payload argument of readPayload[T] or json.Unmarshal.
func payloadArgument(x *ast.SelectorExpr, stack []ast.Node, f *ast.File) bool {
	if len(stack) == 0 {
		return false
	}
	call, ok := stack[len(stack)-1].(*ast.CallExpr)
	if !ok || len(call.Args) == 0 || call.Args[0] != x {
		return isTypeUse(x, stack)
	}
	// readPairing decodes a pairing's payload into its types, by hand or
	// by json.Unmarshal, and FuzzReadPairing holds the two to the same answer
	return isIndexCall(call, "readPayload") != nil || isCall(call, f, "json", "Unmarshal") || calledName(call) == "readPairing"
}

// isTypeUse reports whether x (a child of the end of stack) names a type
// or a field being set, rather than reading a payload: ledger.Payload,
// x.Payload = ….
func isTypeUse(x *ast.SelectorExpr, stack []ast.Node) bool {
	if id, ok := x.X.(*ast.Ident); ok && id.Name == "ledger" {
		return true
	}
	if as, ok := stack[len(stack)-1].(*ast.AssignStmt); ok && slices.Contains(as.Lhs, ast.Expr(x)) {
		return true
	}
	return false
}

// TestEveryActionHasOnePayloadType: every type that names an action (an
// Action() string method) outside the tests is listed among the payload
// types, returns its action as one constant, and follows the rules of a
// payload type; no two types share an action.
func TestEveryActionHasOnePayloadType(t *testing.T) {
	schema := loggedSchema(t)
	files, _ := goFiles(t)
	declared := declaredPayloads(files)
	for name, action := range declared {
		pt := schema.byName[name]
		switch {
		case pt == nil:
			t.Errorf("%s names an action but is not among its package's Payloads() (or the package among loggedPayloads)", name)
		case action == "":
			t.Errorf("%s.Action returns other than one string constant", name)
		case action != pt.action:
			t.Errorf("%s.Action returns %q, and %q at run time", name, action, pt.action)
		}
	}
	for name := range schema.byName {
		if _, ok := declared[name]; !ok {
			t.Errorf("%s is listed as a payload type, but no Action method of it is found", name)
		}
	}
	if len(schema.byAction) < 60 {
		t.Errorf("only %d actions: %v", len(schema.byAction), slices.Sorted(maps.Keys(schema.byAction)))
	}
}

// TestReadersReadThePayloadTypes: every payload the module's readers read,
// they read through its payload type, only keys the type declares, with
// getters that fit the fields; every action they match is an action.
func TestReadersReadThePayloadTypes(t *testing.T) {
	schema := loggedSchema(t)
	files, fset := goFiles(t)
	for _, b := range checkPayloadReaders(files, fset, schema) {
		t.Error(b)
	}
	// the audit is the log's main reader: it is looked at
	reads := 0
	for file, f := range files {
		if strings.HasPrefix(file, "audit/") {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && isIndexCall(call, "readPayload") != nil {
					reads++
				}
				return true
			})
		}
	}
	if reads < 10 {
		t.Errorf("only %d reads of payloads found in the audit", reads)
	}
}

// TestPayloadChecksCatchADisagreement shows the checks failing when a
// producer and a reader disagree: a key renamed in the producer's type, a
// key the type never had, a getter of the wrong kind, a key the getter did
// not ask for, a payload read as another action's type, an action no type
// has, a payload decoded into a struct of the reader's own, a type without
// tags.
func TestPayloadChecksCatchADisagreement(t *testing.T) {
	const reader = `package audit

import (
	"encoding/json"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
)

func apply(e ledger.LoggedEvent) error {
	switch e.Action {
	case "certificate.issued":
		p, err := readPayload[certs.CertificateIssuedPayload](e.Payload, %s)
		if err != nil {
			return err
		}
		_ = %s
	case "certificate.revoked":
		var p %s
		return json.Unmarshal(e.Payload, &p)
	}
	return nil
}

func scan(q ledger.Querier) error {
	return ledger.ScanEvents(nil, q, 0, time.Time{}, func(e ledger.LoggedEvent) error { return apply(e) })
}
`
	type issued struct { // certs.CertificateIssuedPayload as the producer may rename it
		Issuer   string `json:"issuer"`
		PlayerID int64  `json:"player_id"`
		Replaces int64  `json:"replaces"`
	}
	type revoked struct {
		Reason string `json:"reason"`
	}
	schemaOf := func(issuedType reflect.Type) payloadSchema {
		s, bad := newPayloadSchema([]namedPayload{{"certs.CertificateIssuedPayload", "certificate.issued", issuedType},
			{"certs.CertificateRevokedPayload", "certificate.revoked", reflect.TypeFor[revoked]()}})
		if len(bad) > 0 {
			t.Fatalf("fixture schema: %v", bad)
		}
		return s
	}
	today := schemaOf(reflect.TypeFor[issued]())
	type renamed struct {
		Issuer   string `json:"issuer_prefix"` // the producer renamed issuer
		PlayerID int64  `json:"player_id"`
		Replaces int64  `json:"replaces"`
	}
	for _, tt := range []struct {
		name                 string
		schema               payloadSchema
		keys, use, revokedAs string
		bad                  bool
	}{
		{"agreeing", today, `"issuer", "replaces"`, `p.str("issuer") + fmt.Sprint(p.int("replaces"))`, "certs.CertificateRevokedPayload", false},
		{"the producer renamed a key", schemaOf(reflect.TypeFor[renamed]()), `"issuer"`, `p.str("issuer")`, "certs.CertificateRevokedPayload", true},
		{"a key no type has", today, `"issuer", "issued_by"`, `p.str("issuer")`, "certs.CertificateRevokedPayload", true},
		{"a getter of the wrong kind", today, `"issuer"`, `p.int("issuer")`, "certs.CertificateRevokedPayload", true},
		{"a key not asked for", today, `"issuer"`, `p.str("replaces")`, "certs.CertificateRevokedPayload", true},
		{"the payload handed on", today, `"issuer"`, `keep(p)`, "certs.CertificateRevokedPayload", true},
		{"decoded into the wrong type", today, `"issuer"`, `p.str("issuer")`, "certs.CertificateIssuedPayload", true},
		{"decoded into a struct of its own", today, `"issuer"`, `p.str("issuer")`, "struct{ Reason string }", true},
	} {
		src := fmt.Sprintf(reader, tt.keys, tt.use, tt.revokedAs)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "audit/fixture.go", src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		bad := checkPayloadReaders(map[string]*ast.File{"audit/fixture.go": f}, fset, tt.schema)
		if got := len(bad) > 0; got != tt.bad {
			t.Errorf("%s: found %v, want a disagreement %v", tt.name, bad, tt.bad)
		}
	}
	agreeing := fmt.Sprintf(reader, `"issuer"`, `p.str("issuer")`, "certs.CertificateRevokedPayload")
	for _, tt := range []struct{ name, old, new string }{
		{"an action no type has", `case "certificate.revoked":`, `case "certificate.withdrawn":`},
		{"a payload read around the types", `return json.Unmarshal(e.Payload, &p)`, `return json.Unmarshal(bytes.TrimSpace(e.Payload), &p)`},
	} {
		src := strings.Replace(agreeing, tt.old, tt.new, 1)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "audit/fixture.go", src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if bad := checkPayloadReaders(map[string]*ast.File{"audit/fixture.go": f}, fset, today); len(bad) == 0 {
			t.Errorf("%s: passed unnoticed", tt.name)
		}
	}
	// a payload type whose keys would follow the Go names
	type untagged struct{ Reason string }
	if _, bad := newPayloadSchema([]namedPayload{{"x.Untagged", "x.y", reflect.TypeFor[untagged]()}}); len(bad) == 0 {
		t.Error("a payload type without tags passed")
	}
	// two types of one action
	if _, bad := newPayloadSchema([]namedPayload{{"x.A", "x.y", reflect.TypeFor[revoked]()},
		{"x.B", "x.y", reflect.TypeFor[issued]()}}); len(bad) == 0 {
		t.Error("two payload types of one action passed")
	}
}
