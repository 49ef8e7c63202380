package web

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/web/kit"
)

// PaperCertificates are the acts on certificates issued on paper before
// the registry that the gRPC API offers too (the same certs.Service
// calls): an agency submits its file, staff import one directly and decide
// the agencies' submissions.
type PaperCertificates interface {
	CheckPaper(ctx context.Context, actor ledger.Actor, in certs.PaperInput) (certs.PaperResult, error)
	ImportPaper(ctx context.Context, actor ledger.Actor, key string, in certs.PaperInput) (certs.PaperResult, error)
	SubmitPaper(ctx context.Context, actor ledger.Actor, key string, in certs.PaperInput) (certs.PaperSubmission, error)
	DecidePaper(ctx context.Context, actor ledger.Actor, key string, id int64, confirm bool, note string) (certs.PaperSubmission, error)
	ListPaperSubmissions(ctx context.Context, actor ledger.Actor, status string) ([]certs.PaperSubmission, error)
	GetPaperSubmission(ctx context.Context, actor ledger.Actor, id int64) (certs.PaperSubmission, error)
}

// maxPaperUpload bounds the file of one import (its rows are bounded by
// certs.MaxPaperRows too); it travels base64 in the preview's form.
const maxPaperUpload = 2 << 20

// paperPages are the paper certificates' pages: the upload (a file or
// pasted text), its preview (the dry run, which is the confirmation), the
// submissions and staff's decision on each.
type paperPages struct {
	*kit.Site
	paper PaperCertificates
}

// paperView is the upload page, or the preview of a file (Result set).
type paperView struct {
	Staff       bool
	Submissions []certs.PaperSubmission
	Text        string // pasted text as typed
	Data        string // the checked file, base64, carried to the confirmation
	Result      *certs.PaperResult
	Skip        map[int]bool
	Errs        kit.FormErrors
	OK          string
	Idem, CSRF  string
}

// paperSubmissionView is one submission with staff's decision form.
type paperSubmissionView struct {
	Sub        certs.PaperSubmission
	Staff      bool
	Decision   string
	Note       string
	Errs       kit.FormErrors
	OK         string
	Idem, CSRF string
}

func newPaperPages(s *kit.Site, cs any) *paperPages {
	p := &paperPages{Site: s}
	p.paper, _ = cs.(PaperCertificates)
	return p
}

func (p *paperPages) routes(mux *http.ServeMux) {
	if p.paper == nil {
		return
	}
	mux.HandleFunc("GET /workspace/paper", func(w http.ResponseWriter, r *http.Request) {
		p.showUpload(w, r, http.StatusOK, paperView{OK: r.URL.Query().Get("ok")})
	})
	mux.HandleFunc("POST /workspace/paper/check", p.check)
	back := func(*http.Request) string { return "/workspace/paper" }
	mux.Handle("POST /workspace/paper", p.PostFields(back, p.failRecord, p.record))
	mux.HandleFunc("GET /workspace/paper/{id}", func(w http.ResponseWriter, r *http.Request) {
		p.showSubmission(w, r, http.StatusOK, paperSubmissionView{OK: r.URL.Query().Get("ok")})
	})
	p.Confirmed(mux, "/workspace/paper/{id}/decide", kit.Confirmation{What: "paper_confirm_decide",
		Back:    func(r *http.Request) string { return "/workspace/paper/" + r.PathValue("id") },
		Labels:  map[string]string{"decision": "paper_decision", "note": "paper_note"},
		Subject: p.subject, Show: p.showValue,
		Check: func(r *http.Request, _ ledger.Actor) error {
			if d := r.URL.Query().Get("decision"); d != "confirm" && d != "refuse" {
				return reasonPaperPickDecision.OnField("decision")
			}
			return nil
		},
		Refused: func(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string, err error) {
			p.showSubmission(w, r, code, paperSubmissionView{Decision: r.URL.Query().Get("decision"), Note: r.URL.Query().Get("note"),
				Errs: kit.FieldErrors(kit.LangFrom(w, r), errText, err, "decision", "note")})
		}},
		p.PostFields(func(r *http.Request) string { return "/workspace/paper/" + r.PathValue("id") }, p.failDecide, p.decide))
}

// reasonPaperPickDecision refuses a decision with neither button chosen.
var reasonPaperPickDecision = ledger.NewReason(ledger.Invalid, "PORTAL_PAPER_DECISION",
	"请选择确认补录或不予补录。", "choose to record the certificates or to refuse them.")

// reasonPaperNothing refuses an upload without a file or text.
var reasonPaperNothing = ledger.NewReason(ledger.Invalid, "PORTAL_PAPER_NOTHING",
	"请上传文件或粘贴名册内容（第一行为表头）。", "upload a file or paste the register's lines (the header first).")

// reasonPaperTooLarge refuses an upload over maxPaperUpload.
var reasonPaperTooLarge = ledger.NewReason(ledger.Invalid, "PORTAL_PAPER_TOO_LARGE",
	"文件不能超过 {max} 兆字节，请分成几个文件导入。", "the file is larger than {max} MB; import it in parts.")

func (p *paperPages) showUpload(w http.ResponseWriter, r *http.Request, code int, v paperView) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	v.Staff = a.IsStaff()
	status := ""
	if v.Staff {
		status = "pending"
	}
	subs, err := p.paper.ListPaperSubmissions(r.Context(), a, status)
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	v.Submissions = subs
	pg := p.Page(w, r, "paper_title")
	v.Idem, v.CSRF = kit.RandomHex(12), pg.CSRF
	p.Render(w, r, code, paperPage(pg, v))
}

// upload reads the file, the pasted text, or (from the preview's form)
// the file carried base64.
func upload(r *http.Request) ([]byte, string, error) {
	if err := r.ParseMultipartForm(maxPaperUpload + 1<<20); err != nil && err != http.ErrNotMultipart {
		return nil, "", kit.ReasonUploadUnreadable.OnField("file")
	}
	text := r.PostFormValue("text")
	if f, hdr, err := r.FormFile("file"); err == nil && hdr.Size > 0 {
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, maxPaperUpload+1))
		if err != nil {
			return nil, text, kit.ReasonUploadUnreadable.OnField("file")
		}
		if len(data) > maxPaperUpload {
			return nil, text, reasonPaperTooLarge.OnField("file", "max", strconv.Itoa(maxPaperUpload>>20))
		}
		return data, text, nil
	}
	if enc := r.PostFormValue("data"); enc != "" {
		data, err := base64.StdEncoding.DecodeString(enc)
		if err != nil || len(data) > maxPaperUpload {
			return nil, text, kit.ReasonUploadUnreadable.OnField("file")
		}
		return data, text, nil
	}
	if strings.TrimSpace(text) == "" {
		return nil, text, reasonPaperNothing.OnField("file")
	}
	if len(text) > maxPaperUpload {
		return nil, text, reasonPaperTooLarge.OnField("file", "max", strconv.Itoa(maxPaperUpload>>20))
	}
	return []byte(text), text, nil
}

// skipLines are the lines ticked to be left out.
func skipLines(r *http.Request) ([]int, map[int]bool) {
	var lines []int
	ticked := map[int]bool{}
	for _, s := range r.PostForm["skip"] {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n > 1 && n <= certs.MaxPaperRows+1 && !ticked[n] {
			lines, ticked[n] = append(lines, n), true
		}
	}
	return lines, ticked
}

// check is the dry run: the preview of what the file would record, which
// is the confirmation step; nothing is changed, so no form token is spent.
func (p *paperPages) check(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	p.preview(w, r, a, http.StatusOK, "", nil)
}

// preview checks the posted file and shows its rows, with errText (and
// err, to place it) when the confirmation was refused.
func (p *paperPages) preview(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string, err error) {
	data, text, uerr := upload(r)
	v := paperView{Text: text}
	if uerr != nil {
		v.Errs = kit.FieldErrors(kit.LangFrom(w, r), p.UserError(r, p.Page(w, r, ""), uerr), uerr, "file")
		p.showUpload(w, r, kit.HTTPStatus(uerr), v)
		return
	}
	lines, ticked := skipLines(r)
	res, cerr := p.paper.CheckPaper(r.Context(), a, certs.PaperInput{Data: data, DryRun: true, Skip: lines})
	if cerr != nil {
		if ledger.KindOf(cerr) == ledger.Internal {
			p.Fail(w, r, cerr)
			return
		}
		v.Errs = kit.FieldErrors(kit.LangFrom(w, r), p.UserError(r, p.Page(w, r, ""), cerr), cerr, "file")
		p.showUpload(w, r, kit.HTTPStatus(cerr), v)
		return
	}
	v.Result, v.Skip, v.Data = &res, ticked, base64.StdEncoding.EncodeToString(data)
	if err != nil {
		v.Errs = kit.FormErrors{Form: errText}
	}
	v.Staff = a.IsStaff()
	pg := p.Page(w, r, "paper_preview")
	v.Idem, v.CSRF = kit.RandomHex(12), pg.CSRF
	p.Render(w, r, code, paperPreviewPage(pg, v))
}

// record is the confirmed file: staff record it, an agency submits it.
func (p *paperPages) record(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	data, _, err := upload(r)
	if err != nil {
		return kit.Outcome{}, err
	}
	lines, _ := skipLines(r)
	in := certs.PaperInput{Data: data, Skip: lines}
	if a.IsStaff() {
		_, err := p.paper.ImportPaper(r.Context(), a, key, in)
		if err != nil {
			return kit.Outcome{}, err
		}
		return kit.Done("paper_imported"), nil
	}
	if _, err := p.paper.SubmitPaper(r.Context(), a, key, in); err != nil {
		return kit.Outcome{}, err
	}
	return kit.Done("paper_submitted"), nil
}

// failRecord shows the preview again, the ticks as they were, with the refusal.
func (p *paperPages) failRecord(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string, err error) {
	if err == nil {
		err = ledger.ErrConflict // the form token's refusal: above the table
	}
	p.preview(w, r, a, code, errText, err)
}

func (p *paperPages) showSubmission(w http.ResponseWriter, r *http.Request, code int, v paperSubmissionView) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	id, ok := kit.PathID(r)
	if !ok {
		p.Fail(w, r, ledger.ErrNotFound)
		return
	}
	sub, err := p.paper.GetPaperSubmission(r.Context(), a, id)
	if err != nil {
		if ledger.KindOf(err) == ledger.NotFound {
			p.Fail(w, r, ledger.ErrNotFound)
			return
		}
		p.Refuse(w, r, p.Page(w, r, ""), err)
		return
	}
	v.Sub, v.Staff = sub, a.IsStaff()
	pg := p.Page(w, r, "paper_submission")
	v.Idem, v.CSRF = kit.RandomHex(12), pg.CSRF
	p.Render(w, r, code, paperSubmissionPage(pg, v))
}

func (p *paperPages) decide(r *http.Request, a ledger.Actor, key string) (kit.Outcome, error) {
	id, ok := kit.PathID(r)
	if !ok {
		return kit.Outcome{}, ledger.ErrNotFound
	}
	d := r.PostFormValue("decision")
	if d != "confirm" && d != "refuse" {
		return kit.Outcome{}, reasonPaperPickDecision.OnField("decision")
	}
	sub, err := p.paper.DecidePaper(r.Context(), a, key, id, d == "confirm", r.PostFormValue("note"))
	if err != nil {
		return kit.Outcome{}, err
	}
	return kit.Done("paper_" + sub.Status), nil
}

func (p *paperPages) failDecide(w http.ResponseWriter, r *http.Request, _ ledger.Actor, code int, errText string, err error) {
	p.showSubmission(w, r, code, paperSubmissionView{Decision: r.PostFormValue("decision"), Note: r.PostFormValue("note"),
		Errs: kit.FieldErrors(kit.LangFrom(w, r), errText, err, "decision", "note")})
}

// subject names a submission as staff know it: the agency, the day it
// was sent and its rows.
func (p *paperPages) subject(r *http.Request, pg kit.Page) string {
	id, ok := kit.PathID(r)
	if !ok {
		return ""
	}
	sub, err := p.paper.GetPaperSubmission(r.Context(), p.Actor(r), id)
	if err != nil {
		return ""
	}
	return paperSubmissionLabel(pg, sub)
}

// paperSubmissionLabel is a submission as a person knows it.
func paperSubmissionLabel(pg kit.Page, sub certs.PaperSubmission) string {
	return pg.AgencyName(sub.AgencyPrefix) + " · " + sub.SubmittedAt.In(ledger.ChinaTime).Format("2006-01-02 15:04") + " · " +
		strings.ReplaceAll(pg.T["paper_rows_n"], "{n}", strconv.Itoa(sub.Rows))
}

func (p *paperPages) showValue(_ *http.Request, pg kit.Page, field, value string) string {
	if field == "decision" {
		return pg.T["paper_decision_"+value]
	}
	return ""
}

// paperSummary counts a check's rows in the page's language.
func paperSummary(p kit.Page, res certs.PaperResult) string {
	skipped, good := 0, 0
	for _, r := range res.Rows {
		switch {
		case r.Skipped:
			skipped++
		case len(r.Problems) == 0:
			good++
		}
	}
	return strings.NewReplacer("{good}", strconv.Itoa(good), "{bad}", strconv.Itoa(res.Bad), "{skipped}", strconv.Itoa(skipped)).Replace(p.T["paper_summary"])
}
