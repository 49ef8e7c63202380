package web

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/dankyu/dankyu/rules"
)

// refereePages let anyone adjudicate a game record with the rules engine.
type refereePages struct{ *site }

func (p *refereePages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /adjudicate", p.adjudicateForm)
	mux.HandleFunc("POST /adjudicate", p.adjudicate)
}

func (p *refereePages) adjudicateForm(w http.ResponseWriter, r *http.Request) {
	p.render(w, r, http.StatusOK, adjudicatePage(p.page(w, r, "adjudicate"), adjudicateForm{}, nil, ""))
}

// adjudicate replays the uploaded or pasted record; nothing is stored.
func (p *refereePages) adjudicate(w http.ResponseWriter, r *http.Request) {
	pg := p.page(w, r, "adjudicate")
	r.Body = http.MaxBytesReader(w, r.Body, rules.MaxRecordBytes+64<<10)
	f := adjudicateForm{}
	fail := func(msg string) {
		p.render(w, r, http.StatusBadRequest, adjudicatePage(pg, f, nil, msg))
	}
	if err := r.ParseMultipartForm(rules.MaxRecordBytes); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		fail(fmt.Sprintf("%s: %v", pg.T["sgf_file"], err))
		return
	}
	f = adjudicateForm{Text: r.FormValue("sgf_text"), Rules: r.FormValue("rules"), Komi: strings.TrimSpace(r.FormValue("komi")),
		Dead: r.FormValue("dead"), Strict: r.FormValue("strict") != ""}
	data := []byte(f.Text)
	if file, _, err := r.FormFile("sgf"); err == nil {
		defer file.Close()
		up, err := io.ReadAll(io.LimitReader(file, rules.MaxRecordBytes+1))
		if err != nil || len(up) > rules.MaxRecordBytes {
			fail(fmt.Sprintf("%s: at most %d bytes", pg.T["sgf_file"], rules.MaxRecordBytes))
			return
		}
		if len(up) > 0 {
			data = up
		}
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		fail(pg.T["sgf_missing"])
		return
	}
	opt := rules.Options{Dead: rules.SplitPoints(f.Dead), Strict: f.Strict}
	var err error
	if opt.Rules, err = rules.ParseRuleSet(f.Rules); err != nil {
		fail(pg.T["rules"] + ": " + err.Error())
		return
	}
	if opt.Komi, err = rules.ParseKomi(f.Komi); err != nil {
		fail(pg.T["komi"] + ": " + err.Error())
		return
	}
	results, err := rules.AdjudicateSGF(data, "", opt)
	if err != nil {
		fail(err.Error())
		return
	}
	p.render(w, r, http.StatusOK, adjudicatePage(pg, f, results, ""))
}
