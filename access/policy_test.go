package access_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

// TestEveryCapabilityForEveryone decides every capability over what Beijing
// (110) owns for the public, Beijing's agency, Shanghai's agency, a
// suspended Beijing agency and staff, against a real registry.
func TestEveryCapabilityForEveryone(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	store := ledger.New(pool, fixture.TodayClock(t).Now, nil)
	reg := registry.New(store)
	fixture.Agencies(t, reg, "110", "310", "440")
	if _, err := reg.SetAgencyStatus(ctx, fixture.Staff, "", "440", registry.AgencySuspended, "年审未通过"); err != nil {
		t.Fatal(err)
	}
	public := ledger.Actor{Kind: ledger.Public}
	own, other, staff := fixture.Agency("110"), fixture.Agency("310"), fixture.Staff
	suspended := fixture.Agency("440")

	type verdicts struct{ public, own, other, suspended, staff error }
	var (
		ok      error
		token   = ledger.ErrUnauthenticated
		denied  = ledger.ErrPermissionDenied
		agency  = verdicts{token, ok, denied, denied, ok} // staff, or the owning agency while active
		idle    = verdicts{token, ok, denied, ok, ok}     // staff, or the owning agency even suspended
		onlyHQ  = verdicts{token, denied, denied, denied, ok}
		wantFor = map[access.Capability]verdicts{
			access.WritePlayers: agency, access.SeeIdentity: agency, access.ReadApplications: idle,
			access.Apply: agency, access.DecideApplication: agency, access.ApplyHighDan: onlyHQ,
			access.StopNotice: onlyHQ, access.OrderStock: agency, access.DecideOrder: onlyHQ,
			access.ReadQuota: idle, access.RecommendAppraiser: agency, access.DecideAppraiser: onlyHQ,
			access.RuleObjection: onlyHQ, access.Revoke: onlyHQ, access.Reissue: agency,
			access.ExportRoster: agency, access.RunEvent: agency, access.RunNationalEvent: onlyHQ,
			access.ManageAgencies: onlyHQ, access.ManageTokens: onlyHQ, access.RecordRanks: onlyHQ, access.MergeRecords: onlyHQ,
			access.ReadStatistics: onlyHQ, access.SubmitPaper: agency, access.SuspendPlayers: onlyHQ,
			access.OpenAudit: onlyHQ, access.RuleAudit: onlyHQ, access.ReadAudit: idle, access.ReplyFinding: idle,
			access.AppealAudit: idle, access.DecideAppeal: onlyHQ, access.PublishAudit: onlyHQ,
			access.DecideIdentityChange: onlyHQ, access.KeepNationalList: onlyHQ, access.VoidConfirmedResult: onlyHQ,
			access.TuneRatingParams: onlyHQ,
		}
	)
	if len(wantFor) != len(access.Capabilities()) {
		t.Fatalf("the table covers %d capabilities, the policy has %d", len(wantFor), len(access.Capabilities()))
	}
	for _, c := range access.Capabilities() {
		want, ok := wantFor[c]
		if !ok {
			t.Errorf("%s: not in the table", c)
			continue
		}
		for _, tt := range []struct {
			who   string
			actor ledger.Actor
			owner string
			want  error
		}{
			{"public", public, "110", want.public},
			{"own agency", own, "110", want.own},
			{"other agency", other, "110", want.other},
			{"suspended agency", suspended, "440", want.suspended},
			{"staff", staff, "110", want.staff},
		} {
			err := reg.Policy().Require(ctx, pool, tt.actor, c, tt.owner)
			// the same decision with the agency's standing read ahead in a batch
			b := &pgx.Batch{}
			st := reg.Policy().Queue(b, tt.actor)
			if b.Len() > 0 {
				if err := pool.SendBatch(ctx, b).Close(); err != nil {
					t.Fatal(err)
				}
			}
			if (st == nil) != (tt.actor.Kind != ledger.AgencyActor) {
				t.Errorf("%s / %s: queued a standing %v", c, tt.who, st != nil)
			}
			ahead := reg.Policy().RequireRead(ctx, pool, tt.actor, c, tt.owner, st)
			if (ahead == nil) != (err == nil) || reasonOf(ahead) != reasonOf(err) {
				t.Errorf("%s / %s: read ahead %v, read now %v", c, tt.who, ahead, err)
			}
			switch {
			case tt.want == nil && err != nil:
				t.Errorf("%s / %s: refused (%v), want allowed", c, tt.who, err)
			case tt.want != nil && ledger.KindOf(err) != ledger.KindOf(tt.want):
				t.Errorf("%s / %s: %v, want %v", c, tt.who, err, tt.want)
			case err != nil && !hasBothLanguages(err):
				t.Errorf("%s / %s: refusal %v is not worded in both languages", c, tt.who, err)
			}
		}
	}
	// a suspension is named as such, in the page's language
	err := reg.Policy().Require(ctx, pool, suspended, access.RunEvent, "440")
	if e, ok := ledger.AsError(err); !ok || e.Reason != access.ReasonAgencySuspended || e.Message(ledger.Chinese) != "代理机构 440 已被暂停，暂停期间不能举办和管理比赛。" {
		t.Fatalf("suspended agency running an event: %v", err)
	}
}

func hasBothLanguages(err error) bool {
	e, ok := ledger.AsError(err)
	return ok && e.Message(ledger.Chinese) != "" && e.Message(ledger.English) != "" && e.Message(ledger.Chinese) != e.Message(ledger.English)
}

// reasonOf is err's reason, nil when it has none.
func reasonOf(err error) any {
	if e, ok := ledger.AsError(err); ok {
		return e.Reason
	}
	return nil
}
