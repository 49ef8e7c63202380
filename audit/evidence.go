package audit

import (
	"maps"
	"slices"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
)

// fallenEvidence is a certificate whose basis the registry found no longer
// holds (certificate.review_requested: a qualifying result voided or
// corrected, an appraisal withdrawn) and that neither staff's review
// (review_kept) nor a revocation has settled.
type fallenEvidence struct {
	issuer string
	item   Item
}

// evidenceFell notes a certificate flagged because its evidence fell away.
// A flag raised before the period's end counts for as long as the
// certificate stands: one left valid for a year is still the agency's.
func (f *facts) evidenceFell(e ledger.LoggedEvent) error {
	pl, err := readPayload[certs.CertificateReviewRequestedPayload](e.Payload, "reason_code", "reason")
	if err != nil {
		return err
	}
	c, ok := f.certs[e.EntityID]
	if !ok || !e.At.Before(f.period.End) {
		return nil
	}
	it := certRef(e.EntityID, e)
	it.Note = pl.str("reason_code")
	if it.Note == "" {
		it.Note = pl.str("reason")
	}
	f.fallen[e.EntityID] = fallenEvidence{issuer: c.issuer, item: it}
	return nil
}

// countFallen counts the certificates still standing on fallen evidence,
// on their issuer, once the log up to the position is read.
func (f *facts) countFallen() {
	for _, number := range slices.Sorted(maps.Keys(f.fallen)) {
		fe := f.fallen[number]
		f.count(fe.issuer, KeyFallenEvidence, fe.item)
	}
}
