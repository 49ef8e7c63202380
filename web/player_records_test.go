package web_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/internal/records"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// newRecordsEnv is a portal that merges records as the server does
// (internal/records over the registry, certificates and tournaments), with
// Beijing (110) and Shanghai (310).
func newRecordsEnv(t *testing.T) *portalEnv {
	t.Helper()
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	clock := fixture.TodayClock(t)
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	fixture.Agencies(t, reg, "110", "310")
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	h, err := web.New(ctx, store, reg, cs, ts, slog.New(slog.DiscardHandler), web.Options{Merger: records.New(store, reg, cs, ts)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &portalEnv{srv: srv, reg: reg, cs: cs, ts: ts, clock: clock, store: store}
}

// recordAct opens the player's page as signed in, follows the record
// link, fills a form, checks what the confirmation page says, confirms and
// checks the message.
func recordAct(t *testing.T, e *portalEnv, ctx context.Context, player int64, form string, fill []chromedp.Action[chromedp.Void], want []string, ok string) {
	t.Helper()
	steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(e.srv.URL + "/players/" + strconv.FormatInt(player, 10)),
		chromedp.Click(css(`[data-testid="records-link"]`)), chromedp.WaitVisible(css(`[data-testid="` + form + `-form"]`))}
	steps = append(append(steps, fill...), chromedp.Click(css(`[data-testid="`+form+`-submit"]`)), chromedp.WaitVisible(css(`[data-testid="confirm-heading"]`)))
	run(t, ctx, form, steps...)
	page := text(t, ctx, `main`)
	for _, w := range want {
		if !strings.Contains(page, w) {
			t.Errorf("%s: the confirmation page lacks %q:\n%s", form, w, page)
		}
	}
	run(t, ctx, "confirm "+form, chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[role="status"], [role="alert"]`)))
	if got := text(t, ctx, `[role="status"], [role="alert"]`); got != ok {
		t.Fatalf("%s: %q, want %q", form, got, ok)
	}
}

func signInAs(t *testing.T, e *portalEnv, ctx context.Context, tok string) {
	t.Helper()
	run(t, ctx, "sign in", chromedp.Navigate(e.srv.URL+"/login"), chromedp.SendKeys(css(`[data-testid="login-token"]`), tok),
		chromedp.Click(css(`[data-testid="login-submit"]`)), chromedp.WaitVisible(css(`[data-testid="nav-workspace"]`)))
}

// TestTransferPlayerOnThePortal: Beijing's clerk transfers a player to
// Shanghai, the province picked by name.
func TestTransferPlayerOnThePortal(t *testing.T) {
	e := newRecordsEnv(t)
	agency, _ := e.tokens(t)
	// registered by Beijing's clerk, so Beijing's player
	p, err := e.reg.RegisterPlayer(context.Background(), fixture.Agency("110"), "", registry.PlayerInput{Name: "转会者", Gender: registry.Male,
		BirthDate: "1990-05-05", IDKind: registry.ResidentIDCard, IDNumber: fixture.ResidentID("110", "1990-05-05", 41), ProvinceCode: "11"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	signInAs(t, e, ctx, agency)
	recordAct(t, e, ctx, p.ID, "transfer", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="transfer-province"]`), "31")},
		[]string{"转会者", "上海"}, "转会已记录。")
	if got, err := e.reg.GetPlayer(context.Background(), p.ID); err != nil || got.ProvinceCode != "31" {
		t.Fatalf("after the transfer: %+v, %v", got, err)
	}
}

// TestHonoraryDanOnThePortal: staff record honorary 8 dan with its basis;
// an empty basis is refused beside the field.
func TestHonoraryDanOnThePortal(t *testing.T) {
	e := newRecordsEnv(t)
	_, staff := e.tokens(t)
	p := fixture.Player(t, e.reg, "110", "老棋手", "", "1940-05-05", 42)
	ctx := browser(t)
	signInAs(t, e, ctx, staff)
	recordAct(t, e, ctx, p.ID, "honorary", nil, []string{"老棋手"}, "请写明授予荣誉8段的依据。")
	if got := text(t, ctx, `[data-testid="field-error-basis"]`); got != "请写明授予荣誉8段的依据。" {
		t.Fatalf("the empty basis's refusal beside the field: %q", got)
	}
	recordAct(t, e, ctx, p.ID, "honorary", []chromedp.Action[chromedp.Void]{chromedp.SendKeys(css(`[data-testid="honorary-basis"]`), "对围棋事业的突出贡献")},
		[]string{"老棋手", "对围棋事业的突出贡献"}, "荣誉八段已记录。")
	if got, err := e.reg.GetPlayer(context.Background(), p.ID); err != nil || got.HonoraryBasis != "对围棋事业的突出贡献" {
		t.Fatalf("after the honorary rank: %+v, %v", got, err)
	}
}

// TestMergePlayersOnThePortal: staff find the duplicate record by name,
// pick it, and merge it into the one kept.
func TestMergePlayersOnThePortal(t *testing.T) {
	e := newRecordsEnv(t)
	_, staff := e.tokens(t)
	keep := fixture.Player(t, e.reg, "110", "重名人", "", "1990-05-05", 43)
	dup := fixture.Player(t, e.reg, "310", "重名人", "", "1990-05-05", 44)
	ctx := browser(t)
	signInAs(t, e, ctx, staff)
	recordAct(t, e, ctx, keep.ID, "merge", []chromedp.Action[chromedp.Void]{chromedp.SendKeys(css(`[data-testid="merge-find"]`), "重名人"),
		chromedp.Click(css(`[data-testid="merge-find-submit"]`)), chromedp.WaitVisible(css(`[data-testid="merge-pick-` + strconv.FormatInt(dup.ID, 10) + `"]`)),
		chromedp.Click(css(`[data-testid="merge-pick-` + strconv.FormatInt(dup.ID, 10) + `"]`))},
		[]string{"重名人 · 登记号 " + strconv.FormatInt(dup.ID, 10) + " · 上海"}, "档案已合并。")
	if got, err := e.reg.GetPlayer(context.Background(), dup.ID); err != nil || got.MergedInto != keep.ID {
		t.Fatalf("the duplicate after the merge: %+v, %v", got, err)
	}
}

// TestPlayerPageShowsRegistryNumber: the number the import page asks for
// is on the player's public page (issue 24).
func TestPlayerPageShowsRegistryNumber(t *testing.T) {
	srv, p := newPortal(t)
	code, page := get(t, srv.URL+"/players/"+strconv.FormatInt(p.ID, 10))
	if code != 200 || !strings.Contains(page, `data-testid="player-number">`+strconv.FormatInt(p.ID, 10)+`<`) {
		t.Fatalf("the player's page (%d) shows no registry number %d", code, p.ID)
	}
}
