package web

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/web/kit"
	"github.com/dankyu/dankyu/web/staffpages"
)

// certPages are the pages of certification: public notices and objections,
// verification, and the workspace of agencies and staff.
type certPages struct {
	*kit.Site
	certs Certs
	ranks rankReviewer
	tlog  TransparencyLog // nil: no inclusion proofs on the verification page
	// limits bound verification and objections per client
	limits Limits
}

// rankReviewer lists the declared ranks staff must review: 4 dan and above
// stored before ranks needed certificates.
type rankReviewer interface {
	DeclaredHighRanks(ctx context.Context, actor ledger.Actor) ([]registry.Player, error)
}

func (p *certPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /notices", p.notices)
	mux.HandleFunc("GET /notices/{id}", p.notice)
	mux.HandleFunc("POST /notices/{id}/objections", p.Limited(p.limits.Objection, p.object))
	mux.HandleFunc("GET /verify", p.Limited(p.limits.Verify, p.verify))
	mux.HandleFunc("GET /verify/proof", p.Limited(p.limits.Verify, p.verifyProof))
	mux.HandleFunc("GET /verify/batch", p.batchForm)
	mux.HandleFunc("POST /verify/batch", p.batchVerify) // limited by its numbers (Charge)
	mux.HandleFunc("GET /workspace", p.workspacePage)
	mux.HandleFunc("GET /workspace/roster.csv", p.roster("csv"))
	mux.HandleFunc("GET /workspace/roster.xlsx", p.roster("xlsx"))
	mux.Handle("POST /workspace/roster/submissions", p.onWorkspace(p.submitRoster))
	mux.Handle("POST /workspace/applications/{id}", p.onWorkspace(p.decideApplication))
	mux.Handle("POST /workspace/orders", p.onWorkspace(p.placeOrder))
	mux.Handle("POST /workspace/orders/{agency}/{year}", p.onWorkspace(p.decideOrder))
	mux.Handle("POST /workspace/appraisers", p.onWorkspace(p.recommendAppraiser))
	mux.Handle("POST /workspace/appraisers/{id}", p.onWorkspace(p.setAppraiser))
	mux.Handle("POST /workspace/objections/{id}", p.onWorkspace(p.ruleObjection))
	mux.Handle("POST /workspace/notices/{id}/dismissals", p.onWorkspace(p.ruleObjections))
	p.Confirmed(mux, "/workspace/revoke", kit.Confirmation{What: "confirm_revoke", Back: toWorkspace, Subject: p.certificateSubject}, p.onWorkspace(p.revoke))
	mux.Handle("POST /workspace/reviews/keep", p.onWorkspace(p.keepCertificate))
}

// Certs is what the notice, verification and workspace pages use.
type Certs interface {
	Statistics
	Printer
	staffpages.Reissuer
	Appraisals
	staffpages.NationalList
	ListNotices(ctx context.Context, q certs.NoticeQuery) (certs.NoticePage, error)
	GetNotice(ctx context.Context, id int64) (certs.Notice, error)
	LodgeObjection(ctx context.Context, key string, in certs.ObjectionInput) (certs.Objection, error)
	Verify(ctx context.Context, number string) (certs.Verification, error)
	VerifyBatch(ctx context.Context, rows []certs.BatchRow) ([]certs.BatchResult, error)
	PlayerCertificates(ctx context.Context, playerID int64) ([]certs.Certificate, error)

	Apply(ctx context.Context, actor ledger.Actor, key string, in certs.ApplicationInput) (certs.Application, error)
	Approve(ctx context.Context, actor ledger.Actor, key string, id int64) (certs.Application, error)
	Reject(ctx context.Context, actor ledger.Actor, key string, id int64, reason string) (certs.Application, error)
	ListApplications(ctx context.Context, actor ledger.Actor, q certs.ApplicationQuery) ([]certs.Application, error)
	PlaceOrder(ctx context.Context, actor ledger.Actor, key string, in certs.OrderInput) (certs.Order, error)
	DecideOrder(ctx context.Context, actor ledger.Actor, key string, d certs.OrderDecision) (certs.Order, error)
	ListOrders(ctx context.Context, actor ledger.Actor, agency string) ([]certs.Order, error)
	QuotaOf(ctx context.Context, actor ledger.Actor, agency string, year int) (certs.Quota, error)
	RecommendAppraiser(ctx context.Context, actor ledger.Actor, key string, in certs.AppraiserInput) (certs.Appraiser, error)
	SetAppraiserStatus(ctx context.Context, actor ledger.Actor, key string, id int64, st certs.AppraiserStatus) (certs.Appraiser, error)
	ListAppraisers(ctx context.Context, agency string) ([]certs.Appraiser, error)
	OpenObjections(ctx context.Context, actor ledger.Actor) ([]certs.ObjectionOnNotice, error)
	RuleObjection(ctx context.Context, actor ledger.Actor, key string, id int64, uphold bool, ruling string) (certs.Objection, error)
	RuleObjections(ctx context.Context, actor ledger.Actor, key string, notice int64, ids []int64, ruling string) (certs.BulkRuling, error)
	OverdueNotices(ctx context.Context, actor ledger.Actor) ([]certs.Notice, error)
	OverdueAfter() time.Duration
	RulingDeadline() time.Duration
	Revoke(ctx context.Context, actor ledger.Actor, key, number, reason string) (certs.Certificate, error)
	CertificatesForReview(ctx context.Context, actor ledger.Actor) ([]certs.Review, error)
	KeepCertificate(ctx context.Context, actor ledger.Actor, key, number, note string) (certs.Certificate, error)
	WriteRoster(ctx context.Context, actor ledger.Actor, agency string, w io.Writer) (int, error)
	WriteRosterXLSX(ctx context.Context, actor ledger.Actor, agency string, w io.Writer) (int, error)
	SubmitRoster(ctx context.Context, actor ledger.Actor, key, agency string) (certs.RosterSubmission, error)
	RosterSubmissions(ctx context.Context, actor ledger.Actor, year int) ([]certs.RosterSubmission, error)
}

func (p *certPages) notices(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := noticeFilter{Province: q.Get("province"), Rank: q.Get("rank"), State: q.Get("state")}
	pg := p.Page(w, r, "notices")
	query := certs.NoticeQuery{ProvinceCode: f.Province, State: f.State, PageToken: q.Get("page")}
	var err error
	if f.Rank != "" {
		query.Rank, err = registry.ParseRank(f.Rank)
	}
	var page certs.NoticePage
	if err == nil {
		page, err = p.certs.ListNotices(r.Context(), query)
	}
	if err != nil {
		p.Render(w, r, kit.HTTPStatus(err), noticesPage(pg, f, certs.NoticePage{}, p.UserError(r, pg, err), ""))
		return
	}
	next := ""
	if page.NextPageToken != "" {
		next = "/notices?" + url.Values{"province": {f.Province}, "rank": {f.Rank}, "state": {f.State}, "page": {page.NextPageToken}}.Encode()
	}
	p.Render(w, r, http.StatusOK, noticesPage(pg, f, page, "", next))
}

func (p *certPages) notice(w http.ResponseWriter, r *http.Request) {
	p.showNotice(w, r, http.StatusOK, objectionForm{}, "")
}

func (p *certPages) showNotice(w http.ResponseWriter, r *http.Request, code int, f objectionForm, formErr string) {
	id, ok := kit.PathID(r)
	if !ok {
		p.Fail(w, r, ledger.ErrNotFound)
		return
	}
	n, err := p.certs.GetNotice(r.Context(), id)
	if err != nil {
		p.Fail(w, r, err)
		return
	}
	pg := p.Page(w, r, "notice")
	pg.Title = n.PlayerName + " · " + kit.RankName(pg.Lang, n.Rank)
	f.Idem = kit.RandomHex(12)
	f.CSRF = p.FormToken(w, r)
	open := n.Status == certs.NoticeOpen && p.Now().Before(n.EndsAt)
	p.Render(w, r, code, noticePage(pg, n, open, f, formErr, r.URL.Query().Get("lodged") == "1"))
}

func (p *certPages) object(w http.ResponseWriter, r *http.Request) {
	id, ok := kit.PathID(r)
	if !ok {
		p.Fail(w, r, ledger.ErrNotFound)
		return
	}
	f := objectionForm{Name: r.PostFormValue("name"), Contact: r.PostFormValue("contact"), Reason: r.PostFormValue("reason")}
	pg := p.Page(w, r, "notice")
	claim := p.ClaimForm(r)
	if claim.Repeat != "" {
		http.Redirect(w, r, claim.Repeat, http.StatusSeeOther)
		return
	}
	if !claim.OK() {
		p.showNotice(w, r, claim.Status, f, pg.T[claim.Refused])
		return
	}
	_, err := p.certs.LodgeObjection(r.Context(), r.PostFormValue("idem"), certs.ObjectionInput{NoticeID: id, Name: f.Name,
		Contact: f.Contact, Reason: f.Reason, Address: p.ClientHost(r)})
	if err != nil {
		claim.Settle("")
		p.showNotice(w, r, kit.HTTPStatus(err), f, p.UserError(r, pg, err))
		return
	}
	to := "/notices/" + strconv.FormatInt(id, 10) + "?lodged=1"
	claim.Settle(to)
	http.Redirect(w, r, to, http.StatusSeeOther)
}

func (p *certPages) verify(w http.ResponseWriter, r *http.Request) {
	number := strings.TrimSpace(r.URL.Query().Get("number"))
	pg := p.Page(w, r, "verify")
	if number == "" {
		p.Render(w, r, http.StatusOK, verifyPage(pg, number, nil, nil, ""))
		return
	}
	v, rcs, err := p.verifyWithReceipts(r.Context(), number)
	if err != nil {
		p.Render(w, r, kit.HTTPStatus(err), verifyPage(pg, number, nil, nil, p.UserError(r, pg, err)))
		return
	}
	var shown []shownReceipt
	for i, rc := range rcs {
		if rc != nil {
			shown = append(shown, shownReceipt{Action: v.Events[i].Action, Receipt: rc})
		}
	}
	p.Render(w, r, http.StatusOK, verifyPage(pg, number, &v, shown, ""))
}

// shownReceipt is a receipt on the verification page, with its event's action.
type shownReceipt struct {
	Action string
	*ledger.Receipt
}

// receiptReader is a Certs that answers a verification with its receipts
// in one read (the server's public reads: one database round trip).
type receiptReader interface {
	VerifyWithReceipts(ctx context.Context, number string) (certs.Verification, []*ledger.Receipt, error)
}

// verifyWithReceipts is the verification of number and a receipt of each
// event that made the certificate what it is (nil for one unknown).
func (p *certPages) verifyWithReceipts(ctx context.Context, number string) (certs.Verification, []*ledger.Receipt, error) {
	if rr, ok := p.certs.(receiptReader); ok && p.tlog != nil {
		return rr.VerifyWithReceipts(ctx, number)
	}
	v, err := p.certs.Verify(ctx, number)
	if err != nil {
		return v, nil, err
	}
	return v, p.eventReceipts(ctx, v), nil
}

// eventReceipts proves each event that made the certificate what it is
// (v.Events) in the event tree, so a holder can check them against a
// checkpoint; nil when unknown (a failure here is logged, the verdict
// still shown).
func (p *certPages) eventReceipts(ctx context.Context, v certs.Verification) []*ledger.Receipt {
	if p.tlog == nil || !v.Found || len(v.Events) == 0 {
		return nil
	}
	rcs, err := p.tlog.Receipts(ctx, v.Events)
	if err != nil {
		p.Log().Error("inclusion proofs of a certificate", "number", v.Number, "err", err)
		return nil
	}
	return rcs
}

// verifyProof is the verification as JSON, with a receipt of each event
// that made the certificate what it is: what `dankyu log certificate`
// reads, checks against the log's entries and the verifier key, and folds.
func (p *certPages) verifyProof(w http.ResponseWriter, r *http.Request) {
	pg := p.Page(w, r, "verify")
	v, rcs, err := p.verifyWithReceipts(r.Context(), strings.TrimSpace(r.URL.Query().Get("number")))
	if err != nil {
		writeJSON(w, kit.HTTPStatus(err), map[string]string{"error": p.UserError(r, pg, err)})
		return
	}
	writeJSON(w, http.StatusOK, certs.PublicAnswerOf(v, rcs, pg.Lang))
}

func (p *certPages) batchForm(w http.ResponseWriter, r *http.Request) {
	pg := p.Page(w, r, "verify_batch")
	p.Render(w, r, http.StatusOK, batchVerifyPage(pg, "", nil, ""))
}

// batchVerify checks a pasted or uploaded list of claims (number, name per
// line) and shows every row's verdict.
func (p *certPages) batchVerify(w http.ResponseWriter, r *http.Request) {
	pg := p.Page(w, r, "verify_batch")
	text := r.PostFormValue("claims")
	if !p.FormOK(r) {
		if p.Charge(w, r, p.limits.Verify, 1) {
			p.Render(w, r, http.StatusForbidden, batchVerifyPage(pg, text, nil, pg.T["form_expired"]))
		}
		return
	}
	if f, _, err := r.FormFile("file"); err == nil {
		data, err := io.ReadAll(io.LimitReader(f, 1<<20))
		f.Close()
		if err != nil {
			p.Render(w, r, http.StatusBadRequest, batchVerifyPage(pg, text, nil, p.UserError(r, pg, kit.ReasonUploadUnreadable.New())))
			return
		}
		if len(bytes.TrimSpace(data)) > 0 {
			text = string(data)
		}
	}
	rows := certs.ParseBatch(text)
	// a batch spends one verification per number, as the numbers asked one
	// by one would (a batch of 1 000 once cost one); any request at least
	// one, and one over certs.MaxBatch one, to be refused for its size
	cost := len(rows)
	if cost < 1 || cost > certs.MaxBatch {
		cost = 1
	}
	if !p.Charge(w, r, p.limits.Verify, cost) {
		return
	}
	results, err := p.certs.VerifyBatch(r.Context(), rows)
	if err != nil {
		p.Render(w, r, kit.HTTPStatus(err), batchVerifyPage(pg, text, nil, p.UserError(r, pg, err)))
		return
	}
	p.Render(w, r, http.StatusOK, batchVerifyPage(pg, text, results, ""))
}

// applicantName names the body that applied for a certificate: the
// province's agency, or the association itself for 6 and 7 dan. The issuer
// is always the association.
func applicantName(p kit.Page, c certs.Certificate) string {
	if c.IssuingPrefix == registry.AssociationPrefix {
		return p.T["association"]
	}
	if c.IssuingBody == "" {
		return c.IssuingPrefix
	}
	return c.IssuingBody
}

// numberingProvince names the province whose prefix numbers the certificate.
func numberingProvince(p kit.Page, c certs.Certificate) string {
	if c.IssuingPrefix == registry.AssociationPrefix {
		return p.T["association"] + " (000)"
	}
	pr, ok := registry.ProvinceByPrefix(c.IssuingPrefix)
	if !ok {
		return c.IssuingPrefix
	}
	return kit.ProvinceName(p.Lang, pr) + " (" + c.IssuingPrefix + ")"
}

// certificateSubject names the holder and rank of the certificate number a
// confirmation is about.
func (p *certPages) certificateSubject(r *http.Request, pg kit.Page) string {
	v, err := p.certs.Verify(r.Context(), r.URL.Query().Get("number"))
	if err != nil || !v.Found {
		return ""
	}
	return v.Certificate.PlayerName + " · " + kit.RankName(pg.Lang, v.Certificate.Rank) + " · " + v.Number
}
