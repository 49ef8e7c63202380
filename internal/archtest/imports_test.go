package archtest

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/dankyu/dankyu"

// importRule forbids packages under From to depend (directly or through
// others) on packages under any of To.
type importRule struct {
	why    string
	from   []string
	to     []string
	except []string // packages under from the rule does not bind
	allow  []string // packages under to the rule lets them reach
}

var (
	domain = []string{"ledger", "access", "registry", "certs", "tournaments", "audit", "ratings", "rules", "referee", "webhooks"}
	// transports and the other entry-side packages: the wiring, the replica
	// router and metrics, and the national data set with its evaluation,
	// which build on every domain package and so may stand under none
	transports = []string{"web", "internal/api", "internal/server", "internal/proposals", "internal/records", "internal/eventratings",
		"internal/replicas", "internal/metrics", "internal/health", "internal/nationaldata", "internal/auditeval", "internal/httpapi", "cmd"}
	// the portal's feature packages; web itself holds the rest and wires them
	portalFeatures = []string{"web/auditpages", "web/opendata", "web/ratingpages", "web/staffpages", "web/tournamentpages"}
)

func importRules() []importRule {
	return []importRule{
		{"the rules engine is pure: nothing of the registry or any transport", []string{"rules"},
			append([]string{"ledger", "access", "registry", "certs", "tournaments", "audit", "ratings"}, transports...), nil, nil},
		// ratings/book is the stored part (the registry's ratings tables);
		// the core it builds on stays pure, and still may not import it.
		{"ratings are pure: nothing of the registry, certificates or any transport", []string{"ratings"},
			append([]string{"ledger", "access", "registry", "certs", "tournaments", "audit"}, transports...), []string{"ratings/book"}, nil},
		{"no domain package imports the portal, the API adapters or a main", domain, transports, nil, nil},
		{"tournaments and certificates are peers", []string{"tournaments"}, []string{"certs"}, nil, nil},
		{"certificates do not reach into tournaments", []string{"certs"}, []string{"tournaments"}, nil, nil},
		{"the kernel stands under every domain package", []string{"ledger"}, []string{"access", "registry", "certs", "tournaments", "audit", "ratings", "rules"}, nil, nil},
		{"the policy knows the kernel only", []string{"access"}, []string{"registry", "certs", "tournaments", "audit", "ratings", "rules"}, nil, nil},
		// the portal: its features (web) over the page kit (web/kit) and
		// the drawings (web/draw); the server's wiring passes it what it
		// needs through the portal's own interfaces
		{"the portal imports nothing of the server, the API adapters or a main", []string{"web"}, []string{"internal", "cmd"}, nil, nil},
		{"the page kit knows no feature of the portal, nor the drawings", []string{"web/kit"}, []string{"web"}, nil, []string{"web/kit"}},
		{"the drawings know no page: neither the features nor the page kit", []string{"web/draw"}, []string{"web"}, nil, []string{"web/draw"}},
		{"a feature's pages stand on the kit and the drawings, not on another feature or the portal's wiring", portalFeatures,
			[]string{"web"}, nil, []string{"web/kit", "web/draw"}},
	}
}

// under reports whether pkg (a module-relative path) is dir or inside it.
func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

// violations lists every forbidden arrow of the dependency graph deps
// (module-relative package → its module-relative dependencies).
func violations(deps map[string][]string, rules []importRule) []string {
	var out []string
	for pkg, ds := range deps {
		for _, r := range rules {
			if !anyUnder(pkg, r.from) || anyUnder(pkg, r.except) {
				continue
			}
			for _, d := range ds {
				if anyUnder(d, r.to) && !anyUnder(d, r.allow) {
					out = append(out, pkg+" → "+d+": "+r.why)
				}
			}
		}
	}
	return out
}

func anyUnder(pkg string, dirs []string) bool {
	for _, d := range dirs {
		if under(pkg, d) {
			return true
		}
	}
	return false
}

// TestImportRules reads the module's dependency graph from go list and
// fails on any arrow that must never exist.
func TestImportRules(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, "./...")
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || !strings.HasPrefix(fields[0], module+"/") {
			continue
		}
		pkg := strings.TrimPrefix(fields[0], module+"/")
		for _, d := range fields[1:] {
			if strings.HasPrefix(d, module+"/") {
				deps[pkg] = append(deps[pkg], strings.TrimPrefix(d, module+"/"))
			}
		}
	}
	if len(deps) < 10 {
		t.Fatalf("go list gave %d packages of the module", len(deps))
	}
	for _, v := range violations(deps, importRules()) {
		t.Error(v)
	}
}

// TestImportRulesCatchAForbiddenArrow shows the check failing on graphs
// that break each rule.
func TestImportRulesCatchAForbiddenArrow(t *testing.T) {
	for _, tt := range []struct {
		name string
		deps map[string][]string
		bad  bool
	}{
		{"today's shape", map[string][]string{"tournaments": {"ledger", "access", "registry", "rules"}, "web": {"certs", "tournaments"}}, false},
		{"tournaments importing certs", map[string][]string{"tournaments": {"certs"}}, true},
		{"tournaments reaching certs through another package", map[string][]string{"tournaments/store": {"certs"}}, true},
		{"rules importing the registry", map[string][]string{"rules": {"registry"}}, true},
		{"rules importing the kernel", map[string][]string{"rules/bench": {"ledger"}}, true},
		{"ratings importing certs", map[string][]string{"ratings": {"certs"}}, true},
		{"the ratings core importing the kernel", map[string][]string{"ratings/gor": {"ledger"}}, true},
		{"the ratings book over the kernel and tournaments", map[string][]string{"ratings/book": {"ledger", "tournaments", "ratings"}}, false},
		{"the ratings book importing the portal", map[string][]string{"ratings/book": {"web"}}, true},
		{"a domain package importing the portal", map[string][]string{"certs": {"web"}}, true},
		{"a domain package importing the API adapters", map[string][]string{"registry": {"internal/api"}}, true},
		{"a domain package importing a main", map[string][]string{"audit": {"cmd/dankyud"}}, true},
		{"the kernel importing the registry", map[string][]string{"ledger": {"registry"}}, true},
		{"the portal over its kit, its drawings and the domain", map[string][]string{"web": {"web/kit", "web/draw", "certs", "ledger"},
			"web/kit": {"ledger", "registry"}, "web/draw": {"certs", "audit", "rules", "ratings/book"}, "cmd/dankyud": {"web", "internal/server"}}, false},
		{"the portal importing the rate limiter", map[string][]string{"web": {"internal/ratelimit"}}, true},
		{"the page kit importing the API adapters", map[string][]string{"web/kit": {"internal/api"}}, true},
		{"a portal package importing a main", map[string][]string{"web/draw": {"cmd/dankyud"}}, true},
		{"the page kit importing a feature", map[string][]string{"web/kit": {"web"}}, true},
		{"the page kit importing the drawings", map[string][]string{"web/kit": {"web/draw"}}, true},
		{"the drawings importing the page kit", map[string][]string{"web/draw": {"web/kit"}}, true},
		{"the drawings importing a feature", map[string][]string{"web/draw": {"web"}}, true},
		{"a feature over the kit and the drawings", map[string][]string{"web/auditpages": {"web/kit", "web/draw", "audit"}}, false},
		{"a feature importing another", map[string][]string{"web/ratingpages": {"web/auditpages"}}, true},
		{"a feature importing the portal's wiring", map[string][]string{"web/staffpages": {"web"}}, true},
	} {
		if got := len(violations(tt.deps, importRules())) > 0; got != tt.bad {
			t.Errorf("%s: violation found = %v, want %v", tt.name, got, tt.bad)
		}
	}
}

// TestDrawingsSpeakNoHTTP: the portal's drawings (web/draw) are pure
// functions of their data; none of them imports net/http (templ, which
// they render with, does, for its own handler).
func TestDrawingsSpeakNoHTTP(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./web/draw/...")
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		n++
		for _, imp := range fields[1:] {
			if imp == "net/http" || strings.HasPrefix(imp, "net/http/") {
				t.Errorf("%s imports %s", fields[0], imp)
			}
		}
	}
	if n == 0 {
		t.Fatal("go list found no package under web/draw")
	}
}
