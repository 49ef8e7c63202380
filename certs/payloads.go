package certs

import (
	"fmt"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// The events' payloads: one type per action, whose JSON tags are the keys
// of the log's rows. The services append them, and the bulk loads (CopyAll,
// the national data set) write the same rows, so that the audit reads one
// shape whichever path wrote an event. The fields stand in the order of
// their keys, as the maps these types replace wrote them, so that a row
// encodes byte for byte as before.

// Payloads are the payload types of certification's actions, one value of
// each (internal/archtest checks the log's readers against them).
func Payloads() []ledger.Payload {
	return []ledger.Payload{
		ApplicationSubmittedPayload{}, ApplicationApprovedPayload{}, ApplicationRejectedPayload{}, ApplicationFailedPayload{},
		ApplicationWithdrawnPayload{}, CertificateIssuedPayload{}, CertificateRevokedPayload{}, CertificateReissuedPayload{},
		CertificateRecordedFromPaperPayload{}, CertificateReviewRequestedPayload{}, CertificateReviewKeptPayload{},
		CertificatesMovedPayload{}, NoticePublishedPayload{}, NoticeCompletedPayload{}, ObjectionLodgedPayload{},
		ObjectionUpheldPayload{}, ObjectionDismissedPayload{}, ObjectionsDismissedPayload{}, OrderPlacedPayload{},
		OrderAmendedPayload{}, OrderGrantedPayload{}, OrderRefusedPayload{}, AppraiserRecommendedPayload{},
		AppraiserApprovedPayload{}, AppraiserRefusedPayload{}, AppraiserRevokedPayload{}, RosterSubmittedPayload{},
		PaperSubmittedPayload{}, PaperConfirmedPayload{}, PaperRefusedPayload{},
		AppraisalRecordedPayload{}, AppraisalWithdrawnPayload{},
		NationalEventListedPayload{}, NationalEventUnlistedPayload{}, ChampionRecognisedPayload{},
		ObjectionsLapsedPayload{},
	}
}

// CertificateEntity names a certificate in the event log.
func CertificateEntity(c Certificate) string { return certEntity(c) }

// ApplicationSubmittedPayload is application.submitted's payload.
//
// An application on a tournament, 6-dan or 7-dan basis carries the event
// it names (event_id) and the registry's statement of the player's record
// there when it was filed: placing, wins, games, group and the rank the
// event's published rules earned him (earned_rank); event_ref and
// record_ref are that statement rendered as text. Applications filed
// before checked evidence carry only the text (and no event_id).
type ApplicationSubmittedPayload struct {
	// AppraisalSessionID is the appraisal session an application by
	// appraisal rests on; not in events from before sessions.
	AppraisalSessionID int64  `json:"appraisal_session_id,omitempty"`
	AppraiserID        int64  `json:"appraiser_id"`
	Basis              Basis  `json:"basis"`
	EarnedRank         string `json:"earned_rank,omitempty"`
	EventID            int64  `json:"event_id,omitempty"`
	EventRef           string `json:"event_ref"`
	Games              int    `json:"games,omitempty"`
	Group              string `json:"group,omitempty"`
	Placing            int    `json:"placing,omitempty"`
	PlayerID           int64  `json:"player_id"`
	RecordRef          string `json:"record_ref"`
	TargetRank         string `json:"target_rank"`
	Wins               int    `json:"wins,omitempty"`
}

func (ApplicationSubmittedPayload) Action() string { return "application.submitted" }

// NewApplicationSubmittedPayload is application.submitted's payload for a.
func NewApplicationSubmittedPayload(a Application) ApplicationSubmittedPayload {
	p := ApplicationSubmittedPayload{AppraisalSessionID: a.AppraisalSessionID, AppraiserID: a.AppraiserID, Basis: a.Basis, EventRef: a.EventRef, PlayerID: a.PlayerID,
		RecordRef: a.RecordRef, TargetRank: a.TargetRank.String(), EventID: a.EventID, Placing: a.Placing, Wins: a.Wins,
		Games: a.Games, Group: a.Group}
	if a.EventID != 0 && a.EarnedRank != registry.NoRank {
		p.EarnedRank = a.EarnedRank.String()
	}
	return p
}

// ApplicationApprovedPayload is application.approved's payload: the
// certificate issued at once, or the notice published.
type ApplicationApprovedPayload struct {
	Certificate string    `json:"certificate"`
	NoticeID    int64     `json:"notice_id"`
	Status      AppStatus `json:"status"`
}

func (ApplicationApprovedPayload) Action() string { return "application.approved" }

// ApplicationRejectedPayload is application.rejected's payload.
type ApplicationRejectedPayload struct {
	Reason string `json:"reason"`
}

func (ApplicationRejectedPayload) Action() string { return "application.rejected" }

// ApplicationFailedPayload is application.failed's payload: the objection upheld.
type ApplicationFailedPayload struct {
	ObjectionID int64 `json:"objection_id"`
}

func (ApplicationFailedPayload) Action() string { return "application.failed" }

// ApplicationWithdrawnPayload is application.withdrawn's payload.
type ApplicationWithdrawnPayload struct {
	Reason string `json:"reason"` // in English
	// ReasonCode and ReasonParams are the reason as a code (ReviewMessage
	// words it); not in events from before codes.
	ReasonCode   string            `json:"reason_code,omitempty"`
	ReasonParams map[string]string `json:"reason_params,omitempty"`
	Was          AppStatus         `json:"was"`
}

func (ApplicationWithdrawnPayload) Action() string { return "application.withdrawn" }

// CertificateIssuedPayload is certificate.issued's payload: with the
// certificate's later events (FoldCertificate), everything the public
// verification shows of it.
//
// Holder, IssuingBody, PaperBasis and ReplacesNumber are in events from
// issue 31 on (the holder's name as the certificate prints it and public
// pages show it, the applying agency's name, a reissued paper record's
// basis, the replaced certificate's number); an event without Holder is of
// the older shape, which binds none of them (FoldCertificate).
type CertificateIssuedPayload struct {
	ApplicationID  int64        `json:"application_id"`
	AthleteGrade   AthleteGrade `json:"athlete_grade"`
	Basis          Basis        `json:"basis"`
	Holder         string       `json:"holder,omitempty"`
	IssueDate      string       `json:"issue_date"` // YYYY-MM-DD
	Issuer         string       `json:"issuer"`     // the issuing agency's prefix
	IssuingBody    string       `json:"issuing_body,omitempty"`
	Number         string       `json:"number"`
	PaperBasis     Basis        `json:"paper_basis,omitempty"` // a reissued paper record's (issue 31 on)
	PlayerID       int64        `json:"player_id"`
	Rank           string       `json:"rank"`
	Replaces       int64        `json:"replaces"` // the certificate a reissue replaces (0: none)
	ReplacesNumber string       `json:"replaces_number,omitempty"`
}

func (CertificateIssuedPayload) Action() string { return "certificate.issued" }

// NewCertificateIssuedPayload is certificate.issued's payload for c (whose
// Replaces is the number of the certificate replaced, id replaces).
func NewCertificateIssuedPayload(c Certificate, replaces int64) CertificateIssuedPayload {
	return CertificateIssuedPayload{ApplicationID: c.ApplicationID, AthleteGrade: c.AthleteGrade, Basis: c.Basis, Holder: c.PlayerName,
		IssueDate: c.IssueDate.Format(time.DateOnly), Issuer: c.IssuingPrefix, IssuingBody: c.IssuingBody, Number: c.Number, PaperBasis: c.PaperBasis, PlayerID: c.PlayerID,
		Rank: c.Rank.String(), Replaces: replaces, ReplacesNumber: c.Replaces}
}

// CertificateRevokedPayload is certificate.revoked's payload.
type CertificateRevokedPayload struct {
	Reason string `json:"reason"`
}

func (CertificateRevokedPayload) Action() string { return "certificate.revoked" }

// CertificateReissuedPayload is certificate.reissued's payload (the old certificate's event).
type CertificateReissuedPayload struct {
	NewNumber string `json:"new_number"`
	Reason    string `json:"reason"`
}

func (CertificateReissuedPayload) Action() string { return "certificate.reissued" }

// CertificateRecordedFromPaperPayload is certificate.recorded_from_paper's payload.
type CertificateRecordedFromPaperPayload struct {
	// AthleteGrade and PaperBasis are as the register gave them (unknown
	// grade: "unknown"; unknown basis: absent); not in events from before
	// the register's basis was read, nor in the bulk loads.
	AthleteGrade AthleteGrade `json:"athlete_grade,omitempty"`
	// Holder, Issuer (the numbering prefix) and IssuingBody are in events
	// from issue 31 on; an event with Holder binds all five of these
	// fields (an absent grade or basis is then none), an older one only
	// those it has.
	Holder      string `json:"holder,omitempty"`
	IssueDate   string `json:"issue_date"`
	Issuer      string `json:"issuer,omitempty"`
	IssuingBody string `json:"issuing_body,omitempty"`
	Line        int    `json:"line"` // of the paper sheet
	PaperBasis  Basis  `json:"paper_basis,omitempty"`
	PlayerID    int64  `json:"player_id"`
	Rank        string `json:"rank"`
}

func (CertificateRecordedFromPaperPayload) Action() string { return "certificate.recorded_from_paper" }

// IssuanceActions are the events that put a certificate on the registry:
// a certificate's receipt proves the first of them.
func IssuanceActions() []string {
	return []string{CertificateIssuedPayload{}.Action(), CertificateRecordedFromPaperPayload{}.Action()}
}

// StateActions are the events that make a certificate's public state what
// it is (FoldCertificate): its issuance, revocation and reissue. The
// verification answer carries a receipt of each.
func StateActions() []string {
	return append(IssuanceActions(), CertificateRevokedPayload{}.Action(), CertificateReissuedPayload{}.Action())
}

// PublicLogActions are the actions whose events the public log serves in
// full (get-entries): what the verification page and the public notices
// show anyway. Every other action's payload may hold personal data
// (identity numbers, objectors' names and contacts) and shows only its
// hashes.
func PublicLogActions() []string {
	return append(StateActions(), NoticePublishedPayload{}.Action(), NoticeCompletedPayload{}.Action())
}

// CertificateReviewRequestedPayload is certificate.review_requested's
// payload: the certificate's basis was withdrawn.
type CertificateReviewRequestedPayload struct {
	Application int64  `json:"application"`
	Reason      string `json:"reason"` // in English
	// ReasonCode and ReasonParams are the reason as a code (ReviewMessage
	// words it); not in events from before codes.
	ReasonCode   string            `json:"reason_code,omitempty"`
	ReasonParams map[string]string `json:"reason_params,omitempty"`
}

func (CertificateReviewRequestedPayload) Action() string { return "certificate.review_requested" }

// CertificateReviewKeptPayload is certificate.review_kept's payload.
type CertificateReviewKeptPayload struct {
	FlaggedFor string `json:"flagged_for"`
	Note       string `json:"note"`
}

func (CertificateReviewKeptPayload) Action() string { return "certificate.review_kept" }

// CertificatesMovedPayload is certificates.moved's payload: a merged
// record's certificates, applications and appraisers moved to the kept one.
type CertificatesMovedPayload struct {
	From int64 `json:"from"`
	Rows int64 `json:"rows"`
}

func (CertificatesMovedPayload) Action() string { return "certificates.moved" }

// NoticePublishedPayload is notice.published's payload.
type NoticePublishedPayload struct {
	ApplicationID int64  `json:"application_id"`
	Basis         Basis  `json:"basis"`
	EndsAt        string `json:"ends_at"` // RFC 3339, UTC
	Player        string `json:"player"`
	Rank          string `json:"rank"`
}

func (NoticePublishedPayload) Action() string { return "notice.published" }

// NewNoticePublishedPayload is notice.published's payload for n.
func NewNoticePublishedPayload(n Notice) NoticePublishedPayload {
	return NoticePublishedPayload{ApplicationID: n.ApplicationID, Basis: n.Basis, EndsAt: n.EndsAt.UTC().Format(time.RFC3339),
		Player: n.PlayerName, Rank: n.Rank.String()}
}

// NoticeBasisDetail is what a notice shows of its basis.
func NoticeBasisDetail(a Application, appraiserName string) string {
	detail := strings.TrimSpace(a.EventRef + " — " + a.RecordRef)
	if a.Basis == Appraisal {
		detail = appraiserName
	}
	return strings.Trim(detail, " —")
}

// NoticeCompletedPayload is notice.completed's payload.
type NoticeCompletedPayload struct {
	ApplicationID int64  `json:"application_id"`
	Certificate   string `json:"certificate"`
}

func (NoticeCompletedPayload) Action() string { return "notice.completed" }

// ObjectionLodgedPayload is objection.lodged's payload. FoldedInto is the
// open objection it was folded into (the same text normalised, or the same
// objector), whose ruling rules it.
type ObjectionLodgedPayload struct {
	FoldedInto  int64  `json:"folded_into,omitempty"`
	Name        string `json:"name"`
	ObjectionID int64  `json:"objection_id"`
	Reason      string `json:"reason"`
}

func (ObjectionLodgedPayload) Action() string { return "objection.lodged" }

// NewObjectionLodgedPayload is objection.lodged's payload for o.
func NewObjectionLodgedPayload(o Objection) ObjectionLodgedPayload {
	return ObjectionLodgedPayload{FoldedInto: o.FoldedInto, Name: o.Name, ObjectionID: o.ID, Reason: o.Reason}
}

// ObjectionUpheldPayload is objection.upheld's payload. Folded are the
// other objections of its fold the ruling ruled alike.
type ObjectionUpheldPayload struct {
	Folded      []int64 `json:"folded,omitempty"`
	ObjectionID int64   `json:"objection_id"`
	Ruling      string  `json:"ruling"`
}

func (ObjectionUpheldPayload) Action() string { return "objection.upheld" }

// ObjectionDismissedPayload is objection.dismissed's payload.
type ObjectionDismissedPayload ObjectionUpheldPayload

func (ObjectionDismissedPayload) Action() string { return "objection.dismissed" }

// ObjectionsDismissedPayload is objections.dismissed's payload: one ruling on many.
type ObjectionsDismissedPayload struct {
	ObjectionIDs []int64 `json:"objection_ids"`
	Ruling       string  `json:"ruling"`
}

func (ObjectionsDismissedPayload) Action() string { return "objections.dismissed" }

// ObjectionsLapsedPayload is objections.lapsed's payload: the objections of
// a notice nobody ruled on by the ruling deadline (RuleBy), which lapsed as
// the notice proceeded; Code and Params word why (OBJECTION_LAPSED).
type ObjectionsLapsedPayload struct {
	Code         string            `json:"code"`
	ObjectionIDs []int64           `json:"objection_ids"`
	Params       map[string]string `json:"params"`
	RuleBy       time.Time         `json:"rule_by"`
}

func (ObjectionsLapsedPayload) Action() string { return "objections.lapsed" }

// OrderPlacedPayload is order.placed's payload.
type OrderPlacedPayload struct {
	Dan int `json:"dan"`
	Kyu int `json:"kyu"`
}

func (OrderPlacedPayload) Action() string { return "order.placed" }

// NewOrderPlacedPayload is order.placed's payload for o.
func NewOrderPlacedPayload(o Order) OrderPlacedPayload {
	return OrderPlacedPayload{Dan: o.DanCount, Kyu: o.KyuCount}
}

// OrderAmendedPayload is order.amended's payload: an order placed again before its decision.
type OrderAmendedPayload OrderPlacedPayload

func (OrderAmendedPayload) Action() string { return "order.amended" }

// OrderGrantedPayload is order.granted's payload.
type OrderGrantedPayload struct {
	Dan  int    `json:"dan"`
	Kyu  int    `json:"kyu"`
	Note string `json:"note"`
}

func (OrderGrantedPayload) Action() string { return "order.granted" }

// NewOrderGrantedPayload is order.granted's payload for o.
func NewOrderGrantedPayload(o Order) OrderGrantedPayload {
	return OrderGrantedPayload{Dan: o.DanCount, Kyu: o.KyuCount, Note: o.Note}
}

// OrderRefusedPayload is order.refused's payload.
type OrderRefusedPayload OrderGrantedPayload

func (OrderRefusedPayload) Action() string { return "order.refused" }

// OrderEntity names an order in the event log.
func OrderEntity(o Order) string { return fmt.Sprintf("%s/%d", o.AgencyPrefix, o.Year) }

// AppraiserRecommendedPayload is appraiser.recommended's payload.
type AppraiserRecommendedPayload struct {
	Agency        string `json:"agency"`
	Name          string `json:"name"`
	PlayerID      int64  `json:"player_id"`
	Qualification string `json:"qualification"`
}

func (AppraiserRecommendedPayload) Action() string { return "appraiser.recommended" }

// NewAppraiserRecommendedPayload is appraiser.recommended's payload for a.
func NewAppraiserRecommendedPayload(a Appraiser) AppraiserRecommendedPayload {
	return AppraiserRecommendedPayload{Agency: a.AgencyPrefix, Name: a.Name, PlayerID: a.PlayerID, Qualification: a.Qualification}
}

// AppraiserApprovedPayload is appraiser.approved's payload.
type AppraiserApprovedPayload struct {
	Name string `json:"name"`
}

func (AppraiserApprovedPayload) Action() string { return "appraiser.approved" }

// AppraiserRefusedPayload is appraiser.refused's payload.
type AppraiserRefusedPayload AppraiserApprovedPayload

func (AppraiserRefusedPayload) Action() string { return "appraiser.refused" }

// AppraiserRevokedPayload is appraiser.revoked's payload.
type AppraiserRevokedPayload AppraiserApprovedPayload

func (AppraiserRevokedPayload) Action() string { return "appraiser.revoked" }

// AppraiserStatusPayload is the payload of the decision that gave a its
// status (approved, refused or revoked); nil for another status.
func AppraiserStatusPayload(a Appraiser) ledger.Payload {
	p := AppraiserApprovedPayload{Name: a.Name}
	switch a.Status {
	case AppraiserApproved:
		return p
	case AppraiserRefused:
		return AppraiserRefusedPayload(p)
	case AppraiserRevoked:
		return AppraiserRevokedPayload(p)
	}
	return nil
}

// RosterSubmittedPayload is roster.submitted's payload, with the log's tree
// when it was submitted.
type RosterSubmittedPayload struct {
	Added      []string `json:"added"`
	LogHash    []byte   `json:"log_hash"`
	LogSize    int64    `json:"log_size"`
	Removed    []string `json:"removed"`
	Rows       int      `json:"rows"`
	Submission int64    `json:"submission"`
}

func (RosterSubmittedPayload) Action() string { return "roster.submitted" }

// NewRosterSubmittedPayload is roster.submitted's payload for sub.
func NewRosterSubmittedPayload(sub RosterSubmission) RosterSubmittedPayload {
	return RosterSubmittedPayload{Added: sub.Added, LogHash: sub.LogHash, LogSize: sub.LogSize, Removed: sub.Removed, Rows: sub.Rows,
		Submission: sub.ID}
}

// PaperSubmittedPayload is paper.submitted's payload.
type PaperSubmittedPayload struct {
	Rows    int `json:"rows"`
	Skipped int `json:"skipped"`
}

func (PaperSubmittedPayload) Action() string { return "paper.submitted" }

// PaperConfirmedPayload is paper.confirmed's payload.
type PaperConfirmedPayload struct {
	Imported int    `json:"imported"`
	Note     string `json:"note"`
}

func (PaperConfirmedPayload) Action() string { return "paper.confirmed" }

// PaperRefusedPayload is paper.refused's payload.
type PaperRefusedPayload PaperConfirmedPayload

func (PaperRefusedPayload) Action() string { return "paper.refused" }

// AppraisalRecordedPayload is appraisal.recorded's payload (entity
// "appraisal", the session's id): who appraised whom, when, the verdict
// ("" when not passed) and how many games, how many with a record.
type AppraisalRecordedPayload struct {
	Agency      string `json:"agency"`
	AppraiserID int64  `json:"appraiser_id"`
	Games       int    `json:"games"`
	HeldOn      string `json:"held_on"` // YYYY-MM-DD
	Passed      bool   `json:"passed"`
	PlayerID    int64  `json:"player_id"`
	Records     int    `json:"records"`
	Verdict     string `json:"verdict"` // the rank recommended, e.g. "4d"; "" when not passed
}

func (AppraisalRecordedPayload) Action() string { return "appraisal.recorded" }

// NewAppraisalRecordedPayload is appraisal.recorded's payload for s, of
// whose games records have a record.
func NewAppraisalRecordedPayload(s AppraisalSession, records int) AppraisalRecordedPayload {
	p := AppraisalRecordedPayload{Agency: s.AgencyPrefix, AppraiserID: s.AppraiserID, Games: len(s.Games), HeldOn: s.HeldOn.Format(time.DateOnly),
		Passed: s.Passed(), PlayerID: s.PlayerID, Records: records}
	if s.Passed() {
		p.Verdict = s.Verdict.String()
	}
	return p
}

// AppraisalWithdrawnPayload is appraisal.withdrawn's payload (entity
// "appraisal", the session's id): the reason, the open applications it
// withdrew and the certificates it flagged for review (each also has its
// certificate.review_requested, code REVIEW_APPRAISAL_WITHDRAWN).
type AppraisalWithdrawnPayload struct {
	Applications []int64  `json:"applications"`
	Certificates []string `json:"certificates"`
	Reason       string   `json:"reason"`
}

func (AppraisalWithdrawnPayload) Action() string { return "appraisal.withdrawn" }

// NationalEventListedPayload is national_event.listed's payload: staff put
// an event on the list of nationally recognised events (or changed it).
type NationalEventListedPayload struct {
	Championship bool   `json:"championship"`
	EventID      int64  `json:"event_id"`
	MaxPlacing   int    `json:"max_placing"`
	Name         string `json:"name"`
	Note         string `json:"note"`
}

func (NationalEventListedPayload) Action() string { return "national_event.listed" }

// NationalEventUnlistedPayload is national_event.unlisted's payload.
type NationalEventUnlistedPayload struct {
	EventID int64  `json:"event_id"`
	Reason  string `json:"reason"`
}

func (NationalEventUnlistedPayload) Action() string { return "national_event.unlisted" }

// ChampionRecognisedPayload is player.champion_recognised's payload:
// staff's special recognition (特别认定) of a national amateur champion.
type ChampionRecognisedPayload struct {
	EventID       int64  `json:"event_id"`
	Note          string `json:"note"`
	RecognitionID int64  `json:"recognition_id"`
}

func (ChampionRecognisedPayload) Action() string { return "player.champion_recognised" }
