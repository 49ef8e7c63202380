package certs

import (
	"fmt"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// PublicCertificate is what the public verification shows of a
// certificate, as its JSON answer (/verify/proof) serves it: the fields
// the logged events bind (LoggedState.Disagreements), so that an outsider
// folds the events and compares.
type PublicCertificate struct {
	Number        string       `json:"number"`
	PrintedNumber string       `json:"printed_number,omitempty"`
	Holder        string       `json:"holder"`
	PlayerID      int64        `json:"player_id"`
	Rank          string       `json:"rank"`
	Status        CertStatus   `json:"status"`
	StatusReason  string       `json:"status_reason,omitempty"`
	Basis         Basis        `json:"basis"`
	PaperBasis    Basis        `json:"paper_basis,omitempty"`
	AthleteGrade  AthleteGrade `json:"athlete_grade"`
	Issuer        string       `json:"issuer"` // the numbering prefix
	IssuingBody   string       `json:"issuing_body,omitempty"`
	IssueDate     string       `json:"issue_date"` // YYYY-MM-DD
	FromPaper     bool         `json:"from_paper,omitempty"`
	Replaces      string       `json:"replaces,omitempty"`
	ReplacedBy    string       `json:"replaced_by,omitempty"`
	// HolderWithheld says Holder and PlayerID are left out: the holder is
	// a minor and the claimant did not name him.
	HolderWithheld bool `json:"holder_withheld,omitempty"`
}

// PublicCertificateOf is c as the public sees it.
func PublicCertificateOf(c Certificate) PublicCertificate {
	return PublicCertificate{Number: c.Number, PrintedNumber: c.PrintedNumber, Holder: c.PlayerName, PlayerID: c.PlayerID,
		Rank: c.Rank.String(), Status: c.Status, StatusReason: c.StatusReason, Basis: c.Basis, PaperBasis: c.PaperBasis,
		AthleteGrade: c.AthleteGrade, Issuer: c.IssuingPrefix, IssuingBody: c.IssuingBody, IssueDate: c.IssueDate.Format(time.DateOnly),
		FromPaper: c.FromPaper, Replaces: c.Replaces, ReplacedBy: c.ReplacedBy}
}

// Certificate is the shown certificate read back, to compare with a fold.
func (p PublicCertificate) Certificate() (Certificate, error) {
	rank, err := registry.ParseRank(p.Rank)
	if err != nil {
		return Certificate{}, fmt.Errorf("rank %q: %w", p.Rank, err)
	}
	date, err := time.Parse(time.DateOnly, p.IssueDate)
	if err != nil {
		return Certificate{}, fmt.Errorf("issue date %q: %w", p.IssueDate, err)
	}
	return Certificate{Number: p.Number, PrintedNumber: p.PrintedNumber, PlayerName: p.Holder, PlayerID: p.PlayerID, Rank: rank,
		Status: p.Status, StatusReason: p.StatusReason, Basis: p.Basis, PaperBasis: p.PaperBasis, AthleteGrade: p.AthleteGrade,
		IssuingPrefix: p.Issuer, IssuingBody: p.IssuingBody, IssueDate: date, FromPaper: p.FromPaper, Replaces: p.Replaces,
		ReplacedBy: p.ReplacedBy}, nil
}

// Verdict is what a verification comes to, as a batch row's verdict.
func (v Verification) Verdict() BatchVerdict {
	switch {
	case !v.Found:
		return VerdictNotFound
	case v.UnderReview != nil:
		return VerdictUnderReview
	case v.Certificate.Status == CertRevoked:
		return VerdictRevoked
	case v.Certificate.Status == CertReissued:
		return VerdictReissued
	}
	return VerdictValid
}

// PublicAnswer is a verification as its JSON answer serves it: the
// verdict, the certificate shown (none when not found or under review) and
// a receipt of each event that made it, in the log's order.
type PublicAnswer struct {
	Number      string                 `json:"number"`
	Found       bool                   `json:"found"`
	Verdict     BatchVerdict           `json:"verdict"`
	ReasonCode  string                 `json:"reason_code,omitempty"`
	Message     string                 `json:"message,omitempty"`
	Certificate *PublicCertificate     `json:"certificate,omitempty"`
	Receipts    []ledger.PublicReceipt `json:"receipts"`
}

// PublicAnswerOf is v as served, with the receipts of its events (one per
// event, nil for an event the tree does not reach), its message in lang.
func PublicAnswerOf(v Verification, receipts []*ledger.Receipt, lang ledger.Lang) PublicAnswer {
	out := PublicAnswer{Number: v.Number, Found: v.Found, Verdict: v.Verdict(), Receipts: []ledger.PublicReceipt{}}
	switch {
	case v.UnderReview != nil:
		out.ReasonCode, out.Message = v.UnderReview.Reason.Code(), v.UnderReview.Message(lang)
	case v.Found:
		c := PublicCertificateOf(v.Certificate)
		out.Certificate = &c
	}
	for i, rc := range receipts {
		if rc != nil && i < len(v.Events) {
			out.Receipts = append(out.Receipts, rc.Public(v.Events[i].Action))
		}
	}
	return out
}
