package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

// portalEnv is a portal over a fresh database holding one agency and one player.
type portalEnv struct {
	srv    *httptest.Server
	reg    *registry.Service
	cs     *certs.Service
	ts     *tournaments.Service
	clock  *fixture.Clock
	store  *ledger.Store
	player registry.Player
}

func newPortalEnv(t *testing.T) *portalEnv {
	t.Helper()
	return newPortalEnvWith(t, func(*ledger.Store) web.Options { return web.Options{} })
}

// newPortalEnvWith is newPortalEnv with the portal's options made over its store.
func newPortalEnvWith(t *testing.T, options func(*ledger.Store) web.Options) *portalEnv {
	t.Helper()
	return newPortalEnvLogging(t, options, slog.New(slog.DiscardHandler))
}

// newPortalEnvLogging is newPortalEnvWith whose portal logs to log.
func newPortalEnvLogging(t *testing.T, options func(*ledger.Store) web.Options, log *slog.Logger) *portalEnv {
	t.Helper()
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clock := fixture.TodayClock(t)
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	staff := ledger.Actor{Kind: ledger.StaffActor, Name: "li"}
	if _, err := reg.CreateAgency(ctx, staff, "", registry.AgencyInput{Prefix: "110", Name: "北京棋院", Contact: "010-1234"}); err != nil {
		t.Fatal(err)
	}
	p, err := reg.RegisterPlayer(ctx, ledger.Actor{Kind: ledger.AgencyActor, Agency: "110"}, "", registry.PlayerInput{
		Name: "王小明", Gender: registry.Male, BirthDate: "1949-12-31", IDKind: registry.ResidentIDCard,
		IDNumber: "11010519491231002X", ProvinceCode: "11", Rank: "3d"})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	h, err := web.New(ctx, store, reg, cs, ts, log, options(store))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &portalEnv{srv: srv, reg: reg, cs: cs, ts: ts, clock: clock, store: store, player: p}
}

func newPortal(t *testing.T) (*httptest.Server, registry.Player) {
	e := newPortalEnv(t)
	return e.srv, e.player
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestPagesWithoutJavaScript(t *testing.T) {
	srv, _ := newPortal(t)
	tests := []struct {
		path     string
		code     int
		contains []string
		absent   []string
	}{
		{"/", 200, []string{`lang="zh-CN"`, "业余围棋段级位登记", "34 个省级行政区", "1 个代理机构"}, nil},
		{"/?lang=en", 200, []string{`lang="en"`, "amateur weiqi rank registry"}, nil},
		{"/agencies", 200, []string{"北京棋院", "010-1234", "广东省", "尚未登记代理机构"}, nil},
		// a declared rank is never shown as certified: the list shows "no certificate", the page the declared rank as such
		{"/players?name=小明", 200, []string{"王小明", "无证书", "1949"}, []string{"11010519491231002X", "3段"}},
		{"/players?rank=3d", 200, nil, []string{"王小明"}},
		{"/players?rank=99d", 400, []string{"form-error", "rank"}, nil},
		{"/players/1", 200, []string{"王小明", "110*************2X", "北京市", "无证书", "自报段级位", "3段", "未经认证"}, []string{"11010519491231002X", "1949-12-31"}},
		{"/players/999", 404, []string{"未找到"}, nil},
		{"/players/abc", 404, []string{"未找到"}, nil},
		{"/nope", 404, []string{"未找到"}, nil},
	}
	for _, tt := range tests {
		code, body := get(t, srv.URL+tt.path)
		if code != tt.code {
			t.Errorf("GET %s = %d, want %d", tt.path, code, tt.code)
		}
		if strings.Contains(body, "<script") {
			t.Errorf("GET %s serves a script; the portal must work without JavaScript", tt.path)
		}
		for _, s := range tt.contains {
			if !strings.Contains(body, s) {
				t.Errorf("GET %s lacks %q", tt.path, s)
			}
		}
		for _, s := range tt.absent {
			if strings.Contains(body, s) {
				t.Errorf("GET %s shows %q", tt.path, s)
			}
		}
	}
}

// browser starts headless Chromium for one test.
func browser(t *testing.T) context.Context {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed; .ci/run installs it")
		}
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true),
		// a Chinese browser: without ?lang= or a cookie the portal answers
		// in the language Accept-Language prefers
		chromedp.Flag("lang", "zh-CN"), chromedp.Flag("accept-lang", "zh-CN,zh"))
	// Start the browser here, bound to the test's context. Chromium now and
	// then dies while starting on a loaded machine: try once more before failing.
	for attempt := 1; attempt <= 2; attempt++ {
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(actx)
		if err = chromedp.Do(ctx, chromedp.Navigate("about:blank")); err == nil {
			t.Cleanup(func() { cancel(); cancelAlloc() })
			return ctx
		}
		cancel()
		cancelAlloc()
		t.Logf("chromium start, attempt %d: %v", attempt, err)
	}
	t.Fatalf("chromium does not start: %v", err)
	return nil
}

// TestAdjudicateInChromium pastes a record into the referee's form and reads the result.
func TestAdjudicateInChromium(t *testing.T) {
	srv, _ := newPortal(t)
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/adjudicate")); err != nil {
		t.Fatal(err)
	}
	step, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	err := chromedp.Do(step,
		chromedp.SendKeys(chromedp.CSS(`[data-testid="adjudicate-text"]`), "(;SZ[9]KM[7.5]RE[B+R];B[ee];W[cc])"),
		chromedp.Click(chromedp.CSS(`[data-testid="adjudicate-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="result"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(step, chromedp.Text(chromedp.CSS(`[data-testid="result"]`)))
	if err != nil || got != "B+R · 黑中盘胜" {
		t.Fatalf("result %q, %v", got, err)
	}
}

// TestPortalInChromium drives the portal in headless Chromium: search for a
// player with the form, open the public page, switch to English.
func TestPortalInChromium(t *testing.T) {
	srv, _ := newPortal(t)
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatalf("open home: %v", err)
	}
	step, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	title, err := chromedp.Run(step, chromedp.Text(chromedp.CSS(`[data-testid="title"]`)))
	if err != nil || !strings.Contains(title, "业余围棋") {
		t.Fatalf("home title %q, %v", title, err)
	}
	err = chromedp.Do(step,
		chromedp.SendKeys(chromedp.CSS(`[data-testid="search-name"]`), "小明"),
		chromedp.Click(chromedp.CSS(`[data-testid="search-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="results"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="results"] a`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="player-identity"]`)),
	)
	if err != nil {
		t.Fatalf("search and open the player: %v", err)
	}
	id, err := chromedp.Run(step, chromedp.Text(chromedp.CSS(`[data-testid="player-identity"]`)))
	if err != nil || id != "110*************2X" {
		t.Fatalf("public identity %q, %v; want it masked", id, err)
	}
	if err := chromedp.Do(step, chromedp.Click(chromedp.CSS(`[data-testid="lang-switch"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="player-rank"]`))); err != nil {
		t.Fatal(err)
	}
	rank, err := chromedp.Run(step, chromedp.Text(chromedp.CSS(`[data-testid="player-rank"]`)))
	if err != nil || rank != "no certificate" {
		t.Fatalf("certified rank after switching to English %q, %v", rank, err)
	}
	declared, err := chromedp.Run(step, chromedp.Text(chromedp.CSS(`[data-testid="player-declared-rank"]`)))
	if err != nil || declared != "3 dan (declared by the agency, not certified)" {
		t.Fatalf("declared rank in English %q, %v", declared, err)
	}
	// The choice is remembered: the home page now opens in English.
	if err := chromedp.Do(step, chromedp.Click(chromedp.CSS(`[data-testid="nav-home"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="title"]`))); err != nil {
		t.Fatal(err)
	}
	title, err = chromedp.Run(step, chromedp.Text(chromedp.CSS(`[data-testid="title"]`)))
	if err != nil || !strings.Contains(title, "amateur weiqi") {
		t.Fatalf("home after switching %q, %v", title, err)
	}
}

func TestMessagesCoverBothLanguages(t *testing.T) {
	zh, en := web.Messages(web.Chinese), web.Messages(web.English)
	for k := range zh {
		if en[k] == "" {
			t.Errorf("%q has no English text", k)
		}
	}
	for k := range en {
		if zh[k] == "" {
			t.Errorf("%q has no Chinese text", k)
		}
	}
}

// TestEveryMessageUsedExists finds every p.T["key"] in the views and handlers
// of the portal and its packages (and every words["key"] the drawings
// take), and checks that the key has a text (a missing one renders as
// nothing).
func TestEveryMessageUsedExists(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".templ") || strings.HasSuffix(path, ".go")) {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\b(?:p?g?\.T|words)\["([a-z_]+)"\]`)
	zh := web.Messages(web.Chinese)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_templ.go") || strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			n++
			if zh[m[1]] == "" {
				t.Errorf("%s uses message %q, which does not exist", f, m[1])
			}
		}
	}
	if n < 30 {
		t.Fatalf("found only %d message uses: the pattern is wrong", n)
	}
}
