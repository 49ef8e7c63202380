package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
)

// at390 sets the browser to a phone's 390 px wide screen.
func at390(t *testing.T, ctx context.Context) {
	t.Helper()
	run(t, ctx, "a 390 px screen", chromedp.EmulateViewport(390, 844))
}

// shot keeps a screenshot of the page for a person to look at, when
// DANKYU_SHOTS names a directory.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("DANKYU_SHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o600); err != nil {
		t.Fatal(err)
	}
}

// overflowJS is how far the page is wider than the screen, in CSS px.
const overflowJS = `document.documentElement.scrollWidth - window.innerWidth`

// TestPages24RankChartPhone (issue 24): a player promoted to 1 and 2 dan
// on one day has a rank chart that ends at 2 dan; at 390 px the chart fits
// the screen and none of its labels touch another, in both languages.
func TestPages24RankChartPhone(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	ctx := context.Background()
	e.issueOneDan(t, e.player.ID)
	bj := fixture.Agency("110")
	app, err := e.cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: e.player.ID, TargetRank: "2d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "2d", e.player.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Approve(ctx, bj, "", app.ID); err != nil {
		t.Fatal(err)
	}
	bctx := browser(t)
	at390(t, bctx)
	for _, lang := range []string{"zh-CN", "en"} {
		run(t, bctx, "the player page", chromedp.Navigate(fmt.Sprintf("%s/players/%d?lang=%s", e.srv.URL, e.player.ID, lang)),
			chromedp.WaitVisible(css(`[data-testid="rank-chart"]`)))
		shot(t, bctx, "rankchart-"+lang)
		// the line's last point against the 2 dan point
		end, err := chromedp.Run(bctx, chromedp.Evaluate[[]float64](`(() => {
			const pts = document.querySelector('[data-testid="rank-chart"] .rank-line').points;
			const two = document.querySelector('[data-testid="rank-chart"] .rank-point[data-rank="2d"]');
			return [pts.getItem(pts.numberOfItems-1).y, two.cy.baseVal.value];
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if end[0] != end[1] {
			t.Errorf("%s: the line ends at y=%v, the 2 dan point is at y=%v", lang, end[0], end[1])
		}
		width, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`document.querySelector('[data-testid="rank-chart"]').getBoundingClientRect().right`))
		if err != nil {
			t.Fatal(err)
		}
		if width > 390 {
			t.Errorf("%s: the chart reaches %v px on a 390 px screen", lang, width)
		}
		touching, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`(() => {
			const boxes = [...document.querySelectorAll('[data-testid="rank-chart"] text')].map(e => [e.textContent, e.getBoundingClientRect()]);
			const out = [];
			for (let i = 0; i < boxes.length; i++) for (let j = i+1; j < boxes.length; j++) {
				const [a, p] = boxes[i], [b, q] = boxes[j];
				if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) out.push(a + " / " + b);
			}
			return out;
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if len(touching) > 0 {
			t.Errorf("%s: chart labels overlap: %v", lang, touching)
		}
	}
}
