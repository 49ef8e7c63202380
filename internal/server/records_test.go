package server_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/tournaments"
)

// TestRecordsFollowPeople transfers a certified player to another province
// and merges two records of one person; every certificate still verifies.
func TestRecordsFollowPeople(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.clock.Set(time.Date(2027, 3, 1, 2, 0, 0, 0, time.UTC))
	fixture.Stock(t, e.cs, "110", 2027, 10, 0)
	bj := fixture.Agency("110")
	issue := func(playerID int64) string {
		t.Helper()
		a, err := e.cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: playerID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", playerID)})
		if err == nil {
			a, err = e.cs.Approve(ctx, bj, "", a.ID)
		}
		if err != nil {
			t.Fatal(err)
		}
		return a.CertificateNumber
	}
	verifies := func(number, holder string) {
		t.Helper()
		v, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: number})
		if err != nil || v.GetVerdict() != pb.Verdict_VERDICT_VALID || v.GetCertificate().GetPlayerName() != holder {
			t.Fatalf("verify %s: %v, %v; want valid, held by %s", number, v, err, holder)
		}
	}

	// a transfer: Beijing's player moves to Shanghai
	mover := fixture.Player(t, e.reg, "110", "迁出", "", "1990-01-01", 1)
	number := issue(mover.ID)
	if _, err := e.client.TransferPlayer(e.as(e.bj), &pb.TransferPlayerRequest{PlayerId: mover.ID, ProvinceCode: "99"}); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("transfer to no province: %v", err)
	}
	moved, err := e.client.TransferPlayer(e.as(e.bj, "idempotency-key", "move-1"), &pb.TransferPlayerRequest{PlayerId: mover.ID, ProvinceCode: "31"})
	if err != nil || moved.GetPlayer().GetProvinceCode() != "31" || moved.GetPlayer().GetAgencyPrefix() != "310" || moved.GetPlayer().GetRank() != "1d" {
		t.Fatalf("transfer: %v, %v", moved, err)
	}
	if _, err := e.client.TransferPlayer(e.as(e.bj), &pb.TransferPlayerRequest{PlayerId: mover.ID, ProvinceCode: "11"}); status.Code(err) != codes.PermissionDenied {
		t.Fatalf("Beijing moving a Shanghai player back: %v, want PermissionDenied", err)
	}
	verifies(number, "迁出")
	beijing, _ := e.certs.ExportRoster(e.as(e.staff), &pb.ExportRosterRequest{AgencyPrefix: "110"})
	shanghai, _ := e.certs.ExportRoster(e.as(e.staff), &pb.ExportRosterRequest{AgencyPrefix: "310"})
	if strings.Contains(string(beijing.GetCsv()), number) || !strings.Contains(string(shanghai.GetCsv()), number) {
		t.Fatalf("after the transfer the roster of Shanghai, not Beijing, lists %s", number)
	}

	// a merge: the same person registered twice
	keep := fixture.Player(t, e.reg, "110", "合并", "", "1992-02-02", 2)
	dup := fixture.Player(t, e.reg, "110", "合并", "", "1992-02-02", 3)
	dupNumber := issue(dup.ID)
	ev, err := e.ts.CreateEvent(ctx, bj, "", tournaments.EventInput{Name: "赛", Start: "2027-02-01", Level: "city", System: "round_robin"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.ts.AddParticipant(ctx, bj, "", ev.ID, tournaments.ParticipantInput{PlayerID: dup.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.MergePlayers(e.as(e.bj), &pb.MergePlayersRequest{KeepId: keep.ID, DuplicateId: dup.ID}); status.Code(err) != codes.PermissionDenied {
		t.Fatalf("agency merging: %v, want PermissionDenied", err)
	}
	merged, err := e.client.MergePlayers(e.as(e.staff, "idempotency-key", "merge-1"), &pb.MergePlayersRequest{KeepId: keep.ID, DuplicateId: dup.ID})
	if err != nil || merged.GetPlayer().GetId() != keep.ID || merged.GetPlayer().GetRank() != "1d" {
		t.Fatalf("merge: %v, %v; want the kept record, certified 1d", merged, err)
	}
	verifies(dupNumber, "合并")
	cs, _ := e.certs.ListPlayerCertificates(ctx, &pb.ListPlayerCertificatesRequest{PlayerId: keep.ID})
	if len(cs.GetCertificates()) != 1 || cs.GetCertificates()[0].GetNumber() != dupNumber {
		t.Fatalf("kept record's certificates: %v", cs)
	}
	old, _ := e.client.GetPlayer(ctx, &pb.GetPlayerRequest{Id: dup.ID})
	if old.GetPlayer().GetMergedInto() != keep.ID {
		t.Fatalf("merged record: %v, want it to point to %d", old, keep.ID)
	}
	ps, _ := e.ts.Participants(ctx, ev.ID)
	if len(ps) != 1 || ps[0].PlayerID != keep.ID {
		t.Fatalf("the event's entry: %+v, want the kept record", ps)
	}
	if found, _ := e.client.SearchPlayers(e.as(e.staff), &pb.SearchPlayersRequest{Name: "合并"}); found.GetTotal() != 1 {
		t.Fatalf("search finds %d records of the merged person, want 1", found.GetTotal())
	}
	evs, _ := ledger.EventsFor(ctx, e.store.DB(), "player", strconv.FormatInt(dup.ID, 10))
	if last := evs[len(evs)-1]; last.Action != "player.merged" || last.Actor != "staff:li" {
		t.Fatalf("the merge is not in the log: %+v", last)
	}
	if _, err := e.client.MergePlayers(e.as(e.staff), &pb.MergePlayersRequest{KeepId: keep.ID, DuplicateId: dup.ID}); reasonOf(err) != "ALREADY_MERGED" {
		t.Fatalf("merging again: %v, want ALREADY_MERGED", err)
	}
}
