package certs

import (
	"fmt"
	"strings"
	"time"
)

// The events' payloads, built once: the services append them, and the bulk
// loads (CopyAll, the national data set) write the same rows, so that the
// audit reads one shape whichever path wrote an event.

// CertificateEntity names a certificate in the event log.
func CertificateEntity(c Certificate) string { return certEntity(c) }

// ApplicationSubmittedPayload is application.submitted's payload.
func ApplicationSubmittedPayload(a Application) map[string]any {
	return map[string]any{"player_id": a.PlayerID, "target_rank": a.TargetRank.String(), "basis": a.Basis, "event_ref": a.EventRef,
		"record_ref": a.RecordRef, "appraiser_id": a.AppraiserID}
}

// ApplicationApprovedPayload is application.approved's payload.
func ApplicationApprovedPayload(status AppStatus, certificate string, noticeID int64) map[string]any {
	return map[string]any{"status": status, "certificate": certificate, "notice_id": noticeID}
}

// ApplicationFailedPayload is application.failed's payload.
func ApplicationFailedPayload(objectionID int64) map[string]any {
	return map[string]any{"objection_id": objectionID}
}

// CertificateIssuedPayload is certificate.issued's payload.
func CertificateIssuedPayload(c Certificate, replaces int64) map[string]any {
	return map[string]any{"number": c.Number, "player_id": c.PlayerID, "rank": c.Rank.String(), "basis": c.Basis, "issuer": c.IssuingPrefix,
		"issue_date": c.IssueDate.Format(time.DateOnly), "athlete_grade": c.AthleteGrade, "application_id": c.ApplicationID,
		"replaces": replaces}
}

// NoticePublishedPayload is notice.published's payload.
func NoticePublishedPayload(n Notice) map[string]any {
	return map[string]any{"application_id": n.ApplicationID, "player": n.PlayerName, "rank": n.Rank.String(), "basis": n.Basis,
		"ends_at": n.EndsAt.UTC().Format(time.RFC3339)}
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
func NoticeCompletedPayload(certificate string, applicationID int64) map[string]any {
	return map[string]any{"certificate": certificate, "application_id": applicationID}
}

// ObjectionLodgedPayload is objection.lodged's payload.
func ObjectionLodgedPayload(o Objection) map[string]any {
	return map[string]any{"objection_id": o.ID, "name": o.Name, "reason": o.Reason}
}

// ObjectionRuledPayload is objection.upheld's and objection.dismissed's payload.
func ObjectionRuledPayload(o Objection) map[string]any {
	return map[string]any{"objection_id": o.ID, "ruling": o.Ruling}
}

// OrderPlacedPayload is order.placed's payload.
func OrderPlacedPayload(o Order) map[string]any {
	return map[string]any{"dan": o.DanCount, "kyu": o.KyuCount}
}

// OrderDecidedPayload is order.granted's and order.refused's payload.
func OrderDecidedPayload(o Order) map[string]any {
	return map[string]any{"dan": o.DanCount, "kyu": o.KyuCount, "note": o.Note}
}

// OrderEntity names an order in the event log.
func OrderEntity(o Order) string { return fmt.Sprintf("%s/%d", o.AgencyPrefix, o.Year) }

// AppraiserRecommendedPayload is appraiser.recommended's payload.
func AppraiserRecommendedPayload(a Appraiser) map[string]any {
	return map[string]any{"name": a.Name, "agency": a.AgencyPrefix, "player_id": a.PlayerID, "qualification": a.Qualification}
}

// AppraiserStatusPayload is appraiser.approved's (refused, revoked) payload.
func AppraiserStatusPayload(a Appraiser) map[string]any { return map[string]any{"name": a.Name} }

// RosterSubmittedPayload is roster.submitted's payload.
func RosterSubmittedPayload(sub RosterSubmission) map[string]any {
	return map[string]any{"submission": sub.ID, "rows": sub.Rows, "added": sub.Added, "removed": sub.Removed,
		"log_size": sub.LogSize, "log_hash": sub.LogHash}
}
