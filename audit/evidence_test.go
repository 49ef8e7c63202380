package audit_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
)

// TestCertificatesOnFallenEvidence: certificates whose appraisal was
// withdrawn after they were issued are counted while they stand; staff's
// revocation or review (kept) settles one. Many standing is red, one is
// green.
func TestCertificatesOnFallenEvidence(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name              string
		certified, fallen int
		revoked, kept     int
		count             int64
		mark              audit.Mark
	}{
		{"six withdrawn appraisals, certificates standing", 8, 6, 0, 0, 6, audit.Red},
		{"one withdrawn", 8, 1, 0, 0, 1, audit.Green},
		{"six withdrawn, four settled by staff", 8, 6, 2, 2, 2, audit.Amber},
		{"none withdrawn", 8, 0, 0, 0, 0, audit.Green},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			fixture.Bootstrap(t, e.au, 2026, "110", "310", "440")
			fixture.Stock(t, e.cs, "110", 2026, 100, 100)
			e.at(t, "2026-03-01")
			ap := fixture.Appraiser(t, e.cs, "110", "鉴定员")
			var sessions []int64
			var numbers []string
			for i := range tt.certified {
				e.at(t, "2026-04-01")
				p := fixture.Player(t, e.reg, "110", fmt.Sprintf("成人%d", i), "1k", "1985-01-01", 200+i)
				e.at(t, fmt.Sprintf("2026-04-%02d", 10+i))
				s := fixture.Appraisal(t, e.cs, "110", ap.ID, p.ID, "1d", e.clock.Now())
				a := e.certify(t, beijing, certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "appraisal", AppraisalSessionID: s.ID})
				sessions, numbers = append(sessions, s.ID), append(numbers, a.CertificateNumber)
			}
			e.at(t, "2026-08-01")
			for i := range tt.fallen {
				if _, err := e.cs.WithdrawAppraisal(ctx, beijing, "", sessions[i], "鉴定对局系代下"); err != nil {
					t.Fatal(err)
				}
			}
			e.at(t, "2026-09-01")
			for i := range tt.revoked {
				if _, err := e.cs.Revoke(ctx, staff, "", numbers[i], "鉴定依据不成立"); err != nil {
					t.Fatal(err)
				}
			}
			for i := range tt.kept {
				if _, err := e.cs.KeepCertificate(ctx, staff, "", numbers[tt.revoked+i], "复核后维持"); err != nil {
					t.Fatal(err)
				}
			}
			got := openAndRead(t, e, "110")["110"]
			in := indicator(t, got, audit.KeyFallenEvidence)
			if in.Count != tt.count || in.Mark != tt.mark {
				t.Fatalf("%s = %d %s, want %d %s", audit.KeyFallenEvidence, in.Count, in.Mark, tt.count, tt.mark)
			}
			if tt.count == 0 {
				return
			}
			items, err := e.au.IndicatorItems(ctx, staff, "110", 2026, audit.KeyFallenEvidence)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(items)) != tt.count || items[0].Kind != "certificate" || items[0].Note != certs.ReviewAppraisalWithdrawn.Code() {
				t.Fatalf("items = %+v, want %d certificates flagged %s", items, tt.count, certs.ReviewAppraisalWithdrawn.Code())
			}
		})
	}
}
