package web

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/referee"
	"github.com/dankyu/dankyu/rules"
	"github.com/dankyu/dankyu/web/kit"
)

// refereePages let anyone adjudicate a game record with the rules engine.
type refereePages struct {
	*kit.Site
	limit kit.Limiter
}

func (p *refereePages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /adjudicate", p.adjudicateForm)
	mux.HandleFunc("POST /adjudicate", p.Limited(p.limit, p.adjudicate))
}

func (p *refereePages) adjudicateForm(w http.ResponseWriter, r *http.Request) {
	p.Render(w, r, http.StatusOK, adjudicatePage(p.Page(w, r, "adjudicate"), adjudicateForm{}, nil, nil, ""))
}

// adjudicate replays the uploaded or pasted record; nothing is stored.
func (p *refereePages) adjudicate(w http.ResponseWriter, r *http.Request) {
	pg := p.Page(w, r, "adjudicate")
	r.Body = http.MaxBytesReader(w, r.Body, rules.MaxRecordBytes+64<<10)
	f := adjudicateForm{}
	fail := func(err error) {
		p.Render(w, r, http.StatusBadRequest, adjudicatePage(pg, f, nil, nil, p.UserError(r, pg, err)))
	}
	if err := r.ParseMultipartForm(rules.MaxRecordBytes); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		fail(referee.ReasonRecordTooLarge.OnField("sgf", "max", strconv.Itoa(rules.MaxRecordBytes)))
		return
	}
	f = adjudicateForm{Text: r.FormValue("sgf_text"), Rules: r.FormValue("rules"), Komi: strings.TrimSpace(r.FormValue("komi")),
		Dead: r.FormValue("dead"), Strict: r.FormValue("strict") != ""}
	data := []byte(f.Text)
	if file, _, err := r.FormFile("sgf"); err == nil {
		defer file.Close()
		up, err := io.ReadAll(io.LimitReader(file, rules.MaxRecordBytes+1))
		if err != nil || len(up) > rules.MaxRecordBytes {
			fail(referee.ReasonRecordTooLarge.OnField("sgf", "max", strconv.Itoa(rules.MaxRecordBytes)))
			return
		}
		if len(up) > 0 {
			data = up
		}
	}
	komi, err := referee.ParseKomi(f.Komi)
	if err != nil {
		fail(err)
		return
	}
	dead, err := referee.SplitDead(f.Dead)
	if err != nil {
		f.Dead = "" // not echoed back into the form
		fail(err)
		return
	}
	results, err := referee.Adjudicate(r.Context(), referee.Request{SGF: data, Rules: f.Rules, Komi: komi, Dead: dead, Strict: f.Strict})
	if err != nil {
		fail(err)
		return
	}
	p.Render(w, r, http.StatusOK, adjudicatePage(pg, f, results, finalPositions(r.Context(), data, f, komi, dead, len(results)), ""))
}

// finalPositions are the final positions of the record's games, to draw
// beside their results; nil when they cannot be had (the results stand).
func finalPositions(ctx context.Context, data []byte, f adjudicateForm, komi *float64, dead []string, games int) []rules.Position {
	trees, err := rules.ParseSGF(data)
	if err != nil || len(trees) != games {
		return nil
	}
	rs, _ := rules.ParseRuleSet(f.Rules)
	opt := rules.Options{Rules: rs, Komi: komi, Dead: dead}
	out := make([]rules.Position, 0, len(trees))
	for _, t := range trees {
		if ctx.Err() != nil { // the client left: nothing to draw for
			return nil
		}
		g, err := rules.GameFromTree(t)
		if err != nil {
			return nil
		}
		pos, err := rules.Replay(g, opt, -1)
		if err != nil {
			return nil
		}
		out = append(out, pos)
	}
	return out
}
