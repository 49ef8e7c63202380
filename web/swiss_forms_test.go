package web_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// hasHan says whether s has a Chinese character (an English page's words
// must have none outside names).
func hasHan(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
}

// TestSwissFormsAffiliationFamilyRoundsConstraintOnThePortal: Beijing's
// clerk sets a player's club and links two players as one family on the
// player's records page, then adds rounds to a Swiss and keeps players of
// one club or family apart in its first rounds on the referee page, each
// through its confirmation page; each act shows where it belongs (the
// player's page, the event's rounds and pairing constraint). Refused forms
// (a date not after the current club's, a player linked with himself,
// rounds 0, a constraint with no rounds) come back in the page's language
// with the values as typed.
func TestSwissFormsAffiliationFamilyRoundsConstraintOnThePortal(t *testing.T) {
	e := newPortalEnv(t)
	bg := context.Background()
	beijing := fixture.Agency("110")
	agency, staff := e.tokens(t)
	day := e.clock.Now().In(ledger.ChinaTime).Format("2006-01-02")
	ev, err := e.ts.CreateEvent(bg, beijing, "", tournaments.EventInput{Name: "北京市积分赛", Start: day, End: day, Level: "city",
		System: "swiss", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	var ps []registry.Player
	for i, name := range []string{"棋手甲", "棋手乙", "棋手丙", "棋手丁"} {
		p := fixture.Player(t, e.reg, "110", name, "1k", "1990-01-01", 330+i)
		if _, err := e.ts.AddParticipant(bg, beijing, "", ev.ID, tournaments.ParticipantInput{PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	a, b := ps[0], ps[1]
	ctx := browser(t)
	// the records page is linked for staff and the agency that registered
	// the player (the fixture's); the referee page for the organiser
	signInAs(t, e, ctx, staff)

	// the club, from a date
	recordAct(t, e, ctx, a.ID, "affiliation", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="affiliation-kind"]`), "club"),
		chromedp.SendKeys(css(`[data-testid="affiliation-name"]`), "北京棋院俱乐部"), chromedp.SetValue(css(`[data-testid="affiliation-from"]`), "2020-01-01")},
		[]string{"棋手甲", "俱乐部", "北京棋院俱乐部", "2020-01-01"}, "所属单位已记录。")
	if got := text(t, ctx, `[data-testid="records-affiliations"]`); !strings.Contains(got, "北京棋院俱乐部") || !strings.Contains(got, "至今") {
		t.Fatalf("the records page's clubs: %q", got)
	}
	// a change dated before the current club's start is refused beside the date, the name kept
	recordAct(t, e, ctx, a.ID, "affiliation", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="affiliation-kind"]`), "club"),
		chromedp.SendKeys(css(`[data-testid="affiliation-name"]`), "棋友会"), chromedp.SetValue(css(`[data-testid="affiliation-from"]`), "2019-06-01")},
		[]string{"棋友会", "2019-06-01"}, "“2019-06-01”不能作为起始日期：应写成 2026-12-05 格式，且晚于当前所属单位的起始日期。")
	if got := text(t, ctx, `[data-testid="field-error-from"]`); !strings.Contains(got, "2019-06-01") {
		t.Fatalf("the refused date's words: %q", got)
	}
	if name, err := chromedp.Run(ctx, chromedp.Value(css(`[data-testid="affiliation-name"]`))); err != nil || name != "棋友会" {
		t.Fatalf("the refused form's name: %q %v", name, err)
	}
	affs, err := e.reg.Affiliations(bg, a.ID)
	if err != nil || len(affs) != 1 || affs[0].Name != "北京棋院俱乐部" || affs[0].Kind != registry.Club {
		t.Fatalf("the player's clubs after the refusal: %+v %v", affs, err)
	}
	run(t, ctx, "player page", chromedp.Navigate(e.srv.URL+"/players/"+strconv.FormatInt(a.ID, 10)),
		chromedp.WaitVisible(css(`[data-testid="affiliation-club"]`)))
	if got := text(t, ctx, `[data-testid="affiliation-club"]`); !strings.Contains(got, "北京棋院俱乐部") || !strings.Contains(got, "2020-01-01") {
		t.Fatalf("the player's page shows the club as %q", got)
	}

	// a family: the other player by registry number; himself is refused
	recordAct(t, e, ctx, a.ID, "family", []chromedp.Action[chromedp.Void]{chromedp.SendKeys(css(`[data-testid="family-other"]`), strconv.FormatInt(a.ID, 10))},
		nil, "亲属关系须在两名不同的棋手之间。")
	if got := text(t, ctx, `[data-testid="field-error-player_b"]`); got != "亲属关系须在两名不同的棋手之间。" {
		t.Fatalf("the self link's refusal: %q", got)
	}
	if other, err := chromedp.Run(ctx, chromedp.Value(css(`[data-testid="family-other"]`))); err != nil || other != strconv.FormatInt(a.ID, 10) {
		t.Fatalf("the refused form's number: %q %v", other, err)
	}
	recordAct(t, e, ctx, a.ID, "family", []chromedp.Action[chromedp.Void]{chromedp.SendKeys(css(`[data-testid="family-other"]`), strconv.FormatInt(b.ID, 10))},
		[]string{"棋手甲", "棋手乙 · 登记号 " + strconv.FormatInt(b.ID, 10)}, "两名棋手已登记为同一家庭。")
	keys, err := registry.PairingKeys(bg, e.store.DB(), []int64{a.ID, b.ID, ps[2].ID}, e.clock.Now(), []string{"family"})
	if err != nil || len(keys[a.ID]) != 1 || !slices.Equal(keys[a.ID], keys[b.ID]) || len(keys[ps[2].ID]) != 0 {
		t.Fatalf("family keys after the link: %v %v", keys, err)
	}

	// the referee page, as the organiser: rounds 3 → 5
	run(t, ctx, "sign out", chromedp.Click(css(`[data-testid="logout"]`)), chromedp.WaitNotPresent(css(`[data-testid="nav-workspace"]`)))
	signInAs(t, e, ctx, agency)
	page := e.srv.URL + "/tournaments/" + strconv.FormatInt(ev.ID, 10) + "/referee"
	event := e.srv.URL + "/tournaments/" + strconv.FormatInt(ev.ID, 10)
	refAct := func(form string, fill []chromedp.Action[chromedp.Void], want []string, ok string) {
		t.Helper()
		steps := append([]chromedp.Action[chromedp.Void]{chromedp.Navigate(page), chromedp.WaitVisible(css(`[data-testid="` + form + `-form"]`))}, fill...)
		steps = append(steps, chromedp.Click(css(`[data-testid="`+form+`-submit"]`)), chromedp.WaitVisible(css(`[data-testid="confirm-heading"]`)))
		run(t, ctx, form, steps...)
		got := text(t, ctx, `main`)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the confirmation page lacks %q:\n%s", form, w, got)
			}
		}
		run(t, ctx, "confirm "+form, chromedp.Click(css(`[data-testid="confirm-submit"]`)), chromedp.WaitVisible(css(`[role="status"], [role="alert"]`)))
		if got := text(t, ctx, `[role="status"], [role="alert"]`); got != ok {
			t.Fatalf("%s: %q, want %q", form, got, ok)
		}
	}
	refAct("swiss-rounds", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="swiss-rounds-rounds"]`), "5")},
		[]string{"总轮次", "5"}, "轮次已调整。")
	if got, err := e.ts.EventReport(bg, ev.ID); err != nil || got.Event.Rounds != 5 {
		t.Fatalf("the event's rounds after the form: %+v %v", got.Event, err)
	}
	run(t, ctx, "event page", chromedp.Navigate(event), chromedp.WaitVisible(css(`[data-testid="rounds-played"]`)))
	if got := text(t, ctx, `[data-testid="rounds-played"]`); got != "0/5" {
		t.Fatalf("the event page's rounds: %q", got)
	}

	// the constraint: club and family apart in rounds 1–2
	refAct("pairing-constraint", []chromedp.Action[chromedp.Void]{chromedp.Click(css(`[data-testid="pairing-constraint-kind-club"]`)),
		chromedp.Click(css(`[data-testid="pairing-constraint-kind-family"]`)), chromedp.SetValue(css(`[data-testid="pairing-constraint-rounds"]`), "2")},
		[]string{"俱乐部", "家庭", "2"}, "编排回避已记录。")
	if c, err := e.ts.GetPairingConstraint(bg, ev.ID); err != nil || c.Rounds != 2 || !slices.Equal(c.Kinds, []string{"club", "family"}) {
		t.Fatalf("the event's constraint after the form: %+v %v", c, err)
	}
	const zhConstraint = "第1至2轮在可能的情况下不编排同一俱乐部或家庭的棋手相遇。"
	if got := text(t, ctx, `[data-testid="pairing-constraint-now"]`); !strings.Contains(got, zhConstraint) {
		t.Fatalf("the referee page's constraint: %q", got)
	}
	run(t, ctx, "event page constraint", chromedp.Navigate(event), chromedp.WaitVisible(css(`[data-testid="pairing-constraint"]`)))
	if got := text(t, ctx, `[data-testid="pairing-constraint"]`); got != zhConstraint {
		t.Fatalf("the event page's constraint: %q", got)
	}

	// in English: rounds 0 and a constraint without rounds are refused in
	// English, the typed values and ticked boxes kept, nothing changed
	run(t, ctx, "english", chromedp.Navigate(page+"?lang=en"), chromedp.WaitVisible(css(`[data-testid="swiss-rounds-form"]`)))
	refAct("swiss-rounds", []chromedp.Action[chromedp.Void]{chromedp.SetValue(css(`[data-testid="swiss-rounds-rounds"]`), "0")},
		[]string{"Rounds in all", "0"}, "See the field marked below.")
	if got := text(t, ctx, `[data-testid="field-error-rounds"]`); got == "" || hasHan(got) {
		t.Fatalf("the refused rounds' words on the English page: %q", got)
	}
	if got, err := chromedp.Run(ctx, chromedp.Value(css(`[data-testid="swiss-rounds-rounds"]`))); err != nil || got != "0" {
		t.Fatalf("the refused rounds as typed: %q %v", got, err)
	}
	// names (the event's, its players') are as they are written
	if main := text(t, ctx, `main`); hasHan(strings.NewReplacer("北京市积分赛", "", "棋手甲", "", "棋手乙", "", "棋手丙", "", "棋手丁", "").Replace(main)) {
		t.Errorf("the English referee page has Chinese words:\n%s", main)
	}
	refAct("pairing-constraint", []chromedp.Action[chromedp.Void]{chromedp.Click(css(`[data-testid="pairing-constraint-kind-school"]`)),
		chromedp.SetValue(css(`[data-testid="pairing-constraint-rounds"]`), "0")},
		[]string{"club", "family", "school"}, "See the field marked below.")
	if got := text(t, ctx, `[data-testid="field-error-avoid_rounds"]`); got == "" || hasHan(got) {
		t.Fatalf("the refused constraint's words on the English page: %q", got)
	}
	school, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`["club", "school", "family"].map(k => document.querySelector('[data-testid="pairing-constraint-kind-' + k + '"]').checked)`))
	if err != nil || !slices.Equal(school, []bool{true, true, true}) {
		t.Fatalf("the refused form's ticked school: %v %v", school, err)
	}
	if got, err := e.ts.EventReport(bg, ev.ID); err != nil || got.Event.Rounds != 5 {
		t.Fatalf("the event's rounds after the refusal: %+v %v", got.Event, err)
	}
	if c, err := e.ts.GetPairingConstraint(bg, ev.ID); err != nil || c.Rounds != 2 {
		t.Fatalf("the event's constraint after the refusal: %+v %v", c, err)
	}
	run(t, ctx, "english event page", chromedp.Navigate(event+"?lang=en"), chromedp.WaitVisible(css(`[data-testid="pairing-constraint"]`)))
	if got := text(t, ctx, `[data-testid="pairing-constraint"]`); got != "players of the same club or family are not paired in rounds 1–2, where the field allows." {
		t.Fatalf("the English event page's constraint: %q", got)
	}
}
