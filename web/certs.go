package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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
	// links are the printed certificates' links (/c/NUMBER/TOKEN)
	links certLinks
}

// rankReviewer lists the declared ranks staff must review: 4 dan and above
// stored before ranks needed certificates.
type rankReviewer interface {
	DeclaredHighRanks(ctx context.Context, actor ledger.Actor) ([]registry.Player, error)
}

func (p *certPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /notices", p.notices)
	mux.HandleFunc("GET /notices/{id}", p.notice)
	mux.HandleFunc("GET /notices/{id}/objections", p.objectionForm)
	mux.HandleFunc("POST /notices/{id}/objections", p.object)
	mux.HandleFunc("GET /verify", p.Limited(p.limits.Verify, p.verify))
	mux.HandleFunc("GET /verify/proof", p.Limited(p.limits.Verify, p.verifyProof))
	mux.HandleFunc("GET /c/{number}/{token}", p.Limited(p.limits.Verify, p.certificateLink))
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
	p.Confirmed(mux, "/workspace/revoke", kit.Confirmation{What: "confirm_revoke", Back: toWorkspace, Subject: p.certificateSubject,
		Check: func(r *http.Request, a ledger.Actor) error {
			return p.certs.CheckRevoke(r.Context(), a, r.FormValue("number"), r.FormValue("reason"))
		},
		Refused: func(w http.ResponseWriter, r *http.Request, a ledger.Actor, code int, errText string, _ error) {
			p.showWorkspace(w, r, a, code, errText)
		}}, p.onWorkspace(p.revoke))
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
	CheckRevoke(ctx context.Context, actor ledger.Actor, number, reason string) error
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

// notice is the notice as the public reads it, the same for every visitor
// (a shared cache keeps it): while objections are taken it links to the
// objection form, which is on a page of its own with the form's token.
func (p *certPages) notice(w http.ResponseWriter, r *http.Request) {
	p.showNotice(w, r, http.StatusOK, objectionForm{}, "")
}

// objectionForm is the notice with the form to object to it.
func (p *certPages) objectionForm(w http.ResponseWriter, r *http.Request) {
	p.showNotice(w, r, http.StatusOK, objectionForm{Shown: true}, "")
}

// showNotice shows the notice; with the objection form when f.Shown.
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
	open := n.Status == certs.NoticeOpen && p.Now().Before(n.EndsAt)
	if open && f.Shown {
		f.Idem = kit.RandomHex(12)
		f.CSRF = p.FormToken(w, r)
	}
	p.Render(w, r, code, noticePage(pg, n, open, f, formErr, r.URL.Query().Get("lodged") == "1"))
}

func (p *certPages) object(w http.ResponseWriter, r *http.Request) {
	id, ok := kit.PathID(r)
	if !ok {
		p.Fail(w, r, ledger.ErrNotFound)
		return
	}
	f := objectionForm{Shown: true, Name: r.PostFormValue("name"), Contact: r.PostFormValue("contact"), Reason: r.PostFormValue("reason")}
	pg := p.Page(w, r, "notice")
	in := certs.ObjectionInput{NoticeID: id, Name: f.Name, Contact: f.Contact, Reason: f.Reason, Address: p.ClientHost(r)}
	// the input is checked before the hourly budget is spent, and a form
	// refused by either comes back as typed (issue 24)
	if _, err := certs.CheckObjection(in); err != nil {
		p.showNotice(w, r, kit.HTTPStatus(err), f, p.UserError(r, pg, err))
		return
	}
	if err := p.Spend(r, p.limits.Objection); err != nil {
		w.Header().Set("Retry-After", "60")
		p.showNotice(w, r, http.StatusTooManyRequests, f, p.UserError(r, pg, err))
		return
	}
	claim := p.ClaimForm(r)
	if claim.Repeat != "" {
		http.Redirect(w, r, claim.Repeat, http.StatusSeeOther)
		return
	}
	if !claim.OK() {
		p.showNotice(w, r, claim.Status, f, pg.T[claim.Refused])
		return
	}
	_, err := p.certs.LodgeObjection(r.Context(), r.PostFormValue("idem"), in)
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
	q := r.URL.Query()
	p.showVerification(w, r, strings.TrimSpace(q.Get("number")), strings.TrimSpace(q.Get("name")), false)
}

// verifyClaim is what the verification page knows of who asks: the name
// they gave, whether it is the holder's, and whether the holder's name is
// withheld (a minor's, looked up by bare number).
type verifyClaim struct {
	Name     string
	Matches  bool
	Withheld bool
	ByLink   bool // reached through a printed certificate's link
}

// claimOf is the claim of name on v: a minor's name is withheld unless the
// claimant names him or came through the paper's link.
func claimOf(v certs.Verification, name string, byLink bool) verifyClaim {
	c := verifyClaim{Name: name, Matches: v.ClaimMatches(name), ByLink: byLink}
	c.Withheld = v.Found && v.UnderReview == nil && v.HolderMinor && !c.Matches && !byLink
	return c
}

// showVerification is the verification page of number, with the name the
// claimant gave ("" none); byLink: reached through a paper's link. The
// page writes its links with its language (RenderLinked).
func (p *certPages) showVerification(w http.ResponseWriter, r *http.Request, number, name string, byLink bool) {
	pg := p.Page(w, r, "verify")
	// every answer is revalidated: a cache keeps it, but asks each time
	w.Header().Set("Cache-Control", "no-cache")
	if number == "" {
		p.RenderLinked(w, r, http.StatusOK, verifyPage(pg, number, nil, nil, verifyClaim{Name: name}, ""))
		return
	}
	v, rcs, err := p.verifyWithReceipts(r.Context(), number)
	if err != nil {
		p.RenderLinked(w, r, kit.HTTPStatus(err), verifyPage(pg, number, nil, nil, verifyClaim{Name: name}, p.UserError(r, pg, err)))
		return
	}
	claim := claimOf(v, name, byLink)
	tag := verificationTag(pg.Lang, v, claim)
	w.Header().Set("ETag", tag)
	if kit.NoneMatch(r, tag) {
		// unchanged since the asker's copy: no proofs computed, no page
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if claim.Withheld {
		v.Certificate.PlayerName, v.Certificate.PlayerID = "", 0
	}
	var shown []shownReceipt
	for i, rc := range rcs {
		if rc != nil {
			shown = append(shown, shownReceipt{Action: v.Events[i].Action, Receipt: rc})
		}
	}
	p.RenderLinked(w, r, http.StatusOK, verifyPage(pg, number, &v, shown, claim, ""))
}

// verificationTag is the ETag of a verification page: it changes when the
// answer can, and only then. The answer is what the certificate's logged
// events make it (its latest event's position in the log: a revocation or
// reissue appends one), and the signed tree that matters is the one that
// first holds that event (its size is that position), so a proof against
// any later tree says the same; the row as shown and whether it disagrees
// with its events (under review) are in it too, as is the page's
// language. Weak: two pages of one tag may carry proofs against different
// checkpoints, each as good as the other.
func verificationTag(l kit.Lang, v certs.Verification, c verifyClaim) string {
	var last int64
	if n := len(v.Events); n > 0 {
		last = v.Events[n-1].ID
	}
	review := ""
	if v.UnderReview != nil {
		review = strings.Join(v.Mismatch, ",")
	}
	// written into the hash as they were joined (the tags stay the same)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%t\x00%d\x00%+v\x00%s\x00%+v", string(l), v.Number, v.Found, last, v.Certificate, review, c)
	var sum [sha256.Size]byte
	return `W/"v` + strconv.FormatInt(last, 10) + "-" + hex.EncodeToString(h.Sum(sum[:0])[:12]) + `"`
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
	q := r.URL.Query()
	v, rcs, err := p.verifyWithReceipts(r.Context(), strings.TrimSpace(q.Get("number")))
	if err != nil {
		writeJSON(w, kit.HTTPStatus(err), map[string]string{"error": p.UserError(r, pg, err)})
		return
	}
	ans := certs.PublicAnswerOf(v, rcs, pg.Lang)
	if claimOf(v, strings.TrimSpace(q.Get("name")), false).Withheld && ans.Certificate != nil {
		ans.Certificate.Holder, ans.Certificate.PlayerID, ans.Certificate.HolderWithheld = "", 0, true
	}
	writeJSON(w, http.StatusOK, ans)
}

func (p *certPages) batchForm(w http.ResponseWriter, r *http.Request) {
	pg := p.Page(w, r, "verify_batch")
	pg.CSRF = p.FormToken(w, r)
	p.Render(w, r, http.StatusOK, batchVerifyPage(pg, "", nil, ""))
}

// batchVerify checks a pasted or uploaded list of claims (number, name per
// line) and shows every row's verdict, in the order given: as the page, or
// as CSV or JSON when the format parameter or the Accept header asks.
func (p *certPages) batchVerify(w http.ResponseWriter, r *http.Request) {
	pg := p.Page(w, r, "verify_batch")
	pg.CSRF = p.FormToken(w, r) // the form is shown again
	text := r.PostFormValue("claims")
	format, known := batchFormatOf(r.FormValue("format"), r.Header.Get("Accept"))
	// refuse is a refusal in the format asked for
	refuse := func(status int, msg string, err error) {
		if format == batchHTML {
			p.Render(w, r, status, batchVerifyPage(pg, text, nil, msg))
			return
		}
		sendBatchRefusal(w, format, status, msg, err)
	}
	if !p.FormOK(r) {
		if p.Charge(w, r, p.limits.Verify, 1) {
			refuse(http.StatusForbidden, pg.T["form_expired"], nil)
		}
		return
	}
	if !known {
		err := ReasonBatchFormat.OnField("format")
		refuse(http.StatusBadRequest, p.UserError(r, pg, err), err)
		return
	}
	if f, _, err := r.FormFile("file"); err == nil {
		data, err := io.ReadAll(io.LimitReader(f, 1<<20))
		f.Close()
		if err != nil {
			err = kit.ReasonUploadUnreadable.New()
			refuse(http.StatusBadRequest, p.UserError(r, pg, err), err)
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
		refuse(kit.HTTPStatus(err), p.UserError(r, pg, err), err)
		return
	}
	if format != batchHTML {
		p.sendBatch(w, pg, format, results)
		return
	}
	p.Render(w, r, http.StatusOK, batchVerifyPage(pg, text, results, ""))
}

// ReasonBatchFormat refuses a batch verification's format parameter other
// than html, csv or json.
var ReasonBatchFormat = ledger.NewReason(ledger.Invalid, "BATCH_FORMAT",
	"核验结果的格式只能是 html、csv 或 json。", "the answer's format is html, csv or json.")

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
