package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/tournaments"
)

// koRecord retakes a ko at once (move 3, at cb) and plays a suicide (move
// 4, at ee); both are void.
const koRecord = "(;SZ[5]KM[0]AB[ba][ab][bc][de][ed]AW[ca][db][cc];B[cb];W[bb];B[cb];W[ee];B[])"

// stonesOf counts the drawn stones of each colour and finds the marked
// illegal points of an SVG board.
func stonesOf(t *testing.T, page string) (black, white int, illegal []string) {
	t.Helper()
	i := strings.Index(page, `<svg`)
	j := strings.Index(page, `</svg>`)
	if i < 0 || j < i {
		t.Fatalf("no board on the page")
	}
	svg := page[i:j]
	black = strings.Count(svg, `class="stone black`)
	white = strings.Count(svg, `class="stone white`)
	for _, m := range regexp.MustCompile(`class="illegal" data-point="([a-z]{2})"`).FindAllStringSubmatch(svg, -1) {
		illegal = append(illegal, m[1])
	}
	return black, white, illegal
}

// TestBoardOnAdjudicate: the referee's result shows the final position
// with its stones and the points of the illegal moves marked; dead stones
// are marked and the counted areas drawn.
func TestBoardOnAdjudicate(t *testing.T) {
	srv, _ := newPortal(t)
	tests := []struct {
		name         string
		form         url.Values
		black, white int
		illegal      []string
		contains     []string
	}{
		{"ko and suicide", url.Values{"sgf_text": {koRecord}}, 5, 4, []string{"cb", "ee"}, []string{"打劫违规", "自杀"}},
		{"dead stone", url.Values{"sgf_text": {"(;SZ[5]KM[0]AB[ca][cb][cc][cd][ce]AW[aa];B[];W[])"}, "dead": {"aa"}}, 5, 1, nil,
			[]string{`class="stone white dead"`, `class="area black" data-point="aa"`, `class="dead-mark"`, "中国规则", "双方停着"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.PostForm(srv.URL+"/adjudicate", tt.form)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			page := string(body)
			black, white, illegal := stonesOf(t, page)
			if black != tt.black || white != tt.white || strings.Join(illegal, ",") != strings.Join(tt.illegal, ",") {
				t.Errorf("board: %d black, %d white, illegal at %v; want %d, %d, %v", black, white, illegal, tt.black, tt.white, tt.illegal)
			}
			for _, s := range tt.contains {
				if !strings.Contains(page, s) {
					t.Errorf("page lacks %q", s)
				}
			}
		})
	}
}

// TestGamePageBoard: a tournament game's page draws its record, move by
// move through ?move=N links, with the illegal move marked once played.
func TestGamePageBoard(t *testing.T) {
	e := newPortalEnv(t)
	ctx := context.Background()
	bj := fixture.Agency("110")
	ev, err := e.ts.CreateEvent(ctx, bj, "", tournaments.EventInput{Name: "棋盘", Start: "2026-11-28", Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"甲", "乙"} {
		pl := fixture.Player(t, e.reg, "110", name, "1d", "1990-01-01", 10+i)
		if _, err := e.ts.AddParticipant(ctx, bj, "", ev.ID, tournaments.ParticipantInput{PlayerID: pl.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.ts.PairNextRound(ctx, bj, "", ev.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.RecordResult(ctx, bj, "", ev.ID, tournaments.ResultInput{Round: 1, Board: 1, Result: "white", SGF: koRecord}); err != nil {
		t.Fatal(err)
	}
	game := fmt.Sprintf("%s/tournaments/%d/rounds/1/boards/1", e.srv.URL, ev.ID)
	if _, list := get(t, fmt.Sprintf("%s/tournaments/%d", e.srv.URL, ev.ID)); !strings.Contains(list, fmt.Sprintf(`href="/tournaments/%d/rounds/1/boards/1"`, ev.ID)) {
		t.Error("the tournament page does not link the game")
	}
	tests := []struct {
		query        string
		black, white int
		illegal      []string
		at           string
	}{
		{"", 5, 4, []string{"cb", "ee"}, "第 5 手 / 5"},
		{"?move=0", 5, 3, nil, "第 0 手 / 5"},
		{"?move=2", 5, 4, nil, "第 2 手 / 5"}, // black's stone at cb captured by the ko
		{"?move=3", 5, 4, []string{"cb"}, "第 3 手 / 5"},
		{"?move=99", 5, 4, []string{"cb", "ee"}, "第 5 手 / 5"},
	}
	for _, tt := range tests {
		code, page := get(t, game+tt.query)
		if code != http.StatusOK {
			t.Fatalf("GET %s = %d", tt.query, code)
		}
		black, white, illegal := stonesOf(t, page)
		if black != tt.black || white != tt.white || strings.Join(illegal, ",") != strings.Join(tt.illegal, ",") {
			t.Errorf("%s: %d black, %d white, illegal at %v; want %d, %d, %v", tt.query, black, white, illegal, tt.black, tt.white, tt.illegal)
		}
		if !strings.Contains(page, tt.at) {
			t.Errorf("%s: lacks %q", tt.query, tt.at)
		}
		if strings.Contains(page, "<script") {
			t.Errorf("%s: a script", tt.query)
		}
	}
	if code, _ := get(t, fmt.Sprintf("%s/tournaments/%d/rounds/1/boards/9", e.srv.URL, ev.ID)); code != http.StatusNotFound {
		t.Errorf("unknown board: %d", code)
	}
}

// TestRankHistoryChart: the player's public page draws his certificates
// as points of a step line, a revoked one as a red ring off it.
func TestRankHistoryChart(t *testing.T) {
	e := newPortalEnv(t)
	e.stockThisYear(t)
	ctx := context.Background()
	one := e.issueOneDan(t, e.player.ID)
	bj := fixture.Agency("110")
	app, err := e.cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: e.player.ID, TargetRank: "2d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "2d", e.player.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Approve(ctx, bj, "", app.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cs.Revoke(ctx, fixture.Staff, "", one.Number, "测试"); err != nil {
		t.Fatal(err)
	}
	_, page := get(t, fmt.Sprintf("%s/players/%d", e.srv.URL, e.player.ID))
	for _, want := range []string{`data-testid="rank-chart"`, `class="rank-point revoked" data-rank="1d"`, `class="rank-point" data-rank="2d"`, `class="rank-line"`} {
		if !strings.Contains(page, want) {
			t.Errorf("player page lacks %s", want)
		}
	}
	if _, other := get(t, e.srv.URL+"/players/999"); strings.Contains(other, "rank-chart") {
		t.Error("a chart without a player")
	}
}
