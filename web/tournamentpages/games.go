package tournamentpages

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/rules"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/draw"
	"github.com/dankyu/dankyu/web/kit"
)

// gameView is a game's page.
type gameView struct {
	Event        tournaments.Event
	Game         tournaments.GameRow
	Black, White string
	Position     *rules.Position // nil without a readable record
	RecordErr    bool            // a record that cannot be replayed
	Path         string          // the page's own path, for the move links
}

func (p *Pages) game(w http.ResponseWriter, r *http.Request) error {
	id, ok := kit.PathID(r)
	round, err1 := strconv.Atoi(r.PathValue("round"))
	board, err2 := strconv.Atoi(r.PathValue("board"))
	if !ok || err1 != nil || err2 != nil {
		return ledger.ErrNotFound
	}
	rep, err := p.tours.EventReport(r.Context(), id)
	if err != nil {
		return err
	}
	g, err := p.tours.GameRecord(r.Context(), id, round, board)
	if err != nil {
		return err
	}
	v := gameView{Event: rep.Event, Game: g, Path: kit.SitePath(r.URL.Path)}
	for _, pt := range rep.Participants {
		switch pt.Number {
		case g.Black:
			v.Black = pt.Name
		case g.White:
			v.White = pt.Name
		}
	}
	if strings.TrimSpace(g.Record) != "" {
		upto := -1
		if m, err := strconv.Atoi(r.URL.Query().Get("move")); err == nil && m >= 0 {
			upto = m
		}
		rs, _ := rules.ParseRuleSet(rep.Event.Rules)
		komi := rep.Event.Komi
		pos, err := draw.GamePosition([]byte(g.Record), rules.Options{Rules: rs, Komi: &komi}, upto)
		if err != nil {
			v.RecordErr = true
		} else {
			v.Position = &pos
		}
	}
	pg := p.Page(w, r, "game")
	pg.Title = rep.Event.Name + " · " + v.Black + " – " + v.White
	p.Render(w, r, http.StatusOK, gamePage(pg, v))
	return nil
}

// moveLink is the game page at move n.
func (v gameView) moveLink(n int) string {
	return v.Path + "?move=" + strconv.Itoa(n)
}

// flagText words why a game is flagged for review in the page's language:
// from its stored code, or, for a game flagged before codes were stored
// (its reason is the engine's English), from the game's own fields.
func flagText(p kit.Page, g tournaments.GameRow) string {
	if g.FlagCode != "" {
		return g.FlagText(p.Lang)
	}
	switch {
	case g.Adjudicated == "" && strings.HasPrefix(g.FlagReason, "the file holds"):
		return p.T["flag_games"]
	case g.Adjudicated == "":
		return p.T["flag_unreadable"]
	case strings.HasPrefix(g.FlagReason, "the record does not decide"):
		return strings.ReplaceAll(p.T["flag_undecided"], "{adjudicated}", g.Adjudicated)
	}
	return strings.NewReplacer("{adjudicated}", g.Adjudicated, "{reported}", p.T["result_"+string(g.Result)]).Replace(p.T["flag_disagrees"])
}

// gameLink is a game's page.
func gameLink(event int64, g tournaments.GameRow) string {
	return "/tournaments/" + strconv.FormatInt(event, 10) + "/rounds/" + strconv.Itoa(g.Round) + "/boards/" + strconv.Itoa(g.Board)
}

// MoveText is "move n" in the page's language (the adjudication page's
// too).
func MoveText(p kit.Page, n int) string {
	return strings.ReplaceAll(p.T["move_of"], "{n}", strconv.Itoa(n))
}

// IllegalName words an engine's violation in the page's language (the
// adjudication page's too).
func IllegalName(p kit.Page, reason string) string { return p.Word("violation_", reason) }

// proposalNote is a dan-grade proposal's note in the page's language.
func proposalNote(p kit.Page, pr tournaments.Proposal) string { return pr.NoteText(p.Lang) }
